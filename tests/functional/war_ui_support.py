"""Known deals and app states shared by the pilot tests, the snapshot tests and scripts/export_screenshots.py.

Everything is deterministic: fixed seeds or hand-made packets, a frozen clock (or one the test moves),
a predictable "new seed" for restarts, and no timers unless a test turns auto-play on.
Wars are shown whole and a result answers its keys at once (``war_step=0``,
``result_hold=0``), so each press is one battle; the tests of a war laid step by
step and of the held result turn them back on.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

from support import waiting
from support.board_text import drawn as drawn  # what a widget shows
from support.deals import QUICK_WIN as QUICK_WIN  # one battle and player 1 holds every card
from support.deals import WAR_PACKETS as WAR_PACKETS  # Alice (player 1) wins on battle 2

from war_tui.core.cards import parse_cards
from war_tui.settings.play import PlaySettings
from war_tui.ui.app import WarApp
from war_tui.ui.components.game_footer import GameFooter

# Every suit on the pile and in the log: diamonds and clubs, hearts and spades.
FOUR_SUITS = (tuple(parse_cards("2D 3C 9H KS 7D")), tuple(parse_cards("4C 5D 6S 8H 9C")))
OPENING_SEED = 7  # battle 1 of seed 7 is a war, battle 2 an ordinary battle


def make_app(
    settings: PlaySettings | None = None,
    *,
    environ: dict[str, str] | None = None,
    clock: Callable[[], float] | None = None,
    **changes,
) -> WarApp:
    settings = replace(settings or PlaySettings(seed=OPENING_SEED, war_step=0.0, result_hold=0.0), **changes)
    seeds = itertools.count(1001)
    env = {"LANG": "C.UTF-8"} if environ is None else environ
    return WarApp(settings, environ=env, clock=clock or (lambda: 0.0), new_seed=lambda: next(seeds))


# The README's screenshots and the snapshots: (name, size, app factory, keys).
SCREEN_STATES = {
    "opening": ((80, 24), lambda: make_app(), ()),
    "playing": ((100, 30), lambda: make_app(names=("Alice", "Bob")), ("space",) * 14),
    "war": ((100, 30), lambda: make_app(packets=WAR_PACKETS, names=("Alice", "Bob")), ("space",)),
    "game-over": ((80, 24), lambda: make_app(packets=WAR_PACKETS, names=("Alice", "Bob")), ("space", "space")),
    "help": ((80, 24), lambda: make_app(), ("question_mark",)),
    "compact": ((48, 14), lambda: make_app(), ("space", "space", "space")),
    "ascii": ((80, 24), lambda: make_app(ascii=True, packets=WAR_PACKETS), ("space",)),
    # A big terminal: big cards, the table grown; battle 18 of seed 7 is a war.
    "big": ((200, 60), lambda: make_app(names=("Alice", "Bob")), ("space",) * 18),
    # --deck four-colour: diamonds blue, clubs green, on the pile and in the log.
    "four-colour": ((100, 30), lambda: make_app(packets=FOUR_SUITS, deck="four-colour"), ("space",) * 2),
    # --theme high-contrast with the four-colour deck, in the middle of a war.
    "high-contrast": (
        (100, 30), lambda: make_app(packets=WAR_PACKETS, deck="four-colour", theme="high-contrast"), ("space",)
    ),
}


async def until(pilot, condition, seconds: float = waiting.TIMEOUT) -> None:
    """Let the app run until ``condition()`` holds; fail (not hang) if it never does."""
    await waiting.until(condition, seconds, what="the screen never reached the expected state", wait=pilot.pause)


def notices(app) -> list[str]:
    """Every notification the app raises from now on."""
    said: list[str] = []
    notify = app.notify

    def record(message, **options):
        said.append(str(message))
        return notify(message, **options)

    app.notify = record
    say = app.say

    def record_said(kind, message, **options):
        said.append(str(message))
        return say(kind, message, **options)

    app.say = record_said
    return said


def footer_text(app) -> str:
    """The board's footer as it reads on screen."""
    return app.query_one(GameFooter).render_line(0).text.rstrip()


def footer_keys(app) -> tuple[list, object | None]:
    """The board's footer keys on show but the palette key (``KeyHint``s), and the palette key (None: left out)."""
    units, palette = app.query_one(GameFooter).shown()
    return [hint for unit in units for hint in unit.hints], palette


def cut_footer_keys(app) -> list[str]:
    """The footer's keys on show that do not read whole on screen before the palette key (or the screen's edge)."""
    line = app.query_one(GameFooter).render_line(0).text
    units, palette = app.query_one(GameFooter).shown()
    edge = line.rfind(f"{palette.display} {palette.description}") if palette is not None else len(line)
    cut, at = [], 0
    for unit in units:
        found = line.find(unit.text, at)
        if found < 0 or found + len(unit.text) > edge:
            cut.append(unit.text)
        else:
            at = found + len(unit.text)
    return cut


def frame(widget) -> tuple[str, str]:
    """The top and bottom rows of a frame the widget draws itself (the pile's, a packet's), as plain text."""
    height = widget.content_size.height
    return widget.render_line(0).text, widget.render_line(height - 1).text


async def stats_shown(pilot) -> None:
    """Until the statistics screen shows what it read: it reads in a worker thread, not while composing."""
    await until(pilot, lambda: getattr(pilot.app.screen, "read", False))
