"""What listeners are told, in which order, and that it always matches the game they can inspect."""

import pytest

from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, CardsRevealed, GameOver, GameStarted, WarDeclared
from war_tui.core.rules import EndReason, Result, Rules, Side


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def c(text: str) -> int:
    return parse_cards(text)[0]


def recorded(g: Game) -> list:
    events: list = []
    g.subscribe(events.append)
    return events


def test_a_game_with_a_war_tells_everything_in_order():
    rules = Rules()
    g = Game(cards("5C 2C KC"), cards("5D 3D QD 4D"), rules)
    events = recorded(g)
    g.play()
    assert events == [
        GameStarted(None, rules, cards("5C 2C KC"), cards("5D 3D QD 4D")),
        CardsRevealed(1, c("5C"), c("5D"), 0),
        WarDeclared(1, 1, cards("2C"), cards("3D")),
        CardsRevealed(1, c("KC"), c("QD"), 1),
        BattleWon(1, Side.P1, cards("5C 2C KC 5D 3D QD"), cards("5C 2C KC"), cards("5D 3D QD"), 1, 6, 1),
        CardsRevealed(2, c("5C"), c("4D"), 0),
        BattleWon(2, Side.P1, cards("5C 4D"), cards("5C"), cards("4D"), 0, 7, 0),
        GameOver(Result.P1, EndReason.ALL_CARDS, 2, 1, 1, 7, 0, Side.P1, (), ()),
    ]


def test_a_double_war_reveals_at_depths_0_1_2():
    g = Game(cards("5C 2C 7C 3C AC 4C"), cards("5D 2D 7D 3D KD 9D"))
    events = recorded(g)
    g.step()
    revealed = [e for e in events if isinstance(e, CardsRevealed)]
    assert [(e.depth, e.p1_card, e.p2_card) for e in revealed] == [
        (0, c("5C"), c("5D")), (1, c("7C"), c("7D")), (2, c("AC"), c("KD")),
    ]
    declared = [e for e in events if isinstance(e, WarDeclared)]
    assert [(e.depth, e.p1_down, e.p2_down) for e in declared] == [
        (1, cards("2C"), cards("2D")), (2, cards("3C"), cards("3D")),
    ]
    (won,) = [e for e in events if isinstance(e, BattleWon)]
    assert won.wars == 2 and won.p1_laid == cards("5C 2C 7C 3C AC")


def test_war_cards_three_declares_three_face_down_cards_each():
    g = Game(cards("5C 2C 3C 4C KC"), cards("5D 2D 3D 4D QD 9D"), Rules(war_cards=3))
    events = recorded(g)
    g.step()
    (declared,) = [e for e in events if isinstance(e, WarDeclared)]
    assert declared.p1_down == cards("2C 3C 4C") and declared.p2_down == cards("2D 3D 4D")


def test_a_game_ended_short_in_a_war_has_no_battle_won_and_names_the_laid_cards():
    g = Game(cards("5C 2C 7C"), cards("5D 2D 7D 8D 9D"))
    events = recorded(g)
    g.play()
    assert [type(e) for e in events] == [GameStarted, CardsRevealed, WarDeclared, CardsRevealed, GameOver]
    over = events[-1]
    assert over == GameOver(
        Result.P2, EndReason.SHORT_IN_WAR, 1, 1, 1, 0, 8, Side.P2, cards("5C 2C 7C"), cards("5D 2D 7D"),
        last_battle_wars=1,
    )


def test_a_draw_is_told_with_both_counts_and_no_leader():
    g = Game(cards("5C 2C"), cards("5D 2D"))
    events = recorded(g)
    g.play()
    over = events[-1]
    assert isinstance(over, GameOver)
    assert (over.result, over.reason, over.p1_count, over.p2_count, over.leader) == (
        Result.DRAW, EndReason.BOTH_SHORT, 2, 2, None,
    )


def test_the_cap_is_told_as_stopped_with_both_counts_and_the_leader():
    g = Game.deal(4, Rules(max_battles=30))
    events = recorded(g)
    g.play()
    over = events[-1]
    assert isinstance(over, GameOver) and isinstance(events[-2], BattleWon)
    assert (over.result, over.reason, over.battles) == (Result.STOPPED, EndReason.BATTLE_CAP, 30)
    assert (over.p1_count, over.p2_count) == g.counts and over.p1_count + over.p2_count == 52
    assert over.leader == g.leader


