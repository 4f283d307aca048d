"""serve-ssh's shared tables: 'table NAME', 'watch NAME' and 'tables', seen from real SSH clients on ptys.

Most tests run a small stand-in game (ssh_support/fake_table.py) that prints what the table tells it,
so each test sees exactly what reached each connection's game; the end-to-end tests run the real game
and read the screens through a terminal emulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncssh
import pytest
from ssh_support import (
    FAKE_TABLE_ARGV,
    TIMEOUT,
    InProcessServer,
    PtyClient,
    Seat,
    ServerProcess,
    connect,
    start_server,
    until,
    wait_gone,
)
from ssh_support.players import (
    GAME,
    GAME_TIMEOUT,
    MANY,
    SSH,
    Glass,
    Player,
    agreed,
    openssh_at_oak,
    serve,
    served,
    take_a_seat,
)

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.serving.goodbyes import SHUTTING_DOWN, TABLE_BROKEN
from war_tui.ssh.session import REFUSE_COMMAND
from war_tui.stats import GameRecord, Source, StatsStore


async def sit(port: int, user: str, command: str | None, size=(100, 30)) -> Seat:
    conn = await connect(port, None, username=user)
    process = await conn.create_process(command, term_type="xterm-256color", term_size=size, encoding=None)
    return Seat(conn, process)


async def leave_all(*seats: Seat) -> None:
    for seat in seats:
        seat.conn.close()
    for seat in seats:
        await asyncio.wait_for(seat.conn.wait_closed(), TIMEOUT)


class Seats(list[Seat]):
    """The seats a test takes on one server, in order."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port

    async def take(self, user: str, command: str | None, size=(100, 30)) -> Seat:
        seat = await sit(self.port, user, command, size)
        self.append(seat)
        return seat


@contextlib.asynccontextmanager
async def tables_served(tmp_path: Path, argv: tuple[str, ...] = FAKE_TABLE_ARGV, **options):
    """A public server of a table game (the stand-in unless ``argv`` says), and the ``Seats`` taken on it.

    At the end every seat leaves, then the server stops.
    """
    srv = await start_server(tmp_path, None, argv=argv, **MANY, **options)
    seats = Seats(srv.port)
    try:
        yield srv, seats
    finally:
        await leave_all(*seats)
        await srv.server.stop()


# -- the server side, with a stand-in game -------------------------------------------------------------


async def test_two_players_and_a_spectator_share_one_table(tmp_path):
    async with tables_served(tmp_path) as (srv, seats):
        ann = await seats.take("ann", "table Oak")  # case-folded: the same table as "oak"
        await ann.expect(r"SNAPSHOT you=ann seat=1 ")
        assert "TABLE play" in ann.text
        bob = await seats.take("bob", "table oak")
        await bob.expect(r"SNAPSHOT you=bob seat=2 ")
        cy = await seats.take("cy", "table oak")  # both seats taken: cy watches
        await cy.expect(r"SNAPSHOT you=cy seat=- ")
        assert "TABLE play" in cy.text
        dee = await seats.take("dee", "watch oak")
        await dee.expect(r"SNAPSHOT you=dee seat=- ")
        assert "TABLE watch" in dee.text
        await ann.expect(r"STATE seats=ann:player,bob:player spectators=2 waiting=1,2")

        ann.type(b"f")
        await bob.expect(r"waiting=2 ")  # bob's screen says the table waits for him
        bob.type(b"f")
        battles = [await seat.expect(r"BATTLE 1 (\d+)-(\d+)") for seat in seats]
        assert len({m.groups() for m in battles}) == 1  # the same battle, the same counts, on every screen
        assert sum(map(int, battles[0].groups())) == 52

        cy.type(b"f")  # a spectator's flip does nothing but say so
        await cy.expect(r"NOTICE watching you are watching")
        bob.type(b"f")
        ann.type(b"f")
        second = [await seat.expect(r"BATTLE 2 (\d+)-(\d+)") for seat in seats]
        assert len({m.groups() for m in second}) == 1

        late = await seats.take("eve", "watch oak")  # a late arrival sees the table as it is at once
        snapshot = await late.expect(r"SNAPSHOT you=eve seat=- game=1 battles=2 counts=(\d+)-(\d+) ")
        assert snapshot.groups() == second[0].groups()

        ann.type(b"q")
        assert await ann.finish() == 0
        await bob.expect(r"NOTICE left ann left seat 1")
    assert any(re.search(r": table oak seat 1 as ann \[addr:\w+\]$", line) for line in srv.logs)
    assert any(re.search(r": table oak watching as dee \[addr:\w+\]$", line) for line in srv.logs)
    disconnects = [line for line in srv.logs if line.startswith("disconnect") and "user=ann" in line]
    assert len(disconnects) == 1 and "exit status 0, table oak seat 1 as ann" in disconnects[0]


