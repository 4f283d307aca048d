from war_tui.core.engine import Game


def test_a_dealt_game_ends_with_every_card_accounted_for():
    game = Game.deal(5)
    game.play()
    assert sum(game.counts) == 52
    assert game.result is not None
