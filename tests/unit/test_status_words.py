"""The status line's wording: who is who in the tally, and what fits a narrow terminal."""

import pytest

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
    assert line(tally=(3, 5, 1, 2)).endswith("Wins Player 1 3-5 Player 2, 1 drawn, 2 stopped")


def test_a_busy_line_gives_up_the_least_important_parts_first_and_names_last():
    typical = dict(battles=234, wars=12, speed=0.5, pause_on_war=True, tally=(2, 1, 0, 0))
    at_100 = line(98, **typical)
    assert at_100 == "seed 3466761160 · Battle 234 · Wars 12 · auto off (0.5/s) · war stop · Wins Player 1 2-1 Player 2"
    busiest = dict(battles=9_999, wars=612, speed=0.5, pause_on_war=True, tally=(12, 10, 3, 4))
    assert line(98, **busiest) == (
        "Battle 9,999 · Wars 612 · auto off · war stop · Wins Player 1 12-10 Player 2, 3 drawn, 4 stopped"
    )
    assert line(78, **busiest) == "Battle 9,999 · auto off · war stop · Wins Player 1 12-10 Player 2"


@pytest.mark.parametrize("names", [("a", "S2"), ("山田", "Ü"), ("Alice", "Bob"), ("Player 1", "Player 2"),
                                   ("Sixteen-letters!", "山田太郎山田太郎")])
@pytest.mark.parametrize("auto", [True, False])
def test_at_80_columns_names_and_the_battle_number_stay_whole(names, auto):
    for seed in (7, 3466761160, 2**63 - 1, None):
        text = line(78, seed=seed, battles=1_234, wars=56, auto=auto, tally=(12, 10, 1, 1), names=names)
        assert cell_width(text) <= 78, text
        assert "Battle 1,234" in text, text
        assert f"Wins {names[0]} 12-10 {names[1]}" in text, text


@pytest.mark.parametrize("seed", [7, 3466761160, None])
def test_a_game_is_never_named_without_its_seed(seed):
    seed_words = "hand-made deal" if seed is None else f"seed {seed}"
    texts = [line(width, number=12, seed=seed, battles=1_234, wars=56, tally=(12, 10, 1, 1)) for width in range(20, 200)]
    named = [text for text in texts if "Game 12" in text]
    assert len(named) >= 60, named  # every width the whole line fits names the game: the check below always runs
    for text in named:
        assert text.startswith(f"Game 12 ({seed_words}) · "), text


def test_after_a_stopped_game_the_narrow_line_shows_whole_pieces_within_its_width():
    for width in range(20, 100):
        text = line(width, wars=1, over=True, tally=(0, 0, 0, 1))
        assert cell_width(text) <= width or width < 18, (width, text)
        assert not text.endswith(("Wins P1 0-0 P2, 1", ",", ":")), text


def test_wide_names_are_never_cut_mid_character_however_narrow():
    for width in range(10, 100):
        text = line(width, battles=18, wars=1, auto=True, tally=(3, 2, 0, 1), names=("山田", "Ünïcødé山田"))
        tally = text.split(" · ")[-1]
        assert tally.startswith(("Wins 山", "山")) and (cell_width(text) <= width or text.startswith("Wins")), (width, text)


def test_the_compact_layout_keeps_the_battle_number_and_the_tally_as_a_score():
    typical = dict(battles=1_234, wars=56, auto=True, tally=(3, 2, 0, 0))
    assert line(44, **typical) == "Battle 1,234 · auto 4/s · Wins P1 3-2 P2"
    assert line(42, **typical, names=("Ann", "Bob")) == "Battle 1,234 · auto 4/s · Wins Ann 3-2 Bob"
    assert line(38, **typical, names=("Ann", "Bob")) == "Battle 1,234 · auto 4/s · Ann 3-2 Bob"
    assert line(36, **typical, names=("Annabel", "Bob")) == "Battle 1,234 · auto 4/s · A 3-2 B"
    assert line(38, wars=1) == "Battle 0 · auto off · Wins P1 0-0 P2"


def test_auto_play_at_game_over_says_plainly_that_it_plays_the_next_deal():
    assert "auto 4/s ·" in line(auto=True)
    assert "auto 4/s from the next deal" in line(120, auto=True, over=True)
    assert "next deal" not in line(120, auto=True, over=True).replace("auto 4/s from the next deal", "")
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


def test_a_screen_behind_its_table_says_it_is_catching_up_after_the_battle_it_shows():
    text = line(98, battles=27, tally=(1, 0, 0, 0), behind=True)
    assert "Battle 27 · Wars 0 · catching up… · auto off" in text and cell_width(text) <= 98
    assert "catching up... " in line(98, glyphs=ASCII, behind=True)
    assert "catching up" not in line(98, battles=27)
    for width in range(40, 100):
        assert cell_width(line(width, battles=1_234, wars=56, tally=(12, 10, 1, 1), behind=True)) <= width
