"""A terminal emulator, an app that feeds each frame both ways into two of them (as Textual writes it and as
the app writes it), and a screen drawn as a first frame would draw it."""

from __future__ import annotations

import gc
import re
from collections.abc import Callable

import pytest
from rich.cells import get_character_cell_size
from rich.style import Style
from textual.strip import Strip
from war_ui_support import make_app

from war_tui.ui.app import WarApp
from war_tui.ui.fastpath.damage import CompositorUpdate

_SEQUENCE = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])|\x1b(D)|([^\x1b]+)")


@pytest.fixture(autouse=True)
def fresh_escape_codes():
    """Each test starts as a new process would: no escape codes left on styles or strips by earlier apps.

    Rich and Textual keep a style's SGR codes on the Style object (``_ansi``) and a
    strip's rendered text on the Strip, and Textual shares Style objects between apps
    in process-wide caches; an earlier test's app in another colour system (NO_COLOR,
    a screenshot) would leave codes that Textual's reference output here reuses.
    """
    for thing in gc.get_objects():
        if isinstance(thing, Style):
            thing._ansi = None
        elif isinstance(thing, Strip):
            thing._render_cache = None
    yield


class Emulator:
    """Enough of a terminal for Textual's output and ours: cursor moves, SGR colours, text, and
    scrolling a region (DECSTBM ``ESC[t;br``, IND ``ESC D`` at its bottom margin, SU ``ESC[nS``).

    Blank lines scrolled in take the current background, as terminals with
    "background colour erase" do: a writer that scrolls with a colour set is caught.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[(" ", "")] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr = ""
        self.top, self.bottom = 0, height - 1
        self.scrolls = 0

    def feed(self, data: str) -> None:
        for params, command, index, text in _SEQUENCE.findall(data):
            if command == "H":
                row, col = (params.split(";") + ["1", "1"])[:2] if params else ("1", "1")
                self.y, self.x = int(row or 1) - 1, int(col or 1) - 1
            elif command == "m":
                self._sgr(params)
            elif command == "r":
                top, bottom = (params.split(";") + ["", ""])[:2] if params else ("", "")
                self.top, self.bottom = int(top or 1) - 1, int(bottom or self.height) - 1
                assert 0 <= self.top < self.bottom < self.height, f"bad scrolling region {params!r}"
                self.x = self.y = 0
            elif command == "S":
                for _ in range(int(params or 1)):
                    self._scroll_up()
            elif index:
                if self.y == self.bottom:
                    self._scroll_up()
                else:
                    self.y = min(self.y + 1, self.height - 1)
            elif text:
                for char in text:
                    if char in "\r\n":
                        continue
                    size = get_character_cell_size(char)
                    if 0 <= self.y < self.height and 0 <= self.x < self.width:
                        self.cells[self.y][self.x] = (char, self.sgr)
                        if size == 2 and self.x + 1 < self.width:
                            self.cells[self.y][self.x + 1] = ("", self.sgr)
                    self.x += size

    def _sgr(self, params: str) -> None:
        """The pen as the parameters that set it from the default: ``0;1;31`` and ``1;31`` after a reset agree."""
        codes = params.split(";") if params else ["0"]
        if codes[0] in ("", "0"):
            self.sgr, codes = "", codes[1:]
        if codes:
            self.sgr = ";".join(([self.sgr] if self.sgr else []) + codes)

    def _scroll_up(self) -> None:
        self.scrolls += 1
        blank = (" ", f"erased with {self.sgr}" if self.sgr else "")  # matches nothing Textual draws
        del self.cells[self.top]
        self.cells.insert(self.bottom, [blank] * self.width)


class RecordingApp(WarApp):
    """Feeds every frame, both ways, into two emulators (headless, so the driver itself writes nothing)."""

    textual_screen: Emulator | None = None
    written_screen: Emulator | None = None
    textual_bytes = written_bytes = frames = 0

    def _display(self, screen, renderable) -> None:
        if isinstance(renderable, CompositorUpdate):
            size = (self.size.width, self.size.height)
            if self.textual_screen is None or (self.textual_screen.width, self.textual_screen.height) != size:
                self.textual_screen, self.written_screen = Emulator(*size), Emulator(*size)
            assert self.written_screen is not None
            full = renderable.render_segments(self.console)
            minimal = self.frame_for_terminal(renderable).render_segments(self.console)
            self.textual_screen.feed(full)
            self.written_screen.feed(minimal)
            self.textual_bytes += len(full.encode())
            self.written_bytes += len(minimal.encode())
            self.frames += 1
        super()._display(screen, renderable)


def recording_app(kind: type[RecordingApp] = RecordingApp, **changes) -> RecordingApp:
    app = make_app(**changes)
    app.__class__ = kind  # same state, same settings; only the frames are recorded
    return app  # type: ignore[return-value]  # its class was swapped just above


def drawn_from_nothing(app: WarApp) -> Emulator:
    """The screen as a first frame would draw it: every widget's kept rows set aside (Textual's styled
    rows, a LineWidget's drawn rows and styles, the log's finished lines), then put back, so the app
    goes on with its caches as they were."""
    from textual._compositor import LayoutUpdate
    from textual._styles_cache import StylesCache
    from textual.cache import LRUCache
    from textual.widget import Widget

    empty: dict[str, Callable[[], object]] = {"_drawn_for": lambda: None, "_styles_by_name": lambda: None, "_styles": lambda: None, "_finished": lambda: LRUCache(16), "_styled": lambda: LRUCache(16)}
    saved = []
    compositor = app.screen._compositor
    dirty = set(compositor._dirty_regions)
    for widget in app.screen.walk_children(Widget, with_self=True):
        kept = {name: widget.__dict__[name] for name in empty if name in widget.__dict__}
        saved.append((widget, widget._styles_cache, kept))
        widget._styles_cache = StylesCache()
        for name in kept:
            widget.__dict__[name] = empty[name]()
    try:
        screen = Emulator(app.size.width, app.size.height)
        update = compositor.render_update(full=True)
        assert isinstance(update, LayoutUpdate)  # a full update is the whole screen's
        screen.feed(update.render_segments(app.console))
    finally:
        for widget, styles_cache, kept in saved:
            widget._styles_cache = styles_cache
            widget.__dict__.update(kept)
        compositor._dirty_regions.update(dirty)
    return screen
