"""The preloaded game parent of ``war-tui serve-ssh``: games are forked from it, not started afresh.

``python -m war_tui.preload [--warm] FD`` (FD: a SOCK_SEQPACKET socket to the server) imports what a game
needs once (``warm``), then forks a child per request: a command line with the game's descriptors attached,
set up as ``serving.pty_process.CTTY_LAUNCHER`` would. The parent holds no loop, no threads and no client
data (the child decodes each request); it answers with the child's pid and reports each exit status.
"""

from __future__ import annotations

import array
import atexit
import builtins
import contextlib
import gc
import json
import os
import selectors
import signal
import socket
import sys

REQUEST_LIMIT = 64 * 1024
"""The largest request: a command line and a game's environment take a few KiB."""
MAX_FDS = 8
READY = b"ready"


def warm() -> None:
    """Import the game and do once what every game would do again: imports, themes, stylesheets, glyphs.

    A headless run of the app fills the module-level caches (parsed CSS selectors, Rich styles and
    colours, cell widths) that every child then shares, page for page, until it writes to them.
    """
    import asyncio
    import curses  # noqa: F401 - what a game loads lazily at start: the terminal check ...
    import tomllib  # noqa: F401 - ... and the preferences file

    import war_tui.cli  # the command line and every command the game parses
    import war_tui.commands.play
    import war_tui.ui.run
    import war_tui.ui.table_connection  # noqa: F401 - loaded here for a game at a shared table
    from war_tui.settings.play import PlaySettings
    from war_tui.ui.app import WarApp

    async def one_frame() -> None:
        app = WarApp(PlaySettings(), stats=None)
        async with app.run_test(size=(100, 34)) as pilot:
            await pilot.pause()

    asyncio.run(one_frame())
    asyncio.set_event_loop_policy(None)  # no loop, no policy holding one, when the children are forked


def main(argv: list[str]) -> int:
    if not argv or not argv[-1].isdigit() or set(argv[:-1]) - {"--warm"}:
        sys.stderr.write("usage: python -m war_tui.preload [--warm] FD\n")
        return 2
    control = socket.socket(fileno=int(argv[-1]))
    if "--warm" in argv:
        warm()
    try:
        serve(control)
    except (BrokenPipeError, ConnectionResetError):  # the server died (kill -9): nothing left to serve
        return 0
    return 0


