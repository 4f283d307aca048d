"""The plain-text page's wire: the line mode's output cut into sentences, and a typed line made safe for it.

The line mode writes only printable text and newlines; what reaches the page is checked again here, so a
game gone wrong cannot send an escape sequence or a control character to a screen reader: every
character that is not printable becomes a space. What a page types goes to the game as one line of
printable characters, never a control key (ctrl+C or ctrl+D mean nothing from the page).
"""

from __future__ import annotations

import codecs

from ..line.keys import MAX_LINE

MAX_SENTENCE = 2000
"""Characters of a sentence the page is sent at most: a longer one is cut, so nothing unbounded is held."""


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, escapes, format marks) made a space."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def typed_line(text: str) -> bytes:
    """What the page typed, as the game reads it: one line, printable, at most ``MAX_LINE`` characters."""
    return (printable(text)[:MAX_LINE].strip() + "\n").encode()


class SentenceCutter:
    """Turns the game's output bytes into whole sentences, one a line, printable, without the empty ones."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial = ""

    def feed(self, data: bytes) -> list[str]:
        text = self._partial + self._decoder.decode(data)
        *whole, self._partial = text.split("\n")
        while len(self._partial) > MAX_SENTENCE:  # a line without end: sent in bounded pieces
            whole.append(self._partial[:MAX_SENTENCE])
            self._partial = self._partial[MAX_SENTENCE:]
        return [said for line in whole if (said := printable(line)[:MAX_SENTENCE].strip())]

    def end(self) -> list[str]:
        """The last unfinished line, if any (the game ended in the middle of it)."""
        rest, self._partial = printable(self._partial + self._decoder.decode(b"", final=True)).strip(), ""
        return [rest] if rest else []
