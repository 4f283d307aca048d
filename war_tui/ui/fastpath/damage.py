"""Send the terminal only the cells that really changed (bytes matter over SSH).

Textual repaints a widget by writing every cell of its region, even where the
terminal already shows the same character in the same style: each battle
rewrites the whole board, about 14 KB. ``ScreenShadow`` remembers what the
terminal shows, and ``minimal_update`` turns a compositor update into writes
of only the runs of cells that differ (short unchanged gaps are rewritten to
save a cursor move). A full-screen update (start, resize, another screen)
is always written whole and resets the shadow, so the shadow can't drift
from the terminal for long.

Private Textual and Rich names used here (checked by ``supported``): the update
classes of ``textual._compositor``, ``Strip._segments``, ``Style._link``,
``Console._color_system``; ``App._display`` is overridden in ``output.py``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import gt, is_not, sub
from typing import cast

from rich.cells import get_character_cell_size
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import ControlType
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

Cell = tuple[str, str]
"""A character (empty for the right half of a wide character) and the SGR codes the terminal shows it in.

Two cells look the same when character and codes match: Textual's styles also
carry metadata for the mouse (a cell's offset in its widget) that never
reaches the terminal, so comparing styles would count a moved bar as changed.
Every cell is interned (``_cell``): equal cells are the same object, so rows are
compared by identity a row at a time (``list ==`` and ``map(is_not, ...)``, in C),
without reading the cells themselves. That matters more than it looks: between
two frames the rest of the app evicts the shadow from the CPU's caches, and
comparing 3,000 cells by value costs a cache miss or two per cell. A cell made
after the intern table was emptied only looks changed: it is written again
once, never left out.
"""

CELL_TABLE_SIZE = 1 << 13
"""Distinct cells interned (a game shows a few thousand: characters by colours); emptied when full.

Kept small: at "max" speed every cache here fills to its bound, and this one alone held about 7 MB at 65,536."""
_CELLS: dict[Cell, Cell] = {}


def _cell(cell: Cell) -> Cell:
    """The one object for this cell."""
    found = _CELLS.get(cell)
    if found is None:
        if len(_CELLS) >= CELL_TABLE_SIZE:
            _CELLS.clear()
        found = _CELLS[cell] = cell
    return found


def _cell_run(cells) -> tuple[Cell, ...]:
    """Cells, interned."""
    if len(_CELLS) + len(cells) >= CELL_TABLE_SIZE:
        _CELLS.clear()
    setdefault = _CELLS.setdefault
    return tuple(map(setdefault, cells, cells))

MERGE_GAP = 4
"""Unchanged cells between two changed runs that are cheaper to rewrite than to jump over."""
SCROLL_MIN_ROWS = 3
"""A band of fewer full-width rows than this is never scrolled: a plain rewrite is as cheap."""
SCROLL_MAX = 4
"""The largest shift looked for: the log adds a line or two per frame."""
ScrollHint = tuple[int, int, int]
"""(top, bottom, n): rows top..bottom (inclusive) show what they showed n rows lower, moved up (a log)."""
SCROLL_PIECES = 4
"""Stretches a row is cut into to see, cheaply, whether a shift brings it anything (see ``_brings``)."""
RUN_COST = 10
"""Rough bytes to start a run of changed cells (a cursor move and a colour), against about one per cell."""
RUN_CACHE_SIZE = 1024
"""Segments whose cells are kept: most of a frame is the same text in the same colours as the last one."""

STRIP_CACHE_SIZE = 512
"""Strips whose cells are kept (a 100x30 board shows a few hundred; the cache is emptied when full)."""

_RUN_CELLS: dict[tuple[str, str], tuple[Cell, ...]] = {}
"""The cells of a single-width segment, by text and codes (emptied when full)."""
StripCells = tuple[tuple[Cell, ...], tuple[tuple[str, Style], ...]] | None
"""A strip's cells and its links' styles by their codes; ``None`` for a strip the slow path takes."""
_STRIP_CELLS: dict[tuple, StripCells] = {}
"""The cells of a strip and the styles of its links, by colour system and segments (emptied when full)."""


class ScreenShadow:
    """What the terminal shows, cell by cell; ``None`` where it is not known."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.rows: list[list[Cell | None]] = []
        self.unknown: set[int] = set()
        """Rows that may hold a cell not known (``None``); kept so the scroll search need not scan every row."""
        self.styles: dict[str, Style] = {}
        """The style of each link on screen, by its codes: a link is written again in Textual's own form."""

    def reset(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[None] * width for _ in range(height)]
        self.unknown = set(range(height))
        self.styles = {}

    def forget(self) -> None:
        """The terminal's content is unknown (say, after a resize): the next writes go out whole."""
        self.reset(self.width, self.height)


class _Written:
    """The cells one update writes: per row, a full-width list (None where it writes nothing) and its spans."""

    def __init__(self) -> None:
        self.rows: dict[int, list[Cell | None]] = {}
        self.spans: dict[int, list[tuple[int, int]]] = {}
        self.diffs: dict[int, list[int]] = {}
        """The columns a row changes, where already found (by the scroll search)."""

    def row(self, y: int, width: int) -> tuple[list[Cell | None], list[tuple[int, int]]]:
        """Row ``y`` of the update (blank where nothing is written yet) and its spans, made on first use."""
        row = self.rows.get(y)
        if row is None:
            row = self.rows[y] = [None] * width
            self.spans[y] = []
        return row, self.spans[y]


def _codes(style: Style | None, color_system) -> str:
    """The SGR parameters Textual writes for ``style`` in this terminal's colour system, and its link.

    Not ``style._ansi``: Textual keeps Style objects in process-wide caches, and the codes
    left on one by an app in another colour system (a test's, say) would be wrong here.
    """
    if style is None:
        return ""
    ansi = Strip.render_ansi(style, color_system)  # an lru_cache keyed by style and colour system
    return f"{ansi}|{style._link}" if style._link else ansi


@lru_cache(maxsize=4096)
def _single_width(text: str) -> bool:
    """Every character one cell wide (borders, suits, bars): the text can be laid down in one slice."""
    return all(get_character_cell_size(char) == 1 for char in text)


def _segment_cells(text: str, codes: str) -> tuple[Cell, ...]:
    """The cells of one segment's text, all in ``codes`` (a wide character's right half is an empty cell).

    A zero-width character joins the cell before it, within the segment; one that
    opens a segment has no cell here to join, so the caller handles those texts itself.
    """
    if text.isascii() or _single_width(text):
        cells = _RUN_CELLS.get((text, codes))
        if cells is None:
            if len(_RUN_CELLS) >= RUN_CACHE_SIZE:
                _RUN_CELLS.clear()
            pairs = tuple(zip(text, repeat(codes)))
            cells = _RUN_CELLS[text, codes] = _cell_run(pairs)
        return cells
    out: list[Cell] = []
    for char in text:
        size = get_character_cell_size(char)
        if size == 0:
            if out:
                out[-1] = (out[-1][0] + char, out[-1][1])
            continue
        out.append((char, codes))
        if size == 2:
            out.append(("", codes))
    return _cell_run(out)


class _StripsSeen:
    """The strip objects of this frame and the last, with their cells: most chops of a frame are the
    very strips of the last one (Textual keeps a row's cut pieces), found by identity before any hashing.

    Two frames' worth only: the strips are held (so an id stays theirs), and at "max" speed
    a longer memory would keep alive strips Textual has let go.
    """

    def __init__(self) -> None:
        self.now: dict[int, tuple[Strip, object, StripCells]] = {}
        self.before: dict[int, tuple[Strip, object, StripCells]] = {}

    def turn(self) -> None:
        """A new frame: what this one saw becomes the last one's."""
        self.before, self.now = self.now, self.before
        self.now.clear()


_SEEN = _StripsSeen()


def _strip_cells(strip: Strip, color_system) -> StripCells:
    """A strip's cells and the styles of its links (``None``: a strip for the slow path), kept by content.

    Textual builds new strip objects for a widget each frame (its lines with the
    mouse offsets applied), but mostly from the same segments as before, so the
    segments themselves are the key: most chops of a frame are found here and laid
    down with one slice instead of a walk over their segments. A strip object seen
    in the last frame is found before that, by identity (``_StripsSeen``).
    """
    now = _SEEN.now
    seen = now.get(id(strip)) or _SEEN.before.get(id(strip))
    if seen is not None and seen[0] is strip and seen[1] is color_system:
        now[id(strip)] = seen
        return seen[2]
    found = _strip_content_cells(strip, color_system)
    now[id(strip)] = (strip, color_system, found)
    return found


def _strip_content_cells(strip: Strip, color_system) -> StripCells:
    """``_strip_cells`` by the strip's segments."""
    key = (color_system, *strip._segments)
    try:
        return _STRIP_CELLS[key]
    except KeyError:
        pass
    cells: list[Cell] = []
    links: dict[str, Style] = {}
    result: StripCells
    for text, style, control in strip._segments:
        if control:
            result = None
            break
        if not text:
            continue
        codes = _codes(style, color_system)
        if style is not None and style._link:
            links[codes] = style
        if not (text.isascii() or _single_width(text)) and get_character_cell_size(text[0]) == 0:
            result = None  # joins a cell of the segment before: rare enough for the slow path
            break
        cells.extend(_segment_cells(text, codes))
    else:
        result = (tuple(cells), tuple(links.items()))
    if len(_STRIP_CELLS) >= STRIP_CACHE_SIZE:
        _STRIP_CELLS.clear()
    _STRIP_CELLS[key] = result
    return result


def _cells(update: CompositorUpdate, console: Console, shadow: ScreenShadow) -> _Written:
    """Every cell the update writes, by row and column (clipped to the shadow's screen)."""
    if isinstance(update, ChopsUpdate):
        return _chop_cells(update, console, shadow)
    if isinstance(update, LayoutUpdate):
        return _layout_cells(update, console, shadow)
    return _segments_cells(update, console, shadow)


def _layout_cells(update: LayoutUpdate, console: Console, shadow: ScreenShadow) -> _Written:
    """The cells of a region's repaint (a full screen at start, on a resize, for another screen): its strips side by side."""
    written = _Written()
    width, height = shadow.width, shadow.height
    styles = shadow.styles
    color_system = console._color_system or ColorSystem.TRUECOLOR
    for y, line in enumerate(update.strips, update.region.y):
        if not 0 <= y < height:
            continue
        row, spans = written.row(y, width)
        x = update.region.x
        for strip in line:
            _strip_into(strip, x, row, spans, width, styles, color_system)
            x += strip.cell_length
    return written


def _chop_cells(update: ChopsUpdate, console: Console, shadow: ScreenShadow) -> _Written:
    """The cells of a partial update, read from its chops as ``ChopsUpdate.render_segments`` writes them.

    Each chop the update touches goes out whole from its own x (a chop running past
    the dirty span is cut at the span's end), so a strip seen before costs a
    dictionary look-up and a slice, not a walk over its segments.
    """
    written = _Written()
    width, height = shadow.width, shadow.height
    styles = shadow.styles
    color_system = console._color_system or ColorSystem.TRUECOLOR
    chops, chop_ends = update.chops, update.chop_ends
    for y, x1, x2 in update.spans:
        if not 0 <= y < height:
            continue
        row, spans = written.row(y, width)
        for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
            if strip is None or x > x2 or end <= x1:
                continue
            _strip_into(strip, x, row, spans, width, styles, color_system, min(end, x2))
    return written


def _strip_into(strip: Strip, x: int, row: list[Cell | None], spans: list[tuple[int, int]], width: int, styles: dict[str, Style], color_system, end: int | None = None) -> None:
    """Lay a strip down in ``row`` from column ``x`` (up to column ``end``, if given): its cached cells in one slice,
    or segment by segment.

    A strip cut short keeps its cached cells, sliced, rather than being cropped into a
    new Strip first; only a cut through a wide character goes to Textual's crop.
    """
    found = _strip_cells(strip, color_system)
    if found is not None:
        cells, links = found
        stop = x + len(cells) if end is None else min(end, x + len(cells))
        if stop - x < len(cells) and stop > x and cells[stop - x][0] == "":
            found = None  # the cut falls inside a wide character
    if found is None:
        if end is not None and end - x < strip.cell_length:
            strip = strip.crop(0, end - x)
        _segments_into(strip, x, row, spans, width, styles, color_system)
        return
    if links:
        styles.update(links)
    stop = min(width, stop)
    if stop > x:
        row[x:stop] = cells if stop - x == len(cells) else cells[: stop - x]
        spans.append((x, stop))


def _segments_cells(update: CompositorUpdate, console: Console, shadow: ScreenShadow) -> _Written:
    """The cells of any update, from the segments it renders to (a full repaint; a strip the cache can't take)."""
    written = _Written()
    width, height = shadow.width, shadow.height
    color_system = console._color_system or ColorSystem.TRUECOLOR
    x = y = 0
    row: list[Cell | None] | None = None
    spans: list[tuple[int, int]] = []
    segments: list = []

    def flush() -> None:
        if row is not None and segments:
            _segments_into(segments, start_x, row, spans, width, shadow.styles, color_system)
        segments.clear()

    start_x = 0
    for segment in update.__rich_console__(console, console.options):  # type: ignore[attr-defined]  # each kind of update is a Rich renderable; the base class does not say so
        if segment.control:
            for control in segment.control:
                if control[0] == ControlType.CURSOR_MOVE_TO:
                    flush()
                    x, y = control[1], control[2]
                    start_x = x
                    if 0 <= y < height:
                        row, spans = written.row(y, width)
                    else:
                        row = None
            continue
        if segment.text != "\n":
            segments.append(segment)
    flush()
    return written


def _segments_into(segments, x: int, row: list[Cell | None], spans: list[tuple[int, int]], width: int, styles: dict[str, Style], color_system) -> None:
    """Lay segments down in ``row`` from column ``x``, one at a time."""
    for text, style, control in segments:
        if control or not text:
            continue
        codes = _codes(style, color_system)
        if style is not None and style._link and codes not in styles:
            styles[codes] = style
        start = x
        if text.isascii() or _single_width(text):
            end = min(width, x + len(text))
            if end > x:
                cells = _segment_cells(text, codes)
                row[x:end] = cells if end - x == len(cells) else cells[: end - x]
            x += len(text)
        else:
            for char in text:
                size = get_character_cell_size(char)
                if size == 0:
                    if 0 < x <= width and row[x - 1] is not None:
                        row[x - 1] = _cell((row[x - 1][0] + char, row[x - 1][1]))  # type: ignore[index]  # not None: checked above
                    continue
                if x < width:
                    row[x] = _cell((char, codes))
                    if size == 2 and x + 1 < width:
                        row[x + 1] = _cell(("", codes))
                x += size
        if min(x, width) > start:
            spans.append((start, min(x, width)))


def _changed(new: list[Cell | None], old: list[Cell | None], spans: list[tuple[int, int]]) -> list[int]:
    """The columns, in order, where ``new`` writes something the terminal does not show."""
    changed: list[int] = []
    for start, end in sorted(set(spans)):
        if new[start:end] != old[start:end]:
            changed.extend(compress(range(start, end), map(is_not, new[start:end], old[start:end])))
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
        while start > 0 and row[start] is not None and row[start][0] == "" and row[start - 1] is not None:  # type: ignore[index]  # checked in the same test
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

    def __init__(self, styles: dict[str, Style], color_system) -> None:
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


def _diffs(new: list[Cell], old: list[Cell]) -> list[int]:
    """The columns where two whole rows differ (a C-level comparison first: most rows are equal).

    Cells are interned, so a cell that is not the same object counts as changed.
    """
    if new == old:
        return []
    return list(compress(range(len(new)), map(is_not, new, old)))


def _diffs_cost(diffs: list[int]) -> int:
    """About how many bytes it takes to write the changed columns ``diffs`` of a row.

    Each changed cell costs one, and each run of changes more than ``MERGE_GAP`` cells
    after the last one costs ``RUN_COST`` more; counted with C-level iterators.
    """
    if not diffs:
        return 0
    jumps = sum(map(gt, map(sub, diffs[1:], diffs), repeat(MERGE_GAP + 1)))
    return len(diffs) + RUN_COST * (1 + jumps)


def _cost(new: list[Cell], old: list[Cell]) -> int:
    """About how many bytes it takes to turn ``old`` into ``new``."""
    return _diffs_cost(_diffs(new, old))


def _overlay(new: list[Cell | None], spans: list[tuple[int, int]], old: list[Cell]) -> list[Cell]:
    """The row as it is to look: what the update writes (in ``spans``), and what the terminal shows elsewhere."""
    if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(new):
        return new  # type: ignore[return-value]  # one span over the whole row: every cell written
    row = old[:]
    for start, end in spans:
        row[start:end] = new[start:end]  # type: ignore[assignment]  # in its spans the update writes every cell
    return row


def _brings(new: list[Cell], moved: list[Cell], pieces: list[int], step: int) -> bool:
    """Whether ``moved`` holds, in place, some stretch of ``new`` that changes (``pieces``: their indices).

    Rows are compared in stretches of ``step`` cells, each in C: a log line moved up
    is equal to its new place whole, or all but the stretch a scrollbar crosses.
    """
    if new == moved:
        return True
    for piece in pieces:
        start = piece * step
        if new[start : start + step] == moved[start : start + step]:
            return True
    return False


def _find_scroll(written: _Written, shadow: ScreenShadow, hint: ScrollHint | None = None) -> tuple[int, int, int] | None:  # noqa: C901 - the fast path's scroll finder, quarantined with Textual's private names
    """(top, bottom, n): rows top..bottom (inclusive) are to show what rows top+n..bottom showed, scrolled up.

    Rows the terminal is known to show whole take part, whatever part of them the
    update writes: the rest of such a row must still show what it showed, so when
    a scroll is chosen those rows are put in ``written`` whole (the update's cells
    over the old ones) and anything the scroll moved there is written back. A
    scroll is chosen when it saves at least a row's worth of writing over updating in place.

    This runs on every frame, so it is cheap when there is nothing to find: a band
    whose changes are too small to pay for a scroll is skipped, and a shift by n is
    only costed when the changing rows it brings a stretch of what they are to show
    (``_brings``: slices compared in C) would save enough if written for free, and
    then only from the first such row to n rows past the last. The log moves its
    lines by whole rows, so its scroll always has such rows; a shift that would
    only bring rows that look a bit alike, a cell here and there, is not looked for.

    The columns each band row changes in place are kept in ``written.diffs``: the
    rows the scroll leaves alone need not be compared again.

    With a ``hint`` (the app knows its log moved n rows up), only those rows and that
    shift are looked at: the rest of the board is compared span by span as usual. The
    hint only narrows the search; a scroll is still chosen only for what it saves.
    """
    width = shadow.width
    old = cast("list[list[Cell]]", shadow.rows)  # the rows looked at are not in shadow.unknown: all cells known
    if len(written.rows) < SCROLL_MIN_ROWS:
        return None
    bands: list[list[int]] = []
    unknown = shadow.unknown
    shifts = range(1, SCROLL_MAX + 1)
    low, high = 0, shadow.height - 1
    if hint is not None:
        low, high, shift = hint
        shifts = range(shift, shift + 1)
    for y in sorted(written.rows):
        if y in unknown or not low <= y <= high:
            continue
        if bands and y == bands[-1][-1] + 1:
            bands[-1].append(y)
        else:
            bands.append([y])
    best: tuple[int, int, int] | None = None
    best_saving = width
    full = width + RUN_COST  # the cost of a row come in blank, written whole
    step = -(-width // SCROLL_PIECES)
    targets: dict[int, list[Cell]] = {}
    for band in bands:
        if len(band) < SCROLL_MIN_ROWS:
            continue
        rows = [_overlay(written.rows[y], written.spans[y], old[y]) for y in band]
        olds = [old[y] for y in band]
        diffs = [_diffs(row, was) for row, was in zip(rows, olds)]
        targets.update(zip(band, rows))
        written.diffs.update(zip(band, diffs))
        in_place = [_diffs_cost(columns) for columns in diffs]
        if sum(in_place) <= best_saving:
            continue  # nothing a scroll could save
        size = len(band)
        changing = [(i, sorted({column // step for column in columns})) for i, columns in enumerate(diffs) if columns]
        blanks = None
        for n in shifts:
            if n > size - 1:
                break
            # At most, the changing rows it brings something to are written for free.
            bringing = [i for i, pieces in changing if i + n < size and _brings(rows[i], olds[i + n], pieces, step)]
            if sum(in_place[i] for i in bringing) - 2 * RUN_COST <= best_saving:
                continue
            if blanks is None:
                # blanks[i] is the sum of in_place - full over the band's first i rows.
                blanks = [0]
                for cost in in_place:
                    blanks.append(blanks[-1] + cost - full)
            # A sub-band top..bottom (first <= top, bottom <= last) scrolls by n: row i then starts
            # from what row i+n showed (saving moved[i - first]), and the last n rows come in blank
            # (written whole). For each bottom the best top is the one with the least moved before it.
            first, last = bringing[0], min(bringing[-1] + n, size - 1)
            moved = [in_place[i] - _cost(rows[i], olds[i + n]) for i in range(first, last - n + 1)]
            before = [0]
            for saving in moved:
                before.append(before[-1] + saving)
            least, least_index = 0, 0
            for bottom in range(first + n, last + 1):
                top_limit = bottom - n - first
                if before[top_limit] < least:
                    least, least_index = before[top_limit], top_limit
                blank = blanks[bottom + 1] - blanks[bottom + 1 - n]
                total = before[top_limit + 1] - least + blank - 2 * RUN_COST
                if total > best_saving:
                    best, best_saving = (band[first + least_index], band[bottom], n), total
    if best is not None:
        top, bottom, _ = best
        for y in range(top, bottom + 1):
            written.rows[y] = targets[y]  # type: ignore[assignment]  # list[Cell] into list[Cell | None]: a whole row
            written.spans[y] = [(0, width)]
            written.diffs.pop(y, None)  # the scroll changes what the terminal shows there
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
    unknown = shadow.unknown
    moved = {y - n for y in unknown if top + n <= y <= bottom}
    unknown.difference_update(range(top, bottom + 1))
    unknown.update(moved, range(bottom + 1 - n, bottom + 1))
    return f"\x1b[{top + 1};{bottom + 1}r\x1b[{bottom + 1};1H" + "\x1bD" * n + "\x1b[r"


def minimal_update(  # noqa: C901 - the fast path's diff, quarantined with Textual's private names
    update: CompositorUpdate,
    shadow: ScreenShadow,
    console: Console,
    size: tuple[int, int],
    scroll_hint: ScrollHint | None = None,
) -> str:
    """The terminal sequence that makes the screen what ``update`` would, writing only changed cells.

    ``scroll_hint``: rows known to have moved up together (see ``_find_scroll``).
    """
    _SEEN.turn()
    width, height = size
    if isinstance(update, LayoutUpdate) and update.region.size == (width, height) and update.region.offset == (0, 0):
        # A full repaint: written whole, and from now on the shadow is exactly this frame.
        shadow.reset(width, height)
        written = _cells(update, console, shadow)
        for y, row in written.rows.items():
            shadow.rows[y] = row
            if None not in row:
                shadow.unknown.discard(y)
        return update.render_segments(console)
    if (shadow.width, shadow.height) != (width, height):
        shadow.reset(width, height)
    written = _cells(update, console, shadow)
    sequences: list[str] = []
    scroll = _find_scroll(written, shadow, scroll_hint)
    if scroll is not None:
        sequences.append(_scroll(shadow, *scroll))
    pen = _Pen(shadow.styles, console._color_system or ColorSystem.TRUECOLOR)
    for y in sorted(written.rows):
        new = written.rows[y]
        row = shadow.rows[y]
        changed = written.diffs.get(y)
        if changed is None:
            changed = _changed(new, row, written.spans[y])
        if not changed:
            continue
        for x in changed:
            row[x] = new[x]
        if y in shadow.unknown and None not in row:
            shadow.unknown.discard(y)
        for start, end in _runs(changed, row):
            # A run that ends on the left half of a wide character takes its right half too.
            if end < width and row[end] is not None and row[end][0] == "":  # type: ignore[index]  # checked in the same test
                end += 1
            sequences.append(f"\x1b[{y + 1};{start + 1}H")
            pen.write(sequences, row[start:end])
    pen.finish(sequences)
    return "".join(sequences)


def supported() -> bool:
    """Whether the installed Textual and Rich still have every private name this module reads."""
    from rich.console import Console as RichConsole

    return (
        all(hasattr(ChopsUpdate, name) for name in ("render_segments", "__rich_console__"))
        and hasattr(LayoutUpdate, "render_segments")
        and "_segments" in Strip.__slots__
        and hasattr(Style(), "_link")
        and hasattr(RichConsole(), "_color_system")
        and callable(getattr(Strip, "render_ansi", None))
        and callable(getattr(Strip, "render_style", None))
        and _update_fields_present()
    )


def _update_fields_present() -> bool:
    """The fields of the compositor's updates that ``_chop_cells`` and ``_layout_cells`` read."""
    import inspect

    chops = inspect.signature(ChopsUpdate.__init__).parameters
    layout = inspect.signature(LayoutUpdate.__init__).parameters
    return {"chops", "spans", "chop_ends"} <= set(chops) and {"strips", "region"} <= set(layout)


class MinimalUpdate(CompositorUpdate):
    """A compositor update that writes itself through a ``ScreenShadow``."""

    def __init__(
        self, update: CompositorUpdate, shadow: ScreenShadow, size: tuple[int, int], scroll_hint: ScrollHint | None = None
    ) -> None:
        self.update = update
        self.shadow = shadow
        self.size = size
        self.scroll_hint = scroll_hint

    def __rich_console__(self, console, options):
        yield from self.update.__rich_console__(console, options)

    def render_segments(self, console: Console) -> str:
        return minimal_update(self.update, self.shadow, console, self.size, self.scroll_hint)
