"""The engine adapter follows each battle through its events and sets the view the board draws."""

from war_tui.ui.adapter import EngineAdapter
from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, CardsRevealed, WarDeclared
from war_tui.core.rules import Side


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
    EngineAdapter(board).follow(game)
    game.play(battles)
    return game, board.shown


def test_a_won_battle_becomes_a_view_with_its_war_and_counts():
    game, shown = shown_by("7C 3C 9S 4C 5C 8S", "7H 2D 9D 4D 3S 6D")
    view = shown[0]
    assert view.winner is Side.P1 and view.wars == 2 and view.taken == 10
    assert view.counts == (11, 1) and view.total_wars == 2
    assert view.deciding == (parse_cards("5C")[0], parse_cards("3S")[0])


def test_the_cards_laid_are_gathered_from_the_reveals_and_the_wars_as_they_happen():
    """The view's cards come from CardsRevealed and WarDeclared, in the order each player laid them."""
    game = Game(parse_cards("7C 3C 9S 4C 5C 8S"), parse_cards("7H 2D 9D 4D 3S 6D"))
    steps, board = [], Board()
    game.subscribe(lambda e: steps.append(type(e).__name__) if isinstance(e, (CardsRevealed, WarDeclared)) else None)
    won = []
    game.subscribe(lambda e: won.append(e) if isinstance(e, BattleWon) else None)
    EngineAdapter(board).follow(game)
    game.step()
    assert steps == ["CardsRevealed", "WarDeclared", "CardsRevealed", "WarDeclared", "CardsRevealed"]
    (view,) = board.shown
    assert view.p1_laid == won[0].p1_laid and view.p2_laid == won[0].p2_laid
    assert view.p1_laid == tuple(parse_cards("7C 3C 9S 4C 5C"))


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
    game, shown = shown_by("AS", "2C")
    assert len(shown) == 1 and shown[0].winner is Side.P1


def test_at_max_speed_one_view_a_frame_carries_the_counts_of_every_battle_it_passed_over():
    board = Board()
    adapter = EngineAdapter(board)
    game = Game.deal(5)
    counts = []
    game.subscribe(lambda e: counts.append(e.p1_count) if isinstance(e, BattleWon) else None)
    adapter.follow(game)
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
    game, shown = shown_by("7C 3C 9S 4C 5C 8S", "7H 2D 9D 4D 3S 6D", battles=1)
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
