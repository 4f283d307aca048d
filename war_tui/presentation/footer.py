"""Which keys the footer shows in the width it has: every key whole, the least needed ones left out first.

Each way to play names its keys in the order they leave when room runs out (``FooterPlan.drops``); what
leaves stays in the help and the palette. The layout is a terminal footer's: ``key description``, the
speed keys as one ``+-`` group, and the palette's key at the right edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

PALETTE = "command_palette"
"""The action of the command palette's key: it sits at the right edge, not in the row."""


@dataclass(frozen=True)
class KeyHint:
    """One key as the footer shows it."""

    key: str
    """The key a click on it presses."""
    display: str
    description: str
    action: str
    """The action's name without its namespace or arguments: what a plan names."""
    enabled: bool = True
    group: str | None = None
    """The label of the group the key is drawn in (its description then only in the tooltip)."""
    tooltip: str = ""

    @property
    def text(self) -> str:
        """How it reads on its own: ``space Flip``."""
        return f"{self.display} {self.description}" if self.description else self.display


@dataclass(frozen=True)
class Unit:
    """What is shown or left out as one: a key, or a group of keys with its label."""

    hints: tuple[KeyHint, ...]
    label: str = ""

    @property
    def actions(self) -> frozenset[str]:
        return frozenset(hint.action for hint in self.hints)

    @property
    def text(self) -> str:
        """How it reads: ``space Flip``, ``+- Speed``."""
        if self.label:
            return "".join(hint.display for hint in self.hints) + " " + self.label
        return self.hints[0].text

    @property
    def width(self) -> int:
        """Cells it takes, its trailing space not counted (keys and labels are ASCII)."""
        return len(self.text)


@dataclass(frozen=True)
class FooterPlan:
    """What a way to play keeps in its footer."""

    drops: tuple[str, ...] = ()
    """Actions in the order they leave when the keys do not fit, the least needed first (a group leaves with
    any of its actions); keys not named stay."""
    hides: frozenset[str] = field(default_factory=frozenset)
    """Actions never shown."""


SOLO_FOOTER = FooterPlan(drops=("stats", "restart", "pause_on_war", PALETTE, "faster", "auto"))
TWO_PLAYER_FOOTER = FooterPlan(drops=("pause_on_war", "stats", "restart", PALETTE, "faster", "auto"))
"""Both flip keys first: war stop leaves before anything else (the help lists it)."""
SEAT_FOOTER = FooterPlan(drops=("stats", "faster", "restart", "pause_on_war", PALETTE, "emote", "decline", "auto"))
"""A seat's footer names the emotes: statistics and speed leave before them. ``n Decline`` shows only while the
other player's request waits, and stays longer than the emotes then."""
WATCHING_FOOTER = FooterPlan(
    drops=("stats", PALETTE),
    hides=frozenset({"flip", "auto", "faster", "slower", "pause_on_war", "restart"}),
)
"""A spectator's keys: take a seat, statistics, help, leave; the players' keys only say "you are watching"."""
LOBBY_FOOTER = FooterPlan(drops=("stats", PALETTE, "leaderboard", "new_table", "free_seats", "watch"))
"""The lobby's keys: sitting, help and leaving stay longest (the line of keys over the footer names them all)."""


def units(hints: Sequence[KeyHint]) -> list[Unit]:
    """The keys as the footer groups them: consecutive keys of one group (two or more) drawn as one."""
    result: list[Unit] = []
    run: list[KeyHint] = []

    def close_run() -> None:
        if len(run) > 1:
            result.append(Unit(tuple(run), label=run[0].group or ""))
        else:
            result.extend(Unit((hint,)) for hint in run)
        run.clear()

    for hint in hints:
        if run and hint.group != run[0].group:
            close_run()
        if hint.group is not None:
            run.append(hint)
        else:
            close_run()
            result.append(Unit((hint,)))
    close_run()
    return result


def palette_width(palette: KeyHint) -> int:
    """Cells the palette key needs at the right edge: itself and a blank before it, so the last key of the row
    never touches it (its separator takes a blank more where the row leaves one, ``GameFooter``)."""
    return 1 + len(palette.text)


def row_width(row: Sequence[Unit]) -> int:
    """Cells a row of units takes, a space between each two."""
    return sum(unit.width for unit in row) + max(len(row) - 1, 0)


def fit(hints: Sequence[KeyHint], width: int, plan: FooterPlan) -> tuple[list[Unit], KeyHint | None]:
    """The units shown in a footer ``width`` cells wide, and the palette key (None: left out).

    Leaves out the plan's hidden keys, then drops keys in the plan's order until the row fits beside the palette
    key; on a screen too narrow even for the rest, the last keys leave too (never half a key).
    """
    shown = [hint for hint in hints if hint.action not in plan.hides]
    palette = next((hint for hint in shown if hint.action == PALETTE), None)
    row = units([hint for hint in shown if hint.action != PALETTE])
    dropped: set[str] = set()

    def kept_palette() -> KeyHint | None:
        return palette if PALETTE not in dropped else None

    def room() -> int:
        kept = kept_palette()
        return width - (palette_width(kept) if kept is not None else 0)

    def kept() -> list[Unit]:
        return [unit for unit in row if not unit.actions & dropped]

    for action in plan.drops:
        if row_width(kept()) <= room():
            break
        dropped.add(action)
    shown_row = kept()
    while shown_row and row_width(shown_row) > room():
        shown_row.pop()
    return shown_row, kept_palette()
