"""How the game looks, as plain functions: glyphs, card faces, words, speeds, little charts.

Nothing here imports Textual or Rich, so every choice about what a person sees
(which suit glyph, which border, how a war is worded, how a 52-card bar splits)
is unit-tested without a screen. Widgets only paint what these functions return.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from .cards import RANKS, Card, is_red
from .rules import EndReason, Result

# ------------------------------------------------------------------ glyphs


@dataclass(frozen=True, slots=True)
class Glyphs:
    """Every character the board draws, in one place so ASCII mode is a swap, not a branch."""

    ascii: bool
    suits: str  # clubs, diamonds, hearts, spades
    frame: str  # top-left, top-right, bottom-left, bottom-right, horizontal, vertical
    box: str  # the pile's frame, in the same order
    war_box: str  # the pile's frame during a war
    back: tuple[str, str]  # two alternating rows of a card back's pattern
    bar_p1: str
    bar_p2: str
    spark: str  # levels from empty to full
    dot: str
    arrow: str
    ellipsis: str


UNICODE = Glyphs(
    ascii=False,
    suits="♣♦♥♠",  # single-width text symbols; never the emoji variants
    frame="┌┐└┘─│",
    box="╭╮╰╯─│",
    war_box="┏┓┗┛━┃",
    back=("▒▒▒", "▒▒▒"),
    bar_p1="█",
    bar_p2="░",
    spark=" ▁▂▃▄▅▆▇█",
    dot="·",
    arrow="→",
    ellipsis="…",
)

ASCII = Glyphs(
    ascii=True,
    suits="CDHS",
    frame="++++-|",
    box="++++-|",
    war_box="++++-|",
    back=("/\\/", "\\/\\"),
    bar_p1="#",
    bar_p2=".",
    spark=" .:-=+*#%",
    dot="|",
    arrow="->",
    ellipsis="...",
)


def locale_is_utf8(environ: Mapping[str, str]) -> bool:
    """Whether the terminal's locale can show UTF-8, judged the way the C library would.

    Python turns a plain C locale into ``LC_CTYPE=C.UTF-8`` for itself (PEP 538)
    before we run, so that value alone proves nothing: when it is there, LANG
    tells what the person's terminal actually uses.
    """
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        if name == "LC_CTYPE" and value == "C.UTF-8" and environ.get("LANG"):
            continue  # possibly Python's own coercion; LANG is the person's choice
        lowered = value.lower().replace("-", "")
        return "utf8" in lowered
    return False


def choose_glyphs(ascii_flag: bool, environ: Mapping[str, str]) -> Glyphs:
    """ASCII when asked for, or when the locale cannot show suit symbols and box lines."""
    if ascii_flag or not locale_is_utf8(environ):
        return ASCII
    return UNICODE


# ------------------------------------------------------------------- cards


def rank_label(card: Card) -> str:
    """``10`` for a ten, as printed on real cards; every other rank is one character."""
    char = RANKS[card >> 2]
    return "10" if char == "T" else char


def card_label(card: Card, glyphs: Glyphs) -> str:
    """``A♠`` / ``10♥`` (``AS`` / ``10H`` in ASCII)."""
    return rank_label(card) + glyphs.suits[card & 3]


def card_is_red(card: Card) -> bool:
    return is_red(card)


CARD_WIDTH = 5
CARD_HEIGHT = 4


def card_face(card: Card, glyphs: Glyphs, overlapped: bool = False) -> list[str]:
    """A small framed card: rank and suit in the top-left corner, the suit again bottom-right.

    ``overlapped``: only the card's left edge will show, so a ten is "T", never a lone "1".
    """
    tl, tr, bl, br, h, v = glyphs.frame
    label = RANKS[card >> 2] + glyphs.suits[card & 3] if overlapped else card_label(card, glyphs)
    suit = glyphs.suits[card & 3]
    return [
        tl + h * 3 + tr,
        v + label.ljust(3) + v,
        v + suit.rjust(3) + v,
        bl + h * 3 + br,
    ]


def card_back(glyphs: Glyphs) -> list[str]:
    tl, tr, bl, br, h, v = glyphs.frame
    return [tl + h * 3 + tr, v + glyphs.back[0] + v, v + glyphs.back[1] + v, bl + h * 3 + br]


def laid_layout(laid: Sequence[Card], war_cards: int) -> list[tuple[Card, bool]]:
    """One player's cards of a battle in the order laid, each with whether it lies face up.

    The first card is face up; each war then adds ``war_cards`` face down and one
    face up. This mirrors how the cards were laid, it decides nothing.
    """
    out: list[tuple[Card, bool]] = []
    i = 0
    face_up = True
    while i < len(laid):
        size = 1 if face_up else war_cards
        for card in laid[i : i + size]:
            out.append((card, face_up))
        i += size
        face_up = not face_up
    return out


def compact_row(layout: Sequence[tuple[Card, bool]], glyphs: Glyphs, level: int) -> list[tuple[str, Card | None]]:
    """One player's cards of a battle as short labels for a one-line pile, (label, card or None for a back).

    ``level`` 0 shows every card; 1 one back per war's face-down cards; 2 only the
    first and the deciding card around a "+N" of the cards between. The deciding
    card is always there.
    """
    back = glyphs.back[0][:2]
    if level == 0:
        return [(card_label(card, glyphs), card) if up else (back, None) for card, up in layout]
    if level == 1:
        out: list[tuple[str, Card | None]] = []
        for card, up in layout:
            if up:
                out.append((card_label(card, glyphs), card))
            elif not out or out[-1][1] is not None:
                out.append((back, None))
        return out
    first, last = layout[0][0], layout[-1][0]
    if len(layout) <= 2:
        return [(card_label(card, glyphs), card) for card, _ in layout]
    return [(card_label(first, glyphs), first), (f"+{len(layout) - 2}", None), (card_label(last, glyphs), last)]


def fan_step(count: int, width: int, card_width: int = CARD_WIDTH) -> int:
    """How far apart to draw ``count`` cards so they fit ``width`` columns (overlapping if need be)."""
    if count <= 1:
        return card_width + 1
    step = (width - card_width) // (count - 1)
    return max(1, min(card_width + 1, step))


def war_word(depth: int) -> str:
    if depth <= 1:
        return "war"
    words = {2: "double war", 3: "triple war", 4: "quadruple war"}
    return words.get(depth, f"{depth}-deep war")


def longest_war_text(depth: int) -> str:
    """The deepest chain of ties in a game, in words: "a single war", "double war", "5 wars deep"."""
    if depth <= 0:
        return "none"
    if depth == 1:
        return "a single war"
    if depth <= 4:
        return war_word(depth)
    return f"{depth} wars deep"


def outcome_text(winner_name: str | None, cards: int, wars: int) -> str:
    """What happened to the middle pile, said plainly."""
    if winner_name is None:
        return "Nobody takes the pile"
    text = f"{winner_name} takes {cards} cards"
    if wars:
        text += f" after a {war_word(wars)}"
    return text


def result_title(result: Result, names: Sequence[str]) -> str:
    return {
        Result.P1: f"{names[0]} wins",
        Result.P2: f"{names[1]} wins",
        Result.DRAW: "A draw",
        Result.STOPPED: "Stopped",
    }[result]


def reason_text(reason: EndReason, result: Result, names: Sequence[str]) -> str:
    """Why the game ended, naming the player who lost it ("Bob ran out of cards")."""
    loser = names[1] if result is Result.P1 else names[0]
    return {
        EndReason.ALL_CARDS: f"{loser} ran out of cards",
        EndReason.SHORT_IN_WAR: f"{loser} could not finish a war",
        EndReason.BOTH_SHORT: "neither player could finish a war",
        EndReason.BATTLE_CAP: "the battle limit was reached",
        EndReason.STOPPED: "the time limit ran out",
    }[reason]


def leader_text(leader_index: int | None, names: Sequence[str]) -> str:
    if leader_index is None:
        return "The players were level"
    return f"{names[leader_index]} was ahead"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


# ------------------------------------------------------------------- speed

MAX = math.inf
"""The "max" speed: as many battles as fit in a frame."""

SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, MAX)
MIN_SPEED = SPEEDS[0]
MAX_NUMERIC_SPEED = 1000.0
DEFAULT_SPEED = 4.0


class SpeedError(ValueError):
    """A speed nobody can use; the message is fit to show a person."""


def parse_speed(text: str) -> float:
    """``0.5``, ``4``, ``max``: battles per second."""
    raw = text.strip().lower()
    if raw == "max":
        return MAX
    try:
        value = float(raw)
    except ValueError:
        raise SpeedError(f"speed must be battles per second (like 0.5 or 4) or 'max', not '{text}'") from None
    if not math.isfinite(value) or not MIN_SPEED <= value <= MAX_NUMERIC_SPEED:
        raise SpeedError(
            f"speed must be from {MIN_SPEED:g} to {MAX_NUMERIC_SPEED:g} battles per second, or 'max', not {text}"
        )
    return value


def faster(speed: float) -> float:
    for step in SPEEDS:
        if step > speed:
            return step
    return MAX


def slower(speed: float) -> float:
    for step in reversed(SPEEDS):
        if step < speed:
            return step
    return MIN_SPEED


def speed_label(speed: float) -> str:
    if speed == MAX:
        return "max"
    return f"{speed:g}/s"


FRAME_RATE = 30.0
"""Frames per second at most: more than a terminal over SSH usefully shows."""


def tick_plan(speed: float) -> tuple[float, float]:
    """(seconds between timer ticks, battles per tick) for an auto-play speed.

    Slow speeds tick once per battle; fast ones tick at the frame rate and play
    several battles per tick, so the screen never queues more frames than it can show.
    """
    if speed == MAX:
        return 1 / FRAME_RATE, MAX
    if speed <= FRAME_RATE:
        return 1 / speed, 1.0
    return 1 / FRAME_RATE, speed / FRAME_RATE


# ------------------------------------------------------------- little charts


def stack_edges(count: int, total: int, max_edges: int) -> int:
    """How many card edges to draw behind a packet's top card: more cards, thicker stack."""
    if count <= 1 or max_edges <= 0 or total <= 0:
        return 0
    return max(1, min(max_edges, round((count - 1) / (total - 1) * max_edges)))


