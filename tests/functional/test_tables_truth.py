"""One truth at a table (issue 29): each screen ends on the table's state, whatever it held or was laying.

Pilot tests over a socketpair (table_support.TableServer); the other player is a plain member.
"""

from __future__ import annotations

import pytest
from support.board_text import log_text, requests, seats
from table_support import TableServer, ann_and_bob, dealing, table_app
from war_ui_support import footer_text, until

from war_tui.settings.play import PlaySettings
from war_tui.tables import TableOptions
from war_tui.ui.components.battle_log import BattleLog
from war_tui.ui.screens.table_game_over import TableGameOverScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)
WAR_ENDS_IT = ("KC 7C 2C AS", "2D 7H 3D 2H")
WAR_THEN_MORE = ("4C 2C 3C 5C 9C 8C 7C 6C", "4D 2D 3D KD 8D 7D 6D 5D")
"""Battle 1 is a war; more battles follow."""
"""Seat 1 wins a plain battle, then a war that takes seat 2's last cards: the game ends on a war."""
PACED = PlaySettings(result_hold=0.0)
"""Wars laid step by step, as a person plays."""


def on_the_result(app) -> bool:
    return isinstance(app.screen, TableGameOverScreen)


async def test_alone_with_the_house_stopping_at_wars_a_war_the_table_played_through_is_never_held_on_screen():
    """Item 1: h, w, a alone; the table plays the war that ends the game, so the screen shows it whole."""
    with TableServer(dealing(*WAR_ENDS_IT)) as server:
        fd, _ = server.connect("ann", table="oak")
        app = table_app(fd, settings=PACED)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "h plays the house now" in requests(app))
            await pilot.press("h")
            await until(pilot, lambda: "the house plays seat 2" in seats(app))
            await pilot.press("w")
            await until(pilot, lambda: app.board.pause_on_war)
            await pilot.press("a")
            await until(pilot, lambda: server.registry.table("oak").game.over)
            await until(pilot, lambda: on_the_result(app) and not app.board.laying)
            assert app.board.settled is not None and app.board.settled.battle == 2
            assert app.board.settled.counts == (8, 0)
            assert "WAR" in log_text(app)


async def test_a_human_leaving_during_auto_play_with_war_stops_leaves_no_war_held_on_the_others_screen():
    """Item 1: both stop at wars and play auto; bob leaves; the war that ends the game reaches ann whole."""
    with TableServer(dealing(*WAR_ENDS_IT), options=TableOptions(short_stay=0.0)) as server:
        app, bob, _ = ann_and_bob(server, settings=PACED)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            bob.table.set_war_stop(bob, True)
            await pilot.press("w")
            await until(pilot, lambda: app.board.pause_on_war)
            bob.set_auto(True, 0.5)  # auto-play runs at the slower player's speed: a battle every 2 s
            await pilot.press("a")
            await until(pilot, lambda: app.board.auto)
            bob.leave()
            server.wake.set()
            await until(pilot, lambda: server.registry.table("oak").game.over)
            await until(pilot, lambda: on_the_result(app) and not app.board.laying)
            assert app.board.settled is not None and app.board.settled.battle == 2
            assert log_text(app).index("bob left seat 2") < log_text(app).index("WAR")


async def test_n_declines_the_other_players_request_and_the_asker_is_told_who_declined():
    """n is in the footer only while the other player's request waits, and in the help."""
    from table_support import PLAIN

    with TableServer(dealing(*PLAIN)) as server:
        app, bob, sink = ann_and_bob(server)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            assert "n Decline" not in footer_text(app)
            bob.set_auto(True, 4)
            bob.table.set_war_stop(bob, True)
            server.wake.set()
            await until(pilot, lambda: "bob asks for auto-play at 4/s: press a to agree, n to decline" in requests(app))
            await until(pilot, lambda: "n Decline" in footer_text(app))
            await pilot.press("n")
            told = "ann declined bob's request for auto-play and to stop at wars"
            await until(pilot, lambda: told in log_text(app))
            assert any(getattr(u, "text", "") == told for u in sink.updates)
            assert not bob.table.state().seats[1].auto and "asks" not in requests(app)
            await until(pilot, lambda: "n Decline" not in footer_text(app))
            assert "decline" in dict(app.controller.help_keys())["n"]


