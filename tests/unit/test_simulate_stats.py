"""The simulator's arithmetic: seeds it derives, how chunks add up, and its statistics."""

from collections import Counter

import pytest

from war_tui.commands.simulate import Tally, chunks, game_seed, median, percentile, play_chunk, simulate
from war_tui.engine import Game
from war_tui.rules import Gather, Rules


def test_derived_seeds_are_pinned_so_old_reports_stay_replayable():
    assert [game_seed(0, i) for i in range(3)] == GAME_SEEDS_0
    assert game_seed(7, 0) == GAME_SEED_7_0


def test_derived_seeds_are_distinct_and_fit_json_readers():
    seeds = [game_seed(s, i) for s in (0, 1, 2) for i in range(2000)]
    assert len(set(seeds)) == len(seeds)  # nearby simulation seeds share no games
    assert all(0 <= s < 2**48 for s in seeds)
    assert 0 <= game_seed(2**63 - 1, 10**9) < 2**48


@pytest.mark.parametrize(("games", "jobs"), [(1, 1), (7, 3), (1000, 1), (1000, 2), (123_457, 8)])
def test_chunks_cover_every_game_once_in_order(games, jobs):
    parts = list(chunks(games, jobs))
    assert parts[0][0] == 0 and parts[-1][1] == games
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:]))
    assert all(0 < stop - start <= 250 for start, stop in parts)


def test_a_chunk_plays_the_same_games_as_game_deal():
    rules = Rules(war_cards=2, gather=Gather.LAID, max_battles=500)
    tally = play_chunk(5, 10, 20, 2, "laid", 500)
    expected = Tally()
    for i in range(10, 20):
        g = Game.deal(game_seed(5, i), rules)
        g.play()
        expected.add_game(i, game_seed(5, i), g)
    assert tally == expected and tally.games == 10


def test_tallies_merge_to_the_same_totals_in_any_order():
    parts = [play_chunk(3, a, b, 1, "winner-first", 10_000) for a, b in [(0, 40), (40, 41), (41, 100)]]
    forward, backward = Tally(), Tally()
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    assert forward == backward == play_chunk(3, 0, 100, 1, "winner-first", 10_000)


def test_the_longest_game_on_a_tie_is_the_earliest():
    a, b = Tally(), Tally()
    a.longest, b.longest = (50, 9, 111), (50, 3, 222)
    a.merge(b)
    assert a.longest == (50, 3, 222)


def test_one_job_and_several_jobs_add_up_the_same():
    rules = Rules(max_battles=2000)
    assert simulate(300, 11, rules, 1) == simulate(300, 11, rules, 2)


def test_percentiles_are_nearest_rank_and_the_median_is_the_usual_one():
    values = Counter({1: 1, 2: 1, 3: 1, 4: 1, 100: 1})
    assert median(values, 5) == 3
    assert percentile(values, 5, 0.90) == 100
    assert percentile(values, 5, 0.50) == 3
    even = Counter({10: 2, 20: 2})
    assert median(even, 4) == 15
    hundred = Counter(range(1, 101))
    assert percentile(hundred, 100, 0.90) == 90 and percentile(hundred, 100, 0.99) == 99


GAME_SEEDS_0 = [220784129016933, 74438062818183, 50306054391078]
GAME_SEED_7_0 = 115156039560210
