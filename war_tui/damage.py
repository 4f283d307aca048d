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
    if style is None:
        return ""
    return f"{style._make_ansi_codes(color_system)}|{style.link or ''}"


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


def _render_run(cells: list[Cell | None], color_system) -> str:  # noqa: ANN001
    out: list[str] = []
    text: list[str] = []
    current: Style | None = None
    current_codes: str | None = None
    render = Strip.render_style

    def flush() -> None:
        if text:
            chunk = "".join(text)
            out.append(chunk if current is None else render(current, chunk, color_system=color_system))
            text.clear()

    for cell in cells:
        assert cell is not None
        char, codes, style = cell
        if codes != current_codes:
            flush()
            current, current_codes = style, codes
        text.append(char)
    flush()
    return "".join(out)


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
    sequences: list[str] = []
    for y, new in sorted(_cells(update, console).items()):
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
            sequences.append(_render_run(row[start:end], color_system))
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
