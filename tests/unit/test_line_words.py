"""The line mode's words and its game state: every sentence agrees with the engine, keys and lines mean the same."""

from __future__ import annotations

import re

import pytest

from war_tui.core.cards import parse_cards
from war_tui.core.engine import Game
from war_tui.core.events import BattleWon, GameOver
from war_tui.core.rules import EndReason, Rules, Side
from war_tui.line.keys import MAX_LINE, Command, KeyReader
from war_tui.line.player import MILESTONE, QUIET_PACE, LinePlayer, LineSettings
from war_tui.line.run import plain
from war_tui.line.sentences import BattleTeller, Voice, card_words, rank_plural

BEATS = re.compile(
    r"(?P<whose>Your|Their) (?P<high>\w+ of \w+) beats (?:your|their) (?P<low>\w+ of \w+)\. "
    r"(?:(?:You|They) take (?P<taken>\d+) cards\. )?You have (?P<p1>\d+), they have (?P<p2>\d+)\.$"
)


def told(seed: int, voice: Voice | None = None, war_cards: int = 1) -> list[tuple[object, str | None]]:
    """Every battle of a seeded game beside the sentence the line mode says for it."""
    game = Game.deal(seed, Rules(war_cards=war_cards))
    teller = BattleTeller(voice or Voice())
    pairs: list[tuple[object, str | None]] = []

    def listen(event):
        said = teller.on_event(event)
        if isinstance(event, BattleWon | GameOver):
            pairs.append((event, said))

    game.subscribe(listen)
    game.play()
    return pairs


def test_card_words():
    king_of_hearts, six_of_clubs, ace_of_spades = parse_cards("KH 6C AS")
    assert card_words(king_of_hearts) == "king of hearts"
    assert card_words(king_of_hearts, terse=True) == "king"
    assert rank_plural(six_of_clubs) == "sixes" and rank_plural(ace_of_spades) == "aces"


@pytest.mark.parametrize(("seed", "war_cards"), [(1, 1), (3, 1), (42, 1), (2024, 1), (5, 2), (6, 3)])
def test_every_sentence_matches_the_engine_trace(seed, war_cards):
    pairs = told(seed, war_cards=war_cards)
    assert pairs and all(said for _, said in pairs)
    wars_told = 0
    for event, said in pairs:
        assert said is not None
        if isinstance(event, GameOver):
            assert "Game over: " in said
            continue
        assert isinstance(event, BattleWon)
        tail = said.split("! ")[-1]  # after the ties ("Fours tie: war! ...")
        found = BEATS.match(tail)
        assert found, said
        won_first = event.p1_laid[-1] if event.winner.value == "p1" else event.p2_laid[-1]
        lost_first = event.p2_laid[-1] if event.winner.value == "p1" else event.p1_laid[-1]
        assert found["whose"] == ("Your" if event.winner.value == "p1" else "Their")
        assert found["high"] == card_words(won_first) and found["low"] == card_words(lost_first)
        assert (int(found["p1"]), int(found["p2"])) == (event.p1_count, event.p2_count)
        if event.wars:
            wars_told += 1
            assert said.count(" tie: ") == event.wars
            step = war_cards + 1
            for depth in range(event.wars):  # each tie names the rank both turned at that depth
                tied = event.p1_laid[depth * step]
                assert tied >> 2 == event.p2_laid[depth * step] >> 2
                assert said.split("! ")[depth].startswith(rank_plural(tied).capitalize() + " tie")
            assert int(found["taken"]) == len(event.cards)
            assert ("double war!" in said) == (event.wars >= 2)
        else:
            assert "tie" not in said and found["taken"] is None
    assert wars_told > 0


def test_the_terse_voice_is_short_and_still_true():
    plain = [(event, said) for event, said in told(3, Voice(terse=True)) if isinstance(event, BattleWon) and not event.wars]
    assert len(plain) > 200, len(plain)  # seed 3 holds 230 battles without a war: the check below runs on each
    for event, said in plain:
        assert said == (
            f"{'Your' if event.winner.value == 'p1' else 'Their'} "
            f"{card_words(max(event.p1_laid[-1], event.p2_laid[-1]), True)} beats "
            f"{card_words(min(event.p1_laid[-1], event.p2_laid[-1]), True)}. {event.p1_count} to {event.p2_count}."
        )


def test_names_take_the_third_person():
    game = Game(parse_cards("7C 2C 7S 2H 3S"), parse_cards("7H 3D 7D 4D 5S"))
    teller = BattleTeller(Voice(("Ann", "Bob"), me=None))
    said = []
    game.subscribe(lambda e: said.append(teller.on_event(e)))
    game.play()
    lines = [s for s in said if s]
    assert lines[0] == (
        "Sevens tie: war! Sevens tie: double war! Bob's five of spades beats Ann's three of spades."
        " Bob takes 10 cards. Ann has 0, Bob has 10."
    )
    assert lines[1] == "Game over: Bob wins, Ann ran out of cards. 1 battle, 2 wars."


def test_a_war_nobody_can_finish_is_told():
    game = Game(parse_cards("7C"), parse_cards("7H"))
    teller = BattleTeller(Voice())
    said = []
    game.subscribe(lambda e: said.append(teller.on_event(e)))
    game.play()
    assert [s for s in said if s] == [
        "Sevens tie! Game over: a draw, neither of you could finish a war. 1 battle, no wars. You have 1, they have 1."
    ]


def test_keys_one_at_a_time():
    reader = KeyReader(lines=False)
    assert reader.feed("\r\n fash?q\x03x\t") == [
        Command.FLIP, Command.FLIP, Command.FLIP, Command.AUTO, Command.SCORE, Command.HELP,
        Command.HELP, Command.QUIT, Command.QUIT, Command.UNKNOWN,
    ]


