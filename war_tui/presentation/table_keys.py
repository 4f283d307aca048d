"""The keys at a table as the help lists them: for a player, a spectator and two players at one keyboard.

A table changes what the solo game's keys mean: a key is a request to the table, a spectator's keys
do nothing, and two players share one keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence

TABLE_KEYS = (
    ("space enter f", "flip your card: the battle is played once both players have flipped"),
    ("a", "ask for auto-play (again: withdraw); it runs once both ask, at the slower speed; either stops it"),
    ("+  -", "your auto-play speed"),
    ("w", "ask to stop auto-play at every war's tie (again: withdraw); once both ask, either's space lays it"),
    ("r", "ask to deal again (again: withdraw); mid-game it stops this game, once both ask"),
    ("1-6", "emote: 1 good game, 2 what a war!, 3 again?, 4 wow, 5 unlucky, 6 thanks (one a second)"),
    ("n", "decline what the other player asks (auto-play, war stop, deal again); they are told who declined"),
    ("h", "alone at the table: the house plays the empty seat now"),
    ("", "a request the other player does not answer lapses after 30 s"),
    ("ctrl+l", "draw the whole screen again, with a fresh copy of the table (a garbled or stalled screen)"),
    ("s", "statistics"),
    ("?  esc", "this help, open and close"),
    ("ctrl+p", "command palette: every action, and themes"),
    ("q", "leave the table; mid-game with another player, q again or y leaves, any other key stays"),
)

SPECTATOR_KEYS = (
    ("space a r", "nothing: you are watching (the players flip, play auto and deal again)"),
    ("t", "take a free seat (open, the house's, or kept too long for someone away)"),
    ("Up Down", "scroll the battle log (PgUp PgDn Home End too)"),
    ("ctrl+l", "draw the whole screen again, with a fresh copy of the table (a garbled or stalled screen)"),
    ("s", "statistics"),
    ("?  esc", "this help, open and close"),
    ("ctrl+p", "command palette: every action, and themes"),
    ("q", "stop watching"),
)


TV_KEYS = (
    ("n", "the next table worth watching (War TV shows the deepest war under way, else the closest counts,"
          " else the longest game, and moves on when its game ends)"),
    *(key for key in SPECTATOR_KEYS if key[0] not in ("t", "q")),
    ("q", "leave War TV"),
)


LOBBY_KEYS = (
    ("Up Down", "choose a table"),
    ("enter p", "sit at it (or watch, when both seats are taken)"),
    ("w", "watch it"),
    ("f", "list only the tables with a free seat (again: every table)"),
    ("n", "open a new table: type its name, then enter (esc goes back)"),
    ("s", "the leaderboard: each player's table games, wins and longest game"),
    ("q", "at a table you came to from here: back to this lobby; here: leave"),
    ("?  esc", "this help, open and close"),
    ("ctrl+l", "draw the whole screen again (a garbled terminal)"),
)
"""The lobby's keys, as its help lists them."""
LEADERBOARD_KEYS = (
    ("Up Down", "move through the players (PgUp PgDn Home End too)"),
    ("tab", "this week, this month, all time (UTC)"),
    ("p  n", "the week or month before, after (past seasons are kept)"),
    ("enter", "replay the chosen player's longest game of the season"),
    ("esc  q  s", "back to the lobby"),
    ("?", "this help (esc closes it)"),
)
"""The leaderboard's keys, as its help lists them."""


def lobby_keys(leaderboard: bool) -> tuple[tuple[str, str], ...]:
    """The lobby's keys as its help lists them: ``s`` only where the server keeps a leaderboard."""
    return LOBBY_KEYS if leaderboard else tuple(key for key in LOBBY_KEYS if key[0] != "s")


def two_player_keys(names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The help names each player, so each finds their own key."""
    return (
        ("f  Left", f"{names[0]} (player 1) flips"),
        ("j  Right", f"{names[1]} (player 2) flips: the battle is played once both have flipped"),
        ("a", "auto-play on or off for both"),
        ("+  -", "faster, slower"),
        ("w  w", "stop auto-play at every war (or no longer): one asks, w again agrees for both; f or j then lays the war"),
        ("r", "at game over: deal again (f and j, one each, do too)"),
        ("Up Down k", "scroll the battle log (PgUp PgDn Home End too)"),
        ("s", "statistics"),
        ("?  esc", "this help, open and close"),
        ("ctrl+p", "command palette: every action, and themes"),
        ("ctrl+l", "draw the whole screen again (a garbled terminal)"),
        ("q", "quit"),
    )
