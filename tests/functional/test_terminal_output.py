"""Only changed cells go to the terminal, and the terminal still shows exactly what Textual drew.

Each frame the app hands to its driver is written twice into a small terminal
emulator: once as Textual would write it (every cell of every dirty region),
once as the app really writes it (through ``war_tui.ui.fastpath.damage`` when the
fast path is on, Textual's own output when it is off). The two screens must
match cell for cell, in character and colour, after every key; the byte
savings are checked only with the fast path on.
"""

from __future__ import annotations

import operator

import pytest
from rich.style import Style
from terminal_recording import (
    Emulator,
    RecordingApp,
    drawn_from_nothing,
    fresh_escape_codes,  # noqa: F401  # autouse: no escape codes cached by earlier apps
    recording_app,
)
from textual.strip import Strip
from war_ui_support import WAR_PACKETS

from war_tui.ui.fastpath import damage, probe

pytestmark = [pytest.mark.app, pytest.mark.terminal]  # see pyproject.toml's markers



@pytest.fixture
def fast_only():
    """For a test of what the fast path saves: skipped where it is off (its public-API variant)."""
    if not probe().shadow_terminal:
        pytest.skip("the fast path is off (WAR_TUI_FASTPATH=0): Textual writes every cell")

SHORT_GAME_OF_WARS = 3181  # over in 26 battles, 5 of them wars (the last one too): the log fills and scrolls

async def play(app: RecordingApp, keys: list[str], size: tuple[int, int], bytes_after: int = 0) -> int:
    """Press the keys, checking the screen after each; the bytes written after the first ``bytes_after`` keys."""
    start = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for index, key in enumerate(keys):
            if index == bytes_after:
                start = app.written_bytes
            await pilot.press(key)
            await pilot.pause()
            assert app.written_screen is not None and app.textual_screen is not None
            assert app.written_screen.cells == app.textual_screen.cells
    return app.written_bytes - start


async def test_flipping_battles_writes_fewer_bytes_and_the_same_screen():
    app = recording_app(names=("Alice", "Bob"))
    await play(app, ["space"] * 20, (100, 30))
    assert app.frames > 20
    # Under a third of Textual's bytes with the fast path on; Textual's own output without it.
    assert (app.written_bytes < app.textual_bytes / 3) == probe().shadow_terminal, (app.written_bytes, app.textual_bytes)


def test_the_probe_follows_the_environment():
    assert not probe({"WAR_TUI_FASTPATH": "0"}).any
    assert probe({"WAR_TUI_FASTPATH": "1"}).shadow_terminal  # the installed Textual has what it needs


@pytest.mark.usefixtures("fast_only")
async def test_the_full_log_scrolls_in_the_terminal_instead_of_being_rewritten(monkeypatch):
    """Once the log is full each battle moves its lines up one: the terminal scrolls them (a region),
    and only the new line, and what really changed, is written. The screen stays exact, in the
    full layout and in the compact one (a log without a border), and far fewer bytes go out than
    when the same battles are written without scrolling."""
    # The compact log's lines are short and alike, so there scrolling saves less.
    for size, battles, share in (((100, 30), 30, 0.7), ((48, 14), 24, 0.9)):
        app = recording_app(names=("Alice", "Bob"))
        scrolled = await play(app, ["space"] * battles, size, bytes_after=15)  # the log is full by then
        assert app.written_screen is not None
        assert app.written_screen.scrolls >= battles // 2
        with monkeypatch.context() as patch:
            patch.setattr(damage, "SCROLL_MIN_ROWS", 10_000)
            plain = recording_app(names=("Alice", "Bob"))
            unscrolled = await play(plain, ["space"] * battles, size, bytes_after=15)
        assert plain.written_screen is not None and plain.written_screen.scrolls == 0
        assert scrolled < share * unscrolled


async def test_a_war_the_result_help_and_a_new_deal_look_the_same_as_textual_draws_them():
    app = recording_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    await play(app, ["space", "space", "escape", "question_mark", "question_mark", "r", "space", "a", "a"], (80, 24))


