"""The command palette for ASCII terminals (``--ascii``, or a locale that is not UTF-8).

Textual's palette draws a magnifier emoji and ends its placeholder with "…";
its borders are restyled in screens.tcss. A terminal without UTF-8 gets only ASCII.
"""

from __future__ import annotations

from textual.command import CommandPalette, SearchIcon

PLACEHOLDER = "Search for commands..."


class AsciiCommandPalette(CommandPalette):
    def on_mount(self) -> None:
        self.query_one(SearchIcon).icon = ">"
