"""Every rule of the sheet, played out on hand-made packets (top card first)."""

import pytest

from war_tui.core.cards import format_cards, parse_cards
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon
from war_tui.core.rules import EndReason, Gather, Result, Rules, Side


def game(p1: str, p2: str, **rules) -> Game:
    return Game(parse_cards(p1), parse_cards(p2), Rules(**rules))


def packets(g: Game) -> tuple[str, str]:
    return format_cards(g.packet(Side.P1)), format_cards(g.packet(Side.P2))


def test_a_plain_battle_goes_to_the_higher_rank_winner_first_at_the_bottom():
    g = game("AS 2C", "KD 3C")
    assert g.step() == 1
    assert packets(g) == ("2C AS KD", "3C")
    assert (g.battles, g.wars, g.over) == (1, 0, False)
    assert g.step() == 1  # 2C loses to 3C
    assert packets(g) == ("AS KD", "3C 2C")


def test_a_player_with_no_cards_left_has_lost_and_the_other_holds_every_card():
    g = game("AS 2C", "KD 3C")
    g.play()
    assert (g.result, g.reason) == (Result.P1, EndReason.ALL_CARDS)
    assert g.counts == (4, 0)
    assert g.battles == 4
    assert g.step() == 0 and g.play() == 0


def test_suits_never_matter_only_ranks():
    g = game("KC 2C 9C", "KS 3S 4S")  # equal kings start a war, whatever the suits
    g.step()
    assert g.wars == 1


def test_a_war_lays_one_card_down_one_up_and_the_higher_up_card_takes_all():
    g = game("5C 2C KC", "5D 3D QD 4D")
    g.step()
    assert packets(g) == ("5C 2C KC 5D 3D QD", "4D")
    assert (g.battles, g.wars, g.longest_war) == (1, 1, 1)


def test_a_double_war_repeats_until_the_face_up_cards_differ():
    g = game("5C 2C 7C 3C AC", "5D 2D 7D 3D KD 9D")
    g.step()
    assert packets(g) == ("5C 2C 7C 3C AC 5D 2D 7D 3D KD", "9D")
    assert (g.battles, g.wars, g.longest_war) == (1, 2, 2)


def test_a_player_short_of_the_face_down_card_loses_at_once():
    g = game("5C", "5D 3D 4D")  # a tie on player 1's last card
    assert g.step() == 1
    assert (g.result, g.reason) == (Result.P2, EndReason.SHORT_IN_WAR)
    assert packets(g) == ("", "3D 4D 5D 5C")
    assert (g.battles, g.wars) == (1, 0)


def test_a_player_short_of_the_face_up_card_loses_at_once():
    g = game("5C 2C", "5D 3D 4D")  # player 1 could lay the face-down card but not the face-up one
    g.play()
    assert (g.result, g.reason) == (Result.P2, EndReason.SHORT_IN_WAR)
    # The winner takes the middle; the card player 1 never laid stays in their hand.
    assert packets(g) == ("2C", "3D 4D 5D 5C")


def test_player_two_short_loses_too():
    g = game("5C 3C 4C", "5D 2D")
    g.play()
    assert (g.result, g.reason) == (Result.P1, EndReason.SHORT_IN_WAR)
    assert packets(g) == ("3C 4C 5C 5D", "2D")


def test_a_tie_on_a_players_last_card_inside_a_war_ends_the_game():
    g = game("5C 2C 7C", "5D 2D 7D 8D 9D")
    g.play()
    assert (g.result, g.reason) == (Result.P2, EndReason.SHORT_IN_WAR)
    assert g.counts == (0, 8)
    assert (g.battles, g.wars, g.longest_war) == (1, 1, 1)


def test_the_war_a_game_ends_in_counts_in_the_longest_war():
    # Two wars, then player 1 is short of the third: the longest war is 2 deep.
    g = game("5C 2C 7C 3C 9C 4C", "5D 2D 7D 3D 9D KD 8D 8S")
    g.play()
    assert (g.result, g.reason) == (Result.P2, EndReason.SHORT_IN_WAR)
    assert (g.wars, g.longest_war) == (2, 2)


