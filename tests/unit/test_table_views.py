"""A late joiner's board from a table's log, and the seats line's words, without a screen."""

from __future__ import annotations

import pytest
from support.deals import QUICK_WIN
from support.tables import Recorder, make_table

from war_tui.core.engine import Game
from war_tui.presentation.glyphs import ASCII
from war_tui.presentation.seats import seats_pieces
from war_tui.presentation.table_views import board_steps
from war_tui.tables import RemoteGame


def joined_late(battles: int, log_lines: int = 100) -> tuple[RemoteGame, Game]:
    table, _clock = make_table(lambda: Game.deal(7), log_lines=log_lines)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    for _ in range(battles):
        ann.flip()
        bob.flip()
    screen = RemoteGame()
    table.join("eve", screen.handle)
    return screen, table.game


def test_board_steps_replay_every_logged_battle_and_end_on_the_battle_on_show():
    screen, game = joined_late(20)
    steps = board_steps(screen)
    battles = [view for kind, view in steps if kind == "battle" and view is not None]
    assert [b.battle for b in battles] == list(range(1, 21))
    assert battles[-1].counts == game.counts and battles[-1].total_wars == game.wars
    assert [view.number for kind, view in steps if kind == "deal" and view is not None] == [1]
    assert sum(1 for kind, _ in steps if kind == "note") == 2  # ann and bob sat down


def test_board_steps_of_a_game_longer_than_the_log_start_from_a_deal_line_and_count_every_war():
    screen, game = joined_late(150)
    steps = board_steps(screen)
    deals = [view for kind, view in steps if kind == "deal" and view is not None]
    assert len(deals) == 1 and deals[0].number == 1 and deals[0].seed == 7
    battles = [view for kind, view in steps if kind == "battle" and view is not None]
    assert battles[-1].battle == 150 and battles[-1].total_wars == game.wars


def test_the_seats_line_says_who_flipped_whom_the_table_waits_for_and_that_you_watch():
    table, _clock = make_table(lambda: Game.deal(7))
    ann = table.join("ann", Recorder())
    table.join("bob", Recorder())
    ann.flip()
    screen = RemoteGame()
    table.join("eve", screen.handle)
    text = "".join(t for t, _ in seats_pieces(screen.state, screen.you, ASCII, 200))
    assert text == ("Table oak | ann flipped | bob to flip | waiting for bob to flip | 1 spectator"
                    " | you are watching")
    narrow = "".join(t for t, _ in seats_pieces(screen.state, screen.you, ASCII, 80))
    assert narrow.startswith("oak | ann flipped") and narrow.endswith("you are watching")


def test_a_seat_kept_after_a_restore_is_said_to_be_waited_for_with_the_houses_whole_countdown():
    """bob back after a restart, flipped; ann not back yet: her seat is kept and the table waits for her, so the
    seats line never says the house plays it, nor that both flipped (before: "ann away, the house plays ·
    both flipped", while nothing moved for the seat timeout and the countdown showed only its last 20 s)."""
    from war_tui.presentation.requests import request_lines
    from war_tui.tables.checkpoint import checkpoint, restore

    table, clock = make_table(lambda: Game.deal(7))
    table.join("ann", Recorder(), identity="key:ann")
    table.join("bob", Recorder(), identity="key:bob")
    again = restore(checkpoint(table), clock=clock, options=table.options)
    screen = RemoteGame()
    bob = again.join("bob", screen.handle, identity="key:bob")
    bob.flip()
    text = "".join(t for t, _ in seats_pieces(screen.state, screen.you, ASCII, 200))
    assert text == "Table oak | ann away (kept), to flip | bob (you) flipped | waiting for ann to flip"
    assert "house plays" not in text
    assert request_lines(screen.state, screen.you, ("ann", "bob"), house_in=60) == ("the house flips for ann in 60 s",)


def test_an_older_game_in_the_log_gets_no_duration_only_the_game_on_the_table_does():
    """The snapshot tells how long the table's current game has run; an older game's time is not known."""
    from war_tui.tables import Restart

    table, _clock = make_table(lambda: Game(*QUICK_WIN))
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    for _ in range(2):  # two one-battle games: the first is over and dealt again, the second is over
        ann.flip()
        bob.flip()
        if table.game.over and table.game_number < 2:
            ann.request(Restart())
            bob.request(Restart())
    screen = RemoteGame()
    table.join("eve", screen.handle)
    results = [view for kind, view in board_steps(screen, 42.0) if kind == "result" and view is not None]
    assert [end.seconds for end in results] == [None, 42.0]


