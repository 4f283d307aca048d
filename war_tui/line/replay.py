"""The replay in the line mode: a line typed, the battle it asks for said in one sentence.

"battle 12 of 340: Ann's king of hearts beats Bob's nine of clubs. Ann has 30, Bob has 22." Plain text,
one answer a line, so it reads aloud and pipes; the battles come from the ``Replay``, as on the screen.
"""

from __future__ import annotations

from ..line.sentences import BattleTeller, Voice
from ..stats.replay import Replay

HELP = (
    "enter or n: next battle; p: previous; ] or [: next or previous war; home, end: first, last;"
    " g 120 or 120: battle 120; q: quit"
)
MOST_TYPED = 40
"""Longer lines are not commands: one refusal, never echoed."""


class ReplayLine:
    """Where the replay stands, and the sentence for each line typed."""

    def __init__(self, replay: Replay, names: tuple[str, str]) -> None:
        self.replay = replay
        self.teller = BattleTeller(Voice(names, me=None), replay.rules.war_cards)
        self.at = 0  # nothing said yet: enter says battle 1
        self.done = False

    def said(self, battle: int) -> str:
        self.at = battle
        played = self.replay.battle(battle)
        sentence = self.teller.on_event(played.event) or ""
        return f"battle {battle:,} of {self.replay.battles:,}: {sentence}"

    def opening(self) -> str:
        return f"Replay of seed {self.replay.seed}, {self.replay.rules.describe()}, {self.replay.battles:,} battles. {HELP}."

    def answer(self, typed: str) -> str:
        """The one line that answers ``typed``."""
        if len(typed) > MOST_TYPED:
            return f"That is not a command. {HELP}."
        word = typed.strip().lower()
        last = self.replay.battles
        if word in ("", "n", "l", "next"):
            return self.said(min(last, self.at + 1)) if self.at < last else f"That was the last battle. {self._end()}"
        if word in ("p", "h", "previous"):
            return self.said(max(1, self.at - 1))
        if word in ("]", "[") :
            war = self.replay.next_war(self.at) if word == "]" else self.replay.previous_war(max(1, self.at))
            return self.said(war) if war is not None else f"No war {'after' if word == ']' else 'before'} this battle."
        if word in ("home", "first"):
            return self.said(1)
        if word in ("end", "last"):
            return self.said(last)
        if word in ("q", "quit"):
            self.done = True
            return "Replay over."
        if word in ("?", "help"):
            return HELP + "."
        number = word[1:].strip() if word.startswith("g") else word
        if number.isdigit() and number.isascii():
            wanted = int(number)
            if 1 <= wanted <= last:
                return self.said(wanted)
            return f"There is no battle {wanted:,}: this game has 1 to {last:,}."
        return f"That is not a command. {HELP}."

    def _end(self) -> str:
        ended = self.replay.ended
        return self.teller.game_over(ended) if ended is not None else ""