def test_both_short_is_a_draw_and_each_takes_back_what_they_laid():
    g = game("5C 2C", "5D 2D")
    g.play()
    assert (g.result, g.reason) == (Result.DRAW, EndReason.BOTH_SHORT)
    assert packets(g) == ("2C 5C", "2D 5D")
    assert g.leader is None


def test_both_short_on_their_last_cards_is_a_draw():
    g = game("9C", "9H")
    g.play()
    assert (g.result, g.reason, g.counts) == (Result.DRAW, EndReason.BOTH_SHORT, (1, 1))


# --------------------------------------------------------------- gather orders

# Player 1 wins a war: laid 5C 2C KC against 5D 3D QD.
P1_WINS = ("5C 2C KC", "5D 3D QD 4D")
# Player 2 wins a war: laid 5C 3C QC against 5D 2D KD.
P2_WINS = ("5C 3C QC 4C", "5D 2D KD")


@pytest.mark.parametrize(
    ("gather", "deal", "winner", "pile"),
    [
        (Gather.WINNER_FIRST, P1_WINS, Side.P1, "5C 2C KC 5D 3D QD"),
        (Gather.WINNER_FIRST, P2_WINS, Side.P2, "5D 2D KD 5C 3C QC"),
        (Gather.LOSER_FIRST, P1_WINS, Side.P1, "5D 3D QD 5C 2C KC"),
        (Gather.LOSER_FIRST, P2_WINS, Side.P2, "5C 3C QC 5D 2D KD"),
        (Gather.LAID, P1_WINS, Side.P1, "5C 5D 2C 3D KC QD"),
        (Gather.LAID, P2_WINS, Side.P2, "5C 5D 3C 2D QC KD"),  # still player 1's before player 2's
    ],
)
def test_each_gather_order_puts_the_pile_under_the_winner_in_its_order(gather, deal, winner, pile):
    g = game(*deal, gather=gather)
    won = []
    g.subscribe(lambda e: won.append(e) if isinstance(e, BattleWon) else None)
    g.step()
    assert won[0].winner is winner
    assert format_cards(won[0].cards) == pile
    assert format_cards(g.packet(winner)[-6:]) == pile


def test_laid_order_with_three_cards_down_goes_step_by_step():
    g = game(
        "5C 2C 3C 4C 7C 8C 9C TC KC 6C",
        "5D 2D 3D 4D 7D 8D 9D TD QD 6D",
        war_cards=3, gather=Gather.LAID,
    )
    g.step()
    assert g.wars == 2
    assert format_cards(g.packet(Side.P1)[1:]) == (
        "5C 5D 2C 3C 4C 2D 3D 4D 7C 7D 8C 9C TC 8D 9D TD KC QD"
    )


def test_a_plain_battle_in_laid_order_puts_player_one_first_whoever_wins():
    g = game("3C 9C", "KD 8D", gather=Gather.LAID)
    g.step()
    assert format_cards(g.packet(Side.P2)) == "8D 3C KD"


RANDOM_DEAL = ("5C 2C 7C 3C 9C 4C AC JC", "5D 2D 7D 3D 9D 4D KD JD")


def test_random_gather_shuffles_the_pile_reproducibly_for_a_seed():
    def pile(seed: int) -> tuple:
        p1, p2 = map(parse_cards, RANDOM_DEAL)
        g = Game(p1, p2, Rules(gather=Gather.RANDOM), seed=seed)
        g.step()
        assert g.wars == 3
        return g.packet(Side.P1)[1:]  # under player 1's JC

    laid_order = parse_cards("5C 2C 7C 3C 9C 4C AC 5D 2D 7D 3D 9D 4D KD")
    first = pile(1)
    assert first == pile(1)
    assert sorted(first) == sorted(laid_order)
    orders = {pile(seed) for seed in range(8)}
    assert len(orders) > 1  # the seed decides the order
    assert any(list(o) != laid_order for o in orders)


def test_random_gather_replays_a_whole_dealt_game_from_its_seed():
    def played(seed: int) -> tuple:
        g = Game.deal(seed, Rules(gather=Gather.RANDOM))
        g.play()
        return g.result, g.battles, g.wars, g.packet(Side.P1), g.packet(Side.P2)

    assert played(11) == played(11)
    assert len({played(s)[1] for s in range(5)}) > 1


