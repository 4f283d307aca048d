"""Reading the line mode's keys: single keys from a terminal, or whole lines from a pipe or ``ssh -T``.

Keys apply in the order they come; edits a client sends instead of making (backspace, arrows, home, end,
ctrl+A/E/K/U/W) are made here. A line is cut at ``MAX_LINE`` characters and an escape sequence at
``MAX_SEQUENCE``, so a client that never ends one holds no more than that.
"""

from __future__ import annotations

from enum import StrEnum

MAX_LINE = 200
MAX_SEQUENCE = 16
ESC = "\x1b"


class Command(StrEnum):
    FLIP = "flip"
    AUTO = "auto"
    SCORE = "score"
    HELP = "help"
    QUIT = "quit"
    END = "end"  # the input ended (read as lines, ctrl+D): auto-play may still run to the end
    WAR_STOP = "war"  # at a table: ask (or agree) to stop auto-play at wars
    RESTART = "restart"  # at a table: ask (or agree) to deal again
    DECLINE = "decline"  # at a table: say no to the other player's request; on War TV: the next table
    SIT = "sit"  # at a table: a spectator takes a free seat
    HOUSE = "house"  # at a table, alone: the house plays the empty seat now (a word only: h is help)
    FASTER = "faster"  # at a table: this player's auto-play speed, one step up
    SLOWER = "slower"  # at a table: this player's auto-play speed, one step down
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
    "+": Command.FASTER, "=": Command.FASTER, "-": Command.SLOWER, "_": Command.SLOWER,
    **{str(n): command for n, command in enumerate(EMOTE_COMMANDS, 1)},
}
_WORDS = {"flip": Command.FLIP, "auto": Command.AUTO, "score": Command.SCORE, "help": Command.HELP,
          "quit": Command.QUIT, "exit": Command.QUIT, "war": Command.WAR_STOP, "wars": Command.WAR_STOP,
          "restart": Command.RESTART, "again": Command.RESTART, "deal": Command.RESTART,
          "no": Command.DECLINE, "decline": Command.DECLINE, "next": Command.DECLINE, "sit": Command.SIT,
          "house": Command.HOUSE, "faster": Command.FASTER, "slower": Command.SLOWER}

_EDIT_KEYS = {
    "\x7f": "erase", "\x08": "erase", "\x01": "home", "\x05": "end", "\x0b": "kill_end", "\x15": "kill_start",
    "\x17": "erase_word",
}
"""Control keys that edit a line: backspace (DEL or ctrl+H), ctrl+A, ctrl+E, ctrl+K, ctrl+U, ctrl+W."""
_SEQUENCE_EDITS = {
    "D": "left", "C": "right", "H": "home", "F": "end",
    "1~": "home", "7~": "home", "4~": "end", "8~": "end", "3~": "delete",
}
"""Escape sequences that edit a line, by their final letter (CSI or SS3) or their number and ``~``."""


class KeyReader:
    """Turns typed text into commands. ``lines``: an empty line flips, a word or its first letter does the rest."""

    def __init__(self, lines: bool) -> None:
        self.lines = lines
        self._line: list[str] = []
        self._cursor = 0
        self._after_cr = False
        self._sequence: str | None = None  # an escape sequence being read, from its ESC on

    def feed(self, text: str) -> list[Command]:
        commands = [c for ch in text if (c := self._one(ch)) is not None]
        if self._sequence == ESC and not self.lines:  # a key read that ends in a lone ESC: the escape key
            self._sequence = None
            commands.append(Command.UNKNOWN)
        return commands

    def _one(self, ch: str) -> Command | None:
        if self._sequence is not None or ch == ESC:
            return self._in_sequence(ch)
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
            line, self._line, self._cursor = "".join(self._line).strip().lower(), [], 0
            return self.line_command(line)
        self._after_cr = False
        if ch == "\x03":
            return Command.QUIT
        if ch == "\x04":
            return Command.END
        if ch in _EDIT_KEYS:
            self._edit(_EDIT_KEYS[ch])
        elif len(self._line) < MAX_LINE:
            self._line.insert(self._cursor, ch)
            self._cursor += 1
        return None

    def _in_sequence(self, ch: str) -> Command | None:
        """One more character of an escape sequence: at its end, the key it is (UNKNOWN, or a line's edit)."""
        sequence = (self._sequence or "") + ch
        if sequence == ESC:
            self._sequence = sequence
            return None
        if len(sequence) == 2 and ch not in "[O":  # alt+key
            done = True
        elif len(sequence) == 2:
            done = False  # CSI or SS3: its final character is to come
        else:
            done = sequence[1] == "O" or "\x40" <= ch <= "\x7e"
        if not done:
            self._sequence = sequence[:MAX_SEQUENCE]  # bounded; one cut short is read to its end, then dropped
            return None
        self._sequence = None
        if len(sequence) > MAX_SEQUENCE:
            return None
        if not self.lines:
            self._after_cr = False
            return Command.UNKNOWN
        if sequence[1] in "[O":
            body = sequence[2:]  # "D", "1;5D" (ctrl+left), "3~", "3;5~" (ctrl+delete)
            name = body[:-1].split(";")[0] + "~" if body.endswith("~") else body[-1:]
            if (edit := _SEQUENCE_EDITS.get(name)) is not None:
                self._edit(edit)
        return None

    def _edit(self, edit: str) -> None:
        line, at = self._line, self._cursor
        if edit == "erase" and at > 0:
            del line[at - 1]
            self._cursor = at - 1
        elif edit == "delete" and at < len(line):
            del line[at]
        elif edit == "left":
            self._cursor = max(0, at - 1)
        elif edit == "right":
            self._cursor = min(len(line), at + 1)
        elif edit == "home":
            self._cursor = 0
        elif edit == "end":
            self._cursor = len(line)
        elif edit == "kill_start":
            del line[:at]
            self._cursor = 0
        elif edit == "kill_end":
            del line[at:]
        elif edit == "erase_word":
            start = at
            while start > 0 and line[start - 1].isspace():
                start -= 1
            while start > 0 and not line[start - 1].isspace():
                start -= 1
            del line[start:at]
            self._cursor = start

    def end(self) -> list[Command]:
        """The input ended: an unfinished last line still counts."""
        self._sequence = None
        if self.lines and self._line:
            line, self._line, self._cursor = "".join(self._line).strip().lower(), [], 0
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
