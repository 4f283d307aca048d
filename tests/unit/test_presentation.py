"""The pure choices behind the screen: glyphs, words, speeds and little charts."""

import dataclasses
import math
import sys
from types import SimpleNamespace

import pytest

from war_tui.core.cards import parse_card, parse_cards
from war_tui.core.pace import tick_plan
from war_tui.presentation.canvas import Canvas, framed
from war_tui.presentation.cards_art import card_back, card_face, card_label, fan_step, laid_layout
from war_tui.presentation.charts import CountHistory, bar_split, resample, spark_rows, stack_edges
from war_tui.presentation.glyphs import ASCII, UNICODE, choose_glyphs, locale_is_utf8, python_may_have_coerced
from war_tui.presentation.log_lines import log_battle_line
from war_tui.presentation.speed import MAX, SPEEDS, SpeedError, faster, parse_speed, slower, speed_label
from war_tui.presentation.words import TWO_PLAYER_HINTS, hint_lines, outcome_text, war_word


@pytest.mark.parametrize(
    "environ, utf8",
    [
        ({"LANG": "en_US.UTF-8"}, True),
        ({"LANG": "de_DE.utf8"}, True),
        ({"LANG": "C"}, False),
        ({"LANG": "POSIX"}, False),
        ({}, False),  # nothing set: the C locale
        ({"LANG": ""}, False),  # set but empty counts as unset
        ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False),  # LC_ALL wins
        ({"LC_ALL": "en_US.UTF-8", "LANG": "C"}, True),
        ({"LC_ALL": "", "LC_CTYPE": "C", "LANG": "en_US.UTF-8"}, False),  # then LC_CTYPE
        ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, True),
        ({"LC_CTYPE": "C.UTF-8"}, True),
        ({"LC_CTYPE": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"}, False),
        ({"LC_MESSAGES": "en_US.UTF-8"}, False),  # not where the character set is read
    ],
)
def test_locale_decides_whether_the_terminal_can_show_utf8(environ, utf8):
    assert locale_is_utf8(environ) is utf8


@pytest.mark.parametrize(
    "environ, utf8",
    [
        ({"LC_CTYPE": "C.UTF-8"}, False),  # Python found nothing set: the C locale
        ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, False),
        ({"LC_CTYPE": "C.utf8", "LANG": "POSIX"}, False),
        ({"LC_CTYPE": "C.UTF-8", "LANG": "en_US.UTF-8"}, True),  # named, if not installed here
        ({"LC_CTYPE": "en_US.UTF-8"}, True),  # not a locale Python sets
        ({"LC_ALL": "C.UTF-8"}, True),  # Python never sets LC_ALL
    ],
)
def test_an_lc_ctype_python_may_have_set_for_itself_is_not_the_persons(environ, utf8):
    assert locale_is_utf8(environ, python_coerced=True) is utf8


def test_python_may_have_coerced_only_in_its_utf8_mode_unless_pythonutf8_chose_it(monkeypatch):
    monkeypatch.setattr(sys, "flags", SimpleNamespace(utf8_mode=1))
    assert python_may_have_coerced({})
    monkeypatch.setattr(sys, "flags", SimpleNamespace(utf8_mode=0))
    assert not python_may_have_coerced({"LC_CTYPE": "C.UTF-8"})
    assert python_may_have_coerced({"PYTHONUTF8": "0"})


def test_ascii_when_asked_or_when_the_locale_cannot_show_symbols():
    assert choose_glyphs(False, {"LANG": "en_US.UTF-8"}) is UNICODE
    assert choose_glyphs(True, {"LANG": "en_US.UTF-8"}) is ASCII
    assert choose_glyphs(False, {"LANG": "C"}) is ASCII


def test_ascii_glyphs_are_plain_ascii_and_unicode_suits_are_single_width_text_symbols():
    for field in dataclasses.fields(ASCII):
        value = getattr(ASCII, field.name)
        for text in value if isinstance(value, tuple) else [value]:
            assert not isinstance(text, str) or text.isascii(), field.name
    assert UNICODE.suits == "♣♦♥♠"
    assert all(0x2660 <= ord(ch) <= 0x2667 for ch in UNICODE.suits)  # no emoji variation selectors


