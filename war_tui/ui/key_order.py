"""Keys typed into an input apply in the order they were typed, however many arrive in one read.

Textual hands every key to the focused widget as it comes. An ``Input`` takes a printable key there and
then, but a key it has a binding for (backspace, the arrows, home, delete, enter) goes up its ancestors and
back to the app, whose queue holds the keys read after it: the binding runs once those are typed. From a
paste, a fast typist or a slow link, "abc⌫⌫⌫hel" left "abc" and "abc⌫hel" left "abche" (Textual issue
#6605). ``run_input_binding`` queues such a key's binding on the input itself, behind the keys handed
to it before, so it runs in the order the keys were read; every other key goes Textual's way.
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
