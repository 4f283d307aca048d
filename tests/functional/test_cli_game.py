"""``war-tui game``: the JSON a script reads, the trace, and the readable account."""

import json
import subprocess
import sys

from cli_helpers import war_tui

CARD_KEYS = {"seed", "rules", "p1", "p2", "result", "battles", "wars", "final"}
TRACE_KEYS = {"n", "p1_cards", "p2_cards", "wars", "winner", "p1_count", "p2_count"}


def test_game_json_has_the_documented_shape():
    done = war_tui("game", "--seed", "2024", "--json")
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert set(data) == CARD_KEYS
    assert data["seed"] == 2024
    assert data["rules"] == {"war_cards": 1, "gather": "winner-first", "max_battles": 10000}
    assert len(data["p1"]) == len(data["p2"]) == 26
    assert all(isinstance(c, str) and len(c) == 2 for c in data["p1"] + data["p2"])
    assert len(set(data["p1"] + data["p2"])) == 52
    assert data["result"] in {"p1", "p2", "draw", "stopped"}
    assert set(data["final"]) == {"p1", "p2"} and sum(data["final"].values()) == 52
    assert isinstance(data["battles"], int) and isinstance(data["wars"], int)


def test_game_json_carries_the_house_rules_and_replays_from_its_seed():
    flags = ["--war-cards", "3", "--gather", "laid", "--max-battles", "500"]
    first = json.loads(war_tui("game", "--seed", "5", *flags, "--json").stdout)
    again = json.loads(war_tui("game", "--seed", "5", *flags, "--json").stdout)
    assert first == again
    assert first["rules"] == {"war_cards": 3, "gather": "laid", "max_battles": 500}


def test_game_without_a_seed_picks_one_and_reports_it():
    data = json.loads(war_tui("game", "--json").stdout)
    replay = json.loads(war_tui("game", "--seed", str(data["seed"]), "--json").stdout)
    assert replay == data


def test_explicit_packets_in_any_accepted_spelling_come_back_two_character():
    done = war_tui("game", "--p1", "as, 10h Q♥️", "--p2", "2c 3♠ kd", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["p1"] == ["AS", "TH", "QH"] and data["p2"] == ["2C", "3S", "KD"]
    assert data["seed"] is None
    assert sum(data["final"].values()) == 6


def test_trace_prints_one_line_per_battle_then_the_summary():
    done = war_tui("game", "--seed", "2024", "--trace", "--json")
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    *trace, summary = lines
    assert set(summary) == CARD_KEYS
    assert len(trace) == summary["battles"]
    assert [t["n"] for t in trace] == list(range(1, len(trace) + 1))
    for t in trace:
        assert set(t) == TRACE_KEYS
        assert t["winner"] in ("p1", "p2") or (t is trace[-1] and t["winner"] is None)
        assert t["p1_count"] + t["p2_count"] == 52
        assert len(t["p1_cards"]) == len(t["p2_cards"]) == 1 + 2 * t["wars"]
    assert sum(t["wars"] for t in trace) == summary["wars"]
    assert (trace[-1]["p1_count"], trace[-1]["p2_count"]) == (summary["final"]["p1"], summary["final"]["p2"])


def test_a_game_ended_short_in_a_war_traces_a_winner_null_last_line():
    done = war_tui("game", "--p1", "5C 2C 7C", "--p2", "5D 2D 7D 8D 9D", "--trace")
    lines = done.stdout.splitlines()
    assert json.loads(lines[0]) == {
        "n": 1, "p1_cards": ["5C", "2C", "7C"], "p2_cards": ["5D", "2D", "7D"],
        "wars": 1, "winner": None, "p1_count": 0, "p2_count": 8,
    }
    assert "Player 2 wins" in done.stdout


def test_a_draw_traces_winner_null_and_is_reported_as_a_draw():
    done = war_tui("game", "--p1", "9C 2C", "--p2", "9H 3H", "--trace", "--json")
    trace, summary = (json.loads(line) for line in done.stdout.splitlines())
    assert trace["winner"] is None and (trace["p1_count"], trace["p2_count"]) == (2, 2)
    assert summary["result"] == "draw"


def test_the_readable_account_names_the_result_and_how_to_replay():
    done = war_tui("game", "--seed", "3", "--gather", "loser-first")
    assert done.returncode == 0
    assert "seed 3" in done.stdout and "gather loser-first" in done.stdout
    assert "Replay: war-tui game --seed 3 --gather loser-first" in done.stdout
    assert "Battles:" in done.stdout and "Final cards:" in done.stdout


def test_a_game_stopped_at_the_cap_reports_both_counts():
    done = war_tui("game", "--p1", "QS 5D", "--p2", "8S KH 2D TD 5H", "--json")
    data = json.loads(done.stdout)
    assert data["result"] == "stopped" and data["battles"] == 10000
    assert data["final"]["p1"] > 0 and data["final"]["p2"] > 0


def test_output_closed_early_is_not_an_error():
    proc = subprocess.Popen(
        # 10,000 trace lines: more than a pipe holds, so the writer meets it closed.
        [sys.executable, "-m", "war_tui", "game", "--p1", "QS 5D", "--p2", "8S KH 2D TD 5H", "--trace"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=30)
    assert b"Traceback" not in err and b"Error" not in err
    assert proc.returncode == 0


def test_a_one_card_packet_reads_one_card():
    done = war_tui("game", "--p1", "AS KD", "--p2", "QC")
    assert done.returncode == 0, done.stderr
    assert "Player 1 (2 cards, top first): AS KD" in done.stdout
    assert "Player 2 (1 card, top first): QC" in done.stdout
