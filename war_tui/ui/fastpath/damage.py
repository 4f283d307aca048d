"""Send the terminal only the cells that really changed (bytes matter over SSH).

Textual rewrites every cell of a repainted region, about 7 KB a battle. ``minimal_update`` compares what
an update writes (``cells``) with the terminal's shadow and writes only the differing runs (short gaps
rewritten to save a cursor move), after scrolling rows that moved up (``scroll``). A full-screen update
is written whole and resets the shadow. ``MinimalUpdate`` is a private compositor update, handed to the
driver by ``output.ShadowOutput``.
"""

from __future__ import annotations

from itertools import compress
from operator import ne
from typing import cast

from rich.color import ColorSystem
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

from . import cells
from .cells import Cell, Row, ScreenShadow, Span
from .scroll import MERGE_GAP, MIN_ROWS, Scroll, find_scroll, scroll

__all__ = ["ChopsUpdate", "CompositorUpdate", "MinimalUpdate", "ScreenShadow", "minimal_update", "supported"]

SCROLL_MIN_ROWS = MIN_ROWS
"""A band of fewer full-width rows than this is never scrolled (a test sets it out of reach to compare)."""
ScrollHint = Scroll


class _Pen:
    """The terminal's SGR state while a frame is written, so a style is only sent when it changes.

    A frame starts and ends with the default style: Textual's own writes reset after every
    styled run, and ``finish`` resets ours. In between, cursor moves keep the pen, so a run
    in the style of the last one (the log's background, a border) costs no SGR at all.
    """

    def __init__(self, links: dict[str, Style], system: ColorSystem) -> None:
        self.links = links
        self.system = system
        self.codes = ""  # what the terminal's pen is now ("" = default)

    def write(self, out: list[str], row: list[Cell]) -> None:
        text: list[str] = []
        codes: str | None = None
        for char, cell_codes in row:
            if cell_codes != codes:
                self._flush(out, text, codes)
                codes = cell_codes
            text.append(char)
        self._flush(out, text, codes)

    def _flush(self, out: list[str], text: list[str], codes: str | None) -> None:
        if not text:
            return
        chunk = "".join(text)
        text.clear()
        if codes and "|" in codes:  # a hyperlink keeps Textual's own form (it resets after the link)
            self._set("", out)
            out.append(Strip.render_style(self.links[codes], chunk, color_system=self.system))
            return
        self._set(codes or "", out)
        out.append(chunk)

    def _set(self, ansi: str, out: list[str]) -> None:
        if ansi != self.codes:
            out.append(f"\x1b[0;{ansi}m" if ansi else "\x1b[0m")
            self.codes = ansi

    def finish(self, out: list[str]) -> None:
        self._set("", out)


def _changed(new: Row, old: Row, spans: list[Span]) -> list[int]:
    """The columns, in order, where ``new`` writes something the terminal does not show."""
    changed: list[int] = []
    for start, end in sorted(set(spans)):
        if new[start:end] != old[start:end]:
            changed.extend(compress(range(start, end), map(ne, new[start:end], old[start:end])))
    return sorted(set(changed)) if len(spans) > 1 else changed


def _runs(changed: list[int], row: Row) -> list[Span]:
    """Changed columns as [start, end) runs, joining runs a few known cells apart, each whole characters."""
    runs: list[Span] = []
    for x in changed:
        if runs and x - runs[-1][1] <= MERGE_GAP and None not in row[runs[-1][1] : x]:
            runs[-1] = (runs[-1][0], x + 1)
        else:
            runs.append((x, x + 1))
    return [(_char_start(row, start), _char_end(row, end)) for start, end in runs]


def _char_start(row: Row, start: int) -> int:
    """Never start on the right half of a wide character: write the whole character."""
    while start > 0 and (cell := row[start]) is not None and cell[0] == "" and row[start - 1] is not None:
        start -= 1
    return start


def _char_end(row: Row, end: int) -> int:
    """A run that ends on the left half of a wide character takes its right half too."""
    cell = row[end] if end < len(row) else None
    return end + 1 if cell is not None and cell[0] == "" else end


def _full(update: LayoutUpdate, shadow: ScreenShadow, console: Console, size: tuple[int, int]) -> str:
    """A full repaint: written whole, and from now on the shadow is exactly this frame."""
    shadow.reset(*size)
    written = cells.written_cells(update, console, shadow)
    for y, row in written.rows.items() if written is not None else ():
        shadow.rows[y] = row
        if None not in row:
            shadow.unknown.discard(y)
    return update.render_segments(console)


def minimal_update(
    update: CompositorUpdate,
    shadow: ScreenShadow,
    console: Console,
    size: tuple[int, int],
    scroll_hint: Scroll | None = None,
) -> str:
    """The terminal sequence that makes the screen what ``update`` would, writing only changed cells.

    ``scroll_hint``: rows known to have moved up together (see ``scroll.find_scroll``).
    """
    if isinstance(update, LayoutUpdate) and update.region == (0, 0, *size):
        return _full(update, shadow, console, size)
    if (shadow.width, shadow.height) != size:
        shadow.reset(*size)
    written = cells.written_cells(update, console, shadow)
    if written is None:  # an unknown kind of update: written as Textual writes it, the shadow lost
        shadow.forget()
        return update.render_segments(console)
    out: list[str] = []
    moved = find_scroll(written, shadow, scroll_hint, SCROLL_MIN_ROWS) if shadow.scroll else None
    if moved is not None:
        out.append(scroll(shadow, *moved))
    pen = _Pen(shadow.styles, cells.color_system(console))
    for y in sorted(written.rows):
        new, row = written.rows[y], shadow.rows[y]
        changed = written.diffs.get(y)
        if changed is None:
            changed = _changed(new, row, written.spans[y])
        for x in changed:
            row[x] = new[x]
        if changed and y in shadow.unknown and None not in row:
            shadow.unknown.discard(y)
        for start, end in _runs(changed, row):
            out.append(f"\x1b[{y + 1};{start + 1}H")
            pen.write(out, cast("list[Cell]", row[start:end]))  # a run holds cells just written or known
    pen.finish(out)
    return "".join(out)


class MinimalUpdate(CompositorUpdate):
    """A compositor update that writes itself through a ``ScreenShadow``."""

    def __init__(
        self, update: CompositorUpdate, shadow: ScreenShadow, size: tuple[int, int], scroll_hint: Scroll | None = None
    ) -> None:
        self.update = update
        self.shadow = shadow
        self.size = size
        self.scroll_hint = scroll_hint

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return self.update.__rich_console__(console, options)  # type: ignore[attr-defined]  # every kind of update is a Rich renderable; the base class does not say so

    def render_segments(self, console: Console) -> str:
        return minimal_update(self.update, self.shadow, console, self.size, self.scroll_hint)


def supported() -> bool:
    """Whether the installed Textual still has every private name the shadow terminal reads."""
    return (
        all(callable(getattr(kind, "render_segments", None)) for kind in (ChopsUpdate, LayoutUpdate))
        and hasattr(ChopsUpdate, "__rich_console__")
        and cells.supported()
    )