def serve(control: socket.socket) -> None:
    """Fork a game for each request until the server closes the socket; report every exit."""
    wake_read, wake_write = os.pipe()
    for fd in (wake_read, wake_write):
        os.set_blocking(fd, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's terminal: the server decides when games end
    buffer = bytearray(REQUEST_LIMIT)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    gc.collect()
    gc.freeze()  # the imports' objects stay in shared pages: no child's collection touches them
    control.sendall(READY)
    while True:
        for key, _ in selector.select():
            if key.fileobj is control:
                if not take_request(control, buffer, (control.fileno(), wake_read, wake_write)):
                    return
            else:
                while True:
                    try:
                        if not os.read(wake_read, 512):
                            break
                    except BlockingIOError:
                        break
        reap(control)


def take_request(control: socket.socket, buffer: bytearray, parent_fds: tuple[int, ...]) -> bool:
    """Fork a game for the request waiting on ``control``; False once the server is gone."""
    fds = array.array("i")
    try:
        size, ancillary, flags, _ = control.recvmsg_into([buffer], socket.CMSG_SPACE(MAX_FDS * fds.itemsize))
    except InterruptedError:
        return True
    except OSError:
        return False
    if size == 0:
        return False
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    received = list(fds)
    try:
        if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
            reply(control, b"error request too large")
            return True
        started, has_session = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(started)
            child(buffer, size, received, (*parent_fds, has_session), has_session)  # never returns
        os.close(has_session)
        try:
            # Answer once the child leads its session, where the server's signals reach it.
            os.read(started, 1)
        finally:
            os.close(started)
        reply(control, b"pid %d" % pid)
    except OSError as exc:
        reply(control, b"error " + (exc.strerror or "fork failed").encode())
    finally:
        buffer[:size] = bytes(size)  # the request is the child's business, not the parent's
        for fd in received:
            os.close(fd)
    return True


def reply(control: socket.socket, message: bytes) -> None:
    with contextlib.suppress(OSError):  # the server is gone: the next read says so
        control.send(message)


def reap(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        reply(control, b"exit %d %d" % (pid, os.waitstatus_to_exitcode(status)))


# -- in the child -----------------------------------------------------------------------------------------


def child(
    buffer: bytearray, size: int, received: list[int], parent_fds: tuple[int, ...], has_session: int
) -> None:
    """Become the game: the request's pty, descriptors, environment and limits, then its command.

    One byte on ``has_session`` (then closed) tells the parent it leads its own session.
    """
    code = 1
    try:
        request = json.loads(bytes(buffer[:size]))
        buffer[:] = b""
        signal.set_wakeup_fd(-1)
        has_session = fcntl_dup(has_session, max([*request["fds"], *received, 2]) + 1 + len(received))
        for fd in parent_fds:
            os.close(fd)
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python sets it at start
        signal.signal(signal.SIGINT, signal.default_int_handler)
        place_descriptors(received, request["fds"], keep=has_session)
        os.setsid()
        import fcntl
        import resource
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        os.write(has_session, b"!")
        os.close(has_session)
        limit, niceness = int(request["memory_limit"]), int(request["niceness"])
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if niceness:
            os.nice(niceness)
        os.environ.clear()
        os.environ.update(request["env"])
        if request.get("cwd"):
            os.chdir(request["cwd"])
        reopen_stdio()
        code = run_command(request["argv"])
    except BaseException:  # noqa: BLE001 - whatever happened, it goes to the crash report and this process ends
        with _suppressed():
            sys.excepthook(*sys.exc_info())
    finally:
        with _suppressed():
            atexit._run_exitfuncs()  # what a Python program's normal exit runs
        for stream in (sys.stdout, sys.stderr):
            with _suppressed():
                stream.flush()
        os._exit(code)


class _suppressed:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return True


def place_descriptors(received: list[int], wanted: list[int], keep: int) -> None:
    """Put the received descriptors at the numbers the request names (the first, the pty, at 0, 1 and 2).

    Every other descriptor the child inherited from the parent is closed, but ``keep`` (above them all).
    """
    base = max([*wanted, *received, 2]) + 1
    moved = [fcntl_dup(fd, base) for fd in received]
    for fd in received:
        os.close(fd)
    pty, *others = moved
    for target in (0, 1, 2):
        os.dup2(pty, target)
    for fd, target in zip(others, wanted[1:]):
        os.dup2(fd, target)
    kept = {0, 1, 2, *wanted[1:], keep}
    for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
        fd = int(name)
        if fd not in kept:
            with contextlib.suppress(OSError):
                os.close(fd)


def fcntl_dup(fd: int, base: int) -> int:
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, base)


def reopen_stdio() -> None:
    """Python's standard streams on the pty, as an interpreter started there would have them."""
    stdin = open(0, encoding="utf-8", errors="surrogateescape", closefd=False)  # noqa: SIM115 - open until exit
    stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False, buffering=1)  # noqa: SIM115
    stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)  # noqa: SIM115
    # Textual draws on sys.__stderr__ and its kin: they are the pty's too.
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    for name, stream in (("__stdin__", stdin), ("__stdout__", stdout), ("__stderr__", stderr)):
        setattr(sys, name, stream)


def run_command(argv: list[str]) -> int:
    """Run ``python ARGS`` in this interpreter: ``-c CODE ARGS`` or ``SCRIPT ARGS``; its exit status."""
    import runpy

    try:
        if argv[0] == "-c":
            sys.argv = ["-c", *argv[2:]]
            exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__", "__builtins__": builtins})
        else:
            sys.argv = list(argv)
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exc:
        return exit_code(exc.code)
    return 0


def exit_code(code: object) -> int:
    """The status ``sys.exit(code)`` gives, as the interpreter computes it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    with _suppressed():
        sys.stderr.write(f"{code}\n")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
