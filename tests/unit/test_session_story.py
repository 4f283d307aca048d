"""The game's story as every door tells it (``serving.session``): what the player reads and the status the wire
closes with, over a door that records what it was given."""

from __future__ import annotations

import asyncio
import sys
from types import SimpleNamespace

from war_tui.serving import session as story_module
from war_tui.serving.commands import LineCommand, TableCommand, TableMode, Way, parse_command, way_to_play
from war_tui.serving.config import GameConfig
from war_tui.serving.environment import game_environment
from war_tui.serving.goodbyes import GAME_FAILED, TERMINAL_RESET
from war_tui.serving.session import Session
from war_tui.serving.tables.place import TABLE_LEFT, TablePlace
from war_tui.settings.served import LINE_VARIABLE, PLAYER_ID_VARIABLE

TIMEOUT = 30.0


class RecordingDoor:
    """A door that keeps what the story wrote, said and closed with."""

    def __init__(self) -> None:
        self.exit_status = "no game"
        self.written = bytearray()
        self.said: list[str] = []
        self.closed: list[int] = []
        self.logged: list[str] = []
        self.refusals: list[str] = []
        self.keys_to: object = None

    label = "192.0.2.1:5000"
    size = (80, 24)

    def read_keys(self, process) -> None:
        self.keys_to = process

    def write(self, data: bytes) -> None:
        self.written += data

    def say(self, message: str) -> None:
        self.said.append(message)

    def goodbye(self, reason: str) -> str | None:
        return f"goodbye: {reason}"

    def drop_screen(self) -> None:
        self.written.clear()

    def refused(self, what: str, detail: str | None = None) -> None:
        self.refusals.append(what)

    def log(self, line: str) -> None:
        self.logged.append(line)

    async def close(self, status: int) -> None:
        self.closed.append(status)


async def shown(door: RecordingDoor, text: bytes) -> None:
    while text not in door.written:
        await asyncio.sleep(0.01)


def house(*argv: str, **config) -> SimpleNamespace:
    logged: list[str] = []
    return SimpleNamespace(
        config=GameConfig(session_argv=argv or ("true",), secret_key=b"k", **config), game_parent=None,
        processes=set(), log=logged.append, flood_log=lambda line, what=None: logged.append(str(line)),
    )


def python(code: str) -> tuple[str, ...]:
    return (sys.executable, "-c", code)


async def test_a_game_that_ends_by_itself_gives_the_client_its_screen_and_its_status():
    door = RecordingDoor()
    story = Session(house(*python("print('hello'); raise SystemExit(3)")), Way(line=False, table=None))
    await asyncio.wait_for(story.play(door, {"TERM": "dumb", "PATH": "/usr/bin:/bin"}), TIMEOUT)
    assert b"hello" in door.written and door.said == []
    assert door.closed == [3] and door.exit_status == "exit status 3"
    assert door.keys_to is story.process


async def test_a_game_ended_from_outside_drops_its_screen_says_why_and_closes_with_the_servers_status():
    door = RecordingDoor()
    story = Session(house(*python("import time; print('up', flush=True); time.sleep(60)")), Way(line=False, table=None))
    playing = asyncio.ensure_future(story.play(door, {"TERM": "dumb", "PATH": "/usr/bin:/bin"}))
    await asyncio.wait_for(shown(door, b"up"), TIMEOUT)
    story.stop("time limit")
    await asyncio.wait_for(playing, TIMEOUT)
    assert bytes(door.written) == TERMINAL_RESET  # the game's frames went; the reset came before the goodbye
    assert door.said == ["goodbye: time limit"]
    assert door.closed == [0] and door.exit_status.endswith(", time limit")  # 0: the server ended it


async def test_a_game_that_cannot_start_is_said_logged_and_closed_with_1(monkeypatch):
    async def no_game(*args, **kwargs):
        raise OSError("no pty left")

    monkeypatch.setattr(story_module, "start_game", no_game)
    door = RecordingDoor()
    await Session(house(), Way(line=False, table=None)).play(door, {})
    assert door.said == [GAME_FAILED] and door.closed == [1] and door.exit_status == "not started"
    assert door.logged == ["game did not start for 192.0.2.1:5000: no pty left"]


async def test_a_table_whose_link_closed_before_the_game_starts_says_so_and_starts_no_solo_game_in_its_place():
    link = SimpleNamespace(closed=True, member=None, take=lambda: "", close=lambda: None)
    place = TablePlace(link, TableMode.PLAY, SimpleNamespace(wake=lambda: None), "table oak seat 1 as ann")
    door = RecordingDoor()
    story = Session(house(), Way(line=True, table=TableCommand(TableMode.PLAY, "oak")), place)
    await story.play(door, {})
    assert door.said == [TABLE_LEFT] and door.written == b""  # the line mode gets no terminal reset
    assert door.closed == [0] and door.exit_status == "table closed" and story.process is None


async def test_a_bound_broken_is_counted_once_and_ends_the_game_for_it():
    door = RecordingDoor()
    story = Session(house(), Way(line=False, table=None))
    story.broke(door, "input flood")
    story.broke(door, "message rate")  # the game was ending anyway: not counted again
    assert door.refusals == ["input flood"] and story.stop_reason == "input flood" and story.stopping.is_set()


def test_every_door_tells_the_game_who_plays_the_same_way():
    config = GameConfig(session_argv=("war-tui",), secret_key=b"k")
    ssh = game_environment(config, "xterm", {}, line_input=None, identity="key:SHA256:abc")
    web = game_environment(config, "xterm-256color", {"COLORTERM": "truecolor"}, line_input=None,
                           identity="web:0123")
    assert ssh[PLAYER_ID_VARIABLE] == "key:SHA256:abc" and web[PLAYER_ID_VARIABLE] == "web:0123"
    assert PLAYER_ID_VARIABLE not in game_environment(config, "xterm", {}, line_input=None, identity=None)


def test_whole_lines_come_from_a_client_with_no_terminal_to_draw_on():
    config = GameConfig(session_argv=("war-tui",), secret_key=b"k")
    lines = game_environment(config, None, {}, line_input="lines", identity=None)
    keys = game_environment(config, "xterm", {}, line_input="keys", identity=None)
    assert (lines[LINE_VARIABLE], lines["TERM"]) == ("lines", "dumb")
    assert (keys[LINE_VARIABLE], keys["TERM"]) == ("keys", "xterm")
    assert LINE_VARIABLE not in game_environment(config, "xterm", {}, line_input=None, identity=None)


def test_each_command_plays_one_way_whichever_door_it_came_through():
    assert way_to_play(None) == Way(line=False, table=None)
    assert way_to_play(None, line=True) == Way(line=True, table=None)  # ACCESSIBLE=1
    assert way_to_play(parse_command("watch oak")) == Way(line=False, table=TableCommand(TableMode.WATCH, "oak"))
    assert way_to_play(parse_command("line table oak")) == Way(line=True, table=TableCommand(TableMode.PLAY, "oak"))
    assert way_to_play(LineCommand()) == Way(line=True, table=None)
