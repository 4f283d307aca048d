"""The replay in the line mode: a key or a line typed, the battle it asks for said in one sentence.

"battle 12 of 340: Ann's king of hearts beats Bob's nine of clubs. Ann has 30, Bob has 22." Plain text,
one answer a line, so it reads aloud and pipes; the battles come from the ``Replay``, as on the screen.
Space plays and pauses: a battle every ``pace`` seconds at 1x (the line mode's auto-play pace, so a voice
keeps up), twice, four and eight times as often at 2x, 4x, 8x (+ and -).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..line.sentences import BattleTeller, Voice
from ..settings.options import DEFAULT_PACE
from ..stats.replay import Replay
from .run import LineOutput, run_session

HELP = (
    "enter or n: next battle; p: previous; ] or [: next or previous war; home, end: first, last;"
    " g 120 or 120: battle 120; space: play or pause; + or -: faster or slower; q: quit"
)
MOST_TYPED = 40
"""Longer lines are not commands: one refusal, never echoed."""
SPEEDS = (1, 2, 4, 8)
PLAY = ("space", "play", "pause", " ")
FASTER = ("+", "=", "faster")
SLOWER = ("-", "_", "slower")


class ReplayLine:
    """Where the replay stands, whether it plays and how fast, and the sentence for each command."""

    def __init__(self, replay: Replay, names: tuple[str, str], *, pace: float = DEFAULT_PACE) -> None:
        self.replay = replay
        self.teller = BattleTeller(Voice(names, me=None), replay.rules.war_cards)
        self.at = 0  # nothing said yet: enter says battle 1
        self.done = False
        self.pace = pace
        self.playing = False
        self.speed = 1
        self._due: float | None = None

    def said(self, battle: int) -> str:
        self.at = battle
        played = self.replay.battle(battle)
        sentence = self.teller.on_event(played.event) or ""
        return f"battle {battle:,} of {self.replay.battles:,}: {sentence}"

    def opening(self) -> str:
        return f"Replay of seed {self.replay.seed}, {self.replay.rules.describe()}, {self.replay.battles:,} battles. {HELP}."

    def answer(self, typed: str, now: float = 0.0) -> str:
        """The one line that answers ``typed`` (a word, a letter, a battle number), at time ``now``."""
        if len(typed) > MOST_TYPED:
            return f"That is not a command. {HELP}."
        word = typed.lower() if typed == " " else typed.strip().lower()
        if word in PLAY:
            return self._play_or_pause(now)
        if word in FASTER or word in SLOWER:
            step = 1 if word in FASTER else -1
            self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, SPEEDS.index(self.speed) + step))]
            if self.playing:
                self._due = now + self.interval
            return f"Speed {self.speed}x: {self._every()}."
        said = self._move(word)
        if self.playing and not self.done:
            self._due = now + self.interval  # playing goes on from the battle moved to
        return said

    def _move(self, word: str) -> str:
        last = self.replay.battles
        if word in ("", "n", "l", "next"):
            return self.said(min(last, self.at + 1)) if self.at < last else f"That was the last battle. {self._end()}"
        if word in ("p", "h", "previous"):
            return self.said(max(1, self.at - 1))
        if word in ("]", "["):
            war = self.replay.next_war(self.at) if word == "]" else self.replay.previous_war(max(1, self.at))
            return self.said(war) if war is not None else f"No war {'after' if word == ']' else 'before'} this battle."
        if word in ("home", "first"):
            return self.said(1)
        if word in ("end", "last"):
            return self.said(last)
        if word in ("q", "quit"):
            self.done = True
            self.playing = False
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

    @property
    def interval(self) -> float:
        """Seconds between the battles playing says."""
        return self.pace / self.speed

    def _every(self) -> str:
        return f"a battle every {self.interval:g} seconds"

    def _play_or_pause(self, now: float) -> str:
        if self.playing:
            self.playing = False
            self._due = None
            return f"Paused at battle {self.at:,} of {self.replay.battles:,}."
        if self.at >= self.replay.battles:
            self.at = 0  # played to its end: playing starts again from the first battle
        self.playing = True
        self._due = now + self.interval
        return f"Playing at {self.speed}x, {self._every()}; space pauses."

    def due(self) -> float | None:
        """When playing says its next battle (None: it waits for a key)."""
        return self._due if self.playing else None

    def tick(self, now: float) -> list[str]:
        """Playing's turn: the next battle; after the last, how the game ended, and playing stops."""
        if not self.playing:
            return []
        lines = [self.said(self.at + 1)]
        if self.at >= self.replay.battles:
            self.playing = False
            self._due = None
            end = self._end()
            lines.append(f"That was the last battle. {end}".strip())
        else:
            self._due = now + self.interval
        return lines

    def _end(self) -> str:
        ended = self.replay.ended
        return self.teller.game_over(ended) if ended is not None else ""


