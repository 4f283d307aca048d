"""Shared tables on screen: --two-players at one keyboard, a seat or a spectator over the server's socket, the lobby.

The server side is a real Registry and a Link per connection in the test process,
pumped over a socketpair as serve-ssh pumps it (table_support.TableServer).
"""

from __future__ import annotations

import pytest
from screen_text import screen_rows, words_of
from support.board_text import log_text, seats
from support.deals import WAR_TEXTS
from table_support import PLAIN, TableServer, ann_and_bob, dealing, table_app, two_player_app
from war_ui_support import cut_footer_keys, drawn, footer_text, frame, notices, until

from war_tui.cli import main
from war_tui.core.engine import Game
from war_tui.tables import FakeClock, Flip, Member
from war_tui.ui.app import WarApp
from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.lobby import LobbyScreen
from war_tui.ui.screens.table_closed import TableClosedScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)


def seated_at_oak(server: TableServer, battles: int = 0) -> tuple[Member, Member]:
    """ann and bob in the two seats at table oak (people the test flips for, not screens), ``battles`` in."""
    ann, _ = server.seat("oak", "ann")
    bob, _ = server.seat("oak", "bob")
    for _ in range(battles):
        ann.flip()
        bob.flip()
    return ann, bob


def watched_at_oak(server: TableServer, **changes) -> tuple[Member, Member, WarApp]:
    """ann and bob seated at oak (people the test flips for), and eve's screen watching them."""
    ann, bob = seated_at_oak(server)
    fd, _ = server.connect("eve", table="oak", watch=True)
    return ann, bob, table_app(fd, mode="watch", **changes)


def said(lobby: LobbyScreen, selector: str) -> str:
    """What one of the lobby's lines says."""
    return str(lobby.query_one(selector).render())


def lobby_shown(app) -> bool:
    """The lobby screen is up and shows the server's list."""
    screen = app.screen
    return isinstance(screen, LobbyScreen) and "Waiting" not in said(screen, "#lobby-summary")



# ------------------------------------------------------------------ two players at one keyboard


@pytest.mark.parametrize("keys", [("f", "j"), ("j", "f"), ("left", "right"), ("right", "left")])
async def test_two_players_the_battle_is_played_once_both_have_flipped_in_either_order(keys):
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "waiting for both to flip" in seats(app)
        await pilot.press(keys[0])
        await pilot.pause()
        assert app.board.battle is None and "Battle 0" not in drawn(app.query_one(Pile))
        waiting_for = "Bob" if keys[0] in ("f", "left") else "Ann"
        assert f"waiting for {waiting_for} to flip" in seats(app)
        assert "flipped" in seats(app)
        await pilot.press(keys[0])  # flipping twice is still one flip
        await pilot.pause()
        assert app.board.battle is None
        await pilot.press(keys[1])
        await until(pilot, lambda: app.board.battle is not None)
        assert app.board.battle.battle == 1 and app.board.battle.counts == (3, 1)
        assert "Ann takes 2 cards" in log_text(app)
        assert app.query_one("#packet-p1", Packet).player == "Ann"
        assert "waiting for both to flip" in seats(app)