def test_listeners_see_the_game_as_the_events_describe_it():
    """A battle is atomic: while a listener hears of it, the pile is already with the winner."""
    g = Game.deal(8)
    problems = []

    def check(event):
        if isinstance(event, BattleWon):
            if g.counts != (event.p1_count, event.p2_count) or g.battles != event.battle:
                problems.append(event)
            if g.packet(event.winner)[-len(event.cards):] != event.cards:
                problems.append(event)
        if isinstance(event, GameOver) and not g.over:
            problems.append(event)

    g.subscribe(check)
    g.play()
    assert g.battles > 10 and problems == []


def test_the_last_battles_events_arrive_after_the_game_is_over():
    g = Game.deal(1)
    seen = []
    g.subscribe(lambda e: seen.append((type(e), g.over, g.result)))
    g.play()
    assert seen[-2:] == [(BattleWon, True, g.result), (GameOver, True, g.result)]


def test_game_started_comes_once_even_when_played_battle_by_battle():
    g = Game.deal(2)
    events = recorded(g)
    g.start()
    g.step()
    g.step()
    assert [type(e) for e in events].count(GameStarted) == 1
    assert isinstance(events[0], GameStarted) and events[0].seed == 2
    assert events[0].p1 == g.initial[0]


def test_stop_tells_game_over_as_stopped():
    g = Game.deal(2)
    events = recorded(g)
    g.play(3)
    g.stop()
    assert events[-1] == GameOver(
        Result.STOPPED, EndReason.STOPPED, 3, g.wars, g.longest_war, *g.counts, g.leader, (), ()
    )


def test_a_listener_may_stop_the_game_and_play_ends_after_that_battle():
    g = Game.deal(1)
    events = []

    def listener(event):
        events.append(event)
        if isinstance(event, BattleWon) and event.battle == 3:
            g.stop()
            assert g.over  # stopping takes effect at once

    g.subscribe(listener)
    played = g.play()
    assert played == 3 and (g.result, g.reason) == (Result.STOPPED, EndReason.STOPPED)
    assert [type(e) for e in events[-2:]] == [BattleWon, GameOver]
    assert [type(e) for e in events].count(GameOver) == 1


def test_a_listener_cannot_play_the_game_it_listens_to():
    g = Game.deal(1)

    def listener(event):
        if isinstance(event, BattleWon):
            g.step()

    g.subscribe(listener)
    with pytest.raises(RuntimeError):
        g.play()


# --------------------------------------------------------- subscribe/unsubscribe

def test_every_listener_hears_every_event():
    g = Game.deal(6)
    a, b = recorded(g), recorded(g)
    g.play()
    assert a == b and isinstance(a[-1], GameOver)


def test_the_function_subscribe_returns_unsubscribes():
    g = Game.deal(6)
    events = []
    unsubscribe = g.subscribe(events.append)
    g.step()
    heard = len(events)
    unsubscribe()
    unsubscribe()  # twice is harmless
    g.step()
    assert len(events) == heard and heard >= 3


def test_unsubscribe_by_listener_and_unknown_listeners_are_ignored():
    g = Game.deal(6)
    events = []
    g.subscribe(events.append)
    g.unsubscribe(events.append)
    g.unsubscribe(print)
    g.play()
    assert events == []


def test_a_listener_may_unsubscribe_itself_while_being_told():
    g = Game.deal(6)
    events = []

    def once(event):
        events.append(event)
        if isinstance(event, BattleWon):
            g.unsubscribe(once)

    g.subscribe(once)
    g.play()
    assert isinstance(events[-1], BattleWon) and events[-1].battle == 1


def test_with_no_listener_no_event_is_built(monkeypatch):
    """The headless path must not pay for events (simulate relies on it)."""
    import war_tui.core.engine as engine

    def boom(*args, **kwargs):
        raise AssertionError("an event was built with nobody listening")

    for name in ("CardsRevealed", "WarDeclared", "BattleWon", "GameOver", "GameStarted"):
        monkeypatch.setattr(engine, name, boom)
    for seed in range(20):
        g = Game.deal(seed)
        g.play()
        assert g.over
    g = Game(cards("5C 2C"), cards("5D 2D"))
    g.play()
    g = Game.deal(1)
    g.play(2)
    g.stop()
