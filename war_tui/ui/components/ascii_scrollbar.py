"""Scrollbars for ASCII terminals: Textual draws a thumb's ends with eighth blocks (▁▂▃…▇);
this one moves in whole cells, drawn with colour alone, so only spaces are sent."""

from __future__ import annotations

from textual.scrollbar import ScrollBarRender


class AsciiScrollBarRender(ScrollBarRender):
    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8