def test_card_labels_use_10_for_tens_and_letters_in_ascii():
    assert card_label(parse_card("TH"), UNICODE) == "10♥"
    assert card_label(parse_card("AS"), UNICODE) == "A♠"
    assert card_label(parse_card("QD"), ASCII) == "QD"


def test_card_faces_and_backs_are_the_same_size_and_framed():
    face = card_face(parse_card("TH"), UNICODE)
    back = card_back(UNICODE)
    assert [len(line) for line in face] == [len(line) for line in back] == [5, 5, 5, 5]
    assert face[1] == "│10♥│" and face[2] == "│  ♥│"
    assert card_face(parse_card("7C"), ASCII) == ["+---+", "|7C |", "|  C|", "+---+"]


def test_laid_cards_alternate_face_up_and_war_cards_face_down():
    laid = parse_cards("7C 3C 9S 4C 5C")
    assert [up for _, up in laid_layout(laid, 1)] == [True, False, True, False, True]
    laid3 = parse_cards("7C 2C 3C 4C 9S")
    assert [up for _, up in laid_layout(laid3, 3)] == [True, False, False, False, True]


def test_fanned_cards_fit_their_width_by_overlapping():
    assert fan_step(3, 80) == 6  # side by side with a gap
    step = fan_step(13, 40)
    assert (13 - 1) * step + 5 <= 40 and step >= 1
    assert fan_step(100, 10) == 1


def test_outcomes_are_said_plainly():
    assert outcome_text("Player 1", 6, 1) == "Player 1 takes 6 cards after a war"
    assert outcome_text("Bob", 2, 0) == "Bob takes 2 cards"
    assert outcome_text(None, 4, 1) == "Nobody takes the pile"
    assert [war_word(d) for d in (1, 2, 3, 5)] == ["war", "double war", "triple war", "5-deep war"]


def test_a_name_that_reads_like_a_placeholder_is_shown_as_given():
    assert hint_lines(TWO_PLAYER_HINTS, 80, 2, ("{p2}", "Bob")) == ["{p2} flips with f or Left, Bob with j or Right"]


def test_speeds_run_from_one_battle_every_two_seconds_to_max():
    assert parse_speed("0.5") == 0.5 and parse_speed("4") == 4 and parse_speed(" MAX ") == MAX
    for bad in ("0.1", "fast", "nan", "inf", "-2", "5000"):
        with pytest.raises(SpeedError):
            parse_speed(bad)
    assert SPEEDS[0] == 0.5 and SPEEDS[-1] == MAX
    assert faster(4) == 8 and faster(3) == 4 and faster(MAX) == MAX
    assert slower(4) == 2 and slower(0.5) == 0.5 and slower(MAX) == SPEEDS[-2]
    assert speed_label(0.5) == "0.5/s" and speed_label(4.0) == "4/s" and speed_label(MAX) == "max"


def test_fast_speeds_tick_at_the_frame_rate_not_faster():
    assert tick_plan(2) == (0.5, 1.0)
    interval, per_tick = tick_plan(120)
    assert interval == pytest.approx(1 / 30) and per_tick == pytest.approx(4)
    interval, per_tick = tick_plan(MAX)
    assert interval == pytest.approx(1 / 30) and math.isinf(per_tick)


def test_stack_thickness_follows_the_count():
    assert stack_edges(0, 52, 13) == 0 and stack_edges(1, 52, 13) == 0
    assert stack_edges(2, 52, 13) == 1
    assert stack_edges(52, 52, 13) == 13
    assert stack_edges(10, 52, 13) < stack_edges(30, 52, 13)


def test_the_card_bar_never_rounds_a_holder_away():
    assert bar_split(26, 26, 40) == 20
    assert bar_split(51, 1, 20) == 19
    assert bar_split(1, 51, 20) == 1
    assert bar_split(52, 0, 20) == 20 and bar_split(0, 52, 20) == 0
    assert bar_split(5, 5, 0) == 0


