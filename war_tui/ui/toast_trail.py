"""The cells a toast leaves are painted again, so a notice whose time is up is gone from the terminal too.

Textual finds the cells a removed widget uncovers from a lazily built "before" layout, which a look-up
in between can build without the toast (at 40x12, say), leaving its words on the glass. So every
layout refresh compares the toasts shown with those shown before and repaints where one was.
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
