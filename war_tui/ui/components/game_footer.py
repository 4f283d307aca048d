"""The footer: the keys of the screen under it, every one whole, in one row drawn as one widget.

Textual's Footer mounts a widget per key and composes them again whenever the
bindings may have changed; a game changes screens at every result and deal,
and that footer costs a quarter of an app's start. This one reads the same
bindings (``Screen.active_bindings``, on the screen's ``bindings_updated_signal``)
into plain ``KeyHint``s and draws them as one Line API row; which keys fit is
``war_tui.presentation.footer.fit``, with the screen's ``FooterPlan``.
"""

from __future__ import annotations

from dataclasses import replace

from textual import events
from textual.reactive import var
from textual.screen import Screen

from ...presentation.footer import PALETTE, SOLO_FOOTER, FooterPlan, KeyHint, Unit, fit
from .line_widget import LineWidget, Row

ROOM_FOR_CTRL_C = 120
"""From this width the quit key reads "q/^c": Ctrl-C quits too (narrower, help and the palette say so)."""
SEPARATOR = "▏"
"""Before the palette key (none in ASCII, nor where it would touch the last key)."""


class GameFooter(LineWidget, can_focus=False):
    COMPONENT_CLASSES = {
        "game-footer--key", "game-footer--description", "game-footer--label", "game-footer--separator",
        "game-footer--hover-key", "game-footer--hover-description",
        "game-footer--disabled-key", "game-footer--disabled-description",
    }
    ALLOW_SELECT = False

    hints: var[tuple[KeyHint, ...]] = var(())
    """The keys of the screen's bindings that the footer may show, in the screen's order."""
    plan: var[FooterPlan] = var(SOLO_FOOTER)
    """Which keys this way to play leaves out, and in what order when the row is too narrow."""
    hovered: var[KeyHint | None] = var(None)

    def __init__(self, *, ascii: bool = False, plan: FooterPlan = SOLO_FOOTER, id: str | None = None) -> None:
        """``plan``: which keys leave first when the row is too narrow (a screen with no plan's ``FooterPlan()``
        drops its last keys)."""
        super().__init__(id=id)
        self.ascii = ascii
        self.set_reactive(GameFooter.plan, plan)
        self._spans: list[tuple[int, int, KeyHint]] = []
        """Where each key shown was drawn: (first cell, cell after, key), for the mouse."""

    def on_mount(self) -> None:
        """The keys are read at once, so the first frame shows them; the screen's signal tells of every change."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.read_bindings()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        # As Textual's Footer: not while the app is unfocused (fewer keys apply then).
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.call_after_refresh(self.read_bindings)

    def read_bindings(self) -> None:
        """The screen's active bindings as hints: one per action (its first key), in the bindings' order."""
        if not self.is_attached:  # its screen went before the refresh this waited for
            return
        app = self.app
        hints: list[KeyHint] = []
        seen: set[str] = set()
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            palette = binding.key == app.COMMAND_PALETTE_BINDING
            if binding.action in seen or not (binding.show or palette) or (palette and not app.ENABLE_COMMAND_PALETTE):
                continue
            seen.add(binding.action)
            action = PALETTE if palette else binding.action.rpartition(".")[2].partition("(")[0]
            group = binding.group.description if binding.group is not None and binding.group.compact else None
            key = binding.key.split(",")[0]
            display = app.get_key_display(binding)
            if self.ascii and not display.isascii():  # Textual shows an arrow key as an arrow: --ascii names it
                display = key
            hints.append(KeyHint(
                key=key, display=display, description=binding.description,
                action=action, enabled=enabled, group=group, tooltip=tooltip or binding.tooltip,
            ))
        self.hints = tuple(hints)

    def watch_hints(self) -> None:
        self.redraw()

    def watch_plan(self) -> None:
        self.redraw()

    def watch_hovered(self, hint: KeyHint | None) -> None:
        self.tooltip = (hint.tooltip or hint.description or None) if hint is not None else None
        self.redraw()

    # ------------------------------------------------------------ drawing

    def shown(self, width: int | None = None) -> tuple[list[Unit], KeyHint | None]:
        """The keys in the row and the palette key (None: no room) at ``width`` (the footer's own by default)."""
        width = self.size.width if width is None else width
        return fit(self._hints_at(width), width, self.plan)

    def _hints_at(self, width: int) -> tuple[KeyHint, ...]:
        if width < ROOM_FOR_CTRL_C:
            return self.hints
        return tuple(
            replace(hint, display="q/^c") if hint.action == "quit" and hint.display == "q" else hint
            for hint in self.hints
        )

    def draw(self, width: int, height: int) -> list[Row]:
        row_units, palette = self.shown(width)
        row: Row = []
        spans: list[tuple[int, int, KeyHint]] = []
        x = 0
        for index, unit in enumerate(row_units):
            if index:
                row.append((" ", ""))
                x += 1
            if unit.label:  # a group: its keys side by side, each a click of its own, then the label
                for hint in unit.hints:
                    row.append((hint.display, self._look(hint, "key")))
                    spans.append((x, x + len(hint.display), hint))
                    x += len(hint.display)
                row.append((" " + unit.label, "game-footer--label"))
                x += 1 + len(unit.label)
                continue
            hint = unit.hints[0]
            row.append((hint.display, self._look(hint, "key")))
            if hint.description:
                row.append((" " + hint.description, self._look(hint, "description")))
            spans.append((x, x + unit.width, hint))
            x += unit.width
        if palette is not None:
            start = width - len(palette.text)
            # A blank always follows the last key; a separator only with a blank to spare.
            separator = "" if self.ascii or start - x < 2 else SEPARATOR
            row.append((" " * max(start - len(separator) - x, 0), ""))
            row.append((separator, "game-footer--separator"))
            row.extend(((palette.display, self._look(palette, "key")),
                        (" " + palette.description, self._look(palette, "description"))))
            spans.append((start, width, palette))
        self._spans = spans
        return [row]

    def _look(self, hint: KeyHint, part: str) -> str:
        if not hint.enabled:
            return f"game-footer--disabled-{part}"
        if hint == self.hovered:
            return f"game-footer--hover-{part}"
        return f"game-footer--{part}"

    # ------------------------------------------------------------ the mouse

    def _hint_at(self, x: int) -> KeyHint | None:
        return next((hint for start, end, hint in self._spans if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._hint_at(event.x)

    def on_leave(self) -> None:
        self.hovered = None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click on a key presses it, as Textual's footer does."""
        hint = self._hint_at(event.x)
        if hint is None:
            return
        if hint.enabled:
            self.app.simulate_key(hint.key)
        else:
            self.app.bell()