def test_lines_mean_the_same():
    reader = KeyReader(lines=True)
    assert reader.feed("\n\r\na\nscore\n Help \nzz\nq") == [
        Command.FLIP, Command.FLIP, Command.AUTO, Command.SCORE, Command.HELP, Command.UNKNOWN,
    ]
    assert reader.end() == [Command.QUIT]
    assert reader.feed("a\x04") == [Command.END]


def test_a_line_that_never_ends_is_bounded():
    reader = KeyReader(lines=True)
    reader.feed("a" * 100_000)
    assert len(reader._line) == MAX_LINE


def test_plain_keeps_no_control_character():
    assert plain("Ann\x1b[31m\x07\x9b\x7fBob\r") == "Ann [31m   Bob "


def hand(p1: str, p2: str, **kw) -> LineSettings:
    return LineSettings(packets=(tuple(parse_cards(p1)), tuple(parse_cards(p2))), **kw)


def test_enter_plays_one_battle_and_deals_again_after_the_end_then_waits():
    records = []
    player = LinePlayer(hand("7C 2C 5C", "7H 3D 4D"), lambda g, s, a: records.append((g.result, a)))
    said = player.command(Command.FLIP, 1.0)
    assert said[0].startswith("Sevens tie: war! Your five of clubs beats their four of diamonds.")
    assert said[1].startswith("Game over: you win") and said[-1].startswith("Press enter for a new game")
    assert records == [("p1", False)]
    again = player.command(Command.FLIP, 2.0)
    assert re.fullmatch(r"New game, seed \d+\. You have 26, they have 26\.", again[0]) and len(again) == 1
    assert player.game.battles == 0  # the deal waits for the next enter
    first = player.command(Command.FLIP, 3.0)
    assert " beats " in first[0] and player.game.battles == 1
    assert player.command(Command.QUIT, 4.0) == ["Goodbye."] and player.done


def test_auto_play_keeps_the_pace():
    player = LinePlayer(hand("AC KC QC JC", "2D 3D 4D 5D", pace=3.0))
    assert player.due() is None
    assert player.command(Command.AUTO, 10.0)[0].startswith("Auto-play on: one battle every 3 seconds")
    assert player.due() == 13.0
    assert player.tick(13.0) == ["Your ace of clubs beats their two of diamonds. You have 5, they have 3."]
    assert player.due() == 16.0
    assert player.command(Command.SCORE, 14.0) == ["Battle 1, no wars so far. You have 5, they have 3."]
    assert player.command(Command.AUTO, 14.0) == ["Auto-play off."] and player.due() is None


def test_auto_play_announcing_wars_says_only_wars_and_milestones():
    player = LinePlayer(LineSettings(seed=3, auto=True, announce="wars", pace=3.0))
    said, times = [], []
    while (due := player.due()) is not None:
        times.append(due)
        lines = player.tick(due)
        said.append((player.game.battles, lines))
    battles = player.game.battles
    assert battles > MILESTONE
    spoken = [(n, lines) for n, lines in said if lines]
    for n, lines in spoken:
        assert lines[0].startswith(f"Battle {n:,}. ")
        assert n % MILESTONE == 0 or "war!" in lines[0] or player.game.over
    assert len(spoken) < battles / 3
    # a battle said is followed by the whole pace, one kept quiet by a short step
    gaps = {round(b - a, 6) for a, b in zip(times, times[1:])}
    assert gaps == {3.0, QUIET_PACE}


def test_at_a_table_your_seat_is_you_and_the_other_is_named():
    game = Game(parse_cards("KH 2C"), parse_cards("3S 4D"))
    teller = BattleTeller(Voice(("Ann", "Bob"), me=Side.P2))
    said = []
    game.subscribe(lambda e: said.append(teller.on_event(e)))
    game.step()
    assert [s for s in said if s] == ["Ann's king of hearts beats your three of spades. Ann has 3, you have 1."]


def test_a_game_stopped_by_agreement_says_so_not_a_time_limit():
    game = Game(parse_cards("KH 2C 5S"), parse_cards("3S 4D 6H"))
    said = []
    teller = BattleTeller(Voice())
    game.subscribe(lambda e: said.append(teller.on_event(e)))
    game.step()
    game.stop(EndReason.AGREED)
    assert [s for s in said if s][-1].startswith("Game over: stopped, both players agreed.")


class StandInTable:
    """Only what TableLine reads: the listener it registers is how a table speaks, and who this connection is."""

    state = None

    def __init__(self, you=None) -> None:
        self.you = you

    def subscribe(self, listener):
        return lambda: None

    def watch(self, listener):
        self.listener = listener
        return lambda: None


def test_at_a_table_an_emote_is_said_with_its_sender():
    from war_tui.line.table import TableLine
    from war_tui.tables import EMOTES, Emoted

    table = StandInTable()
    line = TableLine(table)  # a stand-in with only what it reads
    table.listener(Emoted(Side.P2, "bob", EMOTES.index("what a war!")))
    assert line.take_sentences() == ["bob says: what a war!"]


def test_at_a_table_ones_own_arrival_is_said_once_and_the_other_players_is_said():
    from war_tui.line.table import TableLine
    from war_tui.tables import Notice, NoticeCode, You

    table = StandInTable(You("ann", Side.P2))
    line = TableLine(table)  # a stand-in with only what it reads
    table.listener(Notice(NoticeCode.JOINED, "ann sits at seat 2"))
    table.listener(Notice(NoticeCode.JOINED, "sam sits at seat 1"))
    assert line.take_sentences() == ["sam sits at seat 1"]