def test_count_history_stays_bounded_for_any_game_length():
    history = CountHistory(capacity=64)
    for battle in range(10_000):
        history.add(battle % 52)
    assert len(history.samples) < 64
    assert history.stride > 1


def test_resampling_averages_and_never_stretches():
    assert resample([1, 2, 3], 10) == [1.0, 2.0, 3.0]
    assert resample([0, 52, 0, 52], 2) == [26.0, 26.0]
    assert resample([], 5) == []


def test_sparkline_rows_use_a_fixed_scale():
    rows = spark_rows([0, 26, 52], 2, 52, UNICODE)
    assert rows == [" " + " " + "█", " " + "█" + "█"]
    assert spark_rows([1], 1, 52, UNICODE) == ["▁"]  # a card held is never drawn as none


def test_canvas_paints_later_cards_over_earlier_ones_and_merges_runs():
    canvas = Canvas(6, 1)
    canvas.text(0, 0, "aaaa", "x")
    canvas.text(2, 0, "bbbbbb", "y")  # clipped at the edge
    assert canvas.lines() == ["aabbbb"]
    assert canvas.runs() == [[("aa", "x"), ("bbbb", "y")]]


def test_log_lines_name_the_cards_the_winner_and_the_war():
    pieces = log_battle_line(12, parse_card("KS"), parse_card("9D"), "Alice", 6, 1, (30, 22), UNICODE)
    text = "".join(t for t, _ in pieces)
    assert "12" in text and "K♠" in text and "9♦" in text and "WAR!" in text
    assert "Alice takes 6 cards" in text and "30·22" in text
    assert ("9♦".rjust(3), "red") in pieces


def test_a_war_line_in_the_log_shows_the_tie_then_the_deciding_pair_within_80_columns():
    from war_tui.presentation.glyphs import ASCII

    tie = (parse_card("5H"), parse_card("5C"))
    text = "".join(t for t, _ in log_battle_line(
        30, parse_card("4S"), parse_card("8H"), "Player 2", 6, 1, (20, 32), UNICODE, tie
    ))
    assert text == "    30   5♥ v  5♣ WAR → 4♠ v 8♥  Player 2 takes 6 cards  20·32"
    longest = "".join(t for t, _ in log_battle_line(
        9999, parse_card("TS"), parse_card("8H"), "A" * 16, 14, 4, (40, 12), ASCII, (parse_card("TH"), parse_card("TC"))
    ))
    assert "10H v 10C QUADRUPLE WAR -> 10S v 8H  " in longest
    assert len(longest.split("cards")[0] + "cards") <= 80 - 3  # only the dim counts may go past the log's edge


def test_the_deepest_war_reads_as_words_with_the_right_article():
    from war_tui.presentation.words import deepest_war_text

    assert [deepest_war_text(n) for n in (0, 1, 2, 3, 4, 5, 8, 11)] == [
        "no war", "a single war", "a double war", "a triple war", "a quadruple war", "a 5-deep war",
        "an 8-deep war", "an 11-deep war",
    ]


def test_durations_read_the_same_for_one_game_and_for_a_lifetime():
    from war_tui.presentation.words import duration_text

    assert [duration_text(s) for s in (0.2, 1, 42, 60, 185, 3600, 7 * 3600 + 125, 1000 * 3600)] == [
        "under a second", "1 s", "42 s", "1 min", "3 min 5 s", "1 h 0 min", "7 h 2 min", "1,000 h 0 min",
    ]


def test_numbers_have_thousands_separators_and_a_decimal_only_when_needed():
    from war_tui.presentation.words import number, plural

    assert [number(v) for v in (None, 7, 1234567, 12.0, 1234.56)] == ["-", "7", "1,234,567", "12", "1,234.6"]
    assert plural(1, "game") == "1 game" and plural(2048, "game") == "2,048 games"


def test_the_help_says_where_won_cards_go_in_plain_words():
    from war_tui.core.rules import Rules
    from war_tui.ui.screens.help import rules_text

    text = rules_text(Rules())
    assert "adds them to the bottom of their packet" in text and "under its packet" not in text


