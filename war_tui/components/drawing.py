"""Turning a presentation ``Canvas`` into Rich text with a widget's component styles."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text

from ..presentation import Canvas


def canvas_text(canvas: Canvas, style_of: Callable[[str], Style]) -> Text:
    """One Text for the whole canvas; style names resolve once each through ``style_of``."""
    cache: dict[str, Style] = {}
    text = Text(no_wrap=True, overflow="crop", end="")
    rows = canvas.runs()
    for index, row in enumerate(rows):
        for chunk, name in row:
            style = cache.get(name)
            if style is None:
                style = cache[name] = style_of(name) if name else Style()
            text.append(chunk, style)
        if index < len(rows) - 1:
            text.append("\n")
    return text


def pieces_text(pieces: Sequence[tuple[str, str]], style_of: Callable[[str], Style]) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    for chunk, name in pieces:
        text.append(chunk, style_of(name) if name else Style())
    return text