async def test_two_players_a_war_belongs_to_its_battle():
    app = two_player_app(dealing(*WAR_TEXTS), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f", "j")
        await until(pilot, lambda: app.board.battle is not None)
        assert app.board.battle.wars == 2 and app.board.battle.battle == 1
        pile = app.query_one(Pile)
        assert pile.subtitle == "DOUBLE WAR!"
        assert "DOUBLE WAR" in log_text(app) and "Ann takes 10 cards" in log_text(app)


async def test_two_players_while_a_war_is_laid_the_seats_line_says_one_key_shows_the_rest():
    """Not "waiting for both to flip": at one keyboard f or j shows the rest of the war on the pile."""
    app = two_player_app(dealing(*WAR_TEXTS), names=("Ann", "Bob"), war_step=5.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", "w", "f", "j")
        await until(pilot, lambda: app.board.laying)
        await pilot.pause()
        assert "f or j shows the rest" in seats(app) and "waiting for both" not in seats(app), seats(app)
        await pilot.press("j")
        await until(pilot, lambda: "Ann takes 10 cards" in drawn(app.query_one(Pile)))
        await pilot.pause()
        assert "waiting for both to flip" in seats(app) and "shows the rest" not in seats(app)
        assert app.controller.game.battles == 1  # the key showed the war: it flipped nothing


async def test_two_players_help_and_footer_say_whose_keys_are_whose():
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        footer = footer_text(app)
        assert "f P1 flip" in footer and "j P2 flip" in footer
        assert "Flip" not in footer.replace("P1 flip", "").replace("P2 flip", "")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        keys = dict(app.screen.keys)
        assert keys["f  Left"].startswith("Ann (player 1) flips")
        assert keys["j  Right"].startswith("Bob (player 2) flips")


async def test_two_players_space_flips_for_nobody_and_says_whose_keys_are_whose():
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space", "enter")
        await pilot.pause()
        assert app.controller.game.state.seats[0].flipped is False
        assert app.controller.game.state.seats[1].flipped is False


async def test_two_players_at_game_over_each_flip_key_asks_and_both_deal_again():
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f", "j", "f", "j")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.board.result is not None and app.board.result.battles == 2
        assert "f and j (or r): deal again" in str(app.screen.query_one("#result-hint").render())
        await pilot.press("f")
        await pilot.pause()
        assert app.controller.game.game_number == 1 and "waiting for Bob to press r" in seats(app)
        await pilot.press("j")
        await until(pilot, lambda: app.controller.game.game_number == 2)
        await until(pilot, lambda: not isinstance(app.screen, GameOverScreen))
        assert app.board.result is None and app.board.battle is None and app.board.deal.number == 2
        assert log_text(app).count("Game ") == 2


@pytest.mark.version_sensitive  # a pilot test of two players at one keyboard
async def test_two_players_r_deals_again_for_both():
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f", "j", "f", "j")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await until(pilot, lambda: app.controller.game.game_number == 2)


@pytest.mark.parametrize("flags", [
    ["--two-players", "--screensaver"], ["--two-players", "--time-limit", "3"],
])
def test_two_players_refuses_what_makes_no_sense_in_one_line(flags, capsys):
    assert main([*flags, "--no-config"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no sense with --two-players" in err


@pytest.mark.parametrize("environ, problem", [
    ({"WAR_TUI_TABLE_FD": "x", "WAR_TUI_TABLE_MODE": "play"}, "WAR_TUI_TABLE_FD must be"),
    ({"WAR_TUI_TABLE_FD": "1", "WAR_TUI_TABLE_MODE": "play"}, "WAR_TUI_TABLE_FD must be"),
    ({"WAR_TUI_TABLE_FD": "9", "WAR_TUI_TABLE_MODE": "sit"}, "WAR_TUI_TABLE_MODE must be one of play, watch, lobby"),
])
def test_a_served_table_with_bad_variables_is_one_line(environ, problem, capsys, monkeypatch):
    monkeypatch.setenv("WAR_TUI_SERVED", "1")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert main(["--no-config"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and problem in err


def test_table_variables_without_served_are_ignored(monkeypatch):
    from war_tui.commands.play import served_settings

    assert served_settings({"WAR_TUI_TABLE_FD": "9", "WAR_TUI_TABLE_MODE": "play"}) == {}
    assert served_settings({"WAR_TUI_SERVED": "1", "WAR_TUI_TABLE_FD": "9", "WAR_TUI_TABLE_MODE": "watch"})[
        "table_mode"] == "watch"


# ------------------------------------------------------------------ a seat over the server's socket


@pytest.mark.version_sensitive  # a pilot test of a player's board
async def test_a_player_flips_their_card_and_the_battle_comes_when_the_other_has():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app) and "ann (you)" in seats(app))
            assert app.query_one("#packet-p1", Packet).player == "ann"
            assert app.query_one("#packet-p2", Packet).player == "bob"
            await pilot.press("space")
            await until(pilot, lambda: "waiting for bob to flip" in seats(app))
            assert app.board.battle is None
            bob.flip()
            await until(pilot, lambda: app.board.battle is not None)
            assert app.board.battle.wars == 2 and app.board.battle.counts == (11, 1)
            assert "ann takes 10 cards" in log_text(app)
            assert "ann sits at seat 1" in log_text(app) and "bob sits at seat 2" in log_text(app)


async def test_a_war_still_being_laid_when_the_next_battle_comes_is_told_whole_first():
    """The table plays on while a screen lays a war step by step: the war keeps its line in the log."""
    with TableServer(dealing(*WAR_TEXTS)) as server:
        ann, bob, app = watched_at_oak(server, war_step=0.4)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob sits at seat 2" in log_text(app))
            ann.flip()
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: app.board.shown_steps is not None)  # the double war, laid step by step
            ann.flip()
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: "ann takes 2 cards" in log_text(app))
            log = log_text(app)
            assert "DOUBLE WAR" in log
            assert log.index("ann takes 10 cards") < log.index("ann takes 2 cards")


@pytest.mark.serial  # auto-play's pace: on a loaded machine the first look can come after the war's battle
@pytest.mark.parametrize(("speed", "step_by_step"), [(2.0, False), (0.5, True)])
async def test_on_auto_play_a_war_is_laid_step_by_step_only_if_it_fits_before_the_next_battle(speed, step_by_step):
    """A double war takes 1.6 s to lay: at 2 battles/s it is shown whole, at one battle every 2 s step by step."""
    with TableServer(dealing(*WAR_TEXTS)) as server:
        ann, bob, app = watched_at_oak(server, war_step=0.4)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob sits at seat 2" in log_text(app))
            ann.set_auto(True, speed)
            bob.set_auto(True, speed)
            server.wake.set()
            await until(pilot, lambda: app.board.battle is not None)
            assert app.board.battle.wars == 2
            assert (app.board.shown_steps is not None) is step_by_step


async def test_auto_play_runs_when_both_ask_and_either_stops_it():
    with TableServer(lambda: Game.deal(7)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.press("a")
            await until(pilot, lambda: "you ask for auto-play at 4/s: waiting for bob" in "\n".join(app.board.requests))
            assert not app.board.auto
            bob.set_auto(True, 64)
            server.wake.set()
            await until(pilot, lambda: app.board.auto and app.board.battle is not None)
            assert app.board.speed == 4.0  # the slower of the two: ann asked at her 4/s
            await pilot.press("a")
            await until(pilot, lambda: not app.board.auto)


@pytest.mark.version_sensitive  # a pilot test of the table's game over
async def test_restart_at_game_over_deals_once_both_players_asked():
    with TableServer(dealing(*PLAIN)) as server:
        app, bob, _ = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            for _ in range(2):
                await pilot.press("space")
                await until(pilot, lambda: "waiting for bob" in seats(app) or app.controller.game.over)
                bob.flip()
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            hint = str(app.screen.query_one("#result-hint").render())
            assert "deal again once both players ask" in hint
            await pilot.press("r")
            await until(pilot, lambda: "waiting for bob to press r" in seats(app))
            bob.restart()
            await until(pilot, lambda: app.controller.game.game_number == 2 and not isinstance(app.screen, GameOverScreen))
            assert app.board.deal.number == 2


@pytest.mark.version_sensitive  # a pilot test of a spectator's board
async def test_a_spectators_player_keys_say_you_are_watching_and_send_nothing():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        ann, bob = seated_at_oak(server)
        fd, link = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app))
            messages = notices(app)
            sent: list = []
            send = app.controller.game.send
            app.controller.game.send = lambda request: (sent.append(request), send(request))
            await pilot.press("space", "a", "r", "plus")
            await pilot.pause()
            assert sent == []
            assert len(messages) == 4 and all(m.startswith("You are watching") for m in messages)
            ann.flip()
            bob.flip()
            await until(pilot, lambda: app.board.battle is not None)
            assert app.board.battle.wars == 2 and "ann takes 10 cards" in log_text(app)
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert "you are watching" in dict(app.screen.keys)["space a r"]


async def test_a_spectator_is_never_asked_to_flip_and_sees_t_sit_only_while_a_seat_is_free():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        ann, bob = seated_at_oak(server)
        fd, _link = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "you are watching" in seats(app))
            await pilot.pause()
            pile = drawn(app.query_one(Pile))
            assert "space" not in pile and "the players turn the top cards" in pile, pile
            assert "t Sit" not in footer_text(app) and "? Help" in footer_text(app)  # both seats are taken
            messages = notices(app)
            await pilot.press("space")
            await pilot.pause()
            assert messages and messages[-1].startswith("You are watching") and "t takes" not in messages[-1]
            bob.leave()
            server.wake.set()
            await until(pilot, lambda: "t Sit" in footer_text(app))  # bob's seat: the house plays it, t takes it
            await pilot.press("space")
            await until(pilot, lambda: any(m.endswith("only the two players flip, play auto or deal again (t takes a free seat)")
                                           for m in messages))