async def test_the_lobby_lists_the_tables_live(tmp_path):
    async with tables_served(tmp_path) as (srv, seats):
        lobby = await seats.take("lou", "tables")
        await lobby.expect(r"LOBBY 0/16 full=False")
        assert "TABLE lobby" in lobby.text
        await seats.take("ann", "table elm")
        await lobby.expect(r"LOBBY 1/16 full=False elm:ann/-\+0")


async def test_the_log_names_the_table_a_lobby_session_sits_at(tmp_path):
    async with tables_served(tmp_path) as (srv, seats):
        lobby = await seats.take("lou", "tables")
        await lobby.expect(r"LOBBY 0/16 full=False")
        lobby.type(b"J")  # the lobby's enter on table elm
        await lobby.expect(r"SNAPSHOT you=lou seat=1 ")
        assert any(re.search(r": table elm seat 1 as lou \(from the lobby\) \[addr:\w+\]$", line) for line in srv.logs)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("table", "no table name given"),
        ("table Oak!", "characters outside a-z, 0-9 and -"),
        ("table " + "x" * 25, "25 characters long"),
        ("table caf\u00e9", "characters outside a-z, 0-9 and -"),
        ("table a b", "'table' takes one table name"),
        ("tables please", "'tables' takes no table name"),
        ("watch nosuch", "there is no table called nosuch to watch"),
    ],
)
async def test_a_bad_table_command_is_one_line_and_no_game(tmp_path, command, words):
    async with tables_served(tmp_path) as (srv, _):
        seat = await sit(srv.port, "ann", command)
        status = await seat.finish()
        text = seat.text
        assert status == 1
        assert text.count("\r\n") == 1 and text.startswith("war-tui: ") and words in text
        assert "PID" not in text and "TABLE" not in text  # no game was started
        assert "\u00e9" not in text and "Oak!" not in text and "please" not in text  # the input is not echoed
        seat.conn.close()
    assert srv.server.tables.registry.tables == ()
    assert "refused: table" in [line for line in srv.logs if line.startswith("disconnect")][0]


async def test_another_command_is_still_refused(tmp_path):
    async with tables_served(tmp_path) as (srv, _):
        async with await connect(srv.port, None) as conn:
            result = await asyncio.wait_for(conn.run("tablesx"), TIMEOUT)
            assert result.exit_status == 1 and result.stderr.strip() == REFUSE_COMMAND


async def test_max_tables_refuses_a_new_table_and_the_lobby_says_full(tmp_path):
    async with tables_served(tmp_path, max_tables=1) as (srv, seats):
        ann = await seats.take("ann", "table one")
        await ann.expect("SNAPSHOT")
        refused = await seats.take("bob", "table two")
        assert await refused.finish() == 1
        text = refused.text
        assert text.count("\r\n") == 1 and "the server is full: 1 table is open" in text
        joins = await seats.take("cy", "table one")  # an open table still takes players
        await joins.expect(r"SNAPSHOT you=cy seat=2 ")
        lobby = await seats.take("lou", "tables")
        await lobby.expect(r"LOBBY 1/1 full=True one:ann/cy")


