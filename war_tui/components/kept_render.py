"""A widget's rendered lines kept across repaints whose drawing would come out the same.

Textual renders a widget's content again on every ``refresh()``, whatever
caused it: a packet's count changes each battle, and its subtitle (part of the
border) with it, but its stack of card backs only every few cards. Turning the
drawing into lines (Text to Content, wrapped, formatted, into Strips) costs more
than drawing it; here it is skipped when the widget's ``render_key()`` (what its
drawing depends on), its size and its styles are the same as last time.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable

from textual.widget import Widget


class KeptRender:
    """Mixed into a widget (before its Textual base) that defines ``render_key()``.

    Leans on ``Widget._render_content`` (not public API; textual is pinned in pyproject).
    """

    _kept_key: tuple[object, ...] | None = None
    _kept_sources: tuple[object, ...] = ()

    def render_key(self) -> Hashable:
        raise NotImplementedError

    def _render_content(self: Widget) -> None:  # type: ignore[misc]
        key = (
            self.render_key(),  # type: ignore[attr-defined]
            self.size,
            self.content_size,
            self.styles._cache_key,
            self.visual_style,
            self.text_selection,
        )
        # Textual builds new component styles whenever CSS is applied again (a theme change): compared by identity.
        sources = tuple(self._component_styles.get(name) for name in sorted(self.COMPONENT_CLASSES))
        if (
            key == self._kept_key  # type: ignore[attr-defined]
            and all(map(operator.is_, sources, self._kept_sources))  # type: ignore[attr-defined]
            and self._render_cache.size == self.size
        ):
            self._dirty_regions.clear()
            return
        super()._render_content()  # type: ignore[misc]
        self._kept_key = key  # type: ignore[attr-defined]
        self._kept_sources = sources  # type: ignore[attr-defined]
