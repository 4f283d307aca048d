"""The engine adapter turns each battle a game tells into the view the board draws."""

import pytest
from support.deals import QUICK_WIN_TEXTS, WAR_PACKETS, WAR_TEXTS

from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, CardsRevealed, GameOver, WarDeclared
from war_tui.core.rules import Gather, Rules, Side
from war_tui.ui.adapter import EngineAdapter


class Board:
    """Stands in for the app: every battle set on it is kept."""

    def __init__(self):
        self.shown = []

    @property
    def battle(self):
        return self.shown[-1] if self.shown else None

    @battle.setter
    def battle(self, view):
        self.shown.append(view)


def shown_by(p1, p2, battles=None):
    game = Game(parse_cards(p1), parse_cards(p2))
    board = Board()
    adapter = EngineAdapter(board)
    game.subscribe(lambda event: adapter.on_event(event, game))
    game.play(battles)
    return game, board.shown


def test_a_won_battle_becomes_a_view_with_its_war_and_counts():
    game, shown = shown_by(*WAR_TEXTS)
    view = shown[0]
    assert view.winner is Side.P1 and view.wars == 2 and view.taken == 10
    assert view.counts == (11, 1) and view.total_wars == 2
    assert view.deciding == (parse_cards("5C")[0], parse_cards("3S")[0])


def test_the_cards_laid_are_the_won_battle_s_in_the_order_the_reveals_and_wars_told_them():
    """The view's cards come from BattleWon; they are the cards CardsRevealed and WarDeclared told, in order."""
    game = Game(*WAR_PACKETS)
    told, board = [], Board()
    game.subscribe(lambda e: told.append(e) if isinstance(e, (CardsRevealed, WarDeclared)) else None)
    adapter = EngineAdapter(board)
    game.subscribe(lambda event: adapter.on_event(event, game))
    game.step()
    assert [type(e).__name__ for e in told] == [
        "CardsRevealed", "WarDeclared", "CardsRevealed", "WarDeclared", "CardsRevealed",
    ]
    p1 = []
    for event in told:
        p1 += [event.p1_card] if isinstance(event, CardsRevealed) else list(event.p1_down)
    (view,) = board.shown
    assert view.p1_laid == tuple(p1) == tuple(parse_cards("7C 3C 9S 4C 5C"))


def steps_as_told(events, war_cards):
    """A war's steps as the reveal and war events tell them, one by one (what the pile lays)."""
    steps, laid = [], 0
    for event in events:
        if isinstance(event, CardsRevealed):
            laid += 1
            if event.depth:
                steps.append((laid, event.depth, True))
        else:
            if not steps:
                steps.append((laid, 0, True))  # the tie
            laid += len(event.p1_down)
            assert len(event.p1_down) == war_cards
            steps.append((laid, event.depth, False))
    return steps


@pytest.mark.parametrize("rules", [Rules(), Rules(war_cards=1), Rules(war_cards=3, gather=Gather.LAID),
                                   Rules(war_cards=2, gather=Gather.RANDOM)])
def test_a_battle_s_steps_follow_from_its_wars_and_war_cards_as_the_events_told_them(rules):
    """Won battles and battles a game ended short in a war alike, over a hundred games of each rule set."""
    checked = wars = short = 0
    for seed in range(100):
        game = Game.deal(seed, rules)
        told, views = [], []
        adapter = EngineAdapter(type("B", (), {"battle": property(lambda s: None, lambda s, v, views=views: views.append(v))})())

        def listen(event, game=game, told=told, views=views, adapter=adapter):
            if isinstance(event, (CardsRevealed, WarDeclared)):
                told.append(event)
                return
            before = len(views)
            adapter.on_event(event, game)
            if len(views) > before:
                view = views[-1]
                assert [(s.laid, s.wars, s.face_up) for s in view.steps] == steps_as_told(told, rules.war_cards)
                assert not view.steps or view.steps[-1].laid == len(view.p1_laid)
            if isinstance(event, BattleWon):
                told.clear()
            elif isinstance(event, GameOver) and event.last_battle_wars:
                nonlocal short
                short += 1

        game.subscribe(listen)
        game.play()
        checked += game.battles
        wars += game.wars
    assert checked > 10_000 and wars > 500 and short > 0


def test_a_game_ended_short_in_a_war_shows_its_unfinished_battle():
    game, shown = shown_by("7C 2C 3C", "7H")
    view = shown[-1]
    assert view.winner is Side.P1 and view.wars == 0 and view.taken == 2
    assert view.p1_laid == tuple(parse_cards("7C")) and view.p2_laid == tuple(parse_cards("7H"))


def test_a_draw_in_a_war_leaves_the_pile_to_nobody():
    game, shown = shown_by("7C 2C", "7H 2D")
    view = shown[-1]
    assert view.winner is None and view.taken == 0


def test_a_game_over_without_an_unfinished_battle_has_nothing_more_to_draw():
    game, shown = shown_by(*QUICK_WIN_TEXTS)
    assert len(shown) == 1 and shown[0].winner is Side.P1


def test_at_max_speed_one_view_a_frame_carries_the_counts_of_every_battle_it_passed_over():
    board = Board()
    adapter = EngineAdapter(board)
    game = Game.deal(5)
    counts = []
    game.subscribe(lambda e: counts.append(e.p1_count) if isinstance(e, BattleWon) else None)
    game.subscribe(lambda event: adapter.on_event(event, game))
    adapter.holding = True
    game.play(100)
    adapter.holding = False
    assert board.shown == []  # nothing reaches the board until the frame's flush
    assert adapter.flush()
    (view,) = board.shown
    assert view.battle == 100
    assert view.passed == tuple(counts[:99])
    assert view.counts[0] == counts[99]
    adapter.holding = True
    game.play(3)
    adapter.holding = False
    adapter.flush()
    assert board.shown[-1].passed == tuple(counts[100:102])  # only the battles since the last frame
    assert not adapter.flush()  # nothing held: nothing shown again


def test_a_war_keeps_its_steps_as_the_events_told_them():
    """The tie, then per war its face-down cards and its face-up pair: the board lays a war by these."""
    game, shown = shown_by(*WAR_TEXTS, battles=1)
    (view,) = shown
    assert [(s.laid, s.wars, s.face_up) for s in view.steps] == [
        (1, 0, True), (2, 1, False), (3, 1, True), (4, 2, False), (5, 2, True),
    ]
    assert view.stages == 5
    assert view.laid_at(1) == (tuple(parse_cards("7C")), tuple(parse_cards("7H")))
    assert view.laid_at(2) == (tuple(parse_cards("7C 3C")), tuple(parse_cards("7H 2D")))
    assert view.laid_at(5) == (view.p1_laid, view.p2_laid)
    assert [view.wars_at(n) for n in range(1, 6)] == [1, 1, 2, 2, 2]  # a tie on show counts its war


def test_a_battle_without_a_war_is_one_step():
    game, shown = shown_by("AS KS", "2C 3C", battles=1)
    assert shown[0].steps == () and shown[0].stages == 1 and shown[0].wars_at(1) == 0