# ------------------------------------------------------------------ the seats line at every width

LONG = ("annabelle-longna", "bartholomew-16ch")
WIDE = ("山田太郎山田太郎", "Ünïcødé山田")


def flipped_by_seat_1(names: tuple[str, str], emote: str = ""):
    from war_tui.tables import You

    table, _clock = make_table(lambda: Game.deal(7))
    ann = table.join(names[0], Recorder())
    table.join(names[1], Recorder())
    table.join("zoe", Recorder(), watch=True)
    ann.flip()
    return table.state(), You(names[0], ann.seat)


def shown_as(name: str, text: str) -> str:
    """How ``text`` shows ``name``: whole, shortened at a character's edge (at least two cells and an
    ellipsis), or not at all."""
    from war_tui.presentation.cells import cell_width, cut_cells

    if name in text:
        return "whole"
    for cells in range(cell_width(name) - 1, 1, -1):
        start = cut_cells(name, cells)
        if start + "…" in text:
            return "shortened" if cell_width(start) >= 2 else "cut"
    return "missing"


@pytest.mark.parametrize("names", [LONG, WIDE], ids=["long", "wide"])
@pytest.mark.parametrize("width", [38, 58, 78])  # the line's room at 40, 60 and 80 columns
@pytest.mark.parametrize("view", ["player", "spectator"])
def test_the_seats_line_keeps_both_seats_whole_and_drops_the_least_important_parts_first(names, width, view):
    from war_tui.presentation.cells import cell_width
    from war_tui.presentation.glyphs import UNICODE
    from war_tui.tables import You

    state, ann = flipped_by_seat_1(names)
    you = ann if view == "player" else You("eve", None)
    text = "".join(t for t, _ in seats_pieces(state, you, UNICODE, width, emotes=("wow", "")))
    assert cell_width(text) <= width, text
    assert "flipped · " in text and (text.endswith("to flip") or "to flip · " in text), text  # both seats' words
    other = shown_as(names[1], text)
    assert other in ("whole", "shortened"), text
    if view == "player":
        assert "you" in text
    else:
        assert shown_as(names[0], text) in ("whole", "shortened"), text
    if width >= 58:
        assert other == "whole", text  # a name that fits is never shortened


def test_the_seats_line_gives_up_the_spectators_and_what_the_table_waits_for_before_any_name():
    from war_tui.presentation.glyphs import UNICODE

    state, ann = flipped_by_seat_1(LONG)
    full = "".join(t for t, _ in seats_pieces(state, ann, UNICODE, 200))
    assert full.startswith("Table oak · annabelle-longna (you) flipped") and full.endswith("1 spectator")
    at_78 = "".join(t for t, _ in seats_pieces(state, ann, UNICODE, 78))
    assert at_78 == "oak · annabelle-longna (you) flipped · bartholomew-16ch to flip"
    at_38 = "".join(t for t, _ in seats_pieces(state, ann, UNICODE, 38))
    assert at_38 == "you flipped · bartholomew-16ch to flip"


def test_the_seats_line_uses_initials_only_where_no_name_fits_and_never_ends_inside_a_piece():
    from war_tui.presentation.glyphs import UNICODE
    from war_tui.tables import You

    state, _ann = flipped_by_seat_1(LONG)
    eve = You("eve", None)
    at_30 = "".join(t for t, _ in seats_pieces(state, eve, UNICODE, 30))
    assert at_30 == "anna… flipped · barth… to flip"
    at_26 = "".join(t for t, _ in seats_pieces(state, eve, UNICODE, 26))
    assert at_26 == "an… flipped · bar… to flip"
    at_24 = "".join(t for t, _ in seats_pieces(state, eve, UNICODE, 24))
    assert at_24 == "a flipped · b to flip"
    at_12 = "".join(t for t, _ in seats_pieces(state, eve, UNICODE, 12))
    assert at_12 == "a flipped"  # the line ends before the piece that does not fit
