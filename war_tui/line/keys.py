"""Reading the line mode's keys: single keys from a terminal, or whole lines from a pipe or ``ssh -T``.

Both come down to the same few commands. A line is bounded: past ``MAX_LINE`` characters the rest of it
is dropped, so a client that never sends a newline holds no more than that.
"""

from __future__ import annotations

from enum import StrEnum

MAX_LINE = 200


class Command(StrEnum):
    FLIP = "flip"
    AUTO = "auto"
    SCORE = "score"
    HELP = "help"
    QUIT = "quit"
    END = "end"  # the input ended (read as lines, ctrl+D): auto-play may still run to the end
    WAR_STOP = "war"  # at a table: ask (or agree) to stop auto-play at wars
    RESTART = "restart"  # at a table: ask (or agree) to deal again
    DECLINE = "decline"  # at a table: say no to the other player's request
    SIT = "sit"  # at a table: a spectator takes a free seat
    HOUSE = "house"  # at a table, alone: the house plays the empty seat now (a word only: h is help)
    EMOTE_1 = "emote 1"
    EMOTE_2 = "emote 2"
    EMOTE_3 = "emote 3"
    EMOTE_4 = "emote 4"
    EMOTE_5 = "emote 5"
    EMOTE_6 = "emote 6"
    UNKNOWN = "unknown"


EMOTE_COMMANDS = (Command.EMOTE_1, Command.EMOTE_2, Command.EMOTE_3, Command.EMOTE_4, Command.EMOTE_5, Command.EMOTE_6)
"""Keys 1 to 6 at a table: the emotes, in the table's order (``EMOTES``), as on the full screen."""

_KEYS = {
    "f": Command.FLIP, " ": Command.FLIP, "\r": Command.FLIP, "\n": Command.FLIP,
    "a": Command.AUTO, "s": Command.SCORE, "h": Command.HELP, "?": Command.HELP,
    "q": Command.QUIT, "\x03": Command.QUIT, "\x04": Command.QUIT,
    "w": Command.WAR_STOP, "r": Command.RESTART, "n": Command.DECLINE, "t": Command.SIT,
    **{str(n): command for n, command in enumerate(EMOTE_COMMANDS, 1)},
}
_WORDS = {"flip": Command.FLIP, "auto": Command.AUTO, "score": Command.SCORE, "help": Command.HELP,
          "quit": Command.QUIT, "exit": Command.QUIT, "war": Command.WAR_STOP, "wars": Command.WAR_STOP,
          "restart": Command.RESTART, "again": Command.RESTART, "deal": Command.RESTART,
          "no": Command.DECLINE, "decline": Command.DECLINE, "sit": Command.SIT,
          "house": Command.HOUSE}


class KeyReader:
    """Turns typed text into commands. ``lines``: an empty line flips, a word or its first letter does the rest."""

    def __init__(self, lines: bool) -> None:
        self.lines = lines
        self._line: list[str] = []
        self._after_cr = False

    def feed(self, text: str) -> list[Command]:
        return [c for ch in text if (c := self._one(ch)) is not None]

    def _one(self, ch: str) -> Command | None:
        if not self.lines:
            after_cr, self._after_cr = self._after_cr, ch == "\r"
            if ch == "\n" and after_cr:
                return None  # "\r\n" from one enter key
            if ch.isspace() and ch not in " \r\n":
                return None
            return _KEYS.get(ch.lower(), Command.UNKNOWN)
        if ch in "\r\n":
            after_cr, self._after_cr = self._after_cr, ch == "\r"
            if ch == "\n" and after_cr:
                return None
            line, self._line = "".join(self._line).strip().lower(), []
            return self.line_command(line)
        self._after_cr = False
        if ch == "\x03":
            return Command.QUIT
        if ch == "\x04":
            return Command.END
        if len(self._line) < MAX_LINE:
            self._line.append(ch)
        return None

    def end(self) -> list[Command]:
        """The input ended: an unfinished last line still counts."""
        if self.lines and self._line:
            line, self._line = "".join(self._line).strip().lower(), []
            return [self.line_command(line)] if line else []
        return []

    @staticmethod
    def line_command(line: str) -> Command:
        if not line:
            return Command.FLIP
        word = line.split()[0]
        if word in _WORDS:
            return _WORDS[word]
        return _KEYS.get(word, Command.UNKNOWN) if len(word) == 1 else Command.UNKNOWN
