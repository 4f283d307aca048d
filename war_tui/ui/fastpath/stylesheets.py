"""Stylesheets parsed once in serve-ssh's preloaded game parent, for every game forked from it.

Textual keeps the CSS it parsed in a cache of each ``Stylesheet`` (private ``_parse_cache``, keyed on
the CSS and where it came from), and a new app parses everything again: about a sixth of a forked
game's start. ``share_parsed`` takes what the parent's warm-up app parsed, and from then on every new
stylesheet with the same variables (the same theme) starts with those entries: a game forked from the
parent parses only CSS it has not seen. The rule sets are shared read-only, as Textual itself shares
them between the stylesheets of one app (``reparse``). A stylesheet with other variables (another
theme) parses as usual.
"""

from __future__ import annotations

from typing import Any

_shared: dict[tuple[tuple[str, str], ...], list[tuple[Any, Any]]] = {}


def _key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(variables.items()))


def supported() -> bool:
    from textual.css.stylesheet import Stylesheet

    probe = Stylesheet()
    cache = getattr(probe, "_parse_cache", None)
    return (
        isinstance(getattr(probe, "_variables", None), dict)
        and all(callable(getattr(cache, name, None)) for name in ("keys", "get", "set"))
    )


def share_parsed(stylesheet: Any) -> bool:
    """Seed every later stylesheet with ``stylesheet``'s parsed CSS; False (nothing done) if unsupported."""
    if not supported():
        return False
    from textual.css.stylesheet import Stylesheet

    cache = stylesheet._parse_cache
    _shared[_key(stylesheet._variables)] = [(key, cache.get(key)) for key in list(cache.keys())]
    if getattr(Stylesheet.__init__, "_war_tui_seeded", False):
        return True
    original = Stylesheet.__init__

    def seeded_init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        for key, rules in _shared.get(_key(self._variables), ()):
            if rules is not None:
                self._parse_cache.set(key, rules)

    seeded_init._war_tui_seeded = True  # type: ignore[attr-defined]  # a marker: installed once
    Stylesheet.__init__ = seeded_init  # type: ignore[method-assign]  # the seeding is the point
    return True