@pytest.mark.parametrize(
    ("user", "reduced"),
    [
        ("ann [1;31mRED$(rm -rf)\u5c71<b>\u00a0x", "ann[1;31mRED$(rm"),  # printable: shown, cut to 16 cells
        ("\x1b]0;pwned\x07e\x1b[2Jvil\r\n\u202e", "]0;pwnede[2Jvil"),  # escapes, bell, newline, bidi go
    ],
    ids=["printable", "escapes"],
)
async def test_a_user_name_with_escapes_reaches_no_screen_and_no_log_unreduced(tmp_path, monkeypatch, user, reduced):
    # asyncssh's client refuses control characters in a name; others may not.
    if "\x1b" in user:
        monkeypatch.setattr(asyncssh.connection, "saslprep", lambda text: text)
    async with tables_served(tmp_path) as (srv, seats):
        evil = await seats.take(user, "table oak")
        await evil.expect(r"SNAPSHOT you=(\S+) seat=1")
        ann = await seats.take("ann", "table oak")
        seen = await ann.expect(r"STATE seats=(\S+):player,ann:player")
        assert seen.group(1) == reduced  # no controls or format characters, at most 16 cells
        evil.type(b"q")
        await ann.expect(rf"NOTICE left {re.escape(reduced)} left seat 1")
    for seat in seats:
        for raw in ("\u00a0", "\x1b]0;", "\x07", "\u202e", "\x1b[2J"):
            assert raw not in seat.text
    for line in srv.logs:
        assert line.isprintable(), line  # the connect line shows the raw name escaped
    assert any(f": table oak seat 1 as {reduced} [addr:" in line for line in srv.logs)


async def test_a_game_that_sends_garbage_is_ended_and_the_table_goes_on(tmp_path):
    async with tables_served(tmp_path) as (srv, seats):
        ann = await seats.take("ann", "table oak")
        bob = await seats.take("bob", "table oak")
        await ann.expect("SNAPSHOT")  # both games are up (keys typed before that may wait in a cooked pty)
        await bob.expect("SNAPSHOT")
        ann.type(b"f")  # the table moved: bob's seat is kept when he goes, however soon
        await bob.expect(r"waiting=2 ")
        bob.type(b"g")
        await bob.expect("NOTICE refused refused a line that is not JSON")
        bob.type(b"G")  # past the link's patience: its game is ended with a goodbye
        await bob.expect(re.escape(TABLE_BROKEN))
        assert await bob.finish() == 1
        await ann.expect(r"NOTICE left bob left seat 2")
        await ann.expect(r"BATTLE 1 ")  # the house plays bob's seat: the table goes on
    assert any("table link closed: too many malformed messages" in line for line in srv.logs)


