"""systemd's ``Type=notify`` protocol, spoken without libsystemd: datagrams of ``KEY=value`` lines to a socket.

systemd names the socket in ``NOTIFY_SOCKET`` (a path, or ``@name`` for an abstract one) and, with
``WatchdogSec=``, the watchdog's period in ``WATCHDOG_USEC`` (for ``WATCHDOG_PID`` only, when it is set). The
server says ``READY=1`` once its doors listen, ``STOPPING=1`` when a signal tells it to stop, ``STATUS=`` what
``systemctl status`` shows (sessions and tables), and ``WATCHDOG=1`` at half the watchdog's period from its own
event loop: a loop that stops answering stops the pings, and systemd restarts the server. Without
``NOTIFY_SOCKET`` nothing is sent. A message that cannot be sent is dropped: the server serves all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable, Mapping

STATUS_SECONDS = 5.0
"""How often ``STATUS=`` is refreshed when no watchdog asks more often."""
STOPPING_STATUS = "stopping: ending the games"
MAX_STATUS = 200
"""Characters of a status line: ``systemctl status`` shows one line."""


def socket_address(name: str) -> str | bytes | None:
    """The address ``NOTIFY_SOCKET`` names: a path, or an abstract name (``@name``: a NUL, then the name)."""
    if name.startswith("@") and len(name) > 1:
        return b"\0" + name[1:].encode()
    if name.startswith("/"):
        return name
    return None  # systemd also speaks vsock (vsock:CID:PORT), which a service on the host never gets


def watchdog_seconds(env: Mapping[str, str], pid: int) -> float | None:
    """Half the watchdog's period, if systemd asked this process for pings; None otherwise."""
    usec = env.get("WATCHDOG_USEC", "")
    owner = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (owner and owner != str(pid)):
        return None
    return int(usec) / 2_000_000


class Notifier:
    """What the server tells systemd: readiness, stopping, its status and the watchdog's pings."""

    def __init__(self, address: str | bytes, watchdog: float | None, status: Callable[[], str]) -> None:
        self.address = address
        self.watchdog = watchdog
        self.status = status
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self._socket.setblocking(False)
        self._pinging: asyncio.Task[None] | None = None
        self._stopping = False

    @classmethod
    def from_environment(cls, status: Callable[[], str], env: Mapping[str, str] | None = None) -> Notifier | None:
        """The notifier systemd's environment asks for; None when the server was not started by systemd."""
        env = os.environ if env is None else env
        address = socket_address(env.get("NOTIFY_SOCKET", ""))
        if address is None:
            return None
        return cls(address, watchdog_seconds(env, os.getpid()), status)

    def send(self, *lines: str) -> bool:
        """One datagram of ``KEY=value`` lines; False when it could not be sent (no one listens, a full queue)."""
        try:
            self._socket.sendto("\n".join(lines).encode(), self.address)
        except OSError:
            return False
        return True

    def status_line(self) -> str:
        text = " ".join(self.status().split())[:MAX_STATUS] if not self._stopping else STOPPING_STATUS
        return f"STATUS={text}"

    def ready(self) -> None:
        """The doors listen: systemd starts what waits for the server, and the pings begin."""
        self.send("READY=1", self.status_line())
        self._pinging = asyncio.get_running_loop().create_task(self._ping())

    def stopping(self) -> None:
        """A signal came: systemd shows the unit deactivating; the pings go on until the games are ended."""
        self._stopping = True
        self.send("STOPPING=1", self.status_line())

    async def _ping(self) -> None:
        period = min(self.watchdog, STATUS_SECONDS) if self.watchdog is not None else STATUS_SECONDS
        while True:
            await asyncio.sleep(period)
            self.send(*(["WATCHDOG=1"] if self.watchdog is not None else []), self.status_line())

    async def close(self) -> None:
        if self._pinging is not None:
            self._pinging.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pinging
        self._socket.close()