@pytest.mark.parametrize("size", [(100, 30), (80, 24), (40, 12)])
async def test_a_long_name_is_cut_on_its_own_packet_never_its_you(size):
    """ "Bartholomew_Lon…" lost the "(you)" that tells a player which packet is theirs: the name gives way."""
    long_name = "Bartholomew_Long"  # 16 cells: the longest name a table keeps
    with TableServer(dealing(*WAR_TEXTS)) as server:
        fd, _link = server.connect(long_name, table="oak")
        server.seat("oak", "bob")
        app = table_app(fd)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            await pilot.pause()
            title = frame(app.query_one("#packet-p1", Packet))[0]
    assert "(you)" in title and title.rstrip("─╮").rstrip().endswith("(you)"), title
    assert "Bar" in title, title  # as much of the name as the frame leaves


async def test_a_late_joiner_sees_the_counts_the_battle_on_show_and_the_log_at_once():
    with TableServer(lambda: Game.deal(7)) as server:
        ann, bob = seated_at_oak(server, battles=30)
        table = server.registry.table("oak")
        fd, link = server.connect("eve", table="oak")  # both seats taken: eve watches
        app = table_app(fd)
        messages = notices(app)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.board.battle is not None and app.board.battle.battle == 30)
            assert app.board.battle.counts == table.game.counts
            log = app.query_one(BattleLog).lines
            battle_lines = [line for line in log if line.strip().split(" ")[0].isdigit()]
            assert len(battle_lines) == 30 and battle_lines[-1].lstrip().startswith("30")
            assert log[0].startswith("Game 1")
            assert "Both seats are taken: you are watching" in messages
            ann.flip()
            bob.flip()
            await until(pilot, lambda: app.board.battle.battle == 31)
            assert app.query_one(BattleLog).lines[-1].lstrip().startswith("31")