async def test_closing_the_server_tells_every_seat_spectator_and_lobby(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    async with tables_served(tmp_path, argv=(*FAKE_TABLE_ARGV, "--notes", str(notes))) as (srv, seats):
        for user, command in (("ann", "table oak"), ("bob", "table oak"), ("cy", "watch oak"), ("lou", "tables")):
            seat = await seats.take(user, command)
            await seat.expect("SNAPSHOT|LOBBY")
        pids = [int((await seat.expect(r"PID (\d+)")).group(1)) for seat in seats]
        await srv.server.stop()
        for seat in seats:
            await seat.expect(re.escape(SHUTTING_DOWN))
        for pid in pids:
            assert await wait_gone(pid)
    told = sorted(path.read_text() for path in notes.iterdir())
    assert len(told) == 4 and all("closing the server is shutting down\n" in text for text in told), told


async def test_a_finished_table_game_is_recorded_once(tmp_path):
    db = tmp_path / "stats.sqlite3"
    options = {"table_rules": Rules(max_battles=3), "stats": lambda: StatsStore.open(db)}
    async with tables_served(tmp_path, **options) as (srv, seats):
        ann = await seats.take("ann", "table oak")
        bob = await seats.take("bob", "table oak")
        await ann.expect("SNAPSHOT")  # both games are up (keys typed before that may wait in a cooked pty)
        await bob.expect("SNAPSHOT")
        for battle in (1, 2, 3):
            ann.type(b"f")
            await bob.expect(rf"BATTLE {battle - 1} .*\r\n(.*\r\n)*STATE .*waiting=2 " if battle > 1 else r"waiting=2 ")
            bob.type(b"f")
            await ann.expect(rf"BATTLE {battle} ")
        await ann.expect(r"OVER \S+ after 3")
        await until(lambda: srv.server.tables.recorded == 1)
        ann.type(b"r")
        bob.type(b"r")
        await ann.expect(r"DEAL 2")
        ann.type(b"f")  # a battle of the second game, which is not over: nothing more is recorded
        bob.type(b"f")
        await ann.expect(r"BATTLE 1 .*\r\n(.*\r\n)*.*BATTLE 1 ")
    recent = StatsStore.open(db, read_only=True).recent()
    assert len(recent) == 1
    game = recent[0]
    assert (game.p1_name, game.p2_name, game.source.value, game.battles) == ("ann", "bob", "table", 3)
    assert sum(1 for line in srv.logs if line.startswith("table game over: ann")) == 1


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")
async def test_openssh_sits_at_a_table_with_ssh_t(tmp_path):
    async with tables_served(tmp_path) as (srv, _), openssh_at_oak(tmp_path, srv.port) as client:
        await client.expect(r"SNAPSHOT you=ann seat=1 ")
        assert "TABLE play" in client.text
        client.type(b"a")
        await client.expect(r"STATE seats=ann:player,-:open .*")
        client.type(b"q")
        assert await client.wait() == 0


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")
@pytest.mark.parametrize(
    ("user", "reduced"),
    [("\U0001f642ann", "\U0001f642ann"), ("ann\U0001f3fb\U0001faf6", "ann\U0001f3fb\U0001faf6"), ("\U0001f3fb", "guest")],
    ids=["emoji", "skin tone and a newer emoji", "a lone skin tone"],
)
async def test_a_user_name_asyncssh_calls_unassigned_is_reduced_not_refused(tmp_path, user, reduced):
    """OpenSSH sends the user name as typed; asyncssh's stringprep (Unicode 3.2) calls an emoji unassigned."""
    async with tables_served(tmp_path) as (srv, seats), openssh_at_oak(tmp_path, srv.port, user) as client:
        await client.expect(rf"SNAPSHOT you={re.escape(reduced)} seat=1 ")
        ann = await seats.take("ann", "table oak")
        await ann.expect(rf"STATE seats={re.escape(reduced)}:player,ann:player")
        client.type(b"q")
        assert await client.wait() == 0
    assert any(f": table oak seat 1 as {reduced} [addr:" in line for line in srv.logs), srv.logs


# -- end to end, with the real game ------------------------------------------------------------------------


BOB = re.escape("b[1m$()")


@pytest.mark.app
@pytest.mark.server_side
async def test_two_players_and_a_spectator_see_the_same_battle_counts_and_log(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the games' data folder, not the user's
    async with served(tmp_path, argv=GAME, **MANY) as (srv, people):
        ann = await take_a_seat(srv.port, "ann", "table oak")
        bob = await take_a_seat(srv.port, "b [1m$()", "table oak")  # shown as b[1m$(): text, not markup
        cy = await take_a_seat(srv.port, "cy", "watch oak")
        people += [ann, bob, cy]
        await ann.glass.until(rf"Table oak · ann \(you\) to flip · {BOB} to flip .*· 1 spectator")
        await bob.glass.until(rf"Table oak · ann to flip · {BOB} \(you\) to flip")
        await cy.glass.until(r"oak · .*1 spectator · you are watching")

        for battle in (1, 2, 3):
            ann.type(b" ")
            await bob.glass.until(rf"Table oak · ann flipped · {BOB} \(you\) to flip")
            bob.type(b"f")
            for person in people:
                await person.glass.until(rf"Battle {battle} · Wars")
                await person.glass.until(rf"^│\s+{battle}\s.*\d+·\d+")  # the battle is in the log
            seen = await agreed(people)
            assert seen[0] == str(battle)  # the same battle, counts and log line on every screen

        cy.type(b" ")  # a spectator's flip does nothing
        await cy.glass.until(r"you are watching")
        assert all(person.glass.find(r"Battle 3 · Wars") for person in people)
    assert any(": table oak seat 2 as b[1m$() [addr:" in line for line in srv.logs)


@pytest.mark.app
@pytest.mark.server_side
async def test_user_names_of_markup_are_text_in_the_lobby_and_at_the_table(tmp_path, monkeypatch):
    """Before: a player named ``[/]`` ended every lobby visitor's game within seconds (MarkupError), and
    ``[link=…]`` sent a hyperlink to other people's terminals."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with served(tmp_path, argv=GAME, **MANY) as (srv, people):
        link = re.escape("[link=//e.vil]x")
        closer = await take_a_seat(srv.port, "[/]", "table oak")
        linker = await take_a_seat(srv.port, "[link=//e.vil]x", "table oak")
        people += [closer, linker]
        await closer.glass.until(rf"Table oak · \[/\] \(you\) to flip · {link} to flip")
        lou = await take_a_seat(srv.port, "lou", "tables")
        people.append(lou)
        await lou.glass.until(r"oak .*\[/\]")
        await lou.glass.until(link)
        closer.type(b" ")
        linker.type(b" ")
        await linker.glass.until(r"Battle 1 · Wars")
        people.append(await take_a_seat(srv.port, "ann", "table elm"))
        await lou.glass.until(r"elm .*ann")  # the lobby drawn again, the names with it (its rows come in pieces)
        await lou.glass.until(r"oak .*\[/\]")
        await lou.glass.until(link)
        assert all(person.process.exit_status is None for person in people), [p.glass.text for p in people]
        for person in people:
            assert b"\x1b]8;" not in person.glass.raw  # no hyperlink reached a terminal
            assert "ended with an error" not in person.glass.text


@pytest.mark.app
@pytest.mark.server_side
async def test_the_same_key_on_a_second_terminal_plays_on_and_the_first_ends_saying_why(tmp_path, monkeypatch):
    """The older connection's goodbye says why, its channel closes with exit status 0, and its place among the
    address's sessions is free again (three an address here: ann, bob, ann again; then cy gets in)."""
    from ssh_support import make_key

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    keys = {name: make_key(tmp_path, f"{name}_key") for name in ("ann", "bob", "cy")}
    async with served(tmp_path, argv=GAME, max_sessions_per_address=3) as (srv, people):
        async def arrive(name: str) -> Player:
            conn = await connect(srv.port, keys[name], username=name)
            process = await conn.create_process("table dup", term_type="xterm-256color", term_size=(100, 30),
                                                encoding=None)
            people.append(Player(conn, process, (100, 30)))
            return people[-1]

        ann = await arrive("ann")
        bob = await arrive("bob")
        await ann.glass.until(r"Table dup · ann \(you\) to flip · bob to flip")
        ann.type(b" ")
        await bob.glass.until(r"Table dup · ann flipped · bob \(you\) to flip")
        bob.type(b" ")
        await bob.glass.until(r"Battle 1 · Wars")
        again = await arrive("ann")
        await again.glass.until(r"Table dup · ann \(you\) to flip · bob to flip")
        await again.glass.until(r"Battle 1 · Wars")  # the same game goes on
        await ann.glass.until(r"war-tui: you sat down at this table again from another connection: the game goes on"
                              r" there\.")
        assert (await asyncio.wait_for(ann.process.wait(), TIMEOUT)).exit_status == 0
        await asyncio.wait_for(ann.conn.wait_closed(), TIMEOUT)
        assert not ann.glass.find("q or enter: leave")  # nothing waits for a key there
        await bob.glass.until(r"ann plays on at seat 1 from another connection")
        cy = await arrive("cy")  # the address's third session again: ann's first one is gone
        await cy.glass.until(r"you are watching")
        again.type(b" ")
        await bob.glass.until(r"Table dup · ann flipped · bob \(you\) to flip")
        bob.type(b" ")
        await bob.glass.until(r"Battle 2 · Wars")
        await again.glass.until(r"Battle 2 · Wars")
        assert not bob.glass.find("house")


@pytest.mark.app
@pytest.mark.server_side
@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client: apt-get install -y openssh-client")
async def test_openssh_plays_at_a_table_with_the_real_game(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with tables_served(tmp_path, argv=GAME) as (srv, _), openssh_at_oak(tmp_path, srv.port) as client:
        await on_screen(client, r"Table oak · ann \(you\) to flip")
        bob = await take_a_seat(srv.port, "bob", "table oak")
        await on_screen(client, r"ann \(you\) to flip · bob to flip")
        client.type(b" ")
        await bob.glass.until(r"ann flipped · bob \(you\) to flip")
        bob.type(b" ")
        await bob.glass.until(r"Battle 1 · Wars")
        client.type(b"q")  # mid-game with bob at the table: asks first, and bob hears of it
        await on_screen(client, r"leave the table\? q or y leaves, any other key stays")
        await bob.glass.until(r"ann is leaving the table")
        client.type(b"y")
        assert await asyncio.wait_for(client.process.wait(), GAME_TIMEOUT) == 0
        await bob.glass.until(r"ann left seat 1")
        bob.conn.close()


async def on_screen(client: PtyClient, pattern: str) -> None:
    """Wait until the OpenSSH client's terminal shows ``pattern``."""
    deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT
    while True:
        glass = Glass((100, 30))
        glass.feed(bytes(client.output))
        if glass.find(pattern):
            return
        assert asyncio.get_running_loop().time() < deadline, glass.text
        await asyncio.sleep(0.1)


# -- flags -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--max-tables", "0"], "--max-tables must be at least 1"),
        (["--max-tables", "101"], "--max-tables must be at most 100"),
        (["--max-tables", "many"], "--max-tables must be a whole number"),
        (["--seat-timeout", "0.5"], "--seat-timeout must be from 1 to 3600 seconds"),
        (["--seat-timeout", "nan"], "--seat-timeout must be from 1 to 3600 seconds"),
        (["--seat-timeout", "1e9"], "--seat-timeout must be from 1 to 3600 seconds"),
        (["--seat-timeout", "soon"], "--seat-timeout must be seconds"),
    ],
)
def test_table_flags_out_of_range_are_one_line_and_exit_2(tmp_path, args, words):
    result = serve("--public", "--host-key", str(tmp_path / "hk"), *args)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1 and words in result.stderr, result.stderr


def test_the_table_flags_and_commands_are_in_the_help():
    result = serve("--help")
    for words in ("--max-tables", "--seat-timeout", "table NAME", "watch NAME", "'tables'"):
        assert words in result.stdout


async def test_the_seat_timeout_flag_reaches_the_tables(tmp_path):
    args = ("--port", "0", "--public", "--host-key", str(tmp_path / "hk"), "--seat-timeout", "1",
            "--session-command", " ".join(FAKE_TABLE_ARGV))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    with ServerProcess(*args, env=env) as server:
        port = server.wait_listening()
        ann = await sit(port, "ann", "table oak")
        bob = await sit(port, "bob", "table oak")
        try:
            await ann.expect("SNAPSHOT")  # both games are up (keys typed before that may wait in a cooked pty)
            await bob.expect("SNAPSHOT")
            ann.type(b"f")
            await bob.expect(r"NOTICE house-flipped the house flipped for bob: idle for 1 s")
            await bob.expect(r"BATTLE 1 ")
        finally:
            await leave_all(ann, bob)


Arrive = Callable[[str, str], Awaitable[Player]]


@contextlib.asynccontextmanager
async def a_recorded_game(tmp_path: Path, db: Path, size: tuple[int, int]) -> AsyncIterator[
        tuple[InProcessServer, Arrive, Player, Player]]:
    """ann and bob (each with a key of their own) play the two battles of a game at oak, on a server that records
    its games in ``db``; ``arrive(name, command)`` brings another person in, on a terminal of ``size``."""
    from ssh_support import make_key

    keys = {name: make_key(tmp_path, f"{name}_key") for name in ("ann", "bob")}
    async with served(tmp_path, argv=(*GAME, "--stats-db", str(db)), table_rules=Rules(max_battles=2),
                      stats=lambda: StatsStore.open(db), **MANY) as (srv, people):
        async def arrive(name: str, command: str) -> Player:
            conn = await connect(srv.port, keys.get(name), username=name)
            process = await conn.create_process(command, term_type="xterm-256color", term_size=size, encoding=None)
            people.append(Player(conn, process, size))
            return people[-1]

        ann, bob = await arrive("ann", "table oak"), await arrive("bob", "table oak")
        await ann.glass.until(r"ann \(you\) to flip · bob to flip")
        for battle in (1, 2):
            ann.type(b" ")
            await bob.glass.until(r"ann flipped · bob \(you\) to flip")
            bob.type(b" ")
            await ann.glass.until(rf"Battle {battle} · Wars")
        yield srv, arrive, ann, bob


@pytest.mark.app
@pytest.mark.server_side
async def test_a_finished_table_game_is_on_the_lobbys_leaderboard(tmp_path, monkeypatch):
    """The server records the game; a lobby's own game process reads the same file and lists both players."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with a_recorded_game(tmp_path, tmp_path / "served.sqlite3", (80, 24)) as (srv, arrive, _ann, _bob):
        await until(lambda: srv.server.tables.recorded == 1)
        lou = await arrive("lou", "tables")
        await lou.glass.until(r"oak ")
        lou.type(b"s")
        await lou.glass.until(r"Leaderboard")
        await lou.glass.until(r"ann +1 +[01] +2")
        await lou.glass.until(r"bob +1 +[01] +2")
        assert not lou.glass.find("SHA256") and not lou.glass.find("addr:")
        lou.type(b"\x1b")
        await lou.glass.until(r"War tables")


@pytest.mark.app
@pytest.mark.server_side
async def test_a_table_games_result_names_its_id_and_replay_of_that_id_is_that_game(tmp_path, monkeypatch):
    """The server records the game; each player's result finds its id in the served statistics and says how to
    replay it, and ``ssh HOST replay ID`` opens that very game: the same players, the same seed and battles."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = tmp_path / "served.sqlite3"
    solo = Game.deal(5, Rules(max_battles=3))
    solo.start()
    solo.play(3)
    StatsStore.open(db).record(GameRecord.from_game(solo, ("eve", "lou"), 1.0, Source.INTERACTIVE))
    async with a_recorded_game(tmp_path, db, (100, 30)) as (srv, arrive, ann, bob):
        link = rf"Game +ssh -t -p {srv.port} 127\.0\.0\.1 replay (oak\.[0-9a-f]{{16}}\.1)\b"
        shown = await ann.glass.until(link)
        game_id = shown[1]  # the table game's own id, the same on every node of a cluster (not a row's number)
        assert (await bob.glass.until(link))[1] == game_id  # the same id on each player's screen
        seed = (await ann.glass.until(r"Seed +(\d+)"))[1]
        lou = await arrive("lou", f"replay {game_id}")
        await lou.glass.until(rf"Replay: ann v bob, seed {seed},")
        await lou.glass.until(rf"replay {game_id}@1\b")
        await lou.glass.until(r"battle 1 of 2")


@pytest.mark.app
@pytest.mark.server_side
async def test_no_leaderboard_reaches_the_lobby_which_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with await start_server(tmp_path, None, argv=GAME, leaderboard=False, **MANY) as srv:
        lou = await take_a_seat(srv.port, "lou", "tables")
        await lou.glass.until(r"No tables yet")
        assert not lou.glass.find("Leaders")
        lou.type(b"s")
        await lou.glass.until(r"This server keeps no leaderboard\.")
        lou.conn.close()
