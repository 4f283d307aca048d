"""(text, style name) pieces as Rich Text: the log's lines written before its size is known (RichLog defers them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.text import Text


def pieces_text(pieces: Sequence[tuple[str, str]], style_of: Callable[[str], Style]) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis", end="")
    for chunk, name in pieces:
        text.append(chunk, style_of(name) if name else Style())
    return text
