"""The cells a toast leaves are painted again, so a notice whose time is up is gone from the terminal too.

Textual draws each toast inside a rack and a holder that are themselves hidden, and finds the cells a
removed widget uncovers by comparing the layout before the removal with the one after. That "before" is
built lazily: a look-up of a widget's place between the removal and the comparison (as the rack's own
refresh makes, while something else has marked the layout stale: at 40x12, the battle log's hidden scroll
bar) builds it without the toast, so no cell of the toast is marked for repainting and its words stay on the
glass over the board until a resize. Here every screen's layout refresh compares the toasts it shows with
the ones it showed and repaints the screen wherever one was and is no longer.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from textual.app import App
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget


class ToastTrail:
    """Watches each screen the app shows; repaints where a toast lay once it leaves or moves."""

    def __init__(self, app: App) -> None:
        self._app = app
        self._drawn: WeakKeyDictionary[Screen, dict[int, Region]] = WeakKeyDictionary()
        """Where each screen showed its toasts at its last layout, by the toast's ``id()``: the toasts
        themselves would hold their screen (a value holding its weak key keeps it), a popped one too."""
        app.screen_change_signal.subscribe(app, self.watch)

    def watch(self, screen: Screen) -> None:
        if screen in self._drawn or not self._app.is_running:  # a screen shown as the app closes draws no more
            return
        self._drawn[screen] = {}
        screen.screen_layout_refresh_signal.subscribe(self._app, self._laid_out)

    def _laid_out(self, screen: Screen) -> None:
        drawn = self._drawn.get(screen)
        if drawn is None or not screen.is_attached:
            return
        shown = {id(toast): toast.region for toast in toasts(screen)}
        left = [region for toast, region in drawn.items() if region and shown.get(toast) != region]
        self._drawn[screen] = shown
        if left:
            screen.refresh(*left)


def toasts(screen: Screen) -> list[Widget]:
    """The toasts on ``screen``: in the rack Textual gives every screen as one of its children (a DOM query
    for ``Toast`` finds the same, at some hundred times the cost, on every layout of the board)."""
    return [
        node
        for rack in screen.children
        if type(rack).__name__ == "ToastRack"
        for node in rack.walk_children(Widget)
        if type(node).__name__ == "Toast"
    ]
