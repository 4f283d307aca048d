"""``war-tui stats``: the totals without a screen, and its failures as one line with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_main

from war_tui.cli import build_parser, main
from war_tui.commands.stats import store_from_args
from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Rules
from war_tui.stats import GameRecord, Source, StatsStore, recovery

GAME_KEYS = {
    "id", "finished_at", "seed", "rules", "names", "result", "reason", "battles", "wars",
    "longest_war", "final", "seconds", "source",
}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path)
    for seed in (3, 4, 5):
        game = Game.deal(seed, Rules(gather=Gather.LAID) if seed == 5 else None)
        game.play()
        store.record(GameRecord.from_game(game, ("Ann", "Bob"), 2.0, Source.AUTO))
    return path


def test_games_waiting_in_the_recovery_file_are_counted_and_named(db: Path, capsys):
    game = Game.deal(8)
    game.play()
    waiting = GameRecord.from_game(game, ("Ann", "Bob"), 2.0, Source.AUTO)
    recovery.keep(recovery.recovery_path(db), [waiting, waiting])
    code, out, _err = run_main(["stats", "--stats-db", str(db)], capsys)
    assert code == 0
    assert f"2 more finished games wait in {db}.unsaved.jsonl" in out
    assert "3 games" in out  # the database's own, untouched: a read-only command imports nothing
    code, out, _err = run_main(["stats", "--json", "--stats-db", str(db)], capsys)
    assert json.loads(out)["unsaved_games"] == 2 and json.loads(out)["games"] == 3


def test_json_shape(db: Path, capsys):
    code, out, err = run_main(["stats", "--json", "--stats-db", str(db)], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {
        "format", "db", "games", "results", "battles", "wars", "seconds_played", "first_at", "last_at",
        "histogram", "recent", "unsaved_games",
    }
    assert data["format"] == 1 and data["db"] == str(db) and data["games"] == 3
    assert set(data["results"]) == {"p1", "p2", "draw", "stopped"}
    assert sum(r["count"] for r in data["results"].values()) == 3
    assert sum(r["share"] for r in data["results"].values()) == pytest.approx(1)
    assert set(data["battles"]) == {"total", "mean", "median", "longest_game", "shortest_game"}
    assert set(data["wars"]) == {"total", "most_in_a_game", "deepest"}
    assert set(data["battles"]["longest_game"]) == GAME_KEYS
    assert sum(b["count"] for b in data["histogram"]["bins"]) == 3 and data["histogram"]["overflow"] is None
    assert [g["seed"] for g in data["recent"]] == [5, 4, 3]
    assert data["recent"][0]["rules"] == {"war_cards": 1, "gather": "laid", "max_battles": 10_000}
    assert data["recent"][0]["names"] == ["Ann", "Bob"] and data["recent"][0]["source"] == "auto"
    game = Game.deal(4)
    game.play()
    assert data["recent"][1]["battles"] == game.battles


def test_text_report_names_the_longest_game_and_how_to_replay_it(db: Path, capsys):
    code, out, _ = run_main(["stats", "--stats-db", str(db)], capsys)
    assert code == 0
    assert f"Statistics in {db}" in out and "3 games" in out
    games = {seed: Game.deal(seed, Rules(gather=Gather.LAID) if seed == 5 else None) for seed in (3, 4, 5)}
    for game in games.values():
        game.play()
    seed = max(games, key=lambda s: games[s].battles)
    flags = " --gather laid" if seed == 5 else ""
    assert f"Longest game:     {games[seed].battles:,} battles (seed {seed}," in out
    assert f"replay: war-tui --seed {seed}{flags}\n" in out
    assert "Game lengths" in out and "Recent games:" in out


def test_no_games_yet(tmp_path: Path, capsys):
    path = tmp_path / "nothing-here.sqlite3"
    code, out, _ = run_main(["stats", "--stats-db", str(path)], capsys)
    assert code == 0 and "No games recorded yet." in out
    assert not path.exists()  # reading statistics never creates the file
    code, out, _ = run_main(["stats", "--json", "--stats-db", str(path)], capsys)
    data = json.loads(out)
    assert data["games"] == 0 and data["battles"]["median"] is None and data["recent"] == []


def test_a_corrupt_file_is_one_line_and_exit_2(tmp_path: Path):
    bad = tmp_path / "stats.sqlite3"
    bad.write_bytes(b"\x00\x01garbage" * 300)
    before = bad.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "war_tui", "stats", "--json", "--stats-db", str(bad)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"war-tui stats: cannot read statistics: {bad} is not a statistics file (not an SQLite database); it was left untouched\n"
    )
    assert bad.read_bytes() == before


def test_a_folder_is_one_line_and_exit_2(tmp_path: Path, capsys):
    code, out, err = run_main(["stats", "--stats-db", str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert err == f"war-tui stats: cannot read statistics: {tmp_path} is a folder, not a statistics file\n"


def test_top_level_flags_choose_the_store(tmp_path: Path):
    parser = build_parser()  # the game's flags include --stats-db and --no-stats
    args = parser.parse_args(["--stats-db", str(tmp_path / "s.sqlite3")])
    store = store_from_args(args)
    assert store.enabled and store.path == tmp_path / "s.sqlite3"

    args = parser.parse_args(["--no-stats"])
    store = store_from_args(args)
    assert not store.enabled and store.take_notice() is None
    assert store.disabled_reason == "--no-stats was given"  # the screen: "Statistics are off: --no-stats was given."

    args = parser.parse_args(["--stats-db", str(tmp_path / "s.sqlite3"), "stats", "--json"])
    assert args.stats_db == str(tmp_path / "s.sqlite3")  # the top-level flag reaches the subcommand


def test_text_and_json_show_the_same_histogram(tmp_path: Path, capsys):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path)
    for seed in range(1, 61):
        game = Game.deal(seed)
        game.play()
        assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 1.0, Source.AUTO))
    _, out, _ = run_main(["stats", "--json", "--stats-db", str(path)], capsys)
    bins = json.loads(out)["histogram"]["bins"]
    _, text, _ = run_main(["stats", "--stats-db", str(path)], capsys)
    lines = text.split("Game lengths (battles per game):\n")[1].split("\n\n")[0].splitlines()
    shown = [(line.split()[0], int(line.split()[-1].replace(",", ""))) for line in lines]
    assert shown == [(f"{b['low']:,}-{b['high']:,}", b["count"]) for b in bins]
    assert 1 < len(bins) <= 12 and sum(count for _, count in shown) == 60


def test_stats_db_with_no_stats_is_one_line_and_exit_2(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "war_tui", "--stats-db", str(path), "--no-stats"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "war-tui: --stats-db and --no-stats contradict each other: give one of them\n"
    assert not path.exists()


def test_recent_games_stay_in_their_columns_with_long_rules(tmp_path: Path, capsys):
    path = tmp_path / "stats.sqlite3"
    store = StatsStore.open(path)
    for seed, rules in ((8, Rules(war_cards=2, gather=Gather.RANDOM, max_battles=5_000)), (9, Rules())):
        game = Game.deal(seed, rules)
        game.play()
        assert store.record(GameRecord.from_game(game, ("Ann", "Bob"), 1.0, Source.AUTO))
    _, out, _ = run_main(["stats", "--stats-db", str(path)], capsys)
    table = out.split("Recent games:\n")[1].splitlines()
    house, standard = sorted(table[1:], key=lambda row: "standard" in row)  # newest first: same second
    assert house.endswith("2 down, random, cap 5,000") and standard.endswith("standard")
    assert house.index("2 down") == standard.index("standard") == table[0].index("rules")
    for column in ("battles", "wars"):  # numbers right-aligned, ending under their header
        end = table[0].index(column) + len(column)
        assert all(row[end - 1].isdigit() and row[end] == " " for row in table[1:]), table


def test_recent_0_lists_no_recent_games(db: Path, capsys):
    code, out, err = run_main(["stats", "--recent", "0", "--stats-db", str(db)], capsys)
    assert code == 0 and err == "" and "3 games" in out and "Recent games" not in out
    code, out, _ = run_main(["stats", "--recent", "0", "--json", "--stats-db", str(db)], capsys)
    assert code == 0 and json.loads(out)["recent"] == []
    with pytest.raises(SystemExit) as exit_:
        main(["stats", "--recent", "-1", "--stats-db", str(db)])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err == "war-tui stats: --recent must be at least 0, not -1 (see war-tui stats --help)\n"
