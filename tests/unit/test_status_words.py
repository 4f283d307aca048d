"""The status line's wording: who is who in the tally, and what fits a narrow terminal."""

from war_tui.presentation.cells import cell_width
from war_tui.presentation.glyphs import ASCII, UNICODE
from war_tui.presentation.speed import MAX
from war_tui.presentation.status import initials, status_pieces


def line(width=98, **changes):
    values = dict(
        number=1, seed=3466761160, battles=0, wars=0, auto=False, speed=4.0, pause_on_war=False,
        over=False, tally=(0, 0, 0, 0), names=("Player 1", "Player 2"), glyphs=UNICODE, width=width,
    )
    values.update(changes)
    return "".join(text for text, _ in status_pieces(**values))


def test_the_tally_shows_from_the_first_deal_and_names_who_won_what():
    assert line().endswith("Wins Player 1: 0, Player 2: 0")
    assert line(tally=(3, 5, 0, 0), names=("Ann", "Bob")).endswith("Wins Ann: 3, Bob: 5")
    assert line(tally=(3, 5, 1, 2)).endswith(": 3, P2: 5, 1 drawn, 2 stopped")


def test_a_busy_line_gives_up_full_names_then_the_battle_number_but_never_the_tally():
    typical = dict(battles=234, wars=12, speed=0.5, pause_on_war=True, tally=(2, 1, 0, 0))
    at_100 = line(98, **typical)
    assert "seed 3466761160" in at_100 and "Wins P1: 2, P2: 1" in at_100 and "war stop" in at_100
    assert cell_width(at_100) <= 98
    busiest = dict(battles=9_999, wars=612, speed=0.5, pause_on_war=True, tally=(12, 10, 3, 4))
    text = line(98, **busiest)
    assert text == "seed 3466761160 · Wars 612 · auto off (0.5/s) · war stop · Wins P1: 12, P2: 10, 3 drawn, 4 stopped"
    assert line(78, **busiest) == "Wars 612 · auto off · war stop · Wins P1 12-10 P2, 3 drawn, 4 stopped"


def test_the_seed_stays_at_80_columns_however_long_it_is():
    for tally in ((0, 0, 0, 0), (3, 2, 0, 1)):
        text = line(78, battles=1_234, wars=56, auto=True, tally=tally, names=("Alice", "Bob"))
        assert "seed 3466761160" in text and cell_width(text) <= 78, text


def test_a_game_is_never_named_without_its_seed():
    for width in range(20, 120):
        for seed in (7, 3466761160, None):
            text = line(width, seed=seed, battles=1_234, wars=56, tally=(12, 10, 1, 1))
            if "Game 1" in text:
                assert ("hand-made deal" if seed is None else f"seed {seed}") in text


def test_after_a_stopped_game_the_narrow_line_shows_whole_pieces_within_its_width():
    for width in range(20, 100):
        text = line(width, wars=1, over=True, tally=(0, 0, 0, 1))
        assert cell_width(text) <= width or width < 30, (width, text)
        assert not text.endswith(("Wins P1 0-0 P2, 1", ",", ":")), text


def test_the_compact_layout_keeps_the_tally_as_a_score_and_leaves_the_battle_number_to_the_pile():
    typical = dict(battles=1_234, wars=56, auto=True, tally=(3, 2, 0, 0))
    assert line(44, **typical) == "Wars 56 · auto 4/s · Wins P1 3-2 P2"
    assert line(36, **typical, speed=0.5, names=("Ann", "Bob")) == "Wars 56 · auto 0.5/s · Wins A 3-2 B"
    assert "Battle 1,234 · Wars 56" in line(98, **typical)  # wide enough: the battle number stays
    # 40 columns: auto-play off says so without its speed, and the whole tally still fits.
    assert line(38, wars=1) == "Wars 1 · auto off · Wins P1 0-0 P2"
    assert line(38, wars=1, over=True, tally=(0, 0, 0, 1)) == "auto off · Wins P1 0-0 P2, 1 stopped"


def test_auto_play_reads_as_waiting_for_the_next_deal_once_the_game_is_over():
    assert "auto 4/s ·" in line(auto=True)
    assert "auto 4/s next deal" in line(auto=True, over=True)
    assert "auto off (max)" in line(speed=MAX, over=True)
    assert "|" in line(glyphs=ASCII) and "·" not in line(glyphs=ASCII)


def test_initials_tell_the_players_apart_or_fall_back_to_p1_p2():
    assert initials(("Player 1", "Player 2")) == ("P1", "P2")
    assert initials(("Ann Lee", "Bob")) == ("AL", "B")
    assert initials(("Alice", "Amy")) == ("P1", "P2")


def test_cell_width_counts_wide_characters_twice():
    assert cell_width("Bob") == 3
    assert cell_width("山田太郎") == 8
    assert cell_width("5♥") == 2