async def test_resizing_to_too_small_and_back_repaints_whole():
    app = recording_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        for size in [(30, 8), (100, 30), (60, 20)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.press("space")
            await pilot.pause()
            assert app.written_screen is not None and app.textual_screen is not None
            assert (app.written_screen.width, app.written_screen.height) == size
            assert app.written_screen.cells == app.textual_screen.cells


def _frame(lines: list[tuple[int, str]], width: int) -> damage.ChopsUpdate:
    """A partial update writing whole rows (y, text), as the compositor hands them over."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    style = Style(color="white", bgcolor="black")
    chops: list[dict[int, Strip | None]] = [{} for _ in range(max(y for y, _ in lines) + 1)]
    ends: list[list[int]] = [[] for _ in chops]
    for y, text in lines:
        chops[y] = {0: Strip([Segment(text.ljust(width), style)], width)}
        ends[y] = [width]
    return damage.ChopsUpdate(chops, [(y, 0, width) for y, _ in lines], ends)


def _write(frames, width: int, height: int, hints=None) -> tuple[Emulator, list[str]]:
    from rich.console import Console

    console = Console(color_system="truecolor", force_terminal=True, width=width, height=height)
    shadow, screen, out = damage.ScreenShadow(), Emulator(width, height), []
    shadow.reset(width, height)
    for frame, hint in zip(frames, hints or [None] * len(frames)):
        data = damage.minimal_update(frame, shadow, console, (width, height), hint)
        screen.feed(data)
        out.append(data)
    return screen, out


_CARDS = ["7♠", "K♥", "2♦", "T♣", "A♠", "9♥", "4♦"]


def _log_rows(first: int, count: int, bar: range) -> list[tuple[int, str]]:
    """A bordered log of lines first.. (its last column a scrollbar, ``#`` on its lines in ``bar``)."""
    rows = [(0, "+" + "-" * 38 + "+")]
    for index in range(count):
        number = first + index
        text = f"| {number:3} {_CARDS[number % 7]} v {_CARDS[number * 3 % 7]}: {('Alice', 'Bob')[number % 2]} takes"
        rows.append((index + 1, text.ljust(38) + ("#" if index in bar else " ") + "|"))
    rows.append((count + 1, "+" + "-" * 38 + "+"))
    return rows


def test_a_log_moved_up_one_row_is_scrolled_even_when_its_scrollbar_appears(monkeypatch):
    """Every line of the log moves up one row, and a scrollbar appears in its last column (as when the
    log first overflows): no row is what the row below it showed, yet the terminal scrolls and gets
    only the new line and the bar."""
    width, height = 40, 12
    frames = [_frame(_log_rows(1, 10, bar=range(0)), width), _frame(_log_rows(2, 10, bar=range(10)), width)]
    screen, out = _write(frames, width, height)
    assert "\x1b[2;11r" in out[1] and "\x1bD" in out[1]
    assert screen.scrolls == 1
    expected = [text.ljust(width) for _, text in _log_rows(2, 10, bar=range(10))]
    assert ["".join(char for char, _ in row) for row in screen.cells[:12]] == expected
    monkeypatch.setattr(damage, "SCROLL_MIN_ROWS", 10_000)
    unscrolled, plain = _write(frames, width, height)
    assert unscrolled.cells == screen.cells and unscrolled.scrolls == 0
    assert len(out[1]) < len(plain[1]) / 2


@pytest.mark.parametrize(
    "hint, scrolled",
    [
        ((1, 10, 1), True),  # where the log's lines are, moved up one: scrolled, as found unaided
        ((1, 10, 2), False),  # a wrong shift: nothing to save, so no scroll
        ((11, 11, 1), False),  # rows the log is not on: nothing there to scroll
    ],
)
def test_a_scroll_hint_narrows_the_search_but_never_changes_what_the_screen_shows(hint, scrolled):
    width, height = 40, 12
    frames = [_frame(_log_rows(1, 10, bar=range(0)), width), _frame(_log_rows(2, 10, bar=range(10)), width)]
    unaided, _ = _write(frames, width, height)
    screen, out = _write(frames, width, height, hints=[None, hint])
    assert screen.cells == unaided.cells
    assert screen.scrolls == (1 if scrolled else 0)
    assert ("\x1bD" in out[1]) == scrolled


def test_a_frame_that_changes_a_few_cells_writes_only_them_without_a_scroll():
    width, height = 40, 12
    before = _log_rows(1, 10, bar=range(3))
    after = list(before)
    after[3] = (3, before[3][1].replace("Bob", "Ann"))
    screen, out = _write([_frame(before, width), _frame(after, width)], width, height)
    assert screen.scrolls == 0
    assert out[1] == "\x1b[4;16H\x1b[0;37;40mAnn\x1b[0m"  # "Bob" became "Ann": three cells
    assert "".join(char for char, _ in screen.cells[3]) == after[3][1].ljust(width)


async def test_battle_after_battle_the_terminal_shows_what_a_first_frame_would(monkeypatch):
    """Rows are kept at every level (a widget's styled rows, the log's lines, the terminal's cells);
    none of them may go stale: after every battle of a game with wars, and at its end, the terminal
    shows exactly the screen drawn from nothing, and after the next deal too."""
    from textual import constants

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "truecolor")
    app = recording_app(names=("Alice", "Bob"), seed=SHORT_GAME_OF_WARS)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        wars, ended = 0, False
        for _ in range(30):  # 26 battles, the result, a new deal and two battles of it
            await pilot.press("space")
            await pilot.pause()
            game = app.controller.game
            wars, ended = max(wars, game.wars), ended or game.over
            assert app.written_screen.cells == drawn_from_nothing(app).cells, f"battle {game.battles}"
        assert wars >= 3 and ended and app.controller.game_number == 2


async def test_battles_played_under_the_help_screen_show_once_it_closes(monkeypatch):
    """Battles played under another screen reach the board's widgets at once; the board shows the
    latest battle when it is back, exactly as a first frame would draw it."""
    from textual import constants

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "truecolor")
    app = recording_app(names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.press("question_mark")
        for _ in range(3):
            await pilot.press("space")  # keys work on the help screen
        await pilot.pause()
        assert app.controller.game.battles == 4
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Battle 4" in "".join(char for char, _ in app.written_screen.cells[1])
        assert app.written_screen.cells == drawn_from_nothing(app).cells


async def test_after_battles_and_a_theme_change_the_terminal_shows_what_a_fresh_render_shows(monkeypatch):
    """Widgets keep their drawn rows and component styles between battles; a theme change must
    still reach every one of them, the screen's background and the footer included. The
    reference is the whole screen drawn from nothing: every widget's cached rows thrown away."""
    from textual import constants

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "truecolor")  # every theme colour tells
    app = recording_app(names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            await pilot.press("space")
            await pilot.pause()
        before = [row[:] for row in app.written_screen.cells]
        app.theme = "gruvbox"
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert app.written_screen.cells == drawn_from_nothing(app).cells
        after = app.written_screen.cells
        assert all(sum(map(operator.ne, after[y], before[y])) > 30 for y in range(30))  # the new theme shows


@pytest.mark.parametrize("span_end", range(1, 9))
def test_a_chop_running_past_its_span_is_cut_where_textual_cuts_it(span_end):
    """A dirty span can end inside a chop (a widget's row): the cells past the span's end are not
    written, and a cut through a wide character comes out as Textual's own crop makes it."""
    from rich.console import Console
    from rich.segment import Segment

    width = 10
    style = Style(color="white", bgcolor="black")
    strip = Strip([Segment("ab漢c", style), Segment("d漢ef", Style(color="red", bgcolor="black"))])
    update = damage.ChopsUpdate([{0: strip}], [(0, 0, span_end)], [[width]])
    console = Console(color_system="truecolor", force_terminal=True, width=width, height=1)
    textual, ours = Emulator(width, 1), Emulator(width, 1)
    textual.feed(update.render_segments(console))
    shadow = damage.ScreenShadow()
    shadow.reset(width, 1)
    ours.feed(damage.minimal_update(update, shadow, console, (width, 1)))
    assert ours.cells == textual.cells
    assert all(cell == (" ", "") for cell in ours.cells[0][span_end + 1 :])  # nothing past the span


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (48, 14)])
async def test_after_a_resize_the_winners_subtitle_takes_the_form_for_the_new_width(monkeypatch, size):
    """A packet's winner subtitle ("25 → 26 (+1)") has a shorter form for narrow packets; after a
    resize the screen must show the form for the new width, not the old one cut short."""
    from textual import constants

    monkeypatch.setattr(constants, "COLOR_SYSTEM", "truecolor")
    app = recording_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
        assert app.written_screen.cells == drawn_from_nothing(app).cells


class FirstFrameApp(RecordingApp):
    """Keeps the bottom row of the first frame the terminal got."""

    first_bottom_row: str | None = None

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        if self.first_bottom_row is None and self.written_screen is not None:
            self.first_bottom_row = "".join(char for char, _ in self.written_screen.cells[-1]).rstrip()


async def test_the_first_frame_already_shows_the_keys():
    """A newcomer's first board is whole: its footer's keys come with it, not a frame later."""
    app = recording_app(FirstFrameApp)
    assert isinstance(app, FirstFrameApp)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
    assert app.first_bottom_row is not None and "space Flip" in app.first_bottom_row
    assert app.first_bottom_row.endswith("^p palette")
