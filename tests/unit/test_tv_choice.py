"""War TV's choice of table (``serving.tv``): the deepest war, else the closest counts, else the longest game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from war_tui.core.rules import Result
from war_tui.serving.tv import (
    ALL_FULL,
    CLOSEST,
    DEEPEST_WAR,
    FIRST,
    LONGEST,
    NO_OTHER,
    NO_TABLE,
    ONLY,
    choose_table,
    live,
    worth,
)
from war_tui.tables.messages import Lobby, LobbyEntry, SeatStatus, Tuned
from war_tui.tables.protocol import ProtocolError, decode_update, encode

PLAYING = (SeatStatus.PLAYER, SeatStatus.HOUSE)


def entry(table: str, *, battles: int = 10, counts=(26, 26), war: int = 0, result=None, spectators: int = 0,
          statuses=PLAYING) -> LobbyEntry:
    names = [None if s is SeatStatus.OPEN else f"p{i}" for i, s in enumerate(statuses)]
    return LobbyEntry(table, (names[0], names[1]), statuses, spectators, 1, battles, counts, result, war)


def test_the_deepest_war_under_way_comes_first_whatever_the_counts_and_battles():
    tables = [entry("oak", counts=(26, 26), battles=900), entry("elm", war=2, counts=(40, 12), battles=3),
              entry("ash", war=1)]
    assert choose_table(tables).table == "elm"
    assert choose_table(tables).why == DEEPEST_WAR


def test_without_a_war_the_closest_counts_then_the_longest_game():
    tables = [entry("oak", counts=(30, 22), battles=900), entry("elm", counts=(27, 25), battles=5)]
    assert (choose_table(tables).table, choose_table(tables).why) == ("elm", CLOSEST)
    tables = [entry("oak", counts=(27, 25), battles=900), entry("elm", counts=(25, 27), battles=5)]
    assert (choose_table(tables).table, choose_table(tables).why) == ("oak", LONGEST)
    tables = [entry("oak"), entry("elm")]
    assert (choose_table(tables).table, choose_table(tables).why) == ("elm", FIRST)  # equals: the first name


def test_a_table_not_under_way_is_never_chosen():
    over = entry("oak", result=Result.P1, counts=(52, 0))
    unplayed = entry("elm", battles=0)
    waiting = entry("ash", statuses=(SeatStatus.PLAYER, SeatStatus.OPEN))
    assert not any(live(e) for e in (over, unplayed, waiting))
    assert choose_table([over, unplayed, waiting]) == choose_table([])
    assert choose_table([]).table is None and choose_table([]).why == NO_TABLE
    assert choose_table([over, entry("fir")]).why == ONLY


def test_n_and_a_game_over_leave_the_table_on_show_for_another():
    tables = [entry("oak", war=1), entry("elm")]
    assert choose_table(tables, leaving="oak").table == "elm"
    assert choose_table([entry("oak")], leaving="oak").why == NO_OTHER  # the only one playing: War TV stays
    over = entry("oak", result=Result.DRAW)
    assert choose_table([over], leaving="oak").why == NO_TABLE


def test_tables_with_all_their_spectators_or_that_refused_are_passed_over():
    full = entry("oak", war=3, spectators=5)
    assert choose_table([full, entry("elm")], max_spectators=5).table == "elm"
    assert choose_table([full], max_spectators=5).why == ALL_FULL
    assert choose_table([full, entry("elm")], refused={"elm"}, max_spectators=5).why == ALL_FULL


def test_an_entry_without_a_war_field_reads_as_no_war():
    line = encode(Lobby((entry("oak", war=2),), 10)).replace(b',"war":2', b"")
    assert decode_update(line).tables[0].war == 0


entries = st.builds(
    entry,
    st.sampled_from(["oak", "elm", "ash", "fir", "yew", "a-1"]),
    battles=st.integers(0, 5000),
    counts=st.tuples(st.integers(0, 52), st.integers(0, 52)),
    war=st.integers(0, 5),
    result=st.sampled_from([None, None, None, Result.P1, Result.DRAW]),
    spectators=st.integers(0, 10),
    statuses=st.sampled_from([PLAYING, (SeatStatus.PLAYER, SeatStatus.PLAYER), (SeatStatus.OPEN, SeatStatus.PLAYER)]),
)


@given(st.lists(entries, max_size=6, unique_by=lambda e: e.table), st.sampled_from([None, "oak", "elm"]), st.sets(st.sampled_from(["ash", "fir"])),
       st.sampled_from([None, 3, 10]))
def test_the_choice_is_a_live_table_none_is_worth_more_and_the_order_given_does_not_matter(
    tables, leaving, refused, most,
):
    choice = choose_table(tables, leaving=leaving, refused=refused, max_spectators=most)
    open_to_tv = [e for e in tables if live(e) and e.table != leaving and e.table not in refused
                  and (most is None or e.spectators < most)]
    if choice.table is None:
        assert not open_to_tv
        return
    chosen = next(e for e in open_to_tv if e.table == choice.table)  # a live table War TV may watch
    assert worth(chosen) == max(worth(e) for e in open_to_tv)
    assert choose_table(list(reversed(tables)), leaving=leaving, refused=refused, max_spectators=most) == choice


def test_a_lobby_entrys_war_and_a_tuned_table_are_range_checked_where_read():
    line = encode(Lobby((entry("oak", war=2),), 10))
    for bad in (b'"war":99', b'"war":-1', b'"war":"2"', b'"war":2.5', b'"war":true'):
        with pytest.raises(ProtocolError):
            decode_update(line.replace(b'"war":2', bad))
    assert decode_update(encode(Tuned("oak", CLOSEST))) == Tuned("oak", CLOSEST)
    for bad in (b'"table":"OAK!"', b'"table":"' + b"a" * 40 + b'"', b'"table":7'):
        with pytest.raises(ProtocolError):
            decode_update(encode(Tuned("oak", CLOSEST)).replace(b'"table":"oak"', bad))
    with pytest.raises(ProtocolError):
        decode_update(encode(Tuned(None, "x")).replace(b'"why":"x"', b'"why":"\\u001b[2J"'))
