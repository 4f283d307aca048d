"""The one place war-tui uses private names of Textual and Rich, each behind a probe run at start-up.

Each piece saves what a user notices (figures in docs/performance.md): the shadow terminal (``damage``,
with ``cells``, ``scroll`` and ``output``) sends only changed cells and scrolls the log's lines, a sixth
of Textual's bytes at 4 battles/s; ``memory`` lets go of removed widgets' render caches at each deal.
``probe()`` turns a piece off under ``WAR_TUI_FASTPATH=0`` or when Textual lacks what it reads: the game
then runs on Textual's public path alone, the same screens cell for cell.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

ENV = "WAR_TUI_FASTPATH"
"""0: public API alone (to compare, or after a Textual upgrade the probe missed); a list of pieces
(``shadow,scroll,memory``): only those, for measuring each on and off; anything else: all."""
PIECES = ("shadow", "scroll", "memory")


@dataclass(frozen=True)
class FastPath:
    """What the probe found usable: each piece is on or off."""

    shadow_terminal: bool = False
    scroll_terminal: bool = False
    forget_removed_widgets: bool = False

    @property
    def any(self) -> bool:
        return self.shadow_terminal or self.forget_removed_widgets


OFF = FastPath()


def wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the environment allows the fast path (anything but ``WAR_TUI_FASTPATH=0``)."""
    return (os.environ if environ is None else environ).get(ENV, "1").strip() != "0"


def pieces(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """The pieces the environment allows: none for 0, those named in a list of ``PIECES``, else all."""
    if not wanted(environ):
        return frozenset()
    named = {name.strip() for name in (os.environ if environ is None else environ).get(ENV, "").split(",")}
    return frozenset(named & set(PIECES)) or frozenset(PIECES)


def probe(environ: Mapping[str, str] | None = None) -> FastPath:
    """Each piece the installed Textual and Rich can run, unless the environment turns it off."""
    allowed = pieces(environ)
    if not allowed:
        return OFF
    shadow = "shadow" in allowed and _try(_shadow_supported)
    return FastPath(
        shadow_terminal=shadow, scroll_terminal=shadow and "scroll" in allowed,
        forget_removed_widgets="memory" in allowed and _try(_memory_supported),
    )


def _try(check) -> bool:
    """A probe that fails in any way (a module gone, a name renamed) means: off."""
    try:
        return bool(check())
    except Exception:  # noqa: BLE001  (whatever a changed Textual raises, the answer is the public path)
        return False


def _shadow_supported() -> bool:
    from . import damage, output

    return damage.supported() and output.supported()


def _memory_supported() -> bool:
    from . import memory

    return memory.supported()
