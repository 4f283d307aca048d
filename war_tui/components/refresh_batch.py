"""A battle's repaints handed to the screen at once, not three messages per widget.

When a widget marks rows for repaint, Textual posts it a prompt; the widget,
idle again, posts its screen an Update; the screen, idle, starts its update
timer. A battle changes seven or eight board widgets, so it cost two dozen
messages, each a hop through the event loop, before the one frame that draws
them all. Inside ``refresh_batch`` the board's widgets only note that they need
a repaint; at the end the batch adds them to the screen's dirty widgets and
starts its timer itself, which is what those messages came to.

Anything more than a repaint (a layout, a scroll, new styles) and any screen not
on show take Textual's usual path. This leans on Textual internals
(``_repaint_required``, the screen's ``_dirty_widgets`` and ``_update_timer``);
Textual is pinned, and the terminal-output tests compare every frame with a
fresh render.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual.screen import Screen
from textual.widget import Widget

_OPEN: list[set[Widget]] = []
"""The batches open now, innermost last (a batch can open inside another's handler)."""


def _repaint_only(widget: Widget) -> bool:
    return (
        widget._repaint_required
        and not widget._layout_required
        and not widget._scroll_required
        and not widget._refresh_styles_required
        and not widget._recompose_required
    )


class BatchedRefresh:
    """Mixed into a board widget (before its Textual base): inside a batch, a repaint waits for the batch's end."""

    def check_idle(self: Widget) -> None:  # type: ignore[misc]
        if _OPEN and self.is_mounted and _repaint_only(self):
            _OPEN[-1].add(self)
            return
        super().check_idle()  # type: ignore[misc]


@contextmanager
def refresh_batch(screen: Screen) -> Iterator[None]:
    """Widgets of ``screen`` repainted in this block reach its next frame with one hand-over."""
    batch: set[Widget] = set()
    _OPEN.append(batch)
    try:
        yield
    finally:
        _OPEN.pop()
        _hand_over(screen, batch)


def _hand_over(screen: Screen, widgets: set[Widget]) -> None:
    on_show = screen.is_current and not screen.app._batch_count and screen in screen._compositor
    ready = [w for w in widgets if on_show and w.screen is screen and _repaint_only(w)]
    for widget in ready:
        widget._repaint_required = False
    shown = [w for w in ready if w.display]
    if shown:
        screen._dirty_widgets.update(shown)
        screen._update_timer.resume()
    for widget in widgets.difference(ready):
        widget.check_idle()  # Textual's usual path
