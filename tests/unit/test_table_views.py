"""A late joiner's board from a table's log, and the seats line's words, without a screen."""

from __future__ import annotations

from test_tables_support import Recorder, make_table

from war_tui.core.engine import Game
from war_tui.presentation.glyphs import ASCII
from war_tui.presentation.seats import seats_pieces
from war_tui.presentation.table_views import board_steps
from war_tui.tables import TableGame


def joined_late(battles: int, log_lines: int = 100) -> tuple[TableGame, Game]:
    table, _clock = make_table(lambda: Game.deal(7), log_lines=log_lines)
    ann, bob = table.join("ann", Recorder()), table.join("bob", Recorder())
    for _ in range(battles):
        ann.flip()
        bob.flip()
    screen = TableGame()
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
    screen = TableGame()
    table.join("eve", screen.handle)
    text = "".join(t for t, _ in seats_pieces(screen.state, screen.you, ASCII, 200))
    assert text == ("Table oak | ann flipped | bob to flip | waiting for bob to flip | 1 spectator"
                    " | you are watching")
    narrow = "".join(t for t, _ in seats_pieces(screen.state, screen.you, ASCII, 80))
    assert narrow.startswith("oak | ann flipped") and narrow.endswith("you are watching")