async def test_a_player_who_would_sit_and_watches_is_told_the_tables_reason_at_once():
    """ann's key holds all the seats it may (one, at elm): at oak, with both seats open, she watches, and her
    screen says so at once in the table's words (before: "Both seats are taken", the screen's own guess)."""
    with TableServer(dealing(*PLAIN), seats_per_visitor=1) as server:
        server.seat("elm", "ann", identity="key:ann")
        fd, _ = server.connect("ann", table="oak", identity="key:ann")
        app = table_app(fd)
        messages = notices(app)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "You watch: your address holds all the seats it may" in messages)
            assert "you are watching" in seats(app)
            assert not any("seats are taken" in message for message in messages)


async def test_a_late_joiner_at_game_over_sees_how_long_the_game_took():
    clock = FakeClock()
    with TableServer(dealing(*PLAIN), clock=clock) as server:
        ann, bob = seated_at_oak(server)
        clock.advance(75)
        while not server.registry.table("oak").game.over:
            ann.flip()
            bob.flip()
        clock.advance(600)  # the result has been on show for ten minutes when eve arrives
        fd, _ = server.connect("eve", table="oak", watch=True)
        eve_clock = FakeClock()
        app = table_app(fd, mode="watch", clock=lambda: eve_clock.advance(1))  # composing takes eve's screen time
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: any("Time " in row for row in screen_rows(app)))  # the dialog is drawn
            assert isinstance(app.screen, GameOverScreen)
            assert any("1 min 15 s" in row for row in screen_rows(app))


async def test_a_late_joiner_sees_only_the_last_100_lines_of_a_long_game():
    with TableServer(lambda: Game.deal(7)) as server:
        ann, bob = seated_at_oak(server, battles=150)
        fd, link = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.board.battle is not None and app.board.battle.battle == 150)
            log = app.query_one(BattleLog).lines
            assert log[0].startswith("Game 1")  # said once, though its deal fell off the table's log
            assert log[1].lstrip().startswith("51") and log[-1].lstrip().startswith("150")
            assert app.board.deal.number == 1


@pytest.mark.version_sensitive  # a pilot test of the table-closed notice
async def test_a_closed_connection_says_so_and_leaves_cleanly():
    server = TableServer(dealing(*WAR_TEXTS))
    fd, link = server.connect("ann", table="oak")
    app = table_app(fd)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "ann (you)" in seats(app))
        server.registry.close("the server is shutting down")
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        assert "The server is shutting down." in str(app.screen.query_one("#closed-reason").render())
        await pilot.press("space")  # keys at a table that is gone do nothing but leave
        await until(pilot, lambda: not app.is_running)
    server.close()
    assert app.return_code in (0, None)


