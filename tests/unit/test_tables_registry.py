"""The server's tables by name: opened when first named, bounded in number, listed in the lobby."""

from __future__ import annotations

import pytest
from support.tables import Recorder

from war_tui.core.engine import Game
from war_tui.tables import FakeClock, Lobby, NoticeCode, Registry, SeatStatus, TableRefused, encode
from war_tui.tables.protocol import MAX_LINE
from war_tui.tables.registry import MAX_MAX_TABLES


def registry(**kwargs) -> tuple[Registry, FakeClock]:
    clock = FakeClock()
    return Registry(clock=clock, seed_source=lambda: 1, **kwargs), clock


def test_a_table_is_created_when_first_named_and_found_again_by_any_case():
    reg, _clock = registry()
    ann = reg.join("Oak", "ann", Recorder())
    bob = reg.join("OAK", "bob", Recorder())
    assert ann.table is bob.table
    assert reg.table("oak") is ann.table
    assert [t.name for t in reg.tables] == ["oak"]


def test_a_bad_table_name_is_refused_with_the_rule():
    reg, _clock = registry()
    with pytest.raises(TableRefused, match="1-24 characters of a-z, 0-9 and -"):
        reg.join("oak tree", "ann", Recorder())
    assert reg.tables == ()


def test_watching_a_table_that_does_not_exist_is_refused():
    reg, _clock = registry()
    with pytest.raises(TableRefused, match="no table called elm"):
        reg.join("elm", "eve", Recorder(), watch=True)


def test_the_server_is_full_at_max_tables_but_open_tables_still_take_people():
    reg, _clock = registry(max_tables=2)
    reg.join("a", "ann", Recorder())
    reg.join("b", "bob", Recorder())
    with pytest.raises(TableRefused, match="server is full: 2 tables"):
        reg.join("c", "cy", Recorder())
    assert reg.join("a", "dee", Recorder()).table.name == "a"
    assert reg.lobby().full


def test_a_closed_table_frees_its_place():
    reg, clock = registry(max_tables=1)
    member = reg.join("a", "ann", Recorder())
    member.leave()
    clock.advance(300)
    reg.poll()
    assert reg.tables == ()
    assert reg.join("b", "bob", Recorder()).table.name == "b"


@pytest.mark.parametrize("max_tables", [0, -1, MAX_MAX_TABLES + 1, True, 2.5])
def test_max_tables_out_of_range_is_refused(max_tables):
    with pytest.raises(ValueError, match="max tables"):
        Registry(max_tables=max_tables)


def test_the_lobby_lists_players_spectators_battle_and_result():
    reg, _clock = registry(deal=lambda name: Game.deal(5))
    ann = reg.join("oak", "ann", Recorder())
    bob = reg.join("oak", "bob", Recorder())
    reg.join("oak", "eve", Recorder())
    reg.join("elm", "cy", Recorder())
    ann.flip()
    bob.flip()
    lobby = reg.lobby()
    assert [e.table for e in lobby.tables] == ["elm", "oak"]
    oak = lobby.tables[1]
    assert oak.players == ("ann", "bob") and oak.spectators == 1 and oak.battles == 1
    assert oak.statuses == (SeatStatus.PLAYER, SeatStatus.PLAYER) and oak.result is None
    assert sum(oak.counts) == 52
    assert lobby.tables[0].players == ("cy", None)


def test_lobby_readers_are_told_of_changes_at_most_once_a_second():
    reg, clock = registry()
    reader = Recorder()
    reg.watch_lobby(reader)
    assert isinstance(reader.updates[-1], Lobby) and reader.updates[-1].tables == ()
    reg.join("oak", "ann", Recorder())
    assert reg.next_deadline() is not None
    reg.poll()
    assert [e.table for e in reader.updates[-1].tables] == ["oak"]
    told = len(reader.updates)
    reg.join("elm", "bob", Recorder())
    reg.poll()
    assert len(reader.updates) == told  # too soon
    clock.advance(1.0)
    reg.poll()
    assert len(reader.updates) == told + 1 and len(reader.updates[-1].tables) == 2


