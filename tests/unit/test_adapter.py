"""The engine adapter turns what ended a battle into the view the board draws."""

from war_tui.adapter import view_of
from war_tui.cards import parse_cards
from war_tui.engine import Game
from war_tui.events import BattleWon, GameOver
from war_tui.rules import Result, Side


def events_of(p1, p2):
    game = Game(parse_cards(p1), parse_cards(p2))
    seen = []
    game.subscribe(seen.append)
    game.play()
    return game, seen


def test_a_won_battle_becomes_a_view_with_its_war_and_counts():
    game, seen = events_of("7C 3C 9S 4C 5C 8S", "7H 2D 9D 4D 3S 6D")
    won = [e for e in seen if isinstance(e, BattleWon)][0]
    view = view_of(won, won.battle, 1, 2)
    assert view.winner is Side.P1 and view.wars == 2 and view.taken == 10
    assert view.counts == (11, 1) and view.total_wars == 2
    assert view.deciding == (parse_cards("5C")[0], parse_cards("3S")[0])


def test_a_game_ended_short_in_a_war_shows_its_unfinished_battle():
    game, seen = events_of("7C 2C 3C", "7H")
    over = [e for e in seen if isinstance(e, GameOver)][0]
    assert over.result is Result.P1
    view = view_of(over, game.battles, 1)
    assert view.winner is Side.P1 and view.wars == 0 and view.taken == 2


def test_a_draw_in_a_war_leaves_the_pile_to_nobody():
    game, seen = events_of("7C 2C", "7H 2D")
    over = [e for e in seen if isinstance(e, GameOver)][0]
    assert over.result is Result.DRAW
    view = view_of(over, game.battles, 1)
    assert view.winner is None and view.taken == 0


def test_a_game_over_without_an_unfinished_battle_has_nothing_to_draw():
    game, seen = events_of("AS", "2C")
    over = [e for e in seen if isinstance(e, GameOver)][0]
    assert view_of(over, game.battles, 1) is None


class _Inbox:
    def __init__(self):
        self.messages = []

    def post_message(self, message):
        self.messages.append(message)
        return True


def test_at_max_speed_one_message_a_frame_carries_the_counts_of_every_battle_it_passed_over():
    from war_tui.adapter import EngineAdapter

    inbox = _Inbox()
    adapter = EngineAdapter(inbox)
    game = Game.deal(5)
    counts = []
    game.subscribe(lambda e: counts.append(e.p1_count) if isinstance(e, BattleWon) else None)
    adapter.follow(game)
    adapter.holding = True
    game.play(100)
    adapter.holding = False
    assert adapter.flush(fast=True)
    (message,) = inbox.messages
    assert message.view.battle == 100
    assert message.view.passed == tuple(counts[:99])
    assert message.view.counts[0] == counts[99]
    adapter.holding = True
    game.play(3)
    adapter.holding = False
    adapter.flush(fast=True)
    assert inbox.messages[-1].view.passed == tuple(counts[100:102])  # only the battles since the last frame


def test_a_fast_battle_replaced_unread_is_kept_as_a_battle_passed_over():
    from war_tui.messages import BattleShown

    game, seen = events_of("7C 3C 9S 4C 5C 8S 2H", "7H 2D 9D 4D 3S 6D 3H")
    first, second = [view_of(e, e.battle, 1) for e in seen if isinstance(e, BattleWon)][:2]
    older = BattleShown(first, fast=True)
    newer = BattleShown(second, fast=True)
    assert older.can_replace(newer)
    assert newer.view.passed == (first.counts[0],)
    assert not BattleShown(first).can_replace(BattleShown(second))  # battles drawn one by one all stay
