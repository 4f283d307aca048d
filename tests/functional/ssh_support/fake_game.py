"""A stand-in for the game on a pty, for testing the SSH plumbing: it says what it sees.

Prints its pid, process group, session, terminal and environment at start, its window size at start and
on every SIGWINCH, echoes each key as ``KEY <hex>``, and exits with status 3 on 'q' (on 'x': status 0; on 'm' it takes 2 GiB of memory, as a game gone wrong). With --flood it writes
without end after READY, to show that a client that stops reading stops the game, not fills the server.
With --deaf it never reads its keys, with --slow it reads them slowly; with --hog MB it then takes that much memory (saying HOGGED if it
could); with --crash it raises an exception; with --crash-zero it writes a traceback and exits with status 0
(as a game may when a thread of it fails); with --escapes it writes escape sequences and control bytes after
READY, as a game gone wrong on a plain-text page might. Like the game, its stderr goes where WAR_TUI_ERROR_FD says.
"""

import os
import select
import shlex
import signal
import sys
import termios
import time
import tty


def say(text: str) -> None:
    os.write(1, (text + "\r\n").encode())


def size() -> None:
    cols, rows = os.get_terminal_size(0)
    say(f"SIZE {cols}x{rows}")


def on_winch(signum, frame) -> None:
    size()


fd = os.environ.get("WAR_TUI_ERROR_FD", "")
if fd.isdigit():
    sys.stderr = open(int(fd), "w", buffering=1)  # noqa: SIM115 (stderr, open for the process's whole life)
signal.signal(signal.SIGWINCH, on_winch)
tty.setraw(0)
foreground = os.tcgetpgrp(0) == os.getpgrp()
say(f"PID {os.getpid()} PGID {os.getpgrp()} SID {os.getsid(0)} FOREGROUND {foreground} ARGS {' '.join(sys.argv[1:])}")
say(f"CWD {os.getcwd()}")
say("ENV " + " ".join(shlex.quote(f"{k}={v}") for k, v in sorted(os.environ.items())))  # values may hold spaces
size()
say(f"NICE {os.nice(0)}")
say("READY")
if "--escapes" in sys.argv:
    os.write(1, b"\x1b[2J\x1b[31mRED\x1b[0m\x07 \x00bell\x1b]0;title\x07 \xc2\x9bC1\rmore\n")
if "--crash" in sys.argv:
    raise RuntimeError("the fake game fell over")
if "--crash-zero" in sys.argv:
    try:
        raise UnicodeDecodeError("utf-8", b"\xe9a", 0, 1, "invalid continuation byte")
    except UnicodeDecodeError:
        import traceback

        traceback.print_exc()
    sys.stderr.flush()
    sys.exit(0)
if "--hog" in sys.argv:
    hogged = [bytearray(1 << 20) for _ in range(int(sys.argv[sys.argv.index("--hog") + 1]))]
    say("HOGGED")
if "--deaf" in sys.argv:
    while True:
        signal.pause()
if "--slow" in sys.argv:  # takes its keys, but slowly: 256 bytes a millisecond at most
    while True:
        select.select([0], [], [], 1.0)
        os.read(0, 256)
        time.sleep(0.001)
if "--flood" in sys.argv:  # draw as fast as the terminal takes it, like auto-play at full speed
    while True:
        os.write(1, b"#" * 65536)
while True:
    try:
        ready, _, _ = select.select([0], [], [], 0.5)
    except InterruptedError:
        continue
    if not ready:
        continue
    key = os.read(0, 1)
    if not key:
        break
    say(f"KEY {key.hex()}")
    if key == b"q":
        termios.tcdrain(1)
        sys.exit(3)
    if key == b"x":
        sys.exit(0)
    if key == b"m":
        hogged = [bytearray(1 << 20) for _ in range(2048)]
        say("HOGGED")
