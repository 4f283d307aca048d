"""A terminal's screen kept by the server, and the bytes that paint it afresh on another terminal.

A shared renderer's output is fed to a ``pyte`` screen as it passes through the server, so a
spectator who arrives (or fell behind) gets the whole screen at once without asking the renderer
for anything. The repaint enters the alternate screen, hides the cursor, clears, and draws every
cell with its colours and attributes in the colour form the renderer's terminal kind uses.
Mouse and focus reporting are never turned on by it: a spectator's keys go to the server.
"""

from __future__ import annotations

import pyte
from pyte import graphics

_FG_NAMES = {name: code for code, name in (*graphics.FG_ANSI.items(), *graphics.FG_AIXTERM.items()) if name != "default"}
_BG_NAMES = {name: code for code, name in (*graphics.BG_ANSI.items(), *graphics.BG_AIXTERM.items()) if name != "default"}
_INDEX_256: dict[str, int] = {}
for _index, _hex in enumerate(graphics.FG_BG_256):
    _INDEX_256.setdefault(_hex, _index)

REPAINT_START = b"\x1b[?1049h\x1b[?25l\x1b[0m\x1b[H\x1b[2J"
"""The alternate screen, no cursor, plain attributes, a clear screen: where every repaint starts."""


def _colour(value: str, names: dict[str, int], extended: int, truecolor: bool) -> str | None:
    """The SGR parameters for one colour as pyte keeps it: a name, or six hex digits."""
    if value == "default":
        return None
    code = names.get(value)
    if code is not None:
        return str(code)
    if len(value) != 6:
        return None
    if not truecolor and value in _INDEX_256:
        return f"{extended};5;{_INDEX_256[value]}"
    try:
        r, g, b = int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
    except ValueError:
        return None
    return f"{extended};2;{r};{g};{b}"


class ScreenCopy:
    """A screen of ``columns`` x ``lines`` fed with a program's output; ``repaint()`` draws it anew."""

    def __init__(self, columns: int, lines: int, truecolor: bool) -> None:
        self.screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self.truecolor = truecolor
        self._repaint: bytes | None = None
        self.drawn = False
        """Something other than blanks is on the screen: the program has painted its first frame."""

    def feed(self, data: bytes) -> None:
        self._stream.feed(data)
        self._repaint = None
        if not self.drawn:
            self.drawn = any(char.data.strip() for row in self.screen.buffer.values() for char in row.values())

    def repaint(self) -> bytes:
        """Bytes that make a terminal of the same size and kind show this screen (kept until the next feed)."""
        if self._repaint is None:
            self._repaint = self._draw()
        return self._repaint

    def _sgr(self, char: pyte.screens.Char) -> str:
        parts = ["0"]
        for flag, code in (
            (char.bold, "1"), (char.italics, "3"), (char.underscore, "4"), (char.blink, "5"),
            (char.reverse, "7"), (char.strikethrough, "9"),
        ):
            if flag:
                parts.append(code)
        fg = _colour(char.fg, _FG_NAMES, 38, self.truecolor)
        bg = _colour(char.bg, _BG_NAMES, 48, self.truecolor)
        if fg:
            parts.append(fg)
        if bg:
            parts.append(bg)
        return f"\x1b[{';'.join(parts)}m"

    def _draw(self) -> bytes:
        screen = self.screen
        default = screen.default_char
        out: list[str] = []
        for y in range(screen.lines):
            row = screen.buffer[y]
            # Trailing plain blanks are what the clear left already.
            last = max((x for x, char in row.items() if x < screen.columns and char != default), default=-1)
            if last < 0:
                continue
            out.append(f"\x1b[{y + 1};1H")
            current = ""
            for x in range(last + 1):
                char = row[x]
                if char.data == "":
                    continue  # the second cell of a wide character
                sgr = self._sgr(char)
                if sgr != current:
                    out.append(sgr)
                    current = sgr
                out.append(char.data)
        out.append("\x1b[0m")
        cursor = screen.cursor
        out.append(f"\x1b[{min(cursor.y, screen.lines - 1) + 1};{min(cursor.x, screen.columns - 1) + 1}H")
        return REPAINT_START + "".join(out).encode("utf-8", errors="replace")
