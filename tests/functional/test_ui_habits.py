"""Habits a player brings: a held key at the end of a game, Ctrl-C, + and - past their ends, time limits."""

from __future__ import annotations

import pytest
from war_ui_support import QUICK_WIN, drawn, footer_text, make_app, notices, until

from war_tui.cli import main
from war_tui.presentation.speed import MAX
from war_tui.settings.served import SERVED_VARIABLE, SESSION_MINUTES_VARIABLE
from war_tui.ui.components.status import StatusLine
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)


class Clock:
    """The app's clock, moved by the test: minutes pass without waiting for them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# ---------------------------------------------------------------- a result a held key cannot skip


async def test_a_held_space_bar_does_not_skip_the_result_and_deals_again_once_the_keys_pause():
    clock = Clock()
    app = make_app(packets=QUICK_WIN, result_hold=0.5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(15):  # the key's auto-repeat, right through the last battle, 30 ms apart
            await pilot.press("space")
            clock.now += 0.03
        await pilot.press("enter", "r", "a")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.controller.game_number == 1 and app.controller.game.over
        clock.now += 0.5  # the keys pause
        assert not app.controller.result_held
        await pilot.press("space")
        await pilot.pause()
        assert app.controller.game_number == 2 and not isinstance(app.screen, GameOverScreen)


async def test_r_deals_again_once_the_result_has_been_on_show_without_a_key_for_the_hold():
    clock = Clock()
    app = make_app(packets=QUICK_WIN, result_hold=0.5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        clock.now += 0.7
        await pilot.press("r")
        await pilot.pause()
        assert app.controller.game_number == 2


# ---------------------------------------------------------------- Ctrl-C


@pytest.mark.parametrize("first", [(), ("question_mark",), ("space",), ("s",)], ids=["board", "help", "result", "stats"])
async def test_ctrl_c_quits_like_q_from_every_screen(first):
    app = make_app(packets=QUICK_WIN)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*first)
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert not app.is_running and app.return_code == 0
    assert not [message for message in said if "quit" in message.lower()]  # not Textual's "press ctrl+q"


async def test_help_and_a_wide_footer_name_ctrl_c():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        # The footer composes its keys a frame or more after the start.
        await until(pilot, lambda: "q Quit" in footer_text(app))  # no room for more: help and the palette say it
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: "q/^c Quit" in footer_text(app))
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "ctrl+c" in app.export_screenshot()


# ---------------------------------------------------------------- + and - at their ends


async def test_plus_at_max_and_minus_at_the_slowest_say_the_limit_is_reached():
    app = make_app(speed=MAX)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("plus")
        assert app.board.speed == MAX and said == ["Already at the top speed: max plays as many battles as fit in a frame"]
        app.board.speed = 0.5
        await pilot.press("minus")
        assert app.board.speed == 0.5 and said[-1] == "Already at the slowest: one battle every 2 s"
        await pilot.press("plus")
        assert app.board.speed == 1.0 and len(said) == 2  # a step that is taken says nothing


# ---------------------------------------------------------------- time left


def status(app) -> str:
    return drawn(app.query_one(StatusLine))


async def test_a_time_limit_shows_the_time_left_and_warns_once_a_minute_before_the_end():
    clock = Clock()
    app = make_app(time_limit=10, clock=clock)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "10:00 left" in status(app)
        clock.now = 8 * 60 + 30
        await until(pilot, lambda: "1:30 left" in status(app))
        assert not said
        clock.now = 9 * 60 + 1
        await until(pilot, lambda: "0:59 left" in status(app))
        clock.now = 9 * 60 + 5
        await until(pilot, lambda: "0:55 left" in status(app))
        assert [m for m in said if "minute" in m] == ["One minute left: then the game stops, naming who is ahead"]


async def test_a_new_game_under_a_time_limit_gets_its_own_minute_notice():
    clock = Clock()
    app = make_app(time_limit=2, clock=clock)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        clock.now = 65
        await until(pilot, lambda: len(said) == 1)
        await pilot.press("r")
        await pilot.pause()
        assert "2:00 left" in status(app)
        clock.now = 130
        await until(pilot, lambda: len(said) == 2)


async def test_the_server_session_limit_shows_the_time_left_and_one_notice():
    clock = Clock()
    app = make_app(session_minutes=5, clock=clock)
    said = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "5:00 left" in status(app)
        await pilot.press("r")  # the session goes on across deals
        clock.now = 4 * 60 + 2
        await until(pilot, lambda: "0:58 left" in status(app))
        clock.now = 4 * 60 + 10
        await until(pilot, lambda: "0:50 left" in status(app))
        assert said == ["One minute left in this session"]


async def test_without_a_limit_the_status_line_shows_no_clock():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "left" not in status(app) and app.board.time_left is None


@pytest.mark.parametrize("value", ["soon", "0", "-1", "nan", "99999999"])
def test_a_bad_session_limit_from_the_environment_is_one_line_and_exit_2(value, monkeypatch, capsys):
    monkeypatch.setenv(SERVED_VARIABLE, "1")
    monkeypatch.setenv(SESSION_MINUTES_VARIABLE, value)
    assert main(["--no-config"]) == 2
    err = capsys.readouterr().err
    assert SESSION_MINUTES_VARIABLE in err and err.count("\n") == 1
