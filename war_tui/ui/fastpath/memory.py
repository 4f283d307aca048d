"""Let go of the render caches of widgets already removed (the last result dialog, old footer keys).

Textual memoises ``StylesCache.get_inner_outer`` (private module ``textual._styles_cache``)
with an ``lru_cache`` keyed on the StylesCache itself, so up to 1,024 caches of
removed widgets, each with its rendered lines, stay alive: the screensaver (a
result dialog and a new set of footer keys per game) grows about 0.4 MB a game
until that limit. Once a deal is enough: the memo refills with the few widgets on screen.
"""

from __future__ import annotations


def _memo():
    from textual._styles_cache import StylesCache

    return getattr(StylesCache.get_inner_outer, "cache_clear", None)


def supported() -> bool:
    return callable(_memo())


def forget_removed_widgets() -> None:
    clear = _memo()
    if clear is not None:
        clear()