async def test_a_hung_up_socket_and_a_line_the_game_cannot_read_each_end_cleanly():
    server = TableServer(dealing(*WAR_TEXTS))
    fd, link = server.connect("ann", table="oak")
    app = table_app(fd)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "ann (you)" in seats(app))
        server.hang_up(link)
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        assert app.ended == "the connection to the table closed"
    server.close()

    import socket

    server_end, game_end = socket.socketpair()
    app = table_app(game_end.detach())
    async with app.run_test(size=SIZE) as pilot:
        server_end.sendall(b'{"v":2,"kind":"nonsense"}\n')
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        assert app.ended.startswith("the server sent something this game cannot read")
    server_end.close()


CLUSTER_REFUSAL = (
    "closing the connection: you already opened 2 of the tables open here, the most one player may; sit at one of"
    " them or at another table"
)
"""A refusal as a cluster's node sends it once the game is up (the node serving the table refused the join)."""


def refused_app(mode: str = "play"):
    """A game whose connection the table turns away before any snapshot, as a cluster's refusal comes."""
    import socket

    from war_tui.tables import Notice, NoticeCode
    from war_tui.tables.protocol import encode

    server_end, game_end = socket.socketpair()
    server_end.sendall(encode(Notice(NoticeCode.CLOSING, CLUSTER_REFUSAL)))
    return table_app(game_end.detach(), mode=mode), server_end


@pytest.mark.version_sensitive  # a pilot test of the table-closed notice's layout
@pytest.mark.parametrize("width", [40, 80, 100, 120, 200])
async def test_a_refusal_after_the_game_started_is_wrapped_whole_words_and_titled_as_a_refusal(width):
    app, server_end = refused_app()
    async with app.run_test(size=(width, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        await pilot.pause()
        shown = screen_rows(app)
        text = "\n".join(shown)
        assert "You could not join the table" in text and "no longer" not in text, text
        reason = "Closing the connection: " + CLUSTER_REFUSAL.removeprefix("closing the connection: ") + "."
        region = app.screen.query_one("#closed-reason").region
        reason_rows = [row[region.x:region.right] for row in shown[region.y:region.bottom]]
        assert words_of(" ".join(reason_rows)) == words_of(reason), text  # every word whole, in order
        assert all(len(row.rstrip()) <= region.width for row in reason_rows)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)
    server_end.close()
    assert app.return_code == 1  # a refusal, as one before the game started


async def test_a_refusal_to_watch_says_so_and_a_table_that_closes_on_a_spectator_says_that():
    app, server_end = refused_app(mode="watch")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        await pilot.pause()
        assert "You could not watch the table" in "\n".join(screen_rows(app))
    server_end.close()
    server = TableServer(dealing(*WAR_TEXTS))
    seated_at_oak(server)
    fd, _ = server.connect("eve", table="oak", watch=True)
    app = table_app(fd, mode="watch")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "eve" in seats(app) or app.board.table_state is not None)
        server.registry.close("the server is shutting down")
        await until(pilot, lambda: isinstance(app.screen, TableClosedScreen))
        await pilot.pause()
        assert "You are no longer watching the table" in "\n".join(screen_rows(app))
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running)
    server.close()
    assert app.return_code == 0


async def test_requests_are_the_protocols_lines():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        fd, link = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "ann (you)" in seats(app))
            sent: list = []
            send = app.controller.game.send
            app.controller.game.send = lambda request: (sent.append(request), send(request))
            await pilot.press("f")
            await until(pilot, lambda: server.registry.table("oak").state().seats[0].flipped)
            assert sent == [Flip()]


# ------------------------------------------------------------------ the lobby


def ann_in_the_lobby(server: TableServer) -> WarApp:
    """ann's screen in the lobby (``ssh host tables``)."""
    fd, _ = server.connect("ann")
    return table_app(fd, mode="lobby")


@pytest.mark.version_sensitive  # a pilot test of the lobby
async def test_the_lobby_lists_tables_live_and_sits_at_the_chosen_one():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        server.seat("oak", "bob")
        app = ann_in_the_lobby(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_shown(app))
            lobby = app.screen
            assert lobby.chosen_table() == "oak"
            server.seat("elm", "cid")
            await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 2, seconds=5)
            assert "2 tables open" in said(lobby, "#lobby-summary")
            await pilot.press("up")
            assert lobby.chosen_table() == "elm"
            await pilot.press("down")
            assert lobby.chosen_table() == "oak"
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and "ann (you)" in seats(app))
            assert app.controller.game.you.seat is not None
            assert app.query_one("#packet-p1", Packet).player == "bob"