def bar_split(n1: int, n2: int, width: int) -> int:
    """How many of ``width`` cells belong to player 1, never rounding a holder away to nothing."""
    total = n1 + n2
    if width <= 0 or total <= 0:
        return 0
    cells = round(n1 / total * width)
    if n1 and cells == 0:
        cells = 1
    if n2 and cells == width:
        cells = width - 1
    return max(0, min(width, cells))


class CountHistory:
    """Player 1's card count over a game, in bounded memory however long the game runs.

    Samples are kept one per ``stride`` battles; when the list fills, every other
    sample goes and the stride doubles, so a 10,000-battle game costs the same as a short one.
    """

    def __init__(self, capacity: int = 512) -> None:
        self.capacity = max(2, capacity - capacity % 2)
        self.samples: list[int] = []
        self.stride = 1
        self._seen = 0

    def add(self, value: int) -> None:
        if self._seen % self.stride == 0:
            self.samples.append(value)
            if len(self.samples) >= self.capacity:
                self.samples = self.samples[::2]
                self.stride *= 2
        self._seen += 1

    def reset(self, first: int | None = None) -> None:
        self.samples.clear()
        self.stride = 1
        self._seen = 0
        if first is not None:
            self.add(first)


def resample(samples: Sequence[int], width: int) -> list[float]:
    """Fit ``samples`` into ``width`` columns, averaging buckets (never inventing values)."""
    if width <= 0 or not samples:
        return []
    n = len(samples)
    if n <= width:
        return [float(s) for s in samples]
    out = []
    for col in range(width):
        lo = col * n // width
        hi = max(lo + 1, (col + 1) * n // width)
        chunk = samples[lo:hi]
        out.append(sum(chunk) / len(chunk))
    return out


def spark_rows(values: Sequence[float], height: int, top: float, glyphs: Glyphs) -> list[str]:
    """A bar chart ``height`` rows tall on a fixed 0..top scale (rows listed top first).

    A fixed scale matters: a sparkline that stretches to its own min and max
    would draw 25-27 as a cliff.
    """
    if height <= 0 or top <= 0:
        return []
    spark = glyphs.spark
    levels = len(spark) - 1
    columns = []
    for value in values:
        units = round(max(0.0, min(1.0, value / top)) * height * levels)
        if value > 0 and units == 0:
            units = 1
        column = _SPARK_COLUMNS.get((units, height, spark))
        if column is None:  # a column of the chart, top first; a chart has a few dozen different ones
            column = _SPARK_COLUMNS[units, height, spark] = tuple(
                spark[max(0, min(levels, units - row * levels))] for row in reversed(range(height))
            )
        columns.append(column)
    if not columns:
        return [""] * height
    return ["".join(row) for row in zip(*columns)]


_SPARK_COLUMNS: dict[tuple[int, int, str], tuple[str, ...]] = {}


# ---------------------------------------------------------------- the status


def cell_width(text: str) -> int:
    """Terminal cells ``text`` takes: wide (CJK) characters take two, combining marks none."""
    if text.isascii():
        return len(text)  # the status line and the card bar ask this of every piece, every battle
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def initials(names: Sequence[str]) -> tuple[str, str]:
    """Short names for a tight line: "Player 1" -> "P1", "Ann Lee" -> "AL"; "P1"/"P2" if they would clash."""
    short = tuple("".join(word[0] for word in name.split()) or "?" for name in names)
    if short[0].casefold() == short[1].casefold():
        return ("P1", "P2")
    return short[0], short[1]


def status_pieces(
    *,
    number: int,
    seed: int | None,
    battles: int,
    wars: int,
    auto: bool,
    speed: float,
    pause_on_war: bool,
    over: bool,
    tally: tuple[int, int, int, int],
    names: Sequence[str],
    glyphs: Glyphs,
    width: int,
) -> list[tuple[str, str]]:
    """The status line as (text, style-name) pieces; styles: 'label', 'value', 'auto', 'paused'.

    The longest wording that fits ``width`` cells: full names, then initials,
    then without the seed (the log says it at every deal), then without the
    game number, then (the compact layout's widths) without the battle number,
    which the pile's frame shows, and the tally as a score ("Wins P1 3-2 P2"),
    then auto-play without the speed while it is off; past that the end is cut.
    """
    dot = f" {glyphs.dot} "
    p1, p2, draws, stopped = tally
    if not auto:
        plays = [(f"auto off ({speed_label(speed)})", "paused"), ("auto off", "paused")]
    elif over:
        # Nothing runs until the next deal.
        plays = [(f"auto {speed_label(speed)} next deal", "paused"), (f"auto {speed_label(speed)}", "paused")]
    else:
        plays = [(f"auto {speed_label(speed)}", "auto")] * 2
    seed_words = "hand-made deal" if seed is None else f"seed {seed}"
    pieces: list[tuple[str, str]] = []
    # game shown (2: with its seed), initials, battle number, tally as a score, auto-play in brief
    for game, short, battle, score, brief in (
        (2, False, True, False, False), (2, True, True, False, False), (1, True, True, False, False),
        (0, True, True, False, False), (0, True, False, False, False), (0, True, False, True, False),
        (0, True, False, True, True),
    ):
        play = plays[brief]
        a, b = initials(names) if short else names
        pieces = [("Game ", "label"), (f"{number}", "value"), (dot, "label")] if game else []
        if game == 2:
            pieces[1:2] = [(f"{number}", "value"), (f" ({seed_words})", "value")]
        if battle:
            pieces += [("Battle ", "label"), (f"{battles:,}", "value"), (dot, "label")]
        pieces += [("Wars ", "label"), (f"{wars:,}", "value"), (dot, "label"), play]
        if pause_on_war:
            pieces += [(dot, "label"), ("war stop", "value")]
        if score:
            pieces += [(dot + f"Wins {a} ", "label"), (f"{p1}-{p2}", "value"), (f" {b}", "label")]
        else:
            pieces += [(dot + f"Wins {a}: ", "label"), (f"{p1}", "value"), (f", {b}: ", "label"), (f"{p2}", "value")]
        if draws:
            pieces += [(", ", "label"), (f"{draws}", "value"), (" drawn", "label")]
        if stopped:
            pieces += [(", ", "label"), (f"{stopped}", "value"), (" stopped", "label")]
        if sum(cell_width(text) for text, _ in pieces) <= width:
            break
    return pieces


# ------------------------------------------------------------------ the log


def log_battle_line(
    battle: int,
    p1_card: Card,
    p2_card: Card,
    winner_name: str | None,
    taken: int,
    wars: int,
    counts: tuple[int, int],
    glyphs: Glyphs,
    tie: tuple[Card, Card] | None = None,
) -> list[tuple[str, str]]:
    """One line of the battle log as (text, style-name) pieces; styles: '', 'red', 'war', 'dim'.

    ``p1_card`` / ``p2_card`` are the deciding pair (the last face-up cards); a war
    shows the ``tie`` that started it first: ``5♥ v  5♣ WAR → 4♠ v  8♥``.
    """
    pieces: list[tuple[str, str]] = [(f"{battle:>5}  ", "dim")]

    def pair(cards: tuple[Card, Card], width: int) -> None:
        for i, card in enumerate(cards):
            if i:
                pieces.append((" v ", "dim"))
            pieces.append((card_label(card, glyphs).rjust(width), "red" if is_red(card) else ""))

    if wars and tie is not None:
        pair(tie, 3)  # in the column every battle's first pair uses
        pieces.append((f" {war_word(wars).upper()} {glyphs.arrow} ", "war"))
    pair((p1_card, p2_card), 0 if wars and tie is not None else 3)
    pieces.append(("  ", ""))
    if wars and tie is None:
        pieces.append((f"{war_word(wars).upper()}! ", "war"))
    pieces.append((outcome_text(winner_name, taken, 0), "war" if wars else ""))
    pieces.append((f"  {counts[0]}{glyphs.dot}{counts[1]}", "dim"))
    return pieces


# ------------------------------------------------------------------ drawing


class Canvas:
    """A grid of characters with a style name per cell, for drawing cards before they become Text.

    Later paints cover earlier ones, which is how a fanned hand or a stack of
    backs is drawn: bottom card first.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self._chars = [[" "] * self.width for _ in range(self.height)]
        self._styles = [[""] * self.width for _ in range(self.height)]

    def paint(self, x: int, y: int, lines: Sequence[str], style: str = "", styles: Sequence[str] | None = None) -> None:
        """Paint ``lines`` with its top-left corner at (x, y), clipped to the canvas.

        ``styles``, when given, holds one style name per line (overriding ``style``).
        """
        for dy, line in enumerate(lines):
            row = y + dy
            if not 0 <= row < self.height:
                continue
            start, end = max(0, x), min(self.width, x + len(line))
            if end <= start:
                continue
            self._chars[row][start:end] = line[start - x : end - x]
            self._styles[row][start:end] = [styles[dy] if styles is not None else style] * (end - start)

    def text(self, x: int, y: int, text: str, style: str = "") -> None:
        self.paint(x, y, [text], style)

    def restyle(self, x: int, y: int, width: int, style: str) -> None:
        """Give ``width`` cells from (x, y) a new style, keeping their characters."""
        if 0 <= y < self.height:
            for col in range(max(0, x), min(self.width, x + width)):
                self._styles[y][col] = style

    def runs(self) -> list[list[tuple[str, str]]]:
        """Each row as (text, style-name) runs: few runs means few escape codes on the wire."""
        out = []
        for chars, styles in zip(self._chars, self._styles):
            row: list[tuple[str, str]] = []
            start = 0
            for name, cells in groupby(styles):
                end = start + len(list(cells))
                row.append(("".join(chars[start:end]), name))
                start = end
            out.append(row)
        return out

    def lines(self) -> list[str]:
        return ["".join(chars) for chars in self._chars]


Runs = list[tuple[str, str]]
"""A row as (text, style name) runs."""


def border_label_row(width: int, box: str, top: bool, label: str, ellipsis: str, frame_style: str, label_style: str) -> Runs:
    """A frame's top (title, on the left) or bottom (subtitle, on the right) edge, laid out as Textual lays
    out border labels: one edge cell between the corner and the label, a space each side of the label,
    and the label cut short (ending in ``ellipsis``) where it does not fit."""
    if width <= 0:
        return []
    left, right = (box[0], box[1]) if top else (box[2], box[3])
    edge = box[4]
    if width == 1:
        return [(left, frame_style)]
    room = width - 6  # the corners, one space each side of the label, and the edge beside it
    if not label or room <= 0:
        return [(left + edge * (width - 2) + right, frame_style)]
    if len(label) > room:
        label = label[: max(0, room - len(ellipsis))] + ellipsis[:room]
    padded = f" {label} "
    rest = width - 2 - len(padded)  # at least 2: the label was cut to fit
    if top:
        return [(left + edge, frame_style), (padded, label_style), (edge * (rest - 1) + right, frame_style)]
    return [(left + edge * (rest - 1), frame_style), (padded, label_style), (edge + right, frame_style)]


def framed(
    inner: Sequence[Runs],
    width: int,
    height: int,
    box: str,
    frame_style: str,
    title: tuple[str, str],
    subtitle: tuple[str, str],
    ellipsis: str,
) -> list[Runs]:
    """``inner`` (rows of ``width - 2`` cells) inside a frame drawn with ``box``; title and subtitle are
    (text, style name). A widget that draws its own frame changes its look by drawing, not by CSS
    classes: Textual restyles a widget whose classes change (the stylesheet applied again, every
    component style rebuilt), which cost the pile more than the rest of a war's battle."""
    if width <= 0 or height <= 0:
        return []
    rows = [border_label_row(width, box, True, title[0], ellipsis, frame_style, title[1])]
    side = box[5]
    blank = [(" " * max(0, width - 2), "")]
    for y in range(height - 2):
        row = inner[y] if y < len(inner) else blank
        rows.append([(side, frame_style), *row, (side, frame_style)] if width > 1 else [(side, frame_style)])
    if height > 1:
        rows.append(border_label_row(width, box, False, subtitle[0], ellipsis, frame_style, subtitle[1]))
    return rows
