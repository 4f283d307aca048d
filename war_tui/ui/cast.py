"""A replay as an asciicast v2 recording (``war-tui export --format cast``), playable by asciinema.

The real replay screen draws every frame, off any terminal: a driver that keeps what Textual writes
instead of sending it anywhere, and the screen placed at each moment of playing (``ReplayScreen.show``:
each battle, each step of a war) rather than left to its timers. Each frame is stamped with the time it
would show at the chosen speed, so a game of 2,000 battles is written in seconds and plays for minutes.

asciicast v2 (docs.asciinema.org/manual/asciicast/v2): newline-delimited JSON, a header object
(``version`` 2, ``width``, ``height``, then ``duration``, ``title``, ``env``), then one ``[time, "o", text]``
array a frame, ``time`` in seconds from the start. ``war-tui export`` raises Textual's screen updates
to 1,000 a second (``TEXTUAL_FPS``, read when Textual loads), so each frame is drawn at once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any, TextIO

from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver

from ..stats.replay import Replay
from ..untrusted import plain_text
from .replay_app import ReplayApp
from .screens.replay import STEP_SECONDS, ReplayScreen

HIDE_CURSOR = "\x1b[?25l"
SHOW_CURSOR = "\x1b[?25h"
ENVIRONMENT = {"LANG": "C.UTF-8", "TERM": "xterm-256color"}


class RecordingDriver(HeadlessDriver):
    """Textual's own frames, kept: the app renders as for a terminal, and nothing reaches one."""

    def __init__(self, app: App[object], **options: Any) -> None:
        super().__init__(app, **options)
        self.written: list[str] = []
        if isinstance(app, RecordingApp):
            app.recorder = self

    @property
    def is_headless(self) -> bool:
        return False  # so the app writes each frame (to ``write``)

    def write(self, data: str) -> None:
        self.written.append(data)

    def take(self) -> str:
        """What was written since the last take."""
        text = "".join(self.written)
        self.written.clear()
        return text


class RecordingApp(ReplayApp):
    """The replay app, drawn for a recording: its screen placed by the recorder, its frames kept."""

    def __init__(self, replay: Replay, names: tuple[str, str], speed: int, *, ascii: bool = False,
                 game_id: int | str | None = None) -> None:
        super().__init__(replay, names, ascii=ascii, environ=ENVIRONMENT, game_id=game_id)
        self.driver_class = RecordingDriver
        self.speed = speed
        self.recorder: RecordingDriver | None = None
        """The driver, once the app has made it."""

    def get_default_screen(self) -> ReplayScreen:
        screen = ReplayScreen(self.replay, self.names, self.glyphs, game_id=self.game_id)
        screen.driven = True
        return screen


def moments(replay: Replay, speed: int) -> list[tuple[float, int, int | None]]:
    """When each state shows while playing at ``speed``: (seconds, battle, war steps laid or None)."""
    from ..presentation.views import battle_view

    step, beat = STEP_SECONDS / speed, 1 / speed
    at = 0.0
    shown: list[tuple[float, int, int | None]] = []
    war_cards = replay.rules.war_cards
    for played in replay.played():
        view = battle_view(played.event, war_cards, played.total_wars)
        stages = view.stages if view is not None else 1
        for laid in range(1, stages):
            shown.append((at, played.battle, laid))
            at += step
        shown.append((at, played.battle, None))
        at += beat
    return shown


FRAME_WAIT = 10.0
"""Seconds a moment waits at most for the screen to draw it (each moment changes the screen: a battle's
number, a war's step), so a loaded machine delays the recording and never merges its frames."""
QUIET = 0.003
"""Seconds with nothing more written that end a frame."""


async def drawn(driver: RecordingDriver) -> str:
    """What the screen writes for the state just placed: waits for the screen's next update (its timer,
    ``TEXTUAL_FPS`` a second), then until the writing stops."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + FRAME_WAIT
    while not driver.written and loop.time() < deadline:
        await asyncio.sleep(0.001)
    while driver.written:
        written = len(driver.written)
        await asyncio.sleep(QUIET)
        if len(driver.written) == written:
            break
    return driver.take()


async def frames(app: RecordingApp, size: tuple[int, int]) -> AsyncIterator[tuple[float, str]]:
    """Each frame the replay draws, stamped with when it shows: the first, battle 1, at 0."""
    async with app.run_test(headless=False, size=size) as pilot:
        driver = app.recorder
        assert driver is not None
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause()
        screen = app.screen
        screen.speed = app.speed
        screen.playing = True
        await pilot.pause()
        yield 0.0, driver.take()
        seconds = 0.0
        for seconds, battle, steps in moments(app.replay, app.speed):
            if (battle, steps) == (screen.at, screen.shown_steps):
                continue  # on show already (battle 1, as the screen opens)
            screen.show(battle, steps)
            frame = await drawn(driver)
            if frame:
                yield seconds, frame
        screen.playing = False  # the end of the game, as the screen says it once playing reaches it
        await pilot.pause()  # this frame and anything still being written, whatever the machine's load
        yield seconds + 1 / app.speed, driver.take()


async def write_cast(replay: Replay, names: tuple[str, str], out: TextIO, *, speed: int = 1,
                     size: tuple[int, int] = (80, 24), ascii: bool = False, game_id: int | str | None = None,
                     progress: Callable[[int], None] | None = None) -> int:
    """The replay at ``speed`` and ``size`` as asciicast v2 on ``out``; returns the frames written."""
    schedule = moments(replay, speed)
    duration = schedule[-1][0] + 1 / speed if schedule else 0.0
    header = {
        "version": 2, "width": size[0], "height": size[1], "duration": round(duration, 6),
        "title": " ".join(plain_text(
            f"war-tui replay: {names[0]} v {names[1]}, seed {replay.seed}, {replay.rules.describe()}"
        ).split()),  # a player's asciinema shows it as a line of text: no control character, no line break
        "env": {"TERM": ENVIRONMENT["TERM"]},
    }
    out.write(json.dumps(header) + "\n")
    count = 0
    last = 0.0
    async for seconds, text in frames(RecordingApp(replay, names, speed, ascii=ascii, game_id=game_id), size):
        out.write(json.dumps([round(seconds, 6), "o", (HIDE_CURSOR if count == 0 else "") + text]) + "\n")
        count += 1
        last = seconds
        if progress is not None:
            progress(count)
    out.write(json.dumps([round(max(last, duration), 6), "o", SHOW_CURSOR]) + "\n")
    return count
