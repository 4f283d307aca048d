"""A click on a player's packet or on the pile plays a battle, as space does: the mouse as a bonus, keys do everything."""

from __future__ import annotations

from textual import events
from textual.message import Message


class FlipClicked(Message):
    """A packet or the pile was clicked: the app flips, exactly as the flip keys do."""


class ClickToFlip:
    """Mixed into the board widgets a click flips."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(FlipClicked())  # type: ignore[attr-defined]  # a mixin: the widget it is in posts it
