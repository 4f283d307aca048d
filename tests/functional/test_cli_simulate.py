"""``war-tui simulate``: its report, its determinism across --jobs, and a clean Ctrl-C."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from cli_helpers import session_ended, war_tui

REPORT_KEYS = {
    "seed", "games", "rules", "results", "result_counts", "battles", "wars_per_game",
    "ended_short_in_war", "longest_game", "deepest_war", "speed",
}


def simulate_json(*args: str) -> dict:
    done = war_tui("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    return json.loads(done.stdout)


def test_simulate_json_has_the_documented_shape():
    data = simulate_json("--games", "300", "--seed", "9", "--jobs", "1")
    assert set(data) == REPORT_KEYS
    assert data["seed"] == 9 and data["games"] == 300
    assert data["rules"] == {"war_cards": 1, "gather": "winner-first", "max_battles": 10000}
    assert set(data["results"]) == set(data["result_counts"]) == {"p1", "p2", "draw", "stopped"}
    assert sum(data["result_counts"].values()) == 300
    assert abs(sum(data["results"].values()) - 1) < 1e-9
    battles = data["battles"]
    assert set(battles) == {"mean", "median", "p90", "p99", "max", "total"}
    assert battles["median"] <= battles["p90"] <= battles["p99"] <= battles["max"]
    assert battles["mean"] == battles["total"] / 300
    assert data["wars_per_game"] > 0 and 0 <= data["ended_short_in_war"] <= 1
    assert set(data["longest_game"]) == {"seed", "game", "battles"}
    assert data["longest_game"]["battles"] == battles["max"]
    assert set(data["speed"]) == {"jobs", "seconds", "games_per_s", "battles_per_s"}
    assert data["speed"]["jobs"] == 1 and data["speed"]["games_per_s"] > 0


def test_any_number_of_jobs_reports_exactly_the_same_numbers():
    one = simulate_json("--games", "1500", "--seed", "77", "--jobs", "1")
    two = simulate_json("--games", "1500", "--seed", "77", "--jobs", "2")
    three = simulate_json("--games", "1500", "--seed", "77", "--jobs", "3")
    assert two["speed"]["jobs"] == 2
    for report in (one, two, three):
        del report["speed"]
    assert one == two == three


def test_the_longest_game_replays_with_game_seed():
    data = simulate_json("--games", "200", "--seed", "4", "--war-cards", "2", "--gather", "loser-first")
    longest = data["longest_game"]
    game = war_tui("game", "--seed", str(longest["seed"]), "--war-cards", "2", "--gather", "loser-first", "--json")
    assert json.loads(game.stdout)["battles"] == longest["battles"]


def test_the_same_seed_gives_the_same_report_and_the_default_seed_is_reported():
    data = simulate_json("--games", "50")
    again = simulate_json("--games", "50", "--seed", str(data["seed"]))
    del data["speed"], again["speed"]
    assert data == again


def test_the_cap_shows_up_as_stopped_games():
    data = simulate_json("--games", "100", "--seed", "1", "--max-battles", "50", "--jobs", "2")
    assert data["result_counts"]["stopped"] > 0
    assert data["battles"]["max"] == 50


def test_the_readable_report_names_everything_a_person_asks_for():
    done = war_tui("simulate", "--games", "200", "--seed", "12", "--jobs", "1", "--gather", "random")
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert "200 games of War, seed 12, gather random" in out
    for phrase in ("player 1", "player 2", "draw", "stopped", "mean", "median", "p90", "p99", "max",
                   "Wars per game", "short in a war", "Longest game", "games/s", "battles/s"):
        assert phrase in out
    assert "war-tui game --seed" in out and "--gather random" in out


# Tells a pipe once war-tui handles Ctrl-C: a Ctrl-C sooner kills Python.
STARTED = """
import os, signal, sys, war_tui
install = signal.signal
def installed(signum, handler):
    previous = install(signum, handler)
    signal.signal = install
    os.write({fd}, b"go")
    os.close({fd})
    return previous
signal.signal = installed
sys.exit(war_tui.run())
"""


def _simulate_started(*args: str) -> subprocess.Popen:
    """``war-tui simulate ARGS`` in a process group of its own, once war-tui handles Ctrl-C in it."""
    ready, tell = os.pipe()
    proc = subprocess.Popen(
        [sys.executable, "-c", STARTED.format(fd=tell), "simulate", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, pass_fds=(tell,),
    )
    os.close(tell)
    with os.fdopen(ready, "rb") as told:
        told.read(2)
    return proc


def _interrupt(jobs: str) -> subprocess.CompletedProcess:
    proc = _simulate_started("--games", "5000000", "--seed", "1", "--jobs", jobs)
    time.sleep(2)  # let it get going
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
    out, err = proc.communicate(timeout=60)
    assert session_ended(proc.pid, 30)  # no worker outlives the command
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_ends_cleanly_with_one_line_and_no_traceback():
    for jobs in ("1", "2"):
        done = _interrupt(jobs)
        assert done.returncode == 130
        assert done.stdout == ""
        # One line saying so; none if Ctrl-C came while Python was still loading.
        assert len(done.stderr.splitlines()) <= 1 and ("interrupted" in done.stderr or not done.stderr)
        assert "Traceback" not in done.stderr


def _interrupt_often(after: float, times: int, apart: float) -> tuple[int | None, str, str, bool]:
    """Ctrl-C ``times`` times, ``apart`` seconds apart, ``after`` seconds after war-tui starts; (status, out,
    err, workers left).
    A run still going 20 s after the first Ctrl-C is killed and reported with status None."""
    proc = _simulate_started("--games", "3000000", "--seed", "1", "--jobs", "2")
    time.sleep(after)
    for _ in range(times):
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(apart)
    try:
        out, err = proc.communicate(timeout=20)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    return code, out, err, not session_ended(proc.pid, 30)


@pytest.mark.parametrize(
    ("after", "times", "apart"),
    [(1.5, 2, 0.02), (1.5, 3, 0.01), (1.5, 2, 0.3), (0.0, 2, 0.02)],
    ids=["twice-20ms", "three-times-10ms", "twice-300ms", "twice-while-starting"],
)
def test_ctrl_c_any_number_of_times_ends_promptly_with_130(after, times, apart):
    code, out, err, leftovers = _interrupt_often(after, times, apart)
    assert code == 130, err
    assert out == "" and "Traceback" not in err
    assert len(err.splitlines()) <= 1, err
    assert not leftovers
