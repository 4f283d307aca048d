"""war-tui export --format cast: the replay playing, as an asciicast v2 file asciinema plays.

The file is checked against the asciicast v2 format (docs.asciinema.org/manual/asciicast/v2): a header
object on the first line (version 2, width and height as whole numbers, the duration, a title, the
environment), then one [time, "o", text] array a line, times in seconds from the start and never going
back. Played into a terminal emulator (pyte), its frames show the board at the last battle at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_main
from support.glass import Glass

from war_tui.core.engine import Game
from war_tui.core.rules import Rules
from war_tui.presentation.views import battle_view
from war_tui.stats import GameRecord, StatsStore
from war_tui.stats.replay import Replay

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SEED = 132  # 34 battles, 4 wars under the standard rules


@pytest.fixture
def stats_db(tmp_path: Path) -> Path:
    path = tmp_path / "stats.db"
    store = StatsStore.open(path)
    game = Game.deal(SEED, Rules())
    game.play()
    assert store.record(GameRecord.from_game(game, ("Ann", "[b]Bob")))
    assert store.flush(10)
    return path


def played(cast: str) -> tuple[dict, list[list], Glass]:
    """The header, the events, and the screen they leave."""
    lines = cast.splitlines()
    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:]]
    glass = Glass((header["width"], header["height"]))
    for _, _, text in events:
        glass.feed(text)
    return header, events, glass


@pytest.mark.parametrize(("speed", "size"), [("8", "40x12"), ("2", "80x24")])
def test_the_cast_is_asciicast_v2_and_plays_the_whole_game(stats_db: Path, capsys, speed: str, size: str):
    code, out, err = run_main(["export", "1", "--format", "cast", "--speed", speed, "--size", size,
                               "--stats-db", str(stats_db)], capsys)
    assert (code, err) == (0, "")
    header, events, glass = played(out)
    width, height = map(int, size.split("x"))
    assert header["version"] == 2 and (header["width"], header["height"]) == (width, height)
    assert isinstance(header["width"], int) and isinstance(header["height"], int)
    assert header["title"] == f"war-tui replay: Ann v [b]Bob, seed {SEED}, standard rules"
    assert header["env"] == {"TERM": "xterm-256color"}
    replay = Replay(SEED, Rules())
    assert replay.battles == 34
    wars = sum(1 for b in replay.played() if b.wars)
    # A battle a 1/speed s, each step of a war laid half that: as long as playing the game on screen lasts.
    views = [battle_view(b.event, 1, b.total_wars) for b in replay.played()]
    steps = sum(view.stages - 1 for view in views if view is not None)
    assert header["duration"] == pytest.approx((34 + steps * 0.5) / int(speed), abs=1e-6)
    times = [event[0] for event in events]
    assert all(isinstance(t, float | int) for t in times) and times == sorted(times) and times[0] == 0
    assert times[-1] == pytest.approx(header["duration"])
    assert all(len(event) == 3 and event[1] == "o" and isinstance(event[2], str) for event in events)
    assert len(events) >= 34 + wars  # a frame a battle at least, and more for each war laid step by step
    text = glass.text
    assert "battle 34 of 34" in text
    assert "Replay of game 1" in text
    assert "\x1b[?25h" in events[-1][2]  # the cursor given back at the end


def test_the_cast_of_a_game_file_names_no_game(tmp_path: Path, capsys):
    from war_tui.stats.export import json_chunks

    path = tmp_path / "game.json"
    path.write_text("".join(json_chunks(Replay(SEED, Rules()), ("Ann", "Bob"))))
    code, out, _ = run_main(["export", "--file", str(path), "--format", "cast", "--speed", "8"], capsys)
    assert code == 0
    _, _, glass = played(out)
    assert "Replay: Ann v Bob" in glass.text


def test_ascii_draws_the_recording_in_ascii_characters_only(stats_db: Path, capsys):
    code, out, _ = run_main(["export", "1", "--format", "cast", "--speed", "8", "--size", "40x12", "--ascii",
                             "--stats-db", str(stats_db)], capsys)
    assert code == 0
    _, _, glass = played(out)
    text = glass.text
    assert "battle 34 of 34" in text and text.isascii()


def test_names_reach_the_recordings_title_as_plain_text(tmp_path: Path, capsys):
    path = tmp_path / "stats.db"
    store = StatsStore.open(path)
    game = Game.deal(SEED, Rules())
    game.play()
    assert store.record(GameRecord.from_game(game, ("Ann\x1b[2J", "Bob\u202e\nEve")))
    code, out, _ = run_main(["export", "1", "--format", "cast", "--speed", "8", "--stats-db", str(path)], capsys)
    assert code == 0
    title = json.loads(out.splitlines()[0])["title"]
    assert title.isprintable() and "\x1b" not in title and title.startswith("war-tui replay: Ann")