async def test_the_lobby_watches_a_table():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        server.seat("oak", "bob")
        app = ann_in_the_lobby(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_shown(app))
            await pilot.press("w")
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and "you are watching" in seats(app))
            assert app.controller.game.watching


async def test_the_lobby_opens_a_new_table_and_refuses_a_bad_name():
    with TableServer(dealing(*WAR_TEXTS)) as server:
        app = ann_in_the_lobby(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_shown(app))
            lobby = app.screen
            assert "No tables yet" in said(lobby, "#lobby-summary")
            await pilot.press("n")
            await pilot.press(*"Bad_Name", "enter")
            message = said(lobby, "#lobby-message")
            assert "characters outside a-z, 0-9 and -" in message
            assert server.registry.tables == ()
            lobby.query_one("#lobby-name").value = ""
            await pilot.press(*"Pine-2", "enter")
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and "ann (you)" in seats(app))
            assert server.registry.table("pine-2") is not None


async def test_a_lobby_leaving_while_its_count_line_waits_for_a_refresh_ends_no_game():
    """Choosing a table removes the lobby's list while its count line may still wait for the next refresh:
    that count must find nothing to do, not end the game (it did, now and then, on a busy machine)."""
    with TableServer(dealing(*WAR_TEXTS)) as server:
        app = ann_in_the_lobby(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_shown(app))
            lobby = app.screen
            await lobby.query_one("#lobby-tables").remove()  # as a chosen table's board takes the lobby's place
            lobby._count_later()  # a scroll or an update asked for the count just before
            await pilot.pause()
            await pilot.pause()
            assert app.return_code is None and app.screen is lobby


async def test_the_lobby_says_when_the_server_is_full():
    with TableServer(dealing(*WAR_TEXTS), max_tables=1) as server:
        server.seat("oak", "bob")
        app = ann_in_the_lobby(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_shown(app))
            lobby = app.screen
            assert "The server is full" in said(lobby, "#lobby-summary")
            await pilot.press("n")
            assert "server is full" in said(lobby, "#lobby-message")
            assert not lobby.query_one("#lobby-new").display


async def test_a_player_sitting_down_renames_the_seat_on_the_same_board_its_log_kept():
    """Names are the board's state: a new name redraws every widget that shows it; nothing is composed again."""
    with TableServer(dealing(*PLAIN)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "ann sits at seat 1" in log_text(app))
            assert app.board.names == ("ann", "Seat 2")
            ids = ("#status", "#seats", "#packet-p1", "#packet-p2", "#pile", "#card-bar", "#trend", "#log")
            widgets = [app.board.query_one(widget) for widget in ids]
            lines = len(app.query_one(BattleLog).lines)
            server.seat("oak", "bob")
            server.wake.set()
            await until(pilot, lambda: "bob sits at seat 2" in log_text(app))
            assert app.board.names == ("ann", "bob")
            assert [app.board.query_one(widget) for widget in ids] == widgets  # the very same widgets, redrawn
            assert len(app.query_one(BattleLog).lines) == lines + 1  # the log went on, not replayed
            await pilot.pause()
            assert "bob" in app.query_one("#packet-p2").player and any("bob" in row for row in screen_rows(app))


