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

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import ControlType
from rich.style import Style
from textual._compositor import CompositorUpdate, LayoutUpdate
from textual.strip import Strip

Cell = tuple[str, str, Style | None]
"""A character (empty for the right half of a wide character), the SGR codes the terminal sees, its style.

Two cells look the same when character and codes match: Textual's styles also
carry metadata for the mouse (a cell's offset in its widget) that never
reaches the terminal, so comparing styles would count a moved bar as changed.
"""

MERGE_GAP = 4
"""Unchanged cells between two changed runs that are cheaper to rewrite than to jump over."""


class ScreenShadow:
    """What the terminal shows, cell by cell; ``None`` where it is not known."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.rows: list[list[Cell | None]] = []

    def reset(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[None] * width for _ in range(height)]

    def forget(self) -> None:
        """The terminal's content is unknown (say, after a resize): the next writes go out whole."""
        self.reset(self.width, self.height)


def _codes(style: Style | None, color_system) -> str:  # noqa: ANN001
    """The SGR parameters Textual writes for ``style`` (cached on the style, as Textual does), and its link."""
    if style is None:
        return ""
    ansi = style._ansi if style._ansi is not None else Strip.render_ansi(style, color_system)
    return f"{ansi}|{style._link or ''}" if style._link else ansi


def _cells(update: CompositorUpdate, console: Console) -> dict[int, dict[int, Cell]]:
    """Every cell the update writes, by row and column, in the order Textual would write them."""
    written: dict[int, dict[int, Cell]] = {}
    color_system = console._color_system or ColorSystem.TRUECOLOR
    x = y = 0
    row: dict[int, Cell] = {}
    for segment in update.__rich_console__(console, console.options):
        if segment.control:
            for control in segment.control:
                if control[0] == ControlType.CURSOR_MOVE_TO:
                    x, y = control[1], control[2]
                    row = written.setdefault(y, {})
            continue
        text, style = segment.text, segment.style
        if text == "\n":
            continue
        codes = _codes(style, color_system)
        for char in text:
            size = get_character_cell_size(char)
            if size == 0:
                if x - 1 in row:
                    head, head_codes, head_style = row[x - 1]
                    row[x - 1] = (head + char, head_codes, head_style)
                continue
            row[x] = (char, codes, style)
            if size == 2:
                row[x + 1] = ("", codes, style)
            x += size
    return written


def _runs(changed: list[int], row: list[Cell | None]) -> list[tuple[int, int]]:
    """Changed columns as [start, end) runs, joining runs separated by a few known cells."""
    runs: list[tuple[int, int]] = []
    for x in changed:
        if runs:
            start, end = runs[-1]
            gap = x - end
            if gap <= MERGE_GAP and all(row[g] is not None for g in range(end, x)):
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

    def __init__(self, color_system) -> None:  # noqa: ANN001
        self.color_system = color_system
        self.codes = ""  # what the terminal's pen is now ("" = default)

    def write(self, out: list[str], cells: list[Cell | None]) -> None:
        render = Strip.render_style
        text: list[str] = []
        style: Style | None = None

        def flush() -> None:
            if not text:
                return
            chunk = "".join(text)
            text.clear()
            if style is not None and style._link:
                # Hyperlinks keep Textual's own form (it resets after the link).
                self._set("", out)
                out.append(render(style, chunk, color_system=self.color_system))
                return
            ansi = "" if style is None else (style._ansi if style._ansi is not None else Strip.render_ansi(style, self.color_system))
            self._set(ansi, out)
            out.append(chunk)

        codes: str | None = None
        for cell in cells:
            assert cell is not None
            char, cell_codes, cell_style = cell
            if cell_codes != codes:
                flush()
                style, codes = cell_style, cell_codes
            text.append(char)
        flush()

    def _set(self, ansi: str, out: list[str]) -> None:
        if ansi == self.codes:
            return
        out.append(f"\x1b[0;{ansi}m" if ansi else "\x1b[0m")
        self.codes = ansi

    def finish(self, out: list[str]) -> None:
        self._set("", out)


SCROLL_MIN_ROWS = 3
"""A band of fewer full-width rows than this is never scrolled: a plain rewrite is as cheap."""
SCROLL_MAX = 4
"""The largest shift looked for: the log adds a line or two per frame."""


