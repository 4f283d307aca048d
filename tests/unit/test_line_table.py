"""The line mode as a full player at a shared table: it hears each request and what came of it, answers,
emotes, and a spectator's t takes a free seat. A real table in this process, the line mode on one seat."""

from __future__ import annotations

from support.deals import EIGHT_PLAIN
from support.tables import Recorder, dealing, make_table, run_until_idle

from war_tui.core.rules import Side
from war_tui.line.keys import Command, KeyReader
from war_tui.line.table import TableLine
from war_tui.tables import Emote, Leaving, RemoteGame, Resync, Snapshot, WarStop

WAR = ("5C 2C KC 9C AC", "5D 3D QD 4D 2H")  # battle 1 is a war


def line_seat(deal=EIGHT_PLAIN, watch: bool = False, **options):
    """ann on the line mode, bob's member beside her; ``watch``: ann arrives after both seats are taken."""
    table, clock = make_table(dealing(*deal), **options)
    game = RemoteGame()
    line = TableLine(game)
    bob_sink = Recorder()
    if watch:
        bob = table.join("bob", bob_sink, identity="key:bob")
        table.join("cy", Recorder(), identity="key:cy")
    ann = table.join("ann", game.handle, identity="key:ann", watch=watch)
    game.send = ann.request
    if not watch:
        bob = table.join("bob", bob_sink, identity="key:bob")
    line.take_sentences()
    return table, clock, line, bob, bob_sink


def say(line: TableLine, command: Command) -> list[str]:
    return [*line.command(command), *line.take_sentences()]


def test_the_other_players_request_is_heard_and_the_same_key_agrees():
    _table, _clock, line, bob, _sink = line_seat()
    bob.request(WarStop(True))
    assert line.take_sentences() == ["bob asks to stop at wars: w agrees, n declines."]
    assert say(line, Command.WAR_STOP) == ["Auto-play stops at every war now: both players asked."]
    bob.set_auto(True, 4.0)
    assert line.take_sentences() == ["bob asks for auto-play at 4/s: a agrees, n declines."]
    assert say(line, Command.AUTO)[0].startswith("Auto-play on: one battle every ")


def test_a_request_of_ones_own_waits_and_is_withdrawn_with_the_same_key():
    table, _clock, line, _bob, _sink = line_seat()
    assert say(line, Command.RESTART) == ["You ask to stop this game and deal again; waiting for bob, r again withdraws."]
    assert table.state().seats[0].restart
    assert say(line, Command.RESTART) == ["You no longer ask to stop this game and deal again."]
    assert not table.state().seats[0].restart


def test_a_request_that_lapses_is_said_once():
    table, clock, line, bob, _sink = line_seat()
    bob.request(WarStop(True))
    line.take_sentences()
    clock.advance(31)
    table.poll()
    assert line.take_sentences() == ["bob's request to stop at wars timed out: no answer in 30 s"]


def test_agreeing_to_deal_again_mid_game_says_the_stop_and_the_new_deal():
    table, _clock, line, bob, _sink = line_seat()
    bob.restart()
    assert line.take_sentences() == ["bob asks to stop this game and deal again: r agrees, n declines."]
    said = say(line, Command.RESTART)
    assert said[0] == "game stopped by agreement: a new deal"
    assert said[-1] == "Game 2 is dealt. You have 8, bob has 8." and table.game_number == 2


def test_a_war_held_by_both_players_is_said_and_enter_lays_it():
    table, clock, line, bob, _sink = line_seat(WAR)
    bob.request(WarStop(True))
    bob.set_auto(True, 4.0)
    say(line, Command.WAR_STOP)
    said = say(line, Command.AUTO)
    while not table.state().held:
        clock.advance(1)
        table.poll()
        said += line.take_sentences()
    assert "Auto-play waits at this war: enter lays it and plays on." in said
    assert any("tie: war!" in s for s in said) and "Auto-play off." not in said
    laid = say(line, Command.FLIP)
    assert not table.state().held and "Auto-play off." not in laid


def test_emotes_are_sent_with_keys_1_to_6_and_heard_by_name():
    _table, clock, line, bob, sink = line_seat()
    assert KeyReader(lines=False).feed("2") == [Command.EMOTE_2]
    assert KeyReader(lines=True).feed("6\n") == [Command.EMOTE_6]
    assert say(line, Command.EMOTE_2) == ["You say: what a war!"]
    assert [(u.name, u.text) for u in sink.updates if type(u).__name__ == "Emoted"] == [("ann", "what a war!")]
    clock.advance(2)
    bob.request(Emote(5))
    assert line.take_sentences() == ["bob says: thanks"]