def test_a_full_lobby_of_long_names_fits_in_one_line():
    reg, _clock = registry(max_tables=MAX_MAX_TABLES)
    widest = "\U0001d400\u0301\u0300" * 16  # 16 cells of letters outside the BMP, two marks each
    for n in range(MAX_MAX_TABLES):
        name = f"{n:03d}" + "x" * 21
        reg.join(name, widest, Recorder(), identity=f"key:{n}p")
        reg.join(name, widest, Recorder(), identity=f"key:{n}q")
    assert reg.lobby().tables[0].players[0] == widest
    assert len(encode(reg.lobby())) < MAX_LINE


def test_closing_the_server_tells_every_seat_spectator_and_lobby_reader():
    reg, _clock = registry()
    sinks = [Recorder() for _ in range(4)]
    reg.join("oak", "ann", sinks[0])
    reg.join("oak", "bob", sinks[1])
    reg.join("oak", "eve", sinks[2], watch=True)
    reg.watch_lobby(sinks[3])
    reg.close()
    for sink in sinks:
        assert sink.notices()[-1].code is NoticeCode.CLOSING
    with pytest.raises(TableRefused, match="closing"):
        reg.join("oak", "cy", Recorder())


# ------------------------------------------------------------------ cheap connections


def test_table_spam_from_two_addresses_leaves_room_for_an_honest_player():
    reg, clock = registry()
    for n in range(32):  # each knocks, asks for a table of its own and leaves at once
        address = f"127.0.0.{2 + n % 2}"
        try:
            member = reg.join(f"s{n}", "spam", Recorder(), identity=f"addr:{address}", address=address)
        except TableRefused as refusal:
            assert "you already opened 4 of the tables open here" in str(refusal)
            continue
        member.leave()
    assert len(reg.tables) == 8
    honest = reg.join("mine", "ann", Recorder(), identity="addr:honest", address="127.0.0.4")
    assert honest.seat is not None
    assert reg.join("s0", "bob", Recorder(), identity="addr:bob", address="127.0.0.5").seat is not None
    clock.advance(30)
    reg.poll()
    assert sorted(t.name for t in reg.tables) == ["mine", "s0"]  # the empty ones closed after 30 s


def test_one_identity_opens_a_bounded_number_of_tables_from_any_address():
    reg, _clock = registry(tables_per_visitor=2)
    reg.join("a", "ann", Recorder(), identity="key:ann", address="10.0.0.1")
    reg.join("b", "ann", Recorder(), identity="key:ann", address="10.0.0.2")
    with pytest.raises(TableRefused, match="you already opened 2 of the tables"):
        reg.join("c", "ann", Recorder(), identity="key:ann", address="10.0.0.3")
    assert [t.name for t in reg.tables] == ["a", "b"]


def test_one_address_holds_a_bounded_number_of_seats_and_then_watches():
    reg, _clock = registry(seats_per_visitor=2)
    reg.join("a", "ann", Recorder(), identity="key:1", address="10.0.0.1")
    reg.join("a", "bob", Recorder(), identity="key:2", address="10.0.0.1")
    told = Recorder()
    third = reg.join("b", "cy", told, identity="key:3", address="10.0.0.1")
    assert third.watching
    assert "your address holds all the seats it may" in told.texts()[-1]
    assert reg.join("b", "dee", Recorder(), identity="key:4", address="10.0.0.2").seat is not None


def test_a_name_that_markup_would_show_as_another_players_gets_a_suffix_in_the_lobby():
    """Every screen shows ``[i]alice`` as typed; still, beside alice it is a look-alike and gets ``-2``."""
    reg, _clock = registry()
    reg.join("oak", "alice", Recorder())
    reg.join("oak", "[i]alice", Recorder())
    (entry,) = reg.lobby().tables
    assert entry.players == ("alice", "[i]alice-2")
