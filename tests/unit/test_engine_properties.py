"""Properties that hold for every deal and every house rule, checked by hypothesis."""

import json
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from war_tui.commands.game import summary
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver
from war_tui.core.rules import EndReason, Gather, Result, Rules, Side

GOLDEN = Path(__file__).parent / "data" / "golden_games.json"

rules_st = st.builds(
    Rules,
    war_cards=st.integers(1, 3),
    gather=st.sampled_from(list(Gather)),
    max_battles=st.integers(1, 3000),
)


@st.composite
def hand_made_deals(draw):
    """Two non-empty packets of distinct cards (any number up to 52), any rules, any gather seed."""
    cards = draw(st.permutations(range(52)))
    total = draw(st.integers(2, 52))
    split = draw(st.integers(1, total - 1))
    return ("packets", tuple(cards[:split]), tuple(cards[split:total]), draw(rules_st), draw(st.integers(0, 2**32)))


seeded_deals = st.tuples(st.just("seed"), st.integers(0, 2**63 - 1), rules_st)
any_deal = st.one_of(hand_made_deals(), seeded_deals)


def new_game(deal: tuple) -> Game:
    """A fresh game from a deal description, so a test can play the same game twice."""
    if deal[0] == "seed":
        return Game.deal(deal[1], deal[2])
    _, p1, p2, rules, seed = deal
    return Game(p1, p2, rules, seed=seed)


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def everything(game: Game) -> tuple:
    return (
        game.result, game.reason, game.battles, game.wars, game.longest_war,
        game.packet(Side.P1), game.packet(Side.P2),
    )


@SETTINGS
@given(any_deal)
def test_every_card_is_accounted_for_after_every_battle(deal):
    game = new_game(deal)
    start = Counter(game.initial[0] + game.initial[1])
    while game.step():
        # Between battles the middle is empty: the packets hold every card.
        assert Counter(game.packet(Side.P1) + game.packet(Side.P2)) == start
    assert game.over
    assert sum(game.counts) == game.total_cards


@SETTINGS
@given(any_deal)
def test_the_result_agrees_with_the_final_counts(deal):
    game = new_game(deal)
    game.play()
    n1, n2 = game.counts
    k = game.rules.war_cards
    if game.reason is EndReason.ALL_CARDS:
        assert (n1, n2) == ((game.total_cards, 0) if game.result is Result.P1 else (0, game.total_cards))
    elif game.reason is EndReason.SHORT_IN_WAR:
        loser, winner = (n2, n1) if game.result is Result.P1 else (n1, n2)
        assert loser <= k < winner
    elif game.reason is EndReason.BOTH_SHORT:
        assert game.result is Result.DRAW
    else:
        assert game.reason is EndReason.BATTLE_CAP and game.result is Result.STOPPED
        assert game.battles == game.rules.max_battles and n1 > 0 and n2 > 0
    assert game.battles <= game.rules.max_battles
    assert game.longest_war <= game.wars


@SETTINGS
@given(st.integers(0, 2**63 - 1), rules_st)
def test_the_same_seed_plays_the_same_game(seed, rules):
    first, second = Game.deal(seed, rules), Game.deal(seed, rules)
    heard_first, heard_second = [], []
    first.subscribe(heard_first.append)
    second.subscribe(heard_second.append)
    first.play()
    second.play()
    assert everything(first) == everything(second)
    assert heard_first == heard_second


@SETTINGS
@given(any_deal)
def test_events_agree_with_the_game(deal):
    game = new_game(deal)
    events = []
    game.subscribe(events.append)
    game.play()
    won = [e for e in events if isinstance(e, BattleWon)]
    over = events[-1]
    assert isinstance(over, GameOver) and [type(e) for e in events].count(GameOver) == 1
    assert (over.result, over.reason, over.battles, over.wars, over.longest_war) == (
        game.result, game.reason, game.battles, game.wars, game.longest_war,
    )
    assert (over.p1_count, over.p2_count) == game.counts
    assert [e.battle for e in won] == list(range(1, len(won) + 1))
    # Every battle is won, except one that ended the game short in a war.
    assert len(won) == game.battles - (1 if over.last_battle_p1 else 0)
    # Wars of an unfinished last battle (ended short) are counted too.
    unfinished = (len(over.last_battle_p1) - 1) // (game.rules.war_cards + 1) if over.last_battle_p1 else 0
    assert sum(e.wars for e in won) + unfinished == game.wars
    assert max([e.wars for e in won] + [unfinished]) == game.longest_war
    for e in won:
        assert sorted(e.cards) == sorted(e.p1_laid + e.p2_laid)
        assert e.p1_count + e.p2_count == game.total_cards
        assert len(e.p1_laid) == len(e.p2_laid) == 1 + e.wars * (game.rules.war_cards + 1)
    if won and not over.last_battle_p1:
        assert (won[-1].p1_count, won[-1].p2_count) == game.counts


@SETTINGS
@given(any_deal)
def test_listening_does_not_change_the_game(deal):
    game, silent = new_game(deal), new_game(deal)
    events = []
    game.subscribe(events.append)
    game.play()
    silent.play()
    assert everything(game) == everything(silent)


@SETTINGS
@given(any_deal, st.lists(st.integers(1, 50), min_size=1, max_size=30))
def test_playing_in_pieces_is_playing_to_the_end(deal, pieces):
    game, whole = new_game(deal), new_game(deal)
    whole.play()
    for n in pieces:
        assert game.play(n) <= n
    game.play()
    assert everything(game) == everything(whole)


def test_a_seed_deals_and_plays_the_same_game_on_every_python():
    """Pinned games: if a future Python or a change here alters deals or play, this fails."""
    for expected in json.loads(GOLDEN.read_text()):
        rules = Rules(**expected["rules"])
        game = Game.deal(expected["seed"], rules)
        game.play()
        assert summary(game) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(1, 3))
def test_the_headless_shortcut_plays_exactly_like_the_listened_game(seed, war_cards):
    """Headless winner-first takes a shortcut (no pile built); a listener turns it off. Same games."""
    rules = Rules(war_cards=war_cards)
    silent, heard = Game.deal(seed, rules), Game.deal(seed, rules)
    heard.subscribe(lambda event: None)
    silent.play()
    heard.play()
    assert everything(silent) == everything(heard)
