"""Every frame goes out through the shadow of the terminal (``damage``): only changed cells are written.

Textual hands each frame to ``App._display`` (private); ``ShadowOutput``, mixed
into the app, swaps the compositor's update for one that writes itself through
the shadow. Off (no fast path), frames pass through untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

if TYPE_CHECKING:
    from .damage import ScreenShadow, ScrollHint

    _MixedInto = App[Any]  # what the mixin reads of the app, as the type checker sees it
else:
    _MixedInto = object


def supported() -> bool:
    import inspect

    display = getattr(App, "_display", None)
    return callable(display) and list(inspect.signature(display).parameters) == ["self", "screen", "renderable"]


class ShadowOutput(_MixedInto):
    """Mixed into the App (before ``App``); the app turns it on with ``use_shadow_terminal()``."""

    _shadow: ScreenShadow | None = None

    def use_shadow_terminal(self, scroll: bool = True) -> None:
        from .damage import ScreenShadow

        self._shadow = ScreenShadow(scroll)

    def forget_terminal(self) -> None:
        """The terminal's content is unknown (a resize): the next frame goes out whole."""
        if self._shadow is not None:
            self._shadow.forget()

    def scroll_hint(self) -> ScrollHint | None:
        """Rows known to have moved up together since the last frame (the app's battle log): see ``damage``."""
        return None

    def frame_for_terminal(self, renderable: Any) -> Any:
        """What goes to the terminal for ``renderable``: written through the shadow when it is on."""
        shadow = self._shadow
        if shadow is None or self.is_inline:
            return renderable
        from .damage import CompositorUpdate, MinimalUpdate

        if not isinstance(renderable, CompositorUpdate):
            return renderable
        size = self.size
        return MinimalUpdate(renderable, shadow, (size.width, size.height), self.scroll_hint())

    def _display(self, *args: Any, **kwargs: Any) -> None:
        if self._shadow is None:  # off: whatever Textual passes goes on untouched
            super()._display(*args, **kwargs)
            return
        screen, renderable = args
        super()._display(screen, self.frame_for_terminal(renderable))