async def test_enter_typed_before_the_lobby_has_its_list_sits_once_the_list_arrives():
    """A key that reaches the lobby as it opens (a shared lobby's spectator taking their own) is not lost."""
    from textual.app import App

    from war_tui.presentation.glyphs import UNICODE
    from war_tui.tables import Lobby, LobbyEntry, SeatStatus

    class Host(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.asked: list[LobbyScreen.JoinRequested] = []

        def on_mount(self) -> None:
            self.push_screen(LobbyScreen(UNICODE))

        def on_lobby_screen_join_requested(self, message: LobbyScreen.JoinRequested) -> None:
            self.asked.append(message)

    app = Host()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("enter")
        await pilot.pause()
        assert app.asked == []
        entry = LobbyEntry("oak", ("bob", None), (SeatStatus.PLAYER, SeatStatus.OPEN), 0, 1, 0, (26, 26), None)
        app.screen.lobby = Lobby((entry,), 16)
        await until(pilot, lambda: app.asked != [])
        assert [(m.table, m.watch) for m in app.asked] == [("oak", False)]


@pytest.mark.parametrize("size", [(40, 12), (80, 24)])
async def test_the_lobbys_columns_and_keys_stay_whole_with_16_cell_names(size):
    from rich.cells import cell_len
    from screen_text import screen_rows
    from table_support import DirectHost, Sink, direct_app

    from war_tui.presentation.cells import cut_cells
    from war_tui.tables import FakeClock, Registry

    registry = Registry(clock=FakeClock(), seed_source=lambda: 5)
    names = ("annabelle-longna", "山田太郎山田太郎", "bartholomew-16ch")
    a, b = registry.join("oak", names[0], Sink()), registry.join("oak", names[1], Sink())
    for _ in range(3):
        a.flip()
        b.flip()
    registry.join("elm-with-long-n", names[2], Sink())
    app = direct_app(DirectHost(registry, "eve"), mode="lobby")
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: lobby_shown(app) and app.screen.query_one("#lobby-tables").row_count == 2)
        await pilot.pause()
        rows = screen_rows(app)
    text = "\n".join(rows)
    assert all(cell_len(row) <= size[0] for row in rows)
    header = next(row for row in rows if row.lstrip().startswith("Table"))
    assert header.split() == (["Table", "Seats", "Cards"] if size[0] < 72 else
                              ["Table", "Seats", "Cards", "Watching", "Game", "Battle"]), header
    assert "elm-with-long-n" in text
    for name in names:
        shown = [cut_cells(name, n) + "…" for n in range(3, cell_len(name))]
        assert name in text or any(short in text for short in shown), (name, text)
    for words in ("Up/Down choose", "enter sits", "w watches", "f free seats", "n opens a new table", "q leaves",
                  "? help"):
        assert words in " ".join(text.split()), (words, text)


def fifteen_tables():
    """Tables t00-t14, each with a player; every third (t00, t03 ... t12) has both seats taken. Returns the
    registry, its clock and a step that sends the lobby's readers its changes (as serve-ssh's timers do)."""
    from table_support import Sink

    from war_tui.tables import Registry

    clock = FakeClock()
    registry = Registry(clock=clock, seed_source=lambda: 5)
    for i in range(15):
        registry.join(f"t{i:02d}", f"p{i}", Sink())
        if i % 3 == 0:
            registry.join(f"t{i:02d}", f"q{i}", Sink())

    def tell_the_lobby() -> None:
        clock.advance(1.0)
        registry.poll()

    return registry, tell_the_lobby


def lobby_of(registry) -> WarApp:
    from table_support import DirectHost, direct_app

    return direct_app(DirectHost(registry, "eve"), mode="lobby")


def lobby_screen_text(app) -> str:
    return "\n".join(screen_rows(app))


async def test_every_one_of_15_tables_is_reached_at_80x24_and_a_line_says_which_are_in_sight():
    """Before: 8 of the 15 tables showed, with nothing saying there were more."""
    registry, _ = fifteen_tables()
    app = lobby_of(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: lobby_shown(app) and app.screen.query_one("#lobby-tables").row_count == 15)
        await until(pilot, lambda: "15 tables, 8 shown (1-8)." in lobby_screen_text(app))
        lobby = app.screen
        reached = [lobby.chosen_table()]
        for _ in range(14):
            await pilot.press("down")
            reached.append(lobby.chosen_table())
            await until(pilot, lambda: f" {reached[-1]} " in lobby_screen_text(app))  # scrolled into sight
        assert reached == [f"t{i:02d}" for i in range(15)]
        await until(pilot, lambda: "15 tables, 8 shown (8-15)." in lobby_screen_text(app))
        assert " t00 " not in lobby_screen_text(app)


async def test_f_lists_only_the_tables_with_a_free_seat_and_says_so():
    registry, _ = fifteen_tables()
    full = {f"t{i:02d}" for i in range(0, 15, 3)}
    app = lobby_of(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: lobby_shown(app) and app.screen.query_one("#lobby-tables").row_count == 15)
        lobby = app.screen
        await pilot.press("f")
        await until(pilot, lambda: "10 of 15 tables have a free seat, 8 shown (1-8); f lists them all."
                    in " ".join(lobby_screen_text(app).split()))
        listed = []
        for _ in range(10):
            listed.append(lobby.chosen_table())
            await pilot.press("down")
        assert listed == sorted({f"t{i:02d}" for i in range(15)} - full)
        assert not any(f" {name} " in lobby_screen_text(app) for name in full)
        assert "f Free seats" in screen_rows(app)[-1]  # the lobby's footer
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert dict(app.screen.keys)["f"].startswith("list only the tables with a free seat")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby)
        await pilot.press("f")
        await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 15)
        assert lobby.chosen_table() == "t14"  # the cursor stayed on its table
        assert "15 tables, 8 shown (8-15)." in lobby_screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and "eve (you)" in seats(app))


