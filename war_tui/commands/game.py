"""``war-tui game``: play one game without a screen, as text, JSON or a battle-by-battle trace."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from dataclasses import replace

from ..core.cards import Card, CardError, card_str, format_cards, parse_cards, validate_packets
from ..core.engine import Game
from ..core.events import BattleWon, Event, GameOver
from ..core.rules import Result, Rules
from ..presentation.words import plural, reason_text, result_title
from ..settings.options import DEFAULT_NAMES as NAMES
from ..settings.options import P1, P2, SEED, add_flags
from .common import Commands, UsageError, add_rule_flags, rules_from_args

DEAL = "the deal (default: a fresh random seed)"



def register(subparsers: Commands) -> None:
    parser = subparsers.add_parser(
        "game", help="play one game without a screen",
        description="Play one game of War without a screen and report it.",
    )
    seed = replace(SEED, help="shuffle with this seed, {low} to {high} (replays a deal)")
    add_flags(parser, [replace(option, group=DEAL) for option in (seed, P1, P2)])
    add_rule_flags(parser)
    parser.add_argument("--trace", action="store_true", help="print one JSON line per battle first")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.set_defaults(run=run)


def packets_from_args(args: argparse.Namespace) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The packets ``--p1`` and ``--p2`` give (None without them), checked as the engine needs them."""
    if args.p1 is None and args.p2 is None:
        return None
    if args.seed is not None:
        raise UsageError("give either --seed or the packets --p1 and --p2, not both")
    if args.p1 is None or args.p2 is None:
        raise UsageError("explicit packets need both --p1 and --p2")
    try:
        p1, p2 = parse_cards(args.p1), parse_cards(args.p2)
        validate_packets(p1, p2)
    except CardError as exc:
        raise UsageError(str(exc)) from None
    return tuple(p1), tuple(p2)


def make_game(args: argparse.Namespace, rules: Rules) -> Game:
    packets = packets_from_args(args)
    if packets is None:
        seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
        return Game.deal(seed, rules)
    return Game(packets[0], packets[1], rules)


def trace_line(event: BattleWon | GameOver, battle: int) -> dict[str, object]:
    if isinstance(event, BattleWon):
        return {
            "n": event.battle,
            "p1_cards": [card_str(c) for c in event.p1_laid],
            "p2_cards": [card_str(c) for c in event.p2_laid],
            "wars": event.wars,
            "winner": event.winner.value,
            "p1_count": event.p1_count,
            "p2_count": event.p2_count,
        }
    return {
        "n": battle,
        "p1_cards": [card_str(c) for c in event.last_battle_p1],
        "p2_cards": [card_str(c) for c in event.last_battle_p2],
        "wars": event.last_battle_wars,
        "winner": None,
        "p1_count": event.p1_count,
        "p2_count": event.p2_count,
    }


def summary(game: Game) -> dict[str, object]:
    n1, n2 = game.counts
    return {
        "seed": game.seed,
        "rules": game.rules.to_dict(),
        "p1": [card_str(c) for c in game.initial[0]],
        "p2": [card_str(c) for c in game.initial[1]],
        "result": str(game.result),
        "battles": game.battles,
        "wars": game.wars,
        "final": {"p1": n1, "p2": n2},
    }


def _packet_line(player: int, packet) -> str:
    return f"Player {player} ({plural(len(packet), 'card')}, top first): " + format_cards(packet)


def text_account(game: Game) -> str:
    assert game.result is not None and game.reason is not None, "a game played to its end"
    n1, n2 = game.counts
    deal = f"seed {game.seed}" if game.seed is not None else "packets given by hand"
    lines = [
        f"War, {deal}, {game.rules.describe()}",
        _packet_line(1, game.initial[0]),
        _packet_line(2, game.initial[1]),
        "",
        f"{result_title(game.result, NAMES)}: {reason_text(game.reason, game.result, NAMES)}.",
        f"Battles: {game.battles:,}   Wars: {game.wars:,}   Longest war: {game.longest_war}",
        f"Final cards: player 1 {n1}, player 2 {n2}",
    ]
    if game.result is Result.STOPPED and game.leader is not None:
        lines.append(f"Player {game.leader.index + 1} was ahead.")
    if game.seed is not None:
        lines.append(f"Replay: war-tui game --seed {game.seed}" + game.rules.replay_flags())
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = make_game(args, rules)
    out = sys.stdout
    if args.trace:

        def on_event(event: Event) -> None:
            if isinstance(event, BattleWon) or (
                isinstance(event, GameOver) and event.last_battle_p1
            ):
                out.write(json.dumps(trace_line(event, game.battles)) + "\n")

        game.subscribe(on_event)
    game.play()
    if args.json:
        out.write(json.dumps(summary(game)) + "\n")
    else:
        out.write(text_account(game) + "\n")
    return 0
