"""Send the terminal only the cells that really changed (bytes matter over SSH).

Textual repaints a widget by writing every cell of its region, even where the
terminal already shows the same character in the same style: each battle
rewrote the whole board, about 14 KB. ``ScreenShadow`` remembers what the
terminal shows, and ``minimal_update`` turns a compositor update into writes
of only the runs of cells that differ (short unchanged gaps are rewritten to
save a cursor move). A full-screen update (start, resize, another screen)
is always written whole and resets the shadow, so the shadow can't drift
from the terminal for long.

This leans on Textual's ``CompositorUpdate`` classes and ``App._display``,
which are not public API; textual is pinned to one version in pyproject.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import gt, ne, sub

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import ControlType
from rich.style import Style
from textual._compositor import CompositorUpdate, LayoutUpdate
from textual.strip import Strip

Cell = tuple[str, str]
"""A character (empty for the right half of a wide character) and the SGR codes the terminal shows it in.

Two cells look the same when character and codes match: Textual's styles also
carry metadata for the mouse (a cell's offset in its widget) that never
reaches the terminal, so comparing styles would count a moved bar as changed.
Cells are compared a row at a time with ``map(ne, ...)``, in C, not cell by cell in Python.
"""

MERGE_GAP = 4
"""Unchanged cells between two changed runs that are cheaper to rewrite than to jump over."""
SCROLL_MIN_ROWS = 3
"""A band of fewer full-width rows than this is never scrolled: a plain rewrite is as cheap."""
SCROLL_MAX = 4
"""The largest shift looked for: the log adds a line or two per frame."""
RUN_COST = 10
"""Rough bytes to start a run of changed cells (a cursor move and a colour), against about one per cell."""
RUN_CACHE_SIZE = 4096
"""Segments whose cells are kept: most of a frame is the same text in the same colours as the last one."""

_RUN_CELLS: dict[tuple[str, str], tuple[Cell, ...]] = {}
"""The cells of a single-width segment, by text and codes (emptied when full)."""


class ScreenShadow:
    """What the terminal shows, cell by cell; ``None`` where it is not known."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.rows: list[list[Cell | None]] = []
        self.styles: dict[str, Style] = {}
        """A style for each set of codes on screen, to write them again (only codes are compared)."""

    def reset(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[None] * width for _ in range(height)]
        self.styles = {}

    def forget(self) -> None:
        """The terminal's content is unknown (say, after a resize): the next writes go out whole."""
        self.reset(self.width, self.height)


class _Written:
    """The cells one update writes: per row, a full-width list (None where it writes nothing) and its spans."""

    def __init__(self) -> None:
        self.rows: dict[int, list[Cell | None]] = {}
        self.spans: dict[int, list[tuple[int, int]]] = {}


def _codes(style: Style | None, color_system) -> str:  # noqa: ANN001
    """The SGR parameters Textual writes for ``style`` (cached on the style, as Textual does), and its link."""
    if style is None:
        return ""
    ansi = style._ansi if style._ansi is not None else Strip.render_ansi(style, color_system)
    return f"{ansi}|{style._link}" if style._link else ansi


@lru_cache(maxsize=4096)
def _single_width(text: str) -> bool:
    """Every character one cell wide (borders, suits, bars): the text can be laid down in one slice."""
    return all(get_character_cell_size(char) == 1 for char in text)


def _cells(update: CompositorUpdate, console: Console, shadow: ScreenShadow) -> _Written:
    """Every cell the update writes, by row and column (clipped to the shadow's screen)."""
    written = _Written()
    width, height = shadow.width, shadow.height
    styles = shadow.styles
    runs = _RUN_CELLS
    color_system = console._color_system or ColorSystem.TRUECOLOR
    x = y = 0
    row: list[Cell | None] | None = None
    spans: list[tuple[int, int]] = []
    for segment in update.__rich_console__(console, console.options):
        if segment.control:
            for control in segment.control:
                if control[0] == ControlType.CURSOR_MOVE_TO:
                    x, y = control[1], control[2]
                    if 0 <= y < height:
                        row = written.rows.get(y)
                        if row is None:
                            row = written.rows[y] = [None] * width
                            spans = written.spans[y] = []
                        else:
                            spans = written.spans[y]
                    else:
                        row = None
            continue
        text, style = segment.text, segment.style
        if text == "\n" or row is None:
            continue
        codes = _codes(style, color_system)
        if codes not in styles and style is not None:
            styles[codes] = style
        start = x
        if text.isascii() or _single_width(text):
            end = min(width, x + len(text))
            if end > x:
                cells = runs.get((text, codes))
                if cells is None:
                    if len(runs) >= RUN_CACHE_SIZE:
                        runs.clear()
                    cells = runs[text, codes] = tuple(zip(text, repeat(codes)))
                row[x:end] = cells if end - x == len(cells) else cells[: end - x]
            x += len(text)
        else:
            for char in text:
                size = get_character_cell_size(char)
                if size == 0:
                    if 0 < x <= width and row[x - 1] is not None:
                        row[x - 1] = (row[x - 1][0] + char, row[x - 1][1])  # type: ignore[index]
                    continue
                if x < width:
                    row[x] = (char, codes)
                    if size == 2 and x + 1 < width:
                        row[x + 1] = ("", codes)
                x += size
        if min(x, width) > start:
            spans.append((start, min(x, width)))
    return written


def _changed(new: list[Cell | None], old: list[Cell | None], spans: list[tuple[int, int]]) -> list[int]:
    """The columns, in order, where ``new`` writes something the terminal does not show."""
    changed: list[int] = []
    for start, end in sorted(set(spans)):
        changed.extend(compress(range(start, end), map(ne, new[start:end], old[start:end])))
    if len(spans) > 1:
        changed = sorted(set(changed))
    return changed


def _runs(changed: list[int], row: list[Cell | None]) -> list[tuple[int, int]]:
    """Changed columns as [start, end) runs, joining runs separated by a few known cells."""
    runs: list[tuple[int, int]] = []
    for x in changed:
        if runs:
            start, end = runs[-1]
            gap = x - end
            if gap <= MERGE_GAP and None not in row[end:x]:
                runs[-1] = (start, x + 1)
                continue
        runs.append((x, x + 1))
    fixed = []
    for start, end in runs:
        # Never start on the right half of a wide character: write the whole character.
        while start > 0 and row[start] is not None and row[start][0] == "" and row[start - 1] is not None:  # type: ignore[index]
            start -= 1
        fixed.append((start, end))
    return fixed


class _Pen:
    """The terminal's current SGR state while a frame is written, so a style is only sent when it changes.

    A frame starts and ends with the default style: Textual's own writes reset after
    every styled run, and ``finish`` resets ours. In between, cursor moves keep the
    pen, so a run in the same style as the last one (the log's background, a border)
    costs no SGR at all, and a change costs one ``ESC[0;...m`` instead of a set and a reset.
    """

    def __init__(self, styles: dict[str, Style], color_system) -> None:  # noqa: ANN001
        self.styles = styles
        self.color_system = color_system
        self.codes = ""  # what the terminal's pen is now ("" = default)

    def write(self, out: list[str], cells: list[Cell | None]) -> None:
        text: list[str] = []
        codes: str | None = None
        for cell in cells:
            assert cell is not None
            char, cell_codes = cell
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
        if codes and "|" in codes:
            # A hyperlink keeps Textual's own form (it resets after the link).
            self._set("", out)
            out.append(Strip.render_style(self.styles[codes], chunk, color_system=self.color_system))
            return
        self._set(codes or "", out)
        out.append(chunk)

    def _set(self, ansi: str, out: list[str]) -> None:
        if ansi == self.codes:
            return
        out.append(f"\x1b[0;{ansi}m" if ansi else "\x1b[0m")
        self.codes = ansi

    def finish(self, out: list[str]) -> None:
        self._set("", out)


def _cost(new: list[Cell | None], old: list[Cell | None] | None) -> int:
    """About how many bytes it takes to turn ``old`` into ``new`` (a row not known at all: all of it).

    Each changed cell costs one, and each run of changes more than ``MERGE_GAP`` cells
    after the last one costs ``RUN_COST`` more; counted with C-level iterators, since
    looking for a scroll costs a few hundred rows a frame.
    """
    if old is None:
        return len(new) + RUN_COST
    if new == old:
        return 0
    diffs = list(compress(range(len(new)), map(ne, new, old)))
    if not diffs:
        return 0
    jumps = sum(map(gt, map(sub, diffs[1:], diffs), repeat(MERGE_GAP + 1)))
    return len(diffs) + RUN_COST * (1 + jumps)


def _overlay(new: list[Cell | None], old: list[Cell]) -> list[Cell]:
    """The row as it is to look: what the update writes, and what the terminal shows elsewhere."""
    if None not in new:
        return new  # type: ignore[return-value]
    return [o if n is None else n for n, o in zip(new, old)]


def _find_scroll(written: _Written, shadow: ScreenShadow) -> tuple[int, int, int] | None:
    """(top, bottom, n): rows top..bottom (inclusive) are to show what rows top+n..bottom showed, scrolled up.

    Rows the terminal is known to show whole take part, whatever part of them the
    update writes: the rest of such a row must still show what it showed, so when
    a scroll is chosen those rows are put in ``written`` whole (the update's cells
    over the old ones) and anything the scroll moved there is written back. A
    scroll is chosen when it saves at least a row's worth of writing over updating in place.
    """
    width = shadow.width
    old = shadow.rows
    if len(written.rows) < SCROLL_MIN_ROWS:
        return None
    bands: list[list[int]] = []
    for y in sorted(written.rows):
        if None in old[y]:
            continue
        if bands and y == bands[-1][-1] + 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    bands = [band for band in bands if len(band) >= SCROLL_MIN_ROWS]
    targets = {y: _overlay(written.rows[y], old[y]) for band in bands for y in band}  # type: ignore[arg-type]
    best: tuple[int, int, int] | None = None
    best_saving = width
    for band in bands:
        in_place = {r: _cost(targets[r], old[r]) for r in band}
        if sum(in_place.values()) <= best_saving:
            continue  # nothing a scroll could save
        full = {r: _cost(targets[r], None) for r in band}
        # Any sub-band top..bottom may scroll by n: row r then starts from what row r+n showed,
        # and the last n rows come in blank (written whole).
        # blanks[i] is the sum of in_place - full over the band's first i rows.
        blanks = [0]
        for r in band:
            blanks.append(blanks[-1] + in_place[r] - full[r])
        for n in range(1, min(SCROLL_MAX, len(band) - 1) + 1):
            moved = [in_place[r] - _cost(targets[r], old[r + n]) if r + n <= band[-1] else 0 for r in band]
            for top_index in range(len(band) - n):
                saving = 0
                for bottom_index in range(top_index + n, len(band)):
                    saving += moved[bottom_index - n]
                    blank = blanks[bottom_index + 1] - blanks[bottom_index + 1 - n]
                    total = saving + blank - 2 * RUN_COST
                    if total > best_saving:
                        best, best_saving = (band[top_index], band[bottom_index], n), total
    if best is not None:
        top, bottom, _ = best
        for y in range(top, bottom + 1):
            written.rows[y] = targets[y]  # type: ignore[assignment]
            written.spans[y] = [(0, width)]
    return best


def _scroll(shadow: ScreenShadow, top: int, bottom: int, n: int) -> str:
    """Scroll rows top..bottom up by n in the terminal (and the shadow); the n rows let in are unknown.

    DECSTBM sets the scrolling region, each IND (ESC D) at its bottom margin scrolls
    it one line (VT100: xterm, VTE, tmux, screen and the Linux console all have it),
    and ``ESC[r`` gives the whole screen back. The pen is the default here, so the
    blank lines carry no colour, and they are marked unknown anyway.
    """
    rows = shadow.rows
    rows[top : bottom + 1] = rows[top + n : bottom + 1] + [[None] * shadow.width for _ in range(n)]
    return f"\x1b[{top + 1};{bottom + 1}r\x1b[{bottom + 1};1H" + "\x1bD" * n + "\x1b[r"


def minimal_update(update: CompositorUpdate, shadow: ScreenShadow, console: Console, size: tuple[int, int]) -> str:
    """The terminal sequence that makes the screen what ``update`` would, writing only changed cells."""
    width, height = size
    if isinstance(update, LayoutUpdate) and update.region.size == (width, height) and update.region.offset == (0, 0):
        # A full repaint: written whole, and from now on the shadow is exactly this frame.
        shadow.reset(width, height)
        written = _cells(update, console, shadow)
        for y, row in written.rows.items():
            shadow.rows[y] = row
        return update.render_segments(console)
    if (shadow.width, shadow.height) != (width, height):
        shadow.reset(width, height)
    written = _cells(update, console, shadow)
    sequences: list[str] = []
    scroll = _find_scroll(written, shadow)
    if scroll is not None:
        sequences.append(_scroll(shadow, *scroll))
    pen = _Pen(shadow.styles, console._color_system or ColorSystem.TRUECOLOR)
    for y in sorted(written.rows):
        new = written.rows[y]
        row = shadow.rows[y]
        changed = _changed(new, row, written.spans[y])
        if not changed:
            continue
        for x in changed:
            row[x] = new[x]
        for start, end in _runs(changed, row):
            # A run that ends on the left half of a wide character takes its right half too.
            if end < width and row[end] is not None and row[end][0] == "":  # type: ignore[index]
                end += 1
            sequences.append(f"\x1b[{y + 1};{start + 1}H")
            pen.write(sequences, row[start:end])
    pen.finish(sequences)
    return "".join(sequences)


class MinimalUpdate(CompositorUpdate):
    """A compositor update that writes itself through a ``ScreenShadow``."""

    def __init__(self, update: CompositorUpdate, shadow: ScreenShadow, size: tuple[int, int]) -> None:
        self.update = update
        self.shadow = shadow
        self.size = size

    def __rich_console__(self, console, options):  # noqa: ANN001, ANN204
        yield from self.update.__rich_console__(console, options)

    def render_segments(self, console: Console) -> str:
        return minimal_update(self.update, self.shadow, console, self.size)
