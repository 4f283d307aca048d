"""Regenerate screenshots/*.svg from the same app states the snapshot tests check.

    .venv/bin/python scripts/export_screenshots.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "functional"))

from table_support import TABLE_SCREEN_STATES
from war_ui_support import SCREEN_STATES, make_app

from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Rules
from war_tui.stats import GameRecord, Source, StatsStore


async def export(name: str, out_dir: Path) -> Path:
    size, factory, keys = {**SCREEN_STATES, **TABLE_SCREEN_STATES}[name]
    app = factory()
    async with app.run_test(size=size) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        app.save_screenshot(f"{name}.svg", path=str(out_dir))
    return out_dir / f"{name}.svg"


async def export_stats(out_dir: Path) -> Path:
    """The statistics screen over 40 fixed games (the same ones its snapshot test uses), times in UTC."""
    os.environ["TZ"] = "UTC"
    time.tzset()
    start = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    sources = (Source.INTERACTIVE, Source.AUTO, Source.SCREENSAVER)
    with tempfile.TemporaryDirectory() as folder:
        store = StatsStore.open(Path(folder) / "stats.sqlite3")
        for seed in range(1, 41):
            game = Game.deal(seed, Rules(war_cards=2, gather=Gather.LOSER_FIRST) if seed == 40 else Rules())
            game.play()
            finished = (start + timedelta(minutes=seed)).isoformat(timespec="seconds")
            store.record(GameRecord.from_game(
                game, ("Ann", "Bob"), seconds=game.battles / 4, source=sources[seed % 3], finished_at=finished
            ))
        app = make_app()
        app.stats = store
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("s")
            await pilot.pause()
            app.save_screenshot("stats.svg", path=str(out_dir))
    return out_dir / "stats.svg"


async def export_leaderboard(out_dir: Path) -> Path:
    """The lobby's leaderboard over the served games its snapshot test uses."""
    from test_leaderboard import in_the_lobby, leaderboard_read, lobby_app, served_games

    with tempfile.TemporaryDirectory() as folder:
        app = lobby_app(served_games(Path(folder) / "served-stats.sqlite3"))
        async with app.run_test(size=(80, 24)) as pilot:
            await in_the_lobby(pilot)
            await pilot.press("s")
            await leaderboard_read(pilot)
            app.save_screenshot("leaderboard.svg", path=str(out_dir))
    return out_dir / "leaderboard.svg"


async def export_seasons(out_dir: Path) -> Path:
    """This week's leaderboard (tab from all time), over the games and the clock its snapshot test uses."""
    from test_leaderboard_seasons import BoardApp, seasons_file, showing

    with tempfile.TemporaryDirectory() as folder:
        app = BoardApp(seasons_file(Path(folder) / "served-stats.sqlite3"))
        async with app.run_test(size=(80, 24)) as pilot:
            await showing(pilot, "all time")
            await pilot.press("tab")
            await showing(pilot, "this week")
            app.save_screenshot("seasons.svg", path=str(out_dir))
    return out_dir / "seasons.svg"


async def export_replay(out_dir: Path) -> Path:
    """The replay screen at a war, as its snapshot test shows it (seed 1017, g 1500, the next war and back),
    as game 12 of the statistics."""
    from war_tui.stats.replay import Replay
    from war_tui.ui.replay_app import ReplayApp

    app = ReplayApp(Replay(1017, Rules()), ("Ann", "Bob"), environ={"LANG": "C.UTF-8", "TERM": "xterm-256color"},
                    game_id=12)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "1", "5", "0", "0", "enter", "right_square_bracket", "left_square_bracket")
        await pilot.pause()
        app.save_screenshot("replay.svg", path=str(out_dir))
    return out_dir / "replay.svg"


async def export_tv(out_dir: Path) -> Path:
    """War TV on table oak (seed 21, battle 7), elm beside it as close at battle 3: the longer game is on show."""
    from support.board_text import seats
    from table_support import table_app
    from test_tv_screen import CONNECTIONS, capped_server, on_tv, playing
    from war_ui_support import until

    with capped_server(battles=1000) as server:
        playing(server, "elm", battles=3)
        playing(server, "oak", battles=7)
        fd, _tv = on_tv(server)
        app = table_app(fd, mode="tv")
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await until(pilot, lambda: "Table oak" in seats(app) and "1 spectator" in seats(app))
                await pilot.pause(0.2)
                app.save_screenshot("tv.svg", path=str(out_dir))
        finally:
            while CONNECTIONS:
                CONNECTIONS.pop().close()
    return out_dir / "tv.svg"


async def main() -> None:
    out_dir = ROOT / "screenshots"
    out_dir.mkdir(exist_ok=True)
    for name in [*SCREEN_STATES, *TABLE_SCREEN_STATES]:
        print(await export(name, out_dir))
    print(await export_stats(out_dir))
    print(await export_leaderboard(out_dir))
    print(await export_seasons(out_dir))
    print(await export_replay(out_dir))
    print(await export_tv(out_dir))


if __name__ == "__main__":
    asyncio.run(main())