def test_a_spectators_t_takes_the_free_seat_it_was_told_of():
    table, clock, line, bob, _sink = line_seat(watch=True)
    cy = next(m for m in table.members if m.name == "cy")
    bob.flip()  # the table moved: cy's seat is kept when cy goes
    clock.advance(30)
    cy.leave()
    line.take_sentences()
    assert say(line, Command.SIT) == ["seat 2 is kept for cy, who is away: t takes it in 60 s"]
    clock.advance(61)
    said = say(line, Command.SIT)
    assert said[0] == "You sit at table oak in seat 2, as ann; bob sits across."
    assert line.me is Side.P2 and table.state().seats[1].name == "ann"


def test_a_spectator_hears_requests_without_a_key_to_answer():
    table, _clock, line, bob, _sink = line_seat(watch=True)
    bob.set_auto(True, 2.0)
    assert line.take_sentences() == ["bob asks for auto-play at 2/s."]
    assert say(line, Command.HELP)[3] == "Keys: t takes a free seat, s the score, h help, q leaves."
    assert say(line, Command.DECLINE) == ["You are watching: only the players answer each other."]


def test_every_sentence_is_one_plain_line():
    table, clock, line, bob, _sink = line_seat(WAR)
    heard: list[str] = []
    for command in (Command.WAR_STOP, Command.AUTO, Command.EMOTE_1, Command.FLIP, Command.RESTART, Command.HELP):
        heard += say(line, command)
        bob.request(WarStop(True))
        clock.advance(1.5)
        table.poll()
        heard += line.take_sentences()
    assert heard and all(s.isprintable() and "\n" not in s for s in heard)


def test_the_other_player_about_to_leave_is_heard():
    _table, _clock, line, bob, _sink = line_seat()
    bob.request(Leaving(True))
    assert line.take_sentences() == ["bob is leaving the table."]


def test_alone_the_word_house_has_the_house_play_the_other_seat():
    table, _clock = make_table(dealing(*EIGHT_PLAIN))
    game = RemoteGame()
    line = TableLine(game)
    ann = table.join("ann", game.handle, identity="key:ann")
    game.send = ann.request
    assert line.take_sentences()[-1] == "Alone at the table: type house and the house plays the other seat, or wait for a player."
    assert KeyReader(lines=True).feed("house\n") == [Command.HOUSE]
    said = say(line, Command.HOUSE)
    assert said == ["ann plays the house: it sits at seat 2"]
    say(line, Command.FLIP)
    assert table.game.battles == 1


def test_n_declines_the_other_players_request_and_the_asker_hears_who():
    table, _clock, line, bob, bob_sink = line_seat()
    assert say(line, Command.DECLINE) == ["Nobody asks you anything now."]
    bob.request(WarStop(True))
    line.take_sentences()
    assert KeyReader(lines=True).feed("no\n") == [Command.DECLINE]
    said = say(line, Command.DECLINE)
    assert said == ["ann declined bob's request to stop at wars"]
    assert not table.state().war_stop and not table.state().seats[1].war_stop
    assert "ann declined bob's request to stop at wars" in [getattr(u, "text", None) for u in bob_sink.updates]


def test_a_fresh_snapshot_of_the_same_seat_is_one_line_not_the_arrival_again():
    """A missed update, ctrl+l or a table moved to another server sends a snapshot again: a screen reader hears
    the score once more, not where the person sits and every key."""
    _table, _clock, line, _bob, _sink = line_seat()
    line.game.send(Resync())
    assert line.take_sentences() == ["Back in step: game 1, battle 0. You have 8, bob has 8."]


def test_auto_play_agreed_stays_on_through_game_over_and_is_said_on_from_the_next_deal():
    table, clock, line, bob, _sink = line_seat()
    say(line, Command.AUTO)
    bob.set_auto(True, 4.0)
    assert line.take_sentences() == ["Auto-play on: one battle every 2 seconds."]
    run_until_idle(table, clock)
    assert table.game.over and "Auto-play off." not in line.take_sentences()  # it plays the next deal too
    bob.set_auto(False)
    assert line.take_sentences()[0] == "Auto-play off."
    bob.set_auto(True, 4.0)
    assert line.take_sentences() == ["Auto-play on from the next deal: one battle every 2 seconds."]


def test_plus_and_minus_set_the_speed_a_line_mode_player_asks_auto_play_for():
    table, _clock, line, bob, _sink = line_seat()
    assert say(line, Command.FASTER) == ["Your speed: 1 battle a second; auto-play runs at the slower player's."]
    assert say(line, Command.FASTER) == ["Your speed: 2 battles a second; auto-play runs at the slower player's."]
    say(line, Command.FASTER)
    bob.set_auto(True, 8.0)
    line.take_sentences()
    assert say(line, Command.AUTO) == ["Auto-play on: one battle every 0.25 seconds."]
    assert table.state().auto_speed == 4.0  # agreed at the line player's 4/s, not the table's slowest
    say(line, Command.SLOWER)
    assert table.state().auto_speed == 2.0 and table.state().seats[0].speed == 2.0  # asked again at once
    for _ in range(3):
        say(line, Command.SLOWER)
    assert say(line, Command.SLOWER) == ["Already at the slowest: one battle every 2 seconds."]


