"""The footer: every key that fits, never a cut-off word, minus a slow leak that would make a days-long screensaver grow without end."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer

WIDTH_STEPS = (100, 80, 74, 60, 52, 49, 45)
"""Below each width the footer gets a class ``-below-N``; styles/app.tcss and tables.tcss hide the less needed keys
there (they stay in the help screen and the command palette) instead of cutting the last one in half."""
ROOM_FOR_CTRL_C = 120
"""From this width the quit key reads "q/^c": Ctrl-C quits too (narrower, help and the palette say so)."""


class GameFooter(Footer):
    """Textual's Footer recomposes its keys whenever the bindings may have changed: a screen pushed or
    popped, a binding refreshed. A game changes screens at every result and every deal, mostly to the
    same keys, and mounting a footer's keys again costs more than drawing a battle; so it recomposes
    only when the keys it would show differ from the ones it shows.

    Each new key is data-bound to the footer's ``compact`` flag. The watchers of removed keys are only
    dropped when ``compact`` changes, which it never does here; the screensaver changes screens twice a
    game, so dead keys (with their styles) would pile up. After each recompose, ``mutate_reactive``
    runs ``compact``'s watchers once, and Textual drops those of removed keys.
    """

    _wide = False
    _shown: tuple[object, ...] | None = None
    """What the keys on show were composed from (``None``: nothing composed yet)."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            action = getattr(widget, "action", None)  # a footer key: a class per action, so a style can hide it
            if isinstance(action, str):
                widget.add_class("-key-" + action.rpartition(".")[2].partition("(")[0].replace("_", "-"))
                if action == "app.quit" and self._wide and hasattr(widget, "key_display"):
                    widget.key_display = "q/^c"
            yield widget

    def on_resize(self, event: events.Resize) -> None:
        for step in WIDTH_STEPS:
            self.set_class(event.size.width < step, f"-below-{step}")
        wide = event.size.width >= ROOM_FOR_CTRL_C
        if wide != self._wide:
            self._wide = wide
            self.call_after_refresh(self.recompose)

    def _keys_to_show(self) -> tuple[object, ...]:
        """Everything ``compose`` reads: the shown bindings, each key's look, the palette key, the width."""
        app = self.app
        return (
            self._wide, self.show_command_palette, app.ENABLE_COMMAND_PALETTE,
            *(
                (key, binding.action, binding.description, app.get_key_display(binding), binding.show,
                 binding.group, binding.tooltip, enabled, tooltip)
                for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
            ),
        )

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        shown = self._keys_to_show()
        if shown == self._shown and self.children:
            return
        await super().recompose()
        self._shown = shown if self.children else None
        self.mutate_reactive(Footer.compact)
