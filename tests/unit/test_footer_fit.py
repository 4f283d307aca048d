"""Which keys the footer keeps at each width: every key whole, the least needed leaving first, nothing left out
that would fit. The screens' own footers are checked at a few widths in the app tests; here every width."""

from __future__ import annotations

import pytest

from war_tui.presentation.footer import (
    LOBBY_FOOTER,
    PALETTE,
    SEAT_FOOTER,
    SOLO_FOOTER,
    TWO_PLAYER_FOOTER,
    WATCHING_FOOTER,
    KeyHint,
    fit,
    palette_width,
    units,
)


def hint(display: str, description: str, action: str, group: str | None = None) -> KeyHint:
    return KeyHint(key=display, display=display, description=description, action=action, group=group)


FLIP, AUTO = hint("space", "Flip", "flip"), hint("a", "Auto", "auto")
SPEED = [hint("+", "Faster", "faster", "Speed"), hint("-", "Slower", "slower", "Speed")]
REST = [hint("w", "War stop", "pause_on_war"), hint("r", "Restart", "restart"), hint("s", "Stats", "stats"),
        hint("?", "Help", "help"), hint("q", "Quit", "quit")]
PALETTE_KEY = hint("^p", "palette", PALETTE)
SOLO = [FLIP, AUTO, *SPEED, *REST, PALETTE_KEY]
TWO_PLAYERS = [hint("f", "P1 flip", "p1_flip"), hint("j", "P2 flip", "p2_flip"), AUTO, *SPEED, *REST, PALETTE_KEY]
SEAT = [FLIP, AUTO, *SPEED, *REST[:2], hint("1-6", "Emote", "emote"), *REST[2:], PALETTE_KEY]
WATCHING = [*SOLO[:-1], hint("t", "Sit", "sit"), PALETTE_KEY]  # no emote: only a seat has it
LOBBY = [hint("enter", "Sit", "sit"), hint("w", "Watch", "watch"), hint("f", "Free seats", "free_seats"),
         hint("n", "New table", "new_table"), hint("s", "Leaders", "leaderboard"), hint("q", "Quit", "quit"),
         REST[3], PALETTE_KEY]
"""The lobby's own keys (``s`` is its leaderboard, not the statistics), then the app's."""
WAYS = {"solo": (SOLO, SOLO_FOOTER), "two players": (TWO_PLAYERS, TWO_PLAYER_FOOTER), "seat": (SEAT, SEAT_FOOTER),
        "watching": (WATCHING, WATCHING_FOOTER), "lobby": (LOBBY, LOBBY_FOOTER)}
NEEDED = {"solo": {"flip", "auto", "help", "quit"}, "two players": {"p1_flip", "p2_flip", "auto", "help", "quit"},
          "seat": {"flip", "auto", "help", "quit"}, "watching": {"sit", "help", "quit"},
          "lobby": {"sit", "watch", "free_seats", "help", "quit"}}


def row_width(shown) -> int:
    return sum(unit.width for unit in shown) + max(len(shown) - 1, 0)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_at_every_width_the_keys_fit_whole_and_the_least_needed_leave_first(way):
    hints, plan = WAYS[way]
    everything = {hint.action for hint in hints} - plan.hides
    for width in range(30, 141):
        shown, palette = fit(hints, width, plan)
        actions = {action for unit in shown for action in unit.actions} | ({PALETTE} if palette else set())
        room = width - (palette_width(palette) if palette else 0)
        assert row_width(shown) <= room, (way, width)
        # What left is the plan's order's start (the speed group whole, "faster" named).
        present = [action for action in plan.drops if action in everything]
        gone = [action for action in present if action not in actions]
        assert gone == present[: len(gone)], (way, width)
        if width >= 40:  # narrower, the last keys of the row leave too
            assert everything - actions <= {*gone, "slower"}, (way, width)
        assert not actions & plan.hides
        if width >= 45:
            assert NEEDED[way] <= actions, (way, width, actions)
        if width >= 120:
            assert actions == everything, (way, width)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_no_key_is_left_out_that_would_have_fit(way):
    hints, plan = WAYS[way]
    for width in range(40, 141):
        shown, palette = fit(hints, width, plan)
        kept = {action for unit in shown for action in unit.actions} | ({PALETTE} if palette else set())
        present = [hint.action for hint in hints if hint.action not in plan.hides]
        last = next((action for action in reversed(plan.drops) if action in present and action not in kept), None)
        if last is None:
            continue
        back = kept | {last}
        row = [unit for unit in units([h for h in hints if h.action != PALETTE]) if unit.actions <= back | {"slower"}
               and unit.actions & back]
        room = width - (palette_width(PALETTE_KEY) if PALETTE in back else 0)
        assert row_width(row) > room, (way, width, last)


def test_the_solo_footer_reads_as_a_terminal_footer_does():
    shown, palette = fit(SOLO, 100, SOLO_FOOTER)
    assert " ".join(unit.text for unit in shown) == "space Flip a Auto +- Speed w War stop r Restart s Stats ? Help q Quit"
    assert palette == PALETTE_KEY
    assert [unit.text for unit in fit(SOLO, 79, SOLO_FOOTER)[0]][-3:] == ["r Restart", "? Help", "q Quit"]


def test_keys_of_one_group_are_drawn_as_one_unit_with_its_label():
    grouped = units([FLIP, *SPEED, hint("x", "Lone", "lone", "Solo group"), AUTO])
    assert [unit.text for unit in grouped] == ["space Flip", "+- Speed", "x Lone", "a Auto"]


def test_a_spectator_never_sees_the_players_keys_however_wide():
    shown, _ = fit(WATCHING, 200, WATCHING_FOOTER)
    assert [unit.text for unit in shown] == ["s Stats", "? Help", "q Quit", "t Sit"]


def test_the_lobby_footer_names_every_key_at_80_columns():
    shown, palette = fit(LOBBY, 80, LOBBY_FOOTER)
    assert " ".join(unit.text for unit in shown) == "enter Sit w Watch f Free seats n New table s Leaders q Quit ? Help"
    assert palette == PALETTE_KEY