def test_plus_stops_at_the_servers_top_speed_and_help_lists_both_keys():
    table, clock = make_table(dealing(*EIGHT_PLAIN))
    game = RemoteGame()
    line = TableLine(game, top=16.0)
    game.send = table.join("ann", game.handle).request
    line.take_sentences()
    for _ in range(5):  # 0.5, 1, 2, 4, 8, then the top
        say(line, Command.FASTER)
    assert line.speed == 16.0
    assert say(line, Command.FASTER) == ["Already at the top speed: 16 battles a second."]
    helped = say(line, Command.HELP)
    assert "Your auto-play speed is 16 battles a second: + and - change it, from one battle every 2 seconds" in helped[3]
    assert "+ and - set its speed" in helped[4]


def test_a_spectators_plus_says_only_players_set_the_speed():
    _table, _clock, line, _bob, _sink = line_seat(watch=True)
    assert say(line, Command.FASTER) == ["You are watching: only the players set auto-play's speed."]


def test_someone_who_would_sit_at_a_full_table_is_told_in_a_sentence_why_they_watch():
    table, _clock = make_table(dealing(*EIGHT_PLAIN))
    table.join("bob", Recorder(), identity="key:bob")
    table.join("cy", Recorder(), identity="key:cy")
    game = RemoteGame()
    line = TableLine(game)
    table.join("ann", game.handle, identity="key:ann")
    said = line.take_sentences()
    assert said[0] == "You are watching table oak: bob against cy."
    assert said[-1] == "both seats are taken: you are watching"


def run_over_a_socket(first: list[bytes]) -> tuple[int, str]:
    """``run_table_line`` on one end of a socket pair whose other end sends ``first`` and then hangs up; the input
    (whole lines) stays open. Its exit status and what it said."""
    import io
    import os
    import socket

    from war_tui.line.run import LineOutput
    from war_tui.line.table import run_table_line

    server_end, game_end = socket.socketpair()
    keys_in, keys_out = os.pipe()
    out = io.BytesIO()
    try:
        server_end.sendall(b"".join(first))
        server_end.shutdown(socket.SHUT_WR)
        status = run_table_line(TableLine(RemoteGame()), keys_in, game_end.detach(), LineOutput(out), lines=True)
    finally:
        for fd in (keys_in, keys_out):
            os.close(fd)
        server_end.close()  # the game's end is the line mode's, which closes it
    return status, out.getvalue().decode()


def test_a_table_that_turns_the_player_away_once_the_game_is_up_ends_it_with_status_1():
    """As a cluster's node refuses a join the door passed on: the refusal is said, and the status is a refusal's."""
    from war_tui.tables import Notice, NoticeCode
    from war_tui.tables.protocol import encode

    refusal = "closing the connection: the server is full: 16 tables are open; try again later or watch one"
    status, said = run_over_a_socket([encode(Notice(NoticeCode.CLOSING, refusal))])
    assert refusal in said and status == 1


def test_a_table_that_closes_on_a_seated_player_ends_the_game_with_status_0():
    from war_tui.tables import Notice, NoticeCode
    from war_tui.tables.protocol import encode, encode_snapshot

    table, _ = make_table(dealing(*EIGHT_PLAIN))
    seen = Recorder()
    table.join("ann", seen, identity="key:ann")
    snapshot = next(update for update in seen.updates if isinstance(update, Snapshot))
    status, said = run_over_a_socket([encode_snapshot(snapshot), encode(Notice(NoticeCode.CLOSING, "the table closed"))])
    assert "You sit at table" in said and "the table closed" in said and status == 0


def test_a_player_back_after_a_restart_hears_that_the_other_is_away_and_waited_for():
    """The line mode's words for what the seats line shows as "ann away (kept), to flip"."""
    from war_tui.tables.checkpoint import checkpoint, restore

    table, clock = make_table(dealing(*EIGHT_PLAIN))
    table.join("ann", Recorder(), identity="key:ann")
    table.join("bob", Recorder(), identity="key:bob")
    again = restore(checkpoint(table), clock=clock, options=table.options)
    game = RemoteGame()
    line = TableLine(game)
    game.send = again.join("bob", game.handle, identity="key:bob").request
    said = line.take_sentences()
    assert ("ann is away since the server that held the table stopped: the seat is kept for them, and the table"
            " waits for their flip as for an idle player's.") in said
    again.join("ann", Recorder(), identity="key:ann")
    assert "ann is back at seat 1" in line.take_sentences()
