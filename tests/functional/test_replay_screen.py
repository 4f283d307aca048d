"""The replay screen: every key moves the board to the battle a user expects, and the board tells that battle."""

from __future__ import annotations

import pytest

from war_tui.core.rules import Gather, Rules
from war_tui.stats.replay import Replay
from war_tui.ui.components.game_footer import GameFooter
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.replay_log import ReplayLog
from war_tui.ui.components.scrubber import Scrubber
from war_tui.ui.replay_app import ReplayApp
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.replay import ReplayScreen

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # see pyproject.toml's markers

SEED = 1017  # 1,939 battles, 151 wars under the standard rules
NAMES = ("Ann", "[b]Bob")


@pytest.fixture(scope="module")
def game() -> Replay:
    return Replay(SEED, Rules())


def app_for(replay: Replay) -> ReplayApp:
    return ReplayApp(replay, NAMES, environ={"LANG": "C.UTF-8", "TERM": "xterm-256color"})


def screen_of(app: ReplayApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def shown(app: ReplayApp) -> tuple[int, int | None]:
    """The battle the pile holds and the one the scrubber says (they agree)."""
    pile = app.screen.query_one(Pile)
    scrubber = app.screen.query_one(Scrubber)
    assert pile.battle is not None
    assert pile.battle.battle == scrubber.battle
    return pile.battle.battle, pile.shown_steps


async def test_it_opens_at_the_first_battle_with_its_cards_and_counts(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = game.battle(1)
        pile = app.screen.query_one(Pile)
        assert pile.battle is not None and pile.battle.p1_laid == first.p1_laid and pile.battle.counts == first.counts
        assert app.screen.query_one(ReplayLog).recent[-1].battle == 1


@pytest.mark.parametrize("key", ["right", "l"])
async def test_right_and_l_show_the_next_battle(game: Replay, key: str):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key, key)
        assert shown(app)[0] == 3


@pytest.mark.parametrize("key", ["left", "h"])
async def test_left_and_h_show_the_previous_battle_and_stop_at_the_first(game: Replay, key: str):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end", key)
        assert shown(app)[0] == game.battles - 1
        await pilot.press("home", key)
        assert shown(app)[0] == 1


async def test_end_shows_the_last_battle_and_home_the_first(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        assert shown(app)[0] == game.battles
        assert app.screen.query_one(ReplayLog).recent[-1].counts == game.counts
        await pilot.press("home")
        assert shown(app)[0] == 1


async def test_the_war_keys_go_from_war_to_war_and_lay_it_step_by_step(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        first, second = game.war_battles[:2]
        await pilot.press("right_square_bracket")
        battle, steps = shown(app)
        assert battle == first and steps == 1  # the tie first, as in a live game
        pile = app.screen.query_one(Pile)
        assert pile.battle is not None and pile.battle.wars > 0
        await pilot.press("right_square_bracket")
        assert shown(app)[0] == second
        await pilot.press("left_square_bracket")
        assert shown(app) == (first, None)  # going back shows the war whole


async def test_a_war_laid_step_by_step_settles_and_the_packets_follow_only_then(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right_square_bracket")
        screen = screen_of(app)
        assert screen.settled is not None and screen.settled.battle == game.war_battles[0] - 1
        await pilot.wait_for_scheduled_animations()
        for _ in range(40):
            if screen.shown_steps is None:
                break
            await pilot.pause(0.1)
        assert screen.shown_steps is None and screen.settled is not None
        assert screen.settled.battle == game.war_battles[0]


async def test_g_then_a_number_and_enter_jumps_there(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "1", "5", "0", "0", "enter")
        assert shown(app)[0] == 1500
        await pilot.press("g", "9", "backspace", "7", "enter")
        assert shown(app)[0] == 7


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
async def test_g_with_a_battle_past_the_end_is_refused_on_screen_and_escape_forgets_the_digits(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "g", "9", "9", "9", "9", "9", "enter")
        await pilot.pause()
        assert shown(app)[0] == 2
        assert any("There is no battle 99,999" in str(n.message) for n in app._notifications)
        await pilot.press("g", "5", "escape")
        assert screen_of(app).typed is None and shown(app)[0] == 2


async def test_space_plays_and_pauses_and_plus_minus_set_the_speed_from_1x_to_8x(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        await pilot.press("plus", "plus")
        assert screen.speed == 4
        await pilot.press("equals_sign", "plus")  # = is + without shift
        assert screen.speed == 8
        await pilot.press("space")
        assert screen.playing
        for _ in range(50):
            if shown(app)[0] >= 3:
                break
            await pilot.pause(0.1)
        assert shown(app)[0] >= 3
        await pilot.press("space")
        assert not screen.playing
        await pilot.press("minus", "minus", "minus", "minus")
        assert screen.speed == 1


@pytest.mark.parametrize("key", ["escape", "q", "ctrl+c"])
async def test_escape_q_and_ctrl_c_leave_the_replay(game: Replay, key: str):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
    assert app.return_code in (None, 0)
    assert not app.is_running


async def test_the_footer_names_the_replay_keys(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(120, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        shown = "".join(text for row in footer.draw(footer.size.width, 1) for text, _ in row)
        for words in ("Next", "Previous", "Next war", "Play/pause", "Faster"):
            assert words in shown


def help_keys(app) -> str:
    """The keys the help on top lists, as a person reads them."""
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    return "\n".join(f"{key}  {what}" for key, what in screen.keys)


async def test_help_over_the_replay_lists_the_replay_keys_and_closes_back_to_it(game: Replay):
    app = app_for(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        keys = help_keys(app)
        for key in ("right l", "left h", "]  [", "Home End", "g N", "space", "+  -", "q"):
            assert key in keys, keys
        assert "flip" not in keys and "auto-play" not in keys  # the game's keys do nothing here
        await pilot.press("space", "right")  # none of the replay's or the game's keys act under the help
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert shown(app) == (1, None) and not screen_of(app).playing
        await pilot.press("right", "question_mark", "question_mark")  # ? opens and closes it
        assert shown(app) == (2, None)


async def test_a_game_of_house_rules_replays_at_40_by_12(game: Replay):
    replay = Replay(7, Rules(war_cards=3, gather=Gather.RANDOM))
    app = app_for(replay)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.press("end")
        assert shown(app)[0] == replay.battles
        assert screen_of(app).has_class("-short", "-narrow")


def test_snapshot_of_the_replay_screen(snap_compare, game: Replay):
    async def at_a_war(pilot):
        await pilot.press("g", "1", "5", "0", "0", "enter", "right_square_bracket", "left_square_bracket")
        await pilot.pause()

    assert snap_compare(app_for(game), terminal_size=(80, 24), run_before=at_a_war)


def test_snapshot_of_the_replay_screen_at_40_by_12(snap_compare, game: Replay):
    async def at_the_end(pilot):
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(app_for(game), terminal_size=(40, 12), run_before=at_the_end)


async def test_names_that_look_like_markup_are_shown_as_typed(game: Replay):
    app = ReplayApp(game, ("[/]", "[link=x]Eve\x1b[2J"), environ={"LANG": "C.UTF-8"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        log = app.screen.query_one(ReplayLog)
        text = "".join(t for row in log.draw(78, 20) for t, _ in row)
        assert "[/]" in text and "[link=x]Eve" in text and "\x1b" not in text
