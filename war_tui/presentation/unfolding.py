"""A war laid step by step: how long each step stays, up to which auto-play speed, and what the pile says meanwhile."""

from __future__ import annotations

from .words import plural, war_word

WAR_STEP = 0.4
"""Seconds each step of a war stays on the pile before the next is laid."""
WATCHABLE_SPEED = 2.0
"""Auto-play speeds up to this (battles a second) leave time to lay a war step by step; faster, it appears whole."""


def war_step_wordings(wars: int, face_up: bool, tie: tuple[str, str], war_cards: int) -> tuple[tuple[str, str], ...]:
    """The pile's two lines while a war is on the table but not decided, (what is happening, the detail), in
    every wording from the fullest to the shortest: a narrow pile says the shortest that fits whole.

    ``wars``: the war the cards on show belong to; ``face_up``: the last cards laid are a tied pair
    (``tie``, as labels), else the war's face-down cards.
    """
    headline = war_word(wars).capitalize() + "!"
    if face_up:
        return ((headline, f"{tie[0]} ties {tie[1]}"),)
    down = plural(war_cards, "card")
    return (
        (headline, f"{down} face down each, then the next cards decide"),
        (headline, f"{down} face down each"),
        (headline, f"{down} down each"),
    )


def stopped_at_war_text(lay_keys: str = "space") -> str:
    """What auto-play says when "stop at wars" holds it at a tie; ``lay_keys``: the keys that lay the war."""
    return f"War! {lay_keys} lays the war cards, a carries on, w stops stopping"
