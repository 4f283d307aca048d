"""A dialog over the board that scrolls with the keyboard and says in its frame whether more is below.

Over SSH the keyboard is often the only input, and a long dialog at 80x24 or 40x12 hides lines: the
help and the preferences notice both scroll with the same keys and say the same words in their frame.
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from ..bindings import scroll_bindings

MORE_BELOW = "more below: Down j PgDn End"
AT_THE_END = "Up k PgUp Home"

SCROLL_BINDINGS = scroll_bindings("scroll", "Scroll")


def scroll(dialog: VerticalScroll, how: str) -> None:
    """``dialog`` moved as a scroll key (``SCROLL_KEYS``) asks."""
    {
        "down": dialog.scroll_down, "up": dialog.scroll_up,
        "page_down": dialog.scroll_page_down, "page_up": dialog.scroll_page_up,
        "end": dialog.scroll_end, "home": dialog.scroll_home,
    }[how](animate=False)


def more_words(dialog: VerticalScroll) -> str:
    """Whether lines of ``dialog`` are hidden below (the keys down), or how to go back up ("" if all fit)."""
    if dialog.max_scroll_y <= 0:
        return ""
    return MORE_BELOW if dialog.scroll_y < dialog.max_scroll_y else AT_THE_END


class ScrollingDialog(ModalScreen[None]):
    """A modal screen whose ``VerticalScroll`` with the id ``DIALOG`` scrolls and says whether more is below."""

    DIALOG = ""

    def on_mount(self) -> None:
        dialog = self.query_one(f"#{self.DIALOG}", VerticalScroll)
        self.watch(dialog, "scroll_y", self._say_if_more, init=False)
        self.watch(dialog, "virtual_size", self._say_if_more, init=False)
        self.call_after_refresh(self._say_if_more)

    def on_resize(self) -> None:
        self.call_after_refresh(self._say_if_more)

    def action_scroll(self, how: str) -> None:
        scroll(self.query_one(f"#{self.DIALOG}", VerticalScroll), how)

    def subtitle(self, more: str) -> str:
        """The frame's subtitle for ``more`` (``more_words``)."""
        return more

    def _say_if_more(self, *_: object) -> None:
        for dialog in self.query(f"#{self.DIALOG}").results(VerticalScroll):  # none once it is closed
            dialog.border_subtitle = self.subtitle(more_words(dialog))
