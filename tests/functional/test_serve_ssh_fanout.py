"""Spectators served from one rendering: real games, real SSH clients, screens read through a terminal emulator."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator

import pytest
from ssh_support import InProcessServer, connect, until, wait_gone
from ssh_support.players import GAME, GAME_TIMEOUT, MANY, Player, agreed, board, game_pids, serve, take_a_seat
from ssh_support.players import served as served_game

from war_tui.serving import priority
from war_tui.serving.priority import group_nice
from war_tui.serving.pty_process import READ_CHUNK
from war_tui.serving.tables.keeper import LET_GO


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--renderers-per-table", "0"], "--renderers-per-table must be at least 1"),
        (["--renderers-per-table", "65"], "--renderers-per-table must be at most 64"),
        (["--spectator-backlog-kb", "15"], "--spectator-backlog-kb must be at least 16"),
        (["--spectator-backlog-kb", "16385"], "--spectator-backlog-kb must be at most 16,384"),
        (["--spectator-backlog-kb", "lots"], "--spectator-backlog-kb must be a whole number"),
    ],
)
def test_the_fanout_flags_out_of_range_are_one_line_and_exit_2(tmp_path, args, words):
    result = serve("--public", "--host-key", str(tmp_path / "hk"), *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and words in result.stderr, result.stderr


@contextlib.asynccontextmanager
async def served(tmp_path, monkeypatch, **options) -> AsyncIterator[tuple[InProcessServer, list[Player]]]:
    """A server of the real game with the fan-out on (unless ``options`` say otherwise), and a list for the people
    a test seats there: at the end they hang up and the server stops, however the test ends."""
    options.setdefault("fanout", True)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the games' data folder, not the user's
    async with served_game(tmp_path, GAME, **MANY, **options) as (srv, people):
        yield srv, people


async def flip_both(ann: Player, bob: Player, battle: int, people: list[Player]) -> None:
    try:
        await ann.glass.until(r"ann \(you\)")  # her seat is hers: a key typed before it counts for nothing
        ann.type(b" ")
        await bob.glass.until(r"ann flipped")
        bob.type(b" ")
        for person in people:
            await person.glass.until(rf"^│\s+{battle}\s.*\d+·\d+")  # the battle is in the log
    except AssertionError as failure:  # which screens stood still, and which went on: every screen, not one
        screens = "\n\n".join(f"screen {index}:\n{person.glass.text}" for index, person in enumerate(people))
        raise AssertionError(f"{failure}\n\nevery screen at battle {battle}:\n{screens}") from None


def whole_board(glass) -> tuple[str, str, str] | None:
    """The board on a screen once it is all there (a repaint arrives in pieces through a small window)."""
    try:
        return board(glass)
    except AssertionError:
        return None


def renderers(srv) -> list:
    hub = srv.server.fanout
    return [r for r in hub.renderers.values() if r.process is not None]


async def a_player_and_a_shared_spectator(srv, people: list[Player]) -> tuple[Player, Player, int]:
    """ann at table oak and cy watching it through the table's renderer (both added to ``people``), and
    the renderer's pid."""
    ann = await take_a_seat(srv.port, "ann", "table oak")
    cy = await take_a_seat(srv.port, "cy", "watch oak")
    people += [ann, cy]
    await cy.glass.until(r"you are watching")
    await until(lambda: len(renderers(srv)) == 1, GAME_TIMEOUT)
    return ann, cy, renderers(srv)[0].process.pid