async def test_a_lost_update_is_caught_up_by_a_snapshot_and_ctrl_l_asks_for_one_by_hand():
    from table_support import PLAIN

    from war_tui.tables import EventBatch, Snapshot

    with TableServer(dealing(*PLAIN)) as server:
        fd, link = server.connect("ann", table="oak")
        bob, _ = server.seat("oak", "bob")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            deliver = link._deliver
            lost: list = []

            def lose_a_battle(update) -> None:
                if isinstance(update, EventBatch) and not lost:
                    lost.append(update)  # the line never reaches ann's screen
                    return
                deliver(update)

            link.member.sink = lose_a_battle
            game = app.controller.game
            handle, snapshots = game.handle, []
            game.handle = lambda update, *told: (snapshots.append(update) if isinstance(update, Snapshot) else None,
                                                 handle(update, *told))
            await pilot.press("space")
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: app.controller.game.battles == 1)  # a snapshot brought it
            assert lost and len(snapshots) == 1
            assert app.board.settled is not None and app.board.settled.battle == 1
            assert log_text(app).count("bob sits at seat 2") == 1
            await pilot.pause(1.0)  # a screen asks for at most one snapshot a second
            await pilot.press("ctrl+l")
            await until(pilot, lambda: len(snapshots) == 2)
            assert log_text(app).count("bob sits at seat 2") == 1


async def live_and_late(server, script) -> tuple[list[str], list[str]]:
    """ann's log, watched live through ``script(pilot, app, bob)``, and the log of eve, who comes after."""
    app, bob, _ = ann_and_bob(server, settings=PACED)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "bob" in seats(app))
        await script(pilot, app, bob)
        live = list(app.query_one(BattleLog).lines)
    fd, _ = server.connect("eve", table="oak", watch=True)
    late_app = table_app(fd, mode="watch", settings=PACED)
    async with late_app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "you are watching" in seats(late_app))
        late = list(late_app.query_one(BattleLog).lines)
    return live, late


async def test_a_game_stopped_at_a_wars_tie_is_logged_in_the_tables_order_on_every_screen():
    """Item 5: both stop at wars and play auto; at the tie both ask to deal again. Live, the result line came
    above the stopped battle and the agreement after game 2's battle 9; a late spectator sees the table's order."""

    async def script(pilot, app, bob) -> None:
        bob.table.set_war_stop(bob, True)
        await pilot.press("w")
        await until(pilot, lambda: app.board.pause_on_war)
        bob.set_auto(True, 4)
        await pilot.press("a")
        await until(pilot, lambda: app.board.table_state.held and app.board.shown_steps == 1)  # at the tie
        await pilot.press("r")
        await until(pilot, lambda: "you ask to stop this game" in requests(app))
        bob.restart()
        bob.set_auto(False)
        server.wake.set()
        await until(pilot, lambda: app.controller.game.game_number == 2 and not app.board.laying)
        await pilot.pause(0.1)
        assert not app.board.laying

    with TableServer(dealing(*WAR_THEN_MORE)) as server:
        live, late = await live_and_late(server, script)
        assert any("stopped" in line.lower() for line in live)
        assert late[:len(live)] == live, "\n".join(["live:", *live, "late:", *late])  # then ann's leaving


