"""The game's keys, shared by the board and every screen over it.

Modal screens stop the App's own bindings, so the result and help screens
carry these too (their actions are addressed to the app): every key works at
any moment.
"""

from __future__ import annotations

from textual.binding import Binding

SPEED_KEYS = Binding.Group("Speed", compact=True)
FLIP_KEYS = ("space", "enter", "f")
SEAT_FLIP_KEYS = (("f", "left"), ("j", "right"))
"""Each player's flip keys at one keyboard (``--two-players``): like ``FLIP_KEYS`` they show a war being laid
whole themselves (``seat_flip``), and flip nothing then; any other key shows it whole before doing its own job."""

GAME_BINDINGS = [
    Binding(",".join(FLIP_KEYS), "app.flip", "Flip", key_display="space"),
    Binding("a", "app.auto", "Auto"),
    Binding("plus,equals_sign", "app.faster", "Faster", key_display="+", group=SPEED_KEYS),
    Binding("minus,underscore", "app.slower", "Slower", key_display="-", group=SPEED_KEYS),
    Binding("w", "app.pause_on_war", "War stop"),
    Binding("r", "app.restart", "Restart"),
    Binding("s", "app.stats", "Stats"),
    Binding("question_mark", "app.help", "Help", key_display="?"),
    # Ctrl-C quits as q does, instead of Textual's "press ctrl+q to quit" notice.
    Binding("q,ctrl+c", "app.quit", "Quit", key_display="q"),
]

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