def _key_row(cells: dict[int, Cell], width: int) -> list[tuple[str, str]] | None:
    """The row as (character, codes) per column, or None if the update does not cover all of it."""
    if len(cells) < width:
        return None
    try:
        return [cells[x][:2] for x in range(width)]
    except KeyError:
        return None


RUN_COST = 10
"""Rough bytes to start a run of changed cells (a cursor move and a colour), against about one per cell."""


def _cost(new: list[tuple[str, str]], old: list[tuple[str, str]] | None) -> int:
    """About how many bytes it takes to turn ``old`` into ``new`` (a row not known at all: all of it)."""
    if old is None:
        return len(new) + RUN_COST
    cost = 0
    last = -MERGE_GAP - 2
    for x, (a, b) in enumerate(zip(new, old)):
        if a != b:
            cost += 1 if x - last <= MERGE_GAP + 1 else 1 + RUN_COST
            last = x
    return cost


def _find_scroll(
    written: dict[int, dict[int, Cell]], shadow: ScreenShadow
) -> tuple[int, int, int] | None:
    """(top, bottom, n): rows top..bottom (inclusive) are to show what rows top+n..bottom showed, scrolled up.

    Only rows the update rewrites whole, and the terminal is known to show whole,
    take part, so after the scroll every cell of the band is either known or rewritten.
    A scroll is chosen when it saves at least a row's worth of writing over updating in place.
    """
    width = shadow.width
    new_rows: dict[int, list[tuple[str, str]]] = {}
    for y, cells in written.items():
        if 0 <= y < shadow.height and None not in shadow.rows[y]:
            key = _key_row(cells, width)
            if key is not None:
                new_rows[y] = key
    if len(new_rows) < SCROLL_MIN_ROWS:
        return None
    best: tuple[int, int, int] | None = None
    ys = sorted(new_rows)
    bands: list[list[int]] = []
    for y in ys:
        if bands and y == bands[-1][-1] + 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    best_saving = width
    for band in bands:
        if len(band) < SCROLL_MIN_ROWS:
            continue
        old = {r: [cell[:2] for cell in shadow.rows[r]] for r in band}  # type: ignore[index]
        in_place = {r: _cost(new_rows[r], old[r]) for r in band}
        # Any sub-band top..bottom may scroll by n: row r then starts from what row r+n showed,
        # and the last n rows come in blank (written whole).
        full = {r: _cost(new_rows[r], None) for r in band}
        for n in range(1, min(SCROLL_MAX, len(band) - 1) + 1):
            moved = [in_place[r] - _cost(new_rows[r], old[r + n]) if r + n in old else None for r in band]
            for top_index in range(len(band) - n):
                saving = 0
                for bottom_index in range(top_index + n, len(band)):
                    gain = moved[bottom_index - n]
                    assert gain is not None
                    saving += gain
                    bottom = band[bottom_index]
                    blank = sum(in_place[r] - full[r] for r in range(bottom - n + 1, bottom + 1))
                    total = saving + blank - 2 * RUN_COST
                    if total > best_saving:
                        best, best_saving = (band[top_index], bottom, n), total
    return best


def _scroll(shadow: ScreenShadow, top: int, bottom: int, n: int) -> str:
    """Scroll rows top..bottom up by n in the terminal (and the shadow); the n rows let in are unknown.

    DECSTBM sets the scrolling region, each IND (ESC D) at its bottom margin scrolls
    it one line (VT100: xterm, VTE, tmux, screen and the Linux console all have it),
    and ``ESC[r`` gives the whole screen back.
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
        _record(shadow, _cells(update, console))
        return update.render_segments(console)
    if (shadow.width, shadow.height) != (width, height):
        shadow.reset(width, height)
    color_system = console._color_system or ColorSystem.TRUECOLOR
    written = _cells(update, console)
    sequences: list[str] = []
    scroll = _find_scroll(written, shadow)
    if scroll is not None:
        sequences.append(_scroll(shadow, *scroll))
    pen = _Pen(color_system)
    for y, new in sorted(written.items()):
        if not 0 <= y < height:
            continue
        row = shadow.rows[y]
        changed = [x for x in sorted(new) if 0 <= x < width and (row[x] is None or row[x][:2] != new[x][:2])]
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


def _record(shadow: ScreenShadow, written: dict[int, dict[int, Cell]]) -> None:
    for y, cells in written.items():
        if 0 <= y < shadow.height:
            row = shadow.rows[y]
            for x, cell in cells.items():
                if 0 <= x < shadow.width:
                    row[x] = cell


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
