"""The simulator's arithmetic: seeds it derives, how chunks add up, and its statistics."""

from collections import Counter

import pytest

from war_tui.commands.simulate import Tally, chunks, game_seed, median, percentile, play_chunk, simulate
from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Rules


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


class _CountingChunks:
    """Wraps ``chunks`` to see how many chunk bounds were taken before the first game was played."""

    def __init__(self, real):
        self.real = real
        self.pulled = 0

    def __call__(self, games, jobs):
        for part in self.real(games, jobs):
            self.pulled += 1
            yield part


def test_a_huge_run_takes_chunks_lazily_with_one_job(monkeypatch):
    from war_tui.commands import simulate as sim

    counting = _CountingChunks(sim.chunks)
    monkeypatch.setattr(sim, "chunks", counting)
    seen_at_first_game = []

    def first_game_stops(*args):
        seen_at_first_game.append(counting.pulled)
        raise KeyboardInterrupt  # what Ctrl-C would do: nothing more to play

    monkeypatch.setattr(sim, "play_chunk", first_game_stops)
    with pytest.raises(KeyboardInterrupt):
        simulate(10**9, 1, Rules(), 1)
    assert seen_at_first_game == [1]  # not the 4,000,000 chunks of the whole run


class _InlinePool:
    """A process pool that runs each chunk at once, so a test can watch what is queued."""

    submitted: list[tuple[object, ...]] = []

    def __init__(self, max_workers, initializer=None, initargs=()):
        self.workers = max_workers

    def submit(self, fn, *args):
        from concurrent.futures import Future

        _InlinePool.submitted.append(args[1:3])
        future = Future()
        future.set_result(Tally())
        if len(_InlinePool.submitted) >= 50:
            raise KeyboardInterrupt
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


def test_a_huge_run_keeps_only_a_few_chunks_in_flight_with_several_jobs(monkeypatch):
    from war_tui.commands import simulate as sim

    counting = _CountingChunks(sim.chunks)
    monkeypatch.setattr(sim, "chunks", counting)
    monkeypatch.setattr(sim, "ProcessPoolExecutor", _InlinePool)
    _InlinePool.submitted = []
    with pytest.raises(KeyboardInterrupt):
        simulate(10**9, 1, Rules(), 4)
    assert counting.pulled <= 50  # chunks are taken as workers free up, never all at once
    assert _InlinePool.submitted[:2] == [(0, 250), (250, 500)]


def test_the_command_does_not_list_every_chunk_to_count_its_jobs(monkeypatch):
    from war_tui.cli import main
    from war_tui.commands import simulate as sim

    counting = _CountingChunks(sim.chunks)
    monkeypatch.setattr(sim, "chunks", counting)
    pulled_before_playing = []

    def interrupted(games, seed, rules, jobs, on_progress=None):
        pulled_before_playing.append((counting.pulled, jobs))
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "simulate", interrupted)
    assert main(["simulate", "--games", str(10**9), "--seed", "1", "--jobs", "3"]) == 130
    assert pulled_before_playing == [(0, 3)]
    assert main(["simulate", "--games", "2", "--seed", "1", "--jobs", "3"]) == 130
    assert pulled_before_playing[-1] == (0, 2)  # two games make two chunks: a third worker would idle


@pytest.mark.parametrize(("games", "jobs"), [(1, 1), (7, 3), (1000, 2), (123_457, 8), (10**9, 64)])
def test_the_chunk_count_is_what_chunks_yields(games, jobs):
    from war_tui.commands.simulate import chunk_count

    if games < 10**6:
        assert chunk_count(games, jobs) == len(list(chunks(games, jobs)))
    else:
        assert chunk_count(games, jobs) == 4_000_000


@pytest.mark.parametrize(
    ("counts", "shown"),
    [
        ({"p1": 1966, "p2": 2034}, "player 1 49.2%   player 2 50.8%   draw 0.0%   stopped 0.0%"),
        ({"p1": 1, "p2": 1, "draw": 1}, "player 1 33.4%   player 2 33.3%   draw 33.3%   stopped 0.0%"),
        ({"p1": 2, "p2": 1}, "player 1 66.7%   player 2 33.3%   draw 0.0%   stopped 0.0%"),
        ({"p1": 7}, "player 1 100.0%   player 2 0.0%   draw 0.0%   stopped 0.0%"),
    ],
)
def test_the_four_result_shares_add_up_to_100_percent(counts, shown):
    from war_tui.commands.simulate import report, text_report

    games = sum(counts.values())
    tally = Tally(games=games, results=Counter(counts), battles=Counter({100: games}),
                  total_battles=100 * games, longest=(100, 0, 1), deepest=(1, 0, 1))
    text = text_report(report(tally, 1, Rules(), 1, 1.0), Rules())
    assert f"Results:  {shown}" in text.splitlines()
