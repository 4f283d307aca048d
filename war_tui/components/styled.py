"""Component styles looked up once per style change, not once per render.

Textual's ``get_component_rich_style`` has a cache, but every ``refresh()``
clears it, so a widget repainted each battle rebuilt each of its component
styles (merging CSS rules) on every render: a large share of a battle's CPU.
Here a style is kept for as long as Textual keeps the same component styles
object; Textual builds new ones whenever CSS is applied to the widget again (a
theme or palette change, ``ansi_color``, a class change), so the cache follows
those at once.
"""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


class CachedComponentStyles:
    """Mixed into a widget (before its Textual base): ``component_style(name)`` survives repaints.

    A plain mixin, not a Widget: a Widget subclass in the middle of the MRO would
    bring Widget's default CSS after the base's own (a RichLog would lose its scrollbar).
    """

    def component_style(self: Widget, name: str, *, partial: bool = False) -> Style:  # type: ignore[misc]
        source = self._component_styles.get(name)
        key = (name, partial)
        cache: dict[tuple[str, bool], tuple[object, Style]] = self.__dict__.setdefault("_styles_kept", {})
        kept = cache.get(key)
        if kept is not None and source is not None and kept[0] is source:
            return kept[1]
        style = self.get_component_rich_style(name, partial=partial)
        if source is not None:
            cache[key] = (source, style)
        return style
