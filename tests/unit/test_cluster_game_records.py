"""A record of the games stream is a table game that could have been played, or it is skipped."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from war_tui.cluster.game_records import GAMES_PER_HOUR, GameKey, IdentityRate, read_game
from war_tui.core.rules import EndReason, Gather, Result
from war_tui.stats import GameRecord, Source
from war_tui.stats.recovery import to_line
from war_tui.untrusted import BadRecord

RECORD = GameRecord(
    finished_at="2026-05-01T12:00:00+00:00", seed=7, war_cards=1, gather=Gather.WINNER_FIRST, max_battles=10_000,
    p1_name="ann", p2_name="bob", result=Result.P1, reason=EndReason.ALL_CARDS, battles=100, wars=3, longest_war=2,
    p1_count=52, p2_count=0, seconds=60.0, source=Source.TABLE, p1_player="key:SHA256:abc+/def", p2_player="addr:0f1e",
    game_id="oak.3f9c2a7be01d4c55.2",
)
GOOD = json.loads(to_line(RECORD))


def line(**changes: object) -> bytes:
    return json.dumps({**GOOD, **changes}).encode()


def test_a_table_game_reads_back_as_it_was_published():
    assert read_game(to_line(RECORD).encode()) == RECORD
    assert read_game(line(p1_player=None, p2_name="house", p2_player=None)).p2_player is None
    newer = read_game(line(result="forfeit", reason="gave-up", gather="shuffled"))  # a newer war-tui's words
    assert (newer.result, newer.reason, newer.gather) == ("forfeit", "gave-up", "shuffled")


IMPOSSIBLE = {
    "battles past 2^53": {"battles": 2**53},
    "battles past the cap": {"battles": 10_001},
    "battles past a replay": {"max_battles": 10**9, "battles": 2_000_000, "seconds": 100_000},
    "negative count": {"p1_count": -1, "p2_count": 53},
    "counts not the deck": {"p1_count": 30, "p2_count": 30},
    "negative wars": {"wars": -1},
    "wars past the battles": {"wars": 201, "longest_war": 2},
    "wars without a war": {"wars": 3, "longest_war": 0},
    "seconds 2^53": {"seconds": 2**53},
    "negative seconds": {"seconds": -1},
    "too fast": {"battles": 10_000, "seconds": 1.0},
    "true for a count": {"p1_count": True},
    "no war cards": {"war_cards": 0},
    "a list for battles": {"battles": [1]},
    "not a table game": {"source": "screensaver"},
    "escape in a name": {"p1_name": "\x1b]8;;http://evil\x07ann\x1b]8;;\x07"},
    "clear screen in a name": {"p2_name": "\x1b[2J"},
    "name not reduced": {"p1_name": "a b"},
    "escape in the result": {"result": "\x1b]0;owned\x07"},
    "escape in the time": {"finished_at": "\x1b[2J2026-05-01"},
    "a time that is not one": {"finished_at": "2026-13-45T99:00:00+00:00"},
    "a time without zone": {"finished_at": "2026-05-01T12:00:00"},
    "a time far ahead": {"finished_at": "2999-01-01T00:00:00+00:00"},
    "a time long ago": {"finished_at": "1970-01-01T00:00:00+00:00"},
    "escape in the source": {"source": "\x1b[5mtable"},
    "escape in the gather": {"gather": "\x1b[31mred"},
    "identity with escapes": {"p1_player": "key:\x1b[2J"},
    "identity of no form": {"p1_player": "flooder"},
    "game id of no form": {"game_id": "../../etc"},
    "no game id": {"game_id": None},
    "a field too many": {"extra": 1},
}


@pytest.mark.parametrize("changes", IMPOSSIBLE.values(), ids=IMPOSSIBLE.keys())
def test_an_impossible_game_is_a_bad_record(changes):
    with pytest.raises(BadRecord):
        read_game(line(**changes))


@pytest.mark.parametrize("data", [b"[" * 3000, b'{"battles": NaN}', b"\x00" * 9000, b"{}", b"[]", b"null"])
def test_what_is_no_record_at_all_is_a_bad_record(data):
    with pytest.raises(BadRecord):
        read_game(data)


def test_one_identity_adds_at_most_its_hourly_games_and_others_go_on():
    rate = IdentityRate()
    flood = [replace(RECORD, p1_player="key:flooder", game_id=f"oak.ab.{n + 1}") for n in range(GAMES_PER_HOUR + 50)]
    admitted = [rate.admit(record) for record in flood]
    assert admitted.count(True) == GAMES_PER_HOUR and admitted[-1] is False
    assert rate.admit(replace(RECORD, p1_player="key:someone", p2_player="key:else"))
    assert rate.admit(replace(flood[0], finished_at="2026-05-01T13:00:00+00:00")), "the next hour is another hour"


def test_the_rate_forgets_the_least_recent_identities_within_its_bound():
    rate = IdentityRate(per_hour=1, hours=10)
    for n in range(100):
        assert rate.admit(replace(RECORD, p1_player=f"key:p{n}", p2_player=None))
    assert len(rate) <= 10


def test_a_record_is_a_nodes_only_with_the_tag_of_the_key_the_nodes_share():
    key, line = GameKey(b"host key"), to_line(RECORD).encode()
    key.check(line, key.sign(line))
    GameKey(b"host key").check(line, key.sign(line))  # another node, the same host key
    tag = key.sign(line)
    altered = tag[:-1] + ("1" if tag[-1] == "0" else "0")
    for tag in (None, "", GameKey(b"another host key").sign(line), key.sign(line + b" "), altered):
        with pytest.raises(BadRecord, match="not signed"):
            key.check(line, tag)