async def test_a_spectator_arriving_while_the_table_holds_a_war_at_its_tie_sees_the_tie_as_the_players_do():
    """Item 1: the late spectator saw battle 4 whole while the players' screens stood at its tie (battle 3 told)."""
    with TableServer(dealing(*WAR_THEN_MORE)) as server:
        ann, _ = server.seat("oak", "ann")
        bob, _ = server.seat("oak", "bob")
        for member in (ann, bob):
            member.table.set_war_stop(member, True)
            member.set_auto(True, 4)
        server.wake.set()
        table = server.registry.table("oak")
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch", settings=PACED)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: table.state().held)
            await until(pilot, lambda: app.board.table_state is not None and app.board.table_state.held)
            assert app.board.at_tie and app.board.battle.battle == table.game.battles
            assert "either player's space lays it" in requests(app)
            fd2, _ = server.connect("fay", table="oak", watch=True)
            late = table_app(fd2, mode="watch", settings=PACED)
            async with late.run_test(size=SIZE) as late_pilot:
                await until(late_pilot, lambda: "you are watching" in seats(late))
                assert late.board.at_tie and late.board.battle.battle == table.game.battles
                assert late.board.settled == app.board.settled
                assert "DOUBLE WAR" not in log_text(late)


async def test_a_screen_that_fell_behind_draws_the_newest_battle_once_and_keeps_every_battle_in_its_log():
    """Issue 40: a screen whose game got the CPU late drew every battle it had missed, one after another, while the
    table went on. State, not steps: what one read brings reaches the pile as its newest battle in one frame (a war
    among them shown whole, not laid), while the log and the trend still tell every battle."""
    from war_tui.core.engine import Game
    from war_tui.ui.components.trend import CountTrend

    with TableServer(lambda: Game.deal(7)) as server:
        ann, _ = server.seat("oak", "ann")
        bob, _ = server.seat("oak", "bob")
        fd, _ = server.connect("eve", table="oak", watch=True)
        app = table_app(fd, mode="watch", settings=PACED)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob sits at seat 2" in log_text(app))
            board = app.board
            on_pile: list[int | None] = []
            board.watch(board, "battle", lambda view: on_pile.append(view and view.battle), init=False)
            lines = len(app.query_one(BattleLog).lines)
            for _ in range(30):  # thirty battles while the screen's game waits for the CPU: one read brings them all
                ann.flip()
                bob.flip()
            table = server.registry.table("oak")
            assert not table.game.over and table.game.wars  # some of them wars
            await until(pilot, lambda: board.settled is not None and board.settled.battle == 30)
            assert on_pile == [30] and not board.laying
            assert len(app.query_one(BattleLog).lines) == lines + 30
            assert len(app.query_one(CountTrend).history.samples) == 31  # the deal's count and each battle's


async def test_a_screen_that_knows_it_is_behind_says_catching_up_until_it_is_not():
    """A lost update: the screen heard a later number than it can show and asked for the table afresh. Until the
    snapshot comes its status line says so, then no longer, on the table's battle."""
    from support.board_text import drawn
    from table_support import PLAIN

    from war_tui.tables import EventBatch
    from war_tui.ui.components.status import StatusLine

    with TableServer(dealing(*PLAIN)) as server:
        fd, link = server.connect("ann", table="oak")
        bob, _ = server.seat("oak", "bob")
        app = table_app(fd)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "bob" in seats(app))
            status = app.query_one(StatusLine)
            assert "catching up" not in drawn(status)
            deliver, lost, asked = link._deliver, [], []

            def lose_a_battle(update) -> None:
                if isinstance(update, EventBatch) and not lost:
                    lost.append(update)  # the line never reaches ann's screen
                    return
                deliver(update)

            link.member.sink = lose_a_battle
            serve, link._fresh_snapshot = link._fresh_snapshot, lambda: asked.append(True)  # the snapshot waits
            await pilot.press("space")
            bob.flip()
            server.wake.set()
            await until(pilot, lambda: asked and "catching up…" in drawn(status))
            assert lost and app.controller.game.battles == 0
            serve()  # the snapshot asked for comes
            await until(pilot, lambda: "catching up" not in drawn(status))
            assert app.controller.game.battles == 1 and "Battle 1 " in drawn(status)
