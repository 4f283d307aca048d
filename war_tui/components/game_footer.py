"""The footer, minus a slow leak that would make a days-long screensaver grow without end."""

from __future__ import annotations

from textual.widgets import Footer


class GameFooter(Footer):
    """Textual's Footer recomposes its keys whenever the bindings change, and data-binds each new key
    to its own ``compact`` flag. The watchers of removed keys are only dropped when ``compact``
    changes, which it never does here; the screensaver changes screens twice a game, so about 16 dead
    keys (with their styles) piled up per game, some 0.8 MB a game. Each recompose drops them.
    """

    async def recompose(self) -> None:
        await super().recompose()
        for entries in getattr(self, "__watchers", {}).values():
            entries[:] = [(node, callback) for node, callback in entries if not node._closing and not node._closed]
