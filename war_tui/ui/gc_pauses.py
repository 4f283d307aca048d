"""Short garbage-collector pauses for a game that runs for hours beside others on the same cores.

A full collection walks every object the interpreter tracks; a running game holds
some 60,000 of them, nearly all made while starting (Textual, the stylesheet, the
board), and walking them takes about 35 ms. Game processes that started together
(the screens at one shared table) make the same objects battle after battle, so
they reach their full collection at the same battle, and on a small machine that
stalls every screen at once. Frozen, the objects from start-up are left out of
every later collection, which then walks only what the game made since: about 3 ms.
"""

from __future__ import annotations

import gc

STARTUP_SETTLED = 2.0
"""Seconds after the first screen when start-up is over (the first collection then delays no drawing of it)."""


def freeze_startup_objects() -> None:
    """Collect what start-up left behind, then keep everything alive now out of every later collection."""
    gc.collect()
    gc.freeze()