def _text(runs) -> str:
    return "".join(text for text, _ in runs)


@pytest.mark.parametrize(
    "width, title, subtitle, top, bottom",
    [
        # As Textual lays out border labels: one edge cell in from each corner.
        (20, "Battle 6", "", "╭─ Battle 6 ───────╮", "╰──────────────────╯"),
        (20, "Battle 6", "WAR!", "╭─ Battle 6 ───────╮", "╰─────────── WAR! ─╯"),
        # Too long: cut with an ellipsis (as Textual cuts), one cell from the corner.
        (14, "Battle 1,234", "", "╭─ Battle … ─╮", "╰────────────╯"),
        # No room for a label at all: the bare edge.
        (6, "Battle 6", "WAR!", "╭────╮", "╰────╯"),
    ],
)
def test_a_drawn_frame_places_its_labels_as_textual_borders_do(width, title, subtitle, top, bottom):
    rows = framed([[("x" * (width - 2), "")]], width, 3, UNICODE.box, "frame", (title, "t"), (subtitle, "s"), "…")
    assert [_text(row) for row in rows] == [top, "│" + "x" * (width - 2) + "│", bottom]
    assert all(len(_text(row)) == width for row in rows)
    # The frame and the label each keep their own style.
    styles = {name for _, name in rows[0]}
    assert styles == ({"frame", "t"} if width > 6 else {"frame"})


def test_a_drawn_frame_fills_missing_rows_blank_and_fits_tiny_sizes():
    rows = framed([], 8, 4, ASCII.war_box, "f", ("Hi", "t"), ("", "s"), "...")
    assert [_text(row) for row in rows] == ["+- Hi -+", "|      |", "|      |", "+------+"]
    assert framed([], 0, 5, UNICODE.box, "f", ("a", "t"), ("b", "s"), "…") == []
    assert [_text(row) for row in framed([], 1, 1, UNICODE.box, "f", ("a", "t"), ("", "s"), "…")] == ["╭"]


@pytest.mark.parametrize(
    "p1, p2, winner, loser, words",
    [
        ("QH", "QS", "Ann", "Bob", "WAR, Bob cannot finish"),
        ("QH", "QS", None, None, "WAR, neither player can finish"),
    ],
)
def test_a_battle_that_ended_the_game_short_in_a_war_shows_the_tie_and_why(p1, p2, winner, loser, words):
    pieces = log_battle_line(40, parse_card(p1), parse_card(p2), winner, 2, 0, (52, 0), UNICODE, None, loser)
    text = "".join(t for t, _ in pieces)
    assert "Q♥ v  Q♠  " + words in text
    assert "takes" not in text and "Nobody" not in text


def test_a_short_war_after_a_war_names_the_deeper_war_it_could_not_finish():
    tie = (parse_card("5H"), parse_card("5C"))
    pieces = log_battle_line(3, parse_card("QH"), parse_card("QS"), "Ann", 6, 1, (52, 0), UNICODE, tie, "Bob")
    assert "5♥ v  5♣ WAR → Q♥ v Q♠  DOUBLE WAR, Bob cannot finish" in "".join(t for t, _ in pieces)


@pytest.mark.parametrize("battle, gutter", [(7, "     7  "), (1234, " 1,234  "), (10_000, " 10,000  "), (1_234_567, " 1,234,567  ")])
def test_log_battle_numbers_keep_clear_of_the_border_with_the_status_lines_separators(battle, gutter):
    from war_tui.presentation.status import status_pieces

    pieces = log_battle_line(battle, parse_card("9H"), parse_card("8S"), "Ann", 2, 0, (30, 22), UNICODE)
    assert pieces[0][0] == gutter
    status = "".join(t for t, _ in status_pieces(
        number=1, seed=1, battles=battle, wars=0, auto=False, speed=4.0, pause_on_war=False, over=False,
        tally=(0, 0, 0, 0), names=("Ann", "Bob"), glyphs=UNICODE, width=200,
    ))
    assert f"Battle {gutter.strip()} " in status