@pytest.mark.app
@pytest.mark.server_side
async def test_spectators_share_one_renderer_see_a_full_board_at_once_and_stay_in_sync(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        cy = await take_a_seat(srv.port, "cy", "watch oak")
        people += [ann, bob, cy]
        await cy.glass.until(r"oak · .*1 spectator · you are watching")
        for battle in (1, 2):
            await flip_both(ann, bob, battle, people)
        await agreed(people)
        dee = await take_a_seat(srv.port, "dee", "watch oak")  # a newcomer: the same board at once
        people.append(dee)
        await dee.glass.until(r"Battle 2 · Wars")
        assert len(renderers(srv)) == 1
        hub = srv.server.fanout
        assert len(next(iter(hub.renderers.values())).watchers) == 2
        await ann.glass.until(r"2 spectators")
        await dee.glass.until(r"2 spectators · you are watching")
        await flip_both(ann, bob, 3, people)
        seen = await agreed(people)
        assert seen[0] == "3"
        assert hub.started == 1  # both spectators, one game process


@pytest.mark.app
@pytest.mark.server_side
async def test_the_renderer_ends_when_its_last_spectator_leaves(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        cy = await take_a_seat(srv.port, "cy", "watch oak")
        dee = await take_a_seat(srv.port, "dee", "watch oak")
        people += [ann, cy, dee]
        await dee.glass.until(r"you are watching")
        await cy.glass.until(r"you are watching")
        await until(lambda: len(renderers(srv)) == 1, GAME_TIMEOUT)
        pid = renderers(srv)[0].process.pid
        cy.conn.close()
        await asyncio.sleep(0.5)
        assert renderers(srv) and renderers(srv)[0].process.pid == pid  # dee still watches it
        dee.conn.close()
        assert await wait_gone(pid)
        await until(lambda: not srv.server.fanout.renderers)
        await ann.glass.until(r"Table oak · ann \(you\)")


@pytest.mark.app
@pytest.mark.server_side
@pytest.mark.skipif(group_nice(os.getpid()) is None, reason="the kernel keeps no session groups")
async def test_a_players_game_settles_as_high_as_the_renderer_drawing_their_table(tmp_path, monkeypatch):
    """A renderer draws for every spectator of its size: settled as low as a solo game, a crowd's screens would
    wait on the games of every other table. A player's game settles with it, never below: settled lower (issue
    40), the players' screens froze under load while the spectators' kept up."""
    monkeypatch.setattr(priority, "START_BOOST", 0.3)  # a short boost: the same path
    monkeypatch.setattr(priority, "BOOST_CPU", 0.0)  # however much CPU their first boards took
    async with served(tmp_path, monkeypatch, game_nice=10) as (srv, people):
        _, _, renderer = await a_player_and_a_shared_spectator(srv, people)
        game = next(pid for pid in game_pids(srv) if pid != renderer)
        await until(lambda: group_nice(renderer) == priority.TABLE_NICE == 5, GAME_TIMEOUT)
        await until(lambda: group_nice(game) == 5, GAME_TIMEOUT)


@pytest.mark.app
@pytest.mark.server_side
async def test_a_spectators_help_key_gives_them_a_view_of_their_own(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        cy = await take_a_seat(srv.port, "cy", "watch oak")
        dee = await take_a_seat(srv.port, "dee", "watch oak")
        people += [ann, bob, cy, dee]
        await cy.glass.until(r"you are watching")
        await dee.glass.until(r"you are watching")
        cy.type(b"?")
        await cy.glass.until(r"How War is played")  # the help, on cy's screen only
        assert not dee.glass.find(r"How War is played")
        await flip_both(ann, bob, 1, [ann, bob, dee])
        hub = srv.server.fanout
        await until(lambda: len(renderers(srv)) == 1 and len(next(iter(hub.renderers.values())).watchers) == 1,
                    GAME_TIMEOUT)  # dee alone on the shared renderer
        await ann.glass.until(r"2 spectators")  # cy still counts once, now with a game of their own


@pytest.mark.app
@pytest.mark.server_side
async def test_two_spectators_of_different_sizes_each_get_a_board_that_fits(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        small = await take_a_seat(srv.port, "cy", "watch oak", size=(80, 24))
        big = await take_a_seat(srv.port, "dee", "watch oak", size=(120, 40))
        people += [ann, bob, small, big]
        await flip_both(ann, bob, 1, people)
        for person, width in ((small, 80), (big, 120)):
            await person.glass.until(r"you are watching")
            # The board's frame reaches the right edge of that screen, not further (once a repaint is all there).
            await person.glass.until(rf"^.{{{width - 1}}}[│┐┘╮╯]$")
        assert sorted(r.key.size for r in renderers(srv)) == [(80, 24), (120, 40)]


@pytest.mark.app
@pytest.mark.server_side
async def test_a_frozen_spectator_slows_nobody_holds_at_most_its_backlog_and_is_repainted(tmp_path, monkeypatch):
    backlog = 2048
    async with served(tmp_path, monkeypatch, spectator_backlog=backlog) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        cy = await take_a_seat(srv.port, "cy", "watch oak")
        people += [ann, bob, cy]
        await cy.glass.until(r"you are watching")
        # A client that opens a tiny window and reads nothing: the server may send it 1 KiB, then holds the rest.
        conn = await connect(srv.port, None, username="frozen")
        process = await conn.create_process(
            "watch oak", term_type="xterm-256color", term_size=(100, 30), encoding=None, window=1024,
        )
        hub = srv.server.fanout
        await until(lambda: sum(len(r.watchers) for r in hub.renderers.values()) == 2, GAME_TIMEOUT)
        for person in (ann, bob):
            person.type(b"++a")  # auto-play at 16 battles a second: a stream far past what the frozen client takes
        await cy.glass.until(r"Battle \d\d+ · Wars")
        # The stream passes the frozen one's backlog (on a loaded machine the game draws fewer, larger frames).
        await until(lambda: hub.resyncs >= 1, GAME_TIMEOUT)
        for person in (ann, bob):
            person.type(b"a")
        table = srv.server.tables.registry.table("oak")
        await until(lambda: table.game.battles > 0 and table.state().auto_speed is None)
        # The other spectator shows the battle the table is at, the frozen one notwithstanding.
        await cy.glass.until(rf"Battle {table.game.battles} · Wars")
        watchers = [w for r in hub.renderers.values() for w in r.watchers]
        assert len(watchers) == 2
        assert all(w.peak <= w.allowance + READ_CHUNK for w in watchers), [(w.peak, w.allowance) for w in watchers]
        frozen = Player(conn, process, (100, 30))  # it reads at last: a fresh board, then the stream
        people.append(frozen)
        await until(lambda: whole_board(frozen.glass) == whole_board(cy.glass) is not None, GAME_TIMEOUT)
        assert board(frozen.glass)[0] == str(table.game.battles)
        assert max(w.repaints for w in watchers) >= 2


@pytest.mark.app
@pytest.mark.server_side
async def test_closing_the_server_says_goodbye_to_a_shared_spectator_and_ends_its_renderer(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        _, cy, pid = await a_player_and_a_shared_spectator(srv, people)
        await srv.server.stop()
        await cy.pump
        assert "shutting down" in cy.glass.raw.decode(errors="replace")
        assert await wait_gone(pid)


@pytest.mark.app
@pytest.mark.server_side
async def test_the_lobby_is_served_from_one_rendering_and_a_key_gives_a_lobby_of_ones_own(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        await ann.glass.until(r"Table oak · ann \(you\)")
        lou = await take_a_seat(srv.port, "lou", "tables")
        max_ = await take_a_seat(srv.port, "max", "tables")
        people += [ann, lou, max_]
        for person in (lou, max_):
            await person.glass.until(r"oak")
        [renderer] = renderers(srv)
        assert renderer.key.table == "" and len(renderer.watchers) == 2  # one lobby drawn for both
        lou.type(b"\r")  # enter sits at the table chosen: lou's own game takes the key
        await ann.glass.until(r"lou to flip")
        assert len(renderer.watchers) == 1


@pytest.mark.app
@pytest.mark.server_side
async def test_a_spectator_who_resizes_moves_to_the_renderer_of_the_new_size(tmp_path, monkeypatch):
    async with served(tmp_path, monkeypatch) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        cy = await take_a_seat(srv.port, "cy", "watch oak", size=(100, 30))
        people += [ann, cy]
        await cy.glass.until(r"you are watching")
        await until(lambda: [r.key.size for r in renderers(srv)] == [(100, 30)], GAME_TIMEOUT)
        cy.glass.screen.resize(24, 80)
        cy.process.change_terminal_size(80, 24)
        await until(lambda: [r.key.size for r in renderers(srv)] == [(80, 24)], GAME_TIMEOUT)
        await cy.glass.until(r"(?m)^ .*Battle 0 .*\n oak · ann to flip")  # the 80-column header, repainted
        await cy.glass.until(r"^.{79}[│╮╯]$")  # the board's frame at the new edge, once the repaint is all there


@pytest.mark.app
@pytest.mark.server_side
async def test_a_shared_spectators_key_after_the_table_left_says_why_and_starts_no_game_of_its_own(tmp_path, monkeypatch):
    """The table goes from under a shared spectator (this node lets it go: another node serves it now), and cy
    presses a key: cy is told why, never shown a solo game in the table's place (before: an unrelated solo game)."""
    async with served(tmp_path, monkeypatch) as (srv, people):
        _, cy, _pid = await a_player_and_a_shared_spectator(srv, people)
        table = srv.server.tables.registry.table("oak")
        assert table is not None
        table.close(LET_GO)
        await asyncio.sleep(0.5)
        cy.type(b" ")
        try:
            await asyncio.wait_for(cy.pump, GAME_TIMEOUT)  # the session ends: no game of cy's own goes on
        except TimeoutError:
            raise AssertionError(f"cy's session went on:\n{cy.glass.text}") from None
        said = cy.glass.raw.decode(errors="replace")
        assert LET_GO in said, cy.glass.text
