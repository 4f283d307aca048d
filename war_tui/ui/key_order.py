"""Keys typed into an input apply in the order they were typed, however many arrive in one read.

An ``Input`` takes a printable key at once, but a bound key (backspace, arrows, enter) goes round the app
and runs after the keys read with it: "abc⌫hel" left "abche" (Textual issue #6605).
``run_input_binding`` queues such a binding on the input itself, in the order the keys were read.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App
from textual.widgets import Input


def run_input_binding(app: App[Any], event: events.Key) -> bool:
    """Queue on the focused ``Input`` the binding it itself has for ``event`` (a key just read, not yet
    handed on). True if queued: the key is used up. A printable key, a key bound elsewhere (the palette's
    up and down, escape), with priority, or disabled is left to Textual (False)."""
    focused = app.focused
    if event.is_printable or not isinstance(focused, Input):
        return False
    active = app.active_bindings.get(event.key)
    if active is None or active.node is not focused or active.binding.priority or not active.enabled:
        return False
    app.app_focus = True
    return focused.call_later(app.run_action, active.binding.action, focused)