# ------------------------------------------------------------------ the lobby's list


def test_a_free_seat_is_an_open_one_or_the_houses_never_one_kept_for_someone_away():
    from war_tui.presentation.lobby import has_free_seat, shown_tables
    from war_tui.tables import LobbyEntry
    from war_tui.tables import SeatStatus as S

    def entry(name, *statuses):
        return LobbyEntry(name, ("ann", "bob"), statuses, 0, 1, 0, (26, 26), None)

    tables = (entry("a", S.PLAYER, S.PLAYER), entry("b", S.PLAYER, S.OPEN), entry("c", S.HOUSE, S.PLAYER),
              entry("d", S.AWAY, S.PLAYER))
    assert [has_free_seat(t) for t in tables] == [False, True, True, False]
    assert [t.table for t in shown_tables(tables, free_only=True)] == ["b", "c"]
    assert shown_tables(tables, free_only=False) == tables


def test_the_rows_in_sight_are_those_shown_whole():
    from war_tui.presentation.lobby import rows_in_sight

    assert rows_in_sight(15, 0, 17) == (1, 8)  # the ninth row's first line only: not counted
    assert rows_in_sight(15, 9, 17) == (6, 13)
    assert rows_in_sight(15, 13, 17) == (8, 15)
    assert rows_in_sight(3, 0, 17) == (1, 3)
    assert rows_in_sight(0, 0, 17) == rows_in_sight(15, 0, 1) == (0, 0)


def test_the_count_line_says_what_is_out_of_sight_or_filtered_out():
    from war_tui.presentation.lobby import lobby_count

    assert lobby_count(15, 15, 1, 15, free_only=False) is None
    assert lobby_count(15, 15, 1, 8, free_only=False) == "15 tables, 8 shown (1-8)."
    assert lobby_count(15, 15, 0, 0, free_only=False) == "15 tables, none in sight."
    assert lobby_count(15, 6, 1, 6, free_only=True) == "6 of 15 tables have a free seat; f lists them all."
    assert lobby_count(15, 6, 3, 3, free_only=True) == "6 of 15 tables have a free seat, 1 shown (3); f lists them all."
    assert lobby_count(1, 1, 1, 1, free_only=True) == "1 of 1 table has a free seat; f lists them all."
    assert lobby_count(4, 0, 0, 0, free_only=True) == "No table has a free seat; f lists them all, n opens one."


def test_a_lobby_column_is_as_wide_as_its_widest_line_or_heading():
    from war_tui.presentation.lobby import column_widths

    rows = [("oak", "annabelle-longna\nopen", "26\n26"), ("elm-with-long-n", "山田\nbob", "52, wins\n0")]
    assert column_widths(("Table", "Seats", "Cards"), rows) == (15, 16, 8)
    assert column_widths(("Table", "Seats", "Cards"), []) == (5, 5, 5)


def test_what_a_screen_says_once_its_table_is_gone_names_what_the_person_had_there():
    from war_tui.presentation.table_gone import Place, table_gone
    from war_tui.tables.table import REPLACED

    assert table_gone(Place.NONE, watch=False) == table_gone(Place.NONE, watch=False, reason="the server is full")
    assert (table_gone(Place.NONE, watch=False).title, table_gone(Place.NONE, watch=False).status) == (
        "You could not join the table", 1)
    assert table_gone(Place.NONE, watch=True).title == "You could not watch the table"
    assert table_gone(Place.SEAT, watch=False).title == "You are no longer at the table"
    assert table_gone(Place.WATCHING, watch=False).title == "You are no longer watching the table"
    assert table_gone(Place.LOBBY, watch=False).title == "You are no longer in the lobby"
    assert {table_gone(place, watch=False).status for place in (Place.SEAT, Place.WATCHING, Place.LOBBY)} == {0}
    assert all(table_gone(place, watch=False).goodbye is None for place in Place)
    elsewhere = table_gone(Place.SEAT, watch=False, reason=REPLACED)
    assert elsewhere.goodbye == f"war-tui: {REPLACED}." and elsewhere.status == 0
