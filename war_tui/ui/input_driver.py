"""Keys that are not UTF-8 are still keys: the game's terminal driver never dies of them.

Textual's Linux driver decodes input as strict UTF-8, so one Latin-1 byte panics the app.
``forgiving_driver`` wraps it: its input thread reads on after the bad bytes, losing only the keys read
in the same chunk. (Over SSH the server has already turned such bytes into U+FFFD.)
"""

from __future__ import annotations

from textual.driver import Driver


def forgiving_driver(base: type[Driver]) -> type[Driver]:
    """``base`` made to survive bytes that are not UTF-8; ``base`` itself when it is not Textual's Linux
    driver (Windows, or a driver named by ``TEXTUAL_DRIVER``), which this does not know."""
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:  # no termios here
        return base
    if not issubclass(base, LinuxDriver):
        return base

    class ForgivingDriver(base):  # type: ignore[valid-type,misc]  # a subclass of whichever Linux driver
        """Reads on after input it cannot decode."""

        def run_input_thread(self) -> None:
            while True:
                try:
                    self.read_input()
                    return
                except UnicodeDecodeError:
                    if self.exit_event.is_set():
                        return

        def read_input(self) -> None:
            """Textual's input loop until the driver stops (or a byte it cannot decode)."""
            super().run_input_thread()

    return ForgivingDriver