# ------------------------------------------------------------ war-card counts

@pytest.mark.parametrize(
    ("war_cards", "result", "reason", "wars", "counts"),
    [
        # 1 down: 3C ties 3D, a second war, KC beats QD.
        (1, Result.P1, EndReason.ALL_CARDS, 2, (10, 0)),
        # 2 down: 4C ties 4D, and neither has the 3 cards another war needs.
        (2, Result.DRAW, EndReason.BOTH_SHORT, 1, (5, 5)),
        # 3 down: KC beats QD at once.
        (3, Result.P1, EndReason.ALL_CARDS, 1, (10, 0)),
    ],
)
def test_each_war_card_count_lays_that_many_face_down(war_cards, result, reason, wars, counts):
    g = game("5C 2C 3C 4C KC", "5D 2D 3D 4D QD", war_cards=war_cards)
    assert g.step() == 1
    assert (g.result, g.reason, g.wars, g.counts) == (result, reason, wars, counts)


def test_with_three_cards_down_a_player_holding_three_is_short():
    g = game("5C 2C 3C 4C", "5D 2D 3D 4D 6D", war_cards=3)
    g.play()
    assert (g.result, g.reason) == (Result.P2, EndReason.SHORT_IN_WAR)


# --------------------------------------------------------------------- the cap

CYCLE = ("QS 5D", "8S KH 2D TD 5H")  # goes round in circles under the default rules


def test_a_game_that_goes_round_in_circles_stops_at_the_cap_with_both_counts():
    g = game(*CYCLE)
    g.play()
    assert (g.result, g.reason, g.battles) == (Result.STOPPED, EndReason.BATTLE_CAP, 10_000)
    n1, n2 = g.counts
    assert n1 > 0 and n2 > 0 and n1 + n2 == 7


def test_the_cap_counts_battles_not_calls():
    g = Game.deal(1, Rules(max_battles=25))
    assert g.play(10) == 10
    assert g.play() == 15
    assert (g.result, g.reason, g.battles) == (Result.STOPPED, EndReason.BATTLE_CAP, 25)
    assert sum(g.counts) == 52


def test_a_game_won_on_the_capped_battle_is_won_not_stopped():
    g = game("AS", "KD", max_battles=1)
    g.play()
    assert (g.result, g.reason) == (Result.P1, EndReason.ALL_CARDS)


# -------------------------------------------------------------- step and stop

def test_step_plays_exactly_one_battle_wars_and_all():
    g = game("5C 2C 7C 3C AC 4C", "5D 2D 7D 3D KD 9D")
    assert g.step() == 1
    assert (g.battles, g.wars) == (1, 2)
    assert g.counts == (11, 1)


def test_play_with_a_limit_plays_that_many_battles():
    g = Game.deal(3)
    assert g.play(5) == 5 and g.battles == 5
    assert g.play(7) == 7 and g.battles == 12
    total = g.play()
    assert g.over and g.battles == 12 + total


def test_stop_ends_the_game_as_stopped_now():
    g = Game.deal(3)
    g.play(4)
    g.stop()
    assert (g.result, g.reason, g.battles) == (Result.STOPPED, EndReason.STOPPED, 4)
    assert g.step() == 0 and g.play() == 0
    g.stop()  # stopping twice changes nothing
    assert g.reason is EndReason.STOPPED


def test_stop_after_the_end_keeps_the_real_result():
    g = game("AS", "KD")
    g.play()
    g.stop()
    assert g.result is Result.P1


def test_the_leader_is_whoever_holds_more_cards():
    g = game("AS 2C", "KD 3C")
    assert g.leader is None
    g.step()
    assert g.leader is Side.P1


def test_a_dealt_game_has_26_cards_each_and_remembers_its_deal():
    g = Game.deal(99)
    assert g.counts == (26, 26) and g.total_cards == 52 and g.seed == 99
    assert g.initial == (g.packet(Side.P1), g.packet(Side.P2))
    g.play()
    assert sorted(g.initial[0] + g.initial[1]) == list(range(52))
