"""The text a person sees on the whole screen (modal dialogs over the board included), row by row.

Read from the app's own screenshot (public API), so a test asserts what is on the glass, not what a
widget was asked to show: a word cut by a border or dropped by a narrow dialog is missing here too.
"""

from __future__ import annotations

import html
import re

from rich.cells import cell_len

_TEXT = re.compile(
    r'<text class="[^"]*" x="(?P<x>[\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#[\w-]+-line-(?P<row>\d+)\)">(?P<text>[^<]*)</text>'
)
_CELL = 12.2  # the width of one cell in Rich's SVG export


def screen_rows(app) -> list[str]:
    """Each row of the screen as plain text (wide characters once, trailing blanks cut)."""
    width, height = app.size
    cells: list[list[str]] = [[" "] * width for _ in range(height)]
    for found in _TEXT.finditer(app.export_screenshot()):
        row = int(found["row"])
        col = round(float(found["x"]) / _CELL)
        for char in html.unescape(found["text"]).replace("\xa0", " "):
            if row < height and col < width:
                cells[row][col] = char
                if cell_len(char) == 2 and col + 1 < width:
                    cells[row][col + 1] = ""
            col += cell_len(char)
    return ["".join(row).rstrip() for row in cells]


def screen_text(app) -> str:
    return "\n".join(screen_rows(app))


def words_of(text: str) -> list[str]:
    """The words of ``text``, whatever the spaces, line breaks and border characters between them."""
    return re.findall(r"[\w'’:,.!?()-]+", text)