async def test_the_tables_in_sight_stay_put_as_the_lobby_is_updated():
    """Before: every update of the list scrolled it back to the top while someone browsed further down."""
    from table_support import Sink

    registry, tell_the_lobby = fifteen_tables()
    app = lobby_of(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: lobby_shown(app) and app.screen.query_one("#lobby-tables").row_count == 15)
        lobby = app.screen
        await pilot.press(*["down"] * 12, *["up"] * 7)
        await until(pilot, lambda: "15 tables, 8 shown (6-13)." in lobby_screen_text(app))
        registry.join("t08", "spy", Sink(), watch=True)
        tell_the_lobby()
        await until(pilot, lambda: lobby.lobby.tables[8].spectators == 1)
        await pilot.pause()
        assert lobby.chosen_table() == "t05"
        assert "15 tables, 8 shown (6-13)." in lobby_screen_text(app)
        assert any(row.split()[:4] == ["t08", "p8", "26", "1"] for row in screen_rows(app))


async def test_the_lobbys_columns_narrow_again_when_the_longest_name_leaves_the_list():
    """Rows change in place: a column once as wide as a long table name fits what is left (at 40 columns the
    seats get the room back, and the cards column stays whole)."""
    from table_support import Sink

    from war_tui.tables import Registry

    clock = FakeClock()
    registry = Registry(clock=clock, seed_source=lambda: 5)
    registry.join("oak", "annabelle-longna", Sink())
    registry.join("oak", "bartholomew-16ch", Sink())
    registry.join("elm-with-long-n", "cid", Sink())
    app = lobby_of(registry)
    async with app.run_test(size=(40, 12)) as pilot:
        await until(pilot, lambda: lobby_shown(app) and " elm-with-long-n " in lobby_screen_text(app))
        assert "annabelle-longna" not in lobby_screen_text(app)  # shortened to fit beside the long name
        registry.table("elm-with-long-n").close()
        clock.advance(1.0)
        registry.poll()
        await until(pilot, lambda: "annabelle-longna" in lobby_screen_text(app))
        rows = screen_rows(app)
        assert next(row for row in rows if row.lstrip().startswith("Table")).split() == ["Table", "Seats", "Cards"]
        assert any(row.split() == ["oak", "annabelle-longna", "26"] for row in rows), rows


async def test_the_lobbys_cursor_stays_on_its_table_as_tables_open_and_close():
    """Before: when the chosen table closed, the cursor went back to the first table at the top."""
    from table_support import Sink

    registry, tell_the_lobby = fifteen_tables()
    app = lobby_of(registry)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: lobby_shown(app) and app.screen.query_one("#lobby-tables").row_count == 15)
        lobby = app.screen
        await pilot.press(*["down"] * 12)
        assert lobby.chosen_table() == "t12"
        registry.table("t02").close()  # a table above it closes
        tell_the_lobby()
        await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 14)
        assert lobby.chosen_table() == "t12"
        registry.join("a-new-one", "zed", Sink())  # one opens above it
        tell_the_lobby()
        await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 15)
        assert lobby.chosen_table() == "t12"
        await until(pilot, lambda: " t12 " in lobby_screen_text(app) and " a-new-one " not in lobby_screen_text(app))
        registry.table("t12").close()  # the chosen one closes: its neighbour is chosen
        tell_the_lobby()
        await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 14)
        assert lobby.chosen_table() == "t13"
        await until(pilot, lambda: " t13 " in lobby_screen_text(app))
        await pilot.press("f")  # t13 has a free seat: the filter keeps it chosen
        await until(pilot, lambda: lobby.query_one("#lobby-tables").row_count == 10)
        assert lobby.chosen_table() == "t13"


@pytest.mark.parametrize("width", [80, 59, 48])
async def test_two_players_footer_shows_whole_keys_only_at_every_width(width):
    app = two_player_app(dealing(*PLAIN), names=("Ann", "Bob"))
    async with app.run_test(size=(width, 24)) as pilot:
        await until(pilot, lambda: "P1 flip" in footer_text(app))
        await pilot.pause()
        assert not cut_footer_keys(app), f"cut at {width} columns: {footer_text(app)}"
