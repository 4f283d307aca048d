"""The game's keys: the board's own, and the same keys on every screen over it.

The board's actions are its own (``Board``); statistics, help and quit are the app's. A key reaches only the
screen on top and the app, so a screen over the board carries the board's keys addressed to the app's
``board`` action (``over_board``), which runs them on the board: every key works at any moment. Modal
screens stop the App's own bindings, so the result and help screens carry these themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from textual.binding import Binding

SPEED_KEYS = Binding.Group("Speed", compact=True)
FLIP_KEYS = ("space", "enter", "f")
SEAT_FLIP_KEYS = (("f", "left"), ("j", "right"))
"""Each player's flip keys at one keyboard (``--two-players``): like ``FLIP_KEYS`` they show a war being laid
whole themselves (``seat_flip``), and flip nothing then; any other key shows it whole before doing its own job."""

GAME_BINDINGS = [
    Binding(",".join(FLIP_KEYS), "flip", "Flip", key_display="space"),
    Binding("a", "auto", "Auto"),
    Binding("plus,equals_sign", "faster", "Faster", key_display="+", group=SPEED_KEYS),
    Binding("minus,underscore", "slower", "Slower", key_display="-", group=SPEED_KEYS),
    Binding("w", "pause_on_war", "War stop"),
    Binding("r", "restart", "Restart"),
    Binding("s", "app.stats", "Stats"),
    Binding("question_mark", "app.help", "Help", key_display="?"),
    # Ctrl-C quits as q does, instead of Textual's "press ctrl+q to quit" notice.
    Binding("q,ctrl+c", "app.quit", "Quit", key_display="q"),
]
"""The keys every way to play has: the board's (flip, auto, speed, war stop, restart), then the app's."""

REDRAW_KEY = "ctrl+l"
REDRAW_BINDING = Binding(REDRAW_KEY, "app.redraw", "Redraw", show=False, priority=True)
"""The whole screen drawn again, over whatever garbled the terminal, on every screen (a priority binding: modal
screens stop only the others); the help lists it."""

SCROLL_KEYS = (
    ("up,k", "up"), ("down,j", "down"), ("pageup", "page_up"), ("pagedown", "page_down"),
    ("home", "home"), ("end", "end"),
)
"""The usual keys of a scrolling view (over SSH the keyboard is often the only input), and where each goes."""


def scroll_bindings(action: str, what: str) -> list[Binding]:
    """``SCROLL_KEYS`` bound to ``action('up')``, ``action('page_down')`` ..., hidden from the footer."""
    return [
        Binding(keys, f"{action}('{where}')", f"{what} {where.replace('_', ' ')}", show=False)
        for keys, where in SCROLL_KEYS
    ]


LOG_KEYS = scroll_bindings("scroll_log", "Log")
"""The battle log's keys, on the board only (the screens over it keep these keys for themselves)."""


def the_boards(binding: Binding) -> bool:
    """Whether ``binding`` runs one of the board's actions (not the app's: statistics, help, quit, redraw)."""
    return not binding.action.startswith("app.")


def over_board(bindings: Iterable[Binding]) -> list[Binding]:
    """``bindings`` for a screen over the board: each of the board's actions addressed to the app, which runs it
    on the board (``WarApp.action_board``); the app's own stay as they are."""
    return [
        replace(binding, action=f"app.board({binding.action!r})") if the_boards(binding) else binding
        for binding in bindings
    ]


GAME_KEYS_OVER_BOARD = over_board(GAME_BINDINGS)
"""The game's keys on the result, help, statistics and preferences screens."""