_SEQUENCES = {"C": "n", "D": "p", "H": "home", "F": "end", "1~": "home", "7~": "home", "4~": "end", "8~": "end"}
"""Arrows, home and end as a terminal sends them (CSI or SS3), as the words they mean."""
MAX_SEQUENCE = 16


class ReplayKeys:
    """Typed text as the replay's words: single keys from a terminal (g and digits, then enter, for a battle
    number), or whole lines from a pipe or ``ssh -T``."""

    def __init__(self, lines: bool) -> None:
        self.lines = lines
        self._typed: list[str] | None = None  # a line, or a battle number after g
        self._sequence: str | None = None
        self._after_cr = False

    def feed(self, text: str) -> list[str]:
        return [word for ch in text if (word := self._one(ch)) is not None]

    def end(self) -> list[str]:
        """The input ended: a line typed without its enter still counts."""
        typed, self._typed = self._typed, None
        return [("" if self.lines else "g ") + "".join(typed)] if typed else []

    def _one(self, ch: str) -> str | None:
        if ch in "\r\n":
            after_cr, self._after_cr = self._after_cr, ch == "\r"
            if ch == "\n" and after_cr:
                return None  # "\r\n" from one enter key
        else:
            self._after_cr = False
        if self.lines:
            return self._in_line(ch)
        if self._sequence is not None:
            return self._in_sequence(ch)
        if ch == "\x1b":
            self._sequence = ""
            return None
        if self._typed is not None:
            return self._in_number(ch)
        if ch == "g" or ch.isdigit() and ch.isascii():
            self._typed = [] if ch == "g" else [ch]
            return None
        if ch in "\r\n":
            return "n"
        if ch in ("\x03", "\x04"):
            return "q"
        return ch if ch.isprintable() else None

    def _in_line(self, ch: str) -> str | None:
        typed = self._typed if self._typed is not None else []
        if ch in "\r\n":
            self._typed = None
            return "".join(typed)
        if ch in ("\x7f", "\x08"):
            if typed:
                typed.pop()
        elif ch.isprintable() and len(typed) <= MOST_TYPED:
            typed.append(ch)
        self._typed = typed
        return None

    def _in_number(self, ch: str) -> str | None:
        typed = self._typed if self._typed is not None else []
        if ch in "\r\n":
            self._typed = None
            return "g " + "".join(typed) if typed else None
        if ch in ("\x7f", "\x08"):
            if typed:
                typed.pop()
        elif ch.isdigit() and ch.isascii() and len(typed) < 9:
            typed.append(ch)
        else:
            self._typed = None  # any other key forgets the number
        return None

    def _in_sequence(self, ch: str) -> str | None:
        sequence = self._sequence + ch if self._sequence is not None else ch
        if len(sequence) == 1 and ch not in "[O":  # escape alone: it forgets a number, and this key counts
            self._sequence = None
            self._typed = None
            return self._one(ch)
        if sequence in ("[", "O") or (len(sequence) < MAX_SEQUENCE and not ("@" <= ch <= "~" and len(sequence) > 1)):
            self._sequence = sequence
            return None
        self._sequence = None
        self._typed = None  # escape forgets a number being typed
        return _SEQUENCES.get(sequence[1:])


class ReplaySession:
    """The replay (``ReplayLine``) as the line mode's loop runs it (``run_session``): one line an answer."""

    def __init__(self, teller: ReplayLine, clock: Callable[[], float]) -> None:
        self.teller = teller
        self.clock = clock

    @property
    def done(self) -> bool:
        return self.teller.done

    def keys(self, lines: bool) -> ReplayKeys:
        return ReplayKeys(lines=lines)

    def opening(self) -> list[str]:
        return [self.teller.opening(), self.teller.answer("", self.clock())]

    def answer(self, key: str, now: float) -> list[str] | None:
        return [self.teller.answer(key, now)]

    def due(self) -> float | None:
        return self.teller.due()

    def tick(self, now: float) -> list[str]:
        return self.teller.tick(now)

    def input_ended(self) -> list[str]:
        return []


def run_replay_line(
    teller: ReplayLine, fd_in: int, out: LineOutput, *, lines: bool | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Answer keys (or lines) until q, or the input ends with nothing playing; ``lines``: read lines even
    from a terminal (None: lines unless stdin is a terminal)."""
    return run_session(ReplaySession(teller, clock), fd_in, out, lines=lines, clock=clock)
