"""Two players at one keyboard and the solo game: the defects of issue 21 a player met at one keyboard.

Each test names the item it covers.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from screen_text import screen_text
from support.deals import WAR_TEXTS
from war_ui_support import QUICK_WIN, WAR_PACKETS, drawn, notices, until

from war_tui.core.pace import MAX
from war_tui.presentation.words import SOLO_HINTS, TWO_PLAYER_HINTS
from war_tui.settings.play import PlaySettings
from war_tui.ui.app import WarApp
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.screens.game_over import GameOverScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZE = (100, 30)
SHOWN_WHOLE = PlaySettings(war_step=0.0, result_hold=0.0)


def two_players(**changes) -> WarApp:
    """``war-tui --two-players`` as the command line builds it (the app makes its own table)."""
    settings = replace(SHOWN_WHOLE, two_players=True, **changes)
    return WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0, new_seed=lambda: 1234)


# ---------------------------------------------------------------- item 4: --p1/--p2 at two players


async def test_two_players_deal_the_hand_made_packets_first():
    app = two_players(packets=WAR_PACKETS, names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        assert app.board.deal.counts == (6, 6)
        await pilot.press("f", "j")
        await until(pilot, lambda: app.board.battle is not None)
        assert app.board.battle.wars == 2  # WAR_PACKETS opens on a double war
        assert app.query_one("#packet-p1", Packet).count == 11


async def test_two_players_deal_the_given_seed_first():
    """``war-tui --two-players --seed 7``: the first game is deal 7, its seed on the board."""
    app = two_players(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        assert app.board.deal.seed == 7
        await until(pilot, lambda: "seed 7" in screen_text(app))


# ---------------------------------------------------------------- item 1: w at two players


async def test_two_players_stop_at_wars_once_both_agree_and_the_table_stops_at_the_tie():
    app = two_players(packets=WAR_PACKETS, names=("Ann", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        said = notices(app)
        await until(pilot, lambda: app.board.deal is not None)
        await pilot.press("w")
        await pilot.pause()
        assert not app.board.pause_on_war, "one w only asks"
        assert any("w again agrees" in text for text in said)
        await pilot.press("w")
        await pilot.pause()
        assert app.board.pause_on_war
        await pilot.press("a")
        await until(pilot, lambda: app.board.battle is not None)
        await until(pilot, lambda: app.controller.game.state.held)
        await pilot.pause(0.6)  # auto-play at 4/s would have played on by now
        assert app.board.battle.battle == 1 and app.board.laying, "held at the tie of battle 1"
        assert any("f or j lays the war" in text for text in said)
        assert app.board.auto, "auto-play is still on, held at the tie: the status line says so"
        await pilot.press("j")
        await until(pilot, lambda: not app.board.laying)
        assert app.board.settled is app.board.battle and app.board.battle.battle == 1
        assert app.controller.game.battles == 1


async def test_two_players_the_question_of_w_leaves_the_screen_once_the_second_w_answers_it():
    app = two_players(packets=WAR_PACKETS, names=("Ann", "Bob"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        await pilot.press("w")
        await until(pilot, lambda: any("w again agrees" in text for text in toasts(app)))
        await pilot.press("w")
        await pilot.pause()
        await pilot.pause()
        assert app.board.pause_on_war
        assert not any("w again agrees" in text for text in toasts(app)), toasts(app)  # not for 10 s more


async def test_two_players_a_lone_w_lapses():
    app = two_players(packets=WAR_PACKETS)
    async with app.run_test(size=SIZE) as pilot:
        said = notices(app)
        await pilot.press("w")
        await pilot.pause()
        app.controller._war_stop_timer.stop()
        app.controller._war_stop_lapsed()  # as the timer does after a while
        await pilot.press("w")
        await pilot.pause()
        assert not app.board.pause_on_war and any("Nobody agreed" in text for text in said)


# ---------------------------------------------------------------- item 5: a held key cannot skip the result


class Clock:
    """The app's clock, moved by the test: a key "30 ms" after the last is 30 ms after it on this clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_75_spaces_30_ms_apart_do_not_skip_the_result():
    clock = Clock()
    app = WarApp(replace(SHOWN_WHOLE, packets=QUICK_WIN, result_hold=0.5), environ={"LANG": "C.UTF-8"},
                 clock=clock, new_seed=lambda: 1234)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(75):  # 2.25 s of a held space bar, right through the last battle
            await pilot.press("space")
            clock.now += 0.03
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.controller.game_number == 1
        clock.now += 0.45
        await pilot.press("space")  # still too soon after the last repeat
        await pilot.pause()
        assert app.controller.game_number == 1
        clock.now += 0.5
        await pilot.press("space")
        await until(pilot, lambda: app.controller.game_number == 2)


# ---------------------------------------------------------------- item 6: a war stop at max speed


async def test_a_war_stop_at_max_speed_shows_the_battle_before_the_tie():
    from war_tui.core.engine import Game
    from war_tui.core.pace import MAX
    from war_tui.ui.components.trend import CountTrend

    app = WarApp(replace(SHOWN_WHOLE, seed=42, auto=True, speed=MAX, pause_on_war=True),
                 environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.board.laying)
        board = app.board
        tie = board.battle.battle
        played = Game.deal(42)
        for _ in range(tie - 1):
            played.step()
        before = played.counts
        assert board.settled is not None and board.settled.battle == tie - 1
        assert (app.query_one("#packet-p1", Packet).count, app.query_one("#packet-p2", Packet).count) == before
        lines = board.battle_log.lines
        assert any("battles at max speed" in line for line in lines)
        trend = app.query_one(CountTrend)
        assert len(trend.history.samples) == tie  # the deal, then one column per battle before the tie
        await pilot.press("space")  # lays the war
        await until(pilot, lambda: not board.laying)
        assert len(trend.history.samples) == tie + 1
        await pilot.press("a")  # on to the next war
        await until(pilot, lambda: board.laying and board.battle.battle > tie)
        assert len(trend.history.samples) == board.battle.battle
        assert board.settled.battle == board.battle.battle - 1


# ---------------------------------------------------------------- item 13: names as given


async def test_the_result_dialog_shows_names_as_given():
    app = WarApp(replace(SHOWN_WHOLE, packets=QUICK_WIN, names=("ann", "bob")), environ={"LANG": "C.UTF-8"},
                 clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        why = app.screen.facts().why
        assert why[0] == "bob ran out of cards."
        assert "Bob" not in " ".join(why)


# ---------------------------------------------------------------- item 11: one speed toast


def toasts(app) -> list[str]:
    return [str(toast.render()) for toast in app.screen.query("Toast")]


@pytest.mark.usefixtures("toasts_stay")  # read while it is on show
@pytest.mark.parametrize(("top", "words"), [(MAX, "top speed: max"), (64.0, "top speed: 64/s is this server's")])
async def test_plus_eight_times_leaves_one_toast_that_names_the_top_speed(top, words):
    app = WarApp(replace(SHOWN_WHOLE, seed=7, speed=16.0, top_speed=top), environ={"LANG": "C.UTF-8"},
                 clock=lambda: 0.0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(8):
            await pilot.press("plus")
            await pilot.pause()
        await pilot.pause()
        shown = toasts(app)
        assert len(shown) == 1, shown
        assert words in shown[0]
        assert app.board.speed == top


# ---------------------------------------------------------------- item 9: the prompt names the real keys


def words_whole(text: str, wording: str) -> bool:
    """Every word ``text`` shows is a whole word of ``wording``."""
    return all(word in wording.split() for word in text.split())


@pytest.mark.parametrize("size", [(40, 12), (80, 24), (100, 30)])
async def test_two_players_prompt_names_each_players_keys_in_whole_words(size):
    app = two_players(names=("Ann", "Bob"))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        shown = drawn(app.query_one(Pile))
        inside = " ".join(line.strip("│ ") for line in shown.splitlines() if "─" not in line)
        assert "space" not in inside
        assert "f" in inside.split() and "j" in inside.split()
        wordings = " ".join(TWO_PLAYER_HINTS).replace("{p1}", "Ann").replace("{p2}", "Bob").replace("/", " ")
        assert words_whole(inside.replace("/", " "), wordings), inside


@pytest.mark.parametrize("size", [(40, 12), (48, 14), (80, 24)])
async def test_the_solo_prompt_is_never_cut_mid_word(size):
    app = WarApp(replace(SHOWN_WHOLE, seed=7), environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = drawn(app.query_one(Pile))
        inside = " ".join(line.strip("│ ") for line in shown.splitlines() if "─" not in line)
        assert "space" in inside.split()
        assert words_whole(inside, " ".join(SOLO_HINTS)), inside


# ---------------------------------------------------------------- item 12: the lobby at 80 columns


async def test_the_lobby_shows_every_column_whole_with_16_character_names_at_80_columns():
    from screen_text import screen_rows

    from war_tui.core.rules import Result
    from war_tui.tables import Lobby, LobbyEntry, SeatStatus
    from war_tui.ui.screens.lobby import LobbyScreen

    long_name, wide_name = "Sixteen-letters!", "山田太郎山田太郎"
    playing = LobbyEntry("a-table-name-of-16", (long_name, wide_name), (SeatStatus.PLAYER, SeatStatus.PLAYER), 3, 2,
                         1_234, (31, 21), None)
    over = LobbyEntry("oak", (long_name, "bob"), (SeatStatus.PLAYER, SeatStatus.AWAY), 0, 12, 345, (52, 0), Result.P1)
    app = WarApp(replace(SHOWN_WHOLE, seed=7), environ={"LANG": "C.UTF-8"}, clock=lambda: 0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = LobbyScreen(app.glyphs)
        await app.push_screen(screen)
        screen.lobby = Lobby((playing, over), 16)
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        for whole in ("Watching", "Battle", "1,234", long_name, wide_name, "away (kept)", "52, wins", "a-table-name-of-16"):
            assert whole in text, (whole, text)


# ---------------------------------------------------------------- item 8: the lobby's help, and q back to it


async def test_the_lobbys_help_lists_the_lobbys_keys_and_q_at_a_table_goes_back_to_the_lobby():
    from table_support import TableServer, dealing, table_app

    from war_tui.presentation.table_keys import lobby_keys
    from war_tui.ui.screens.help import HelpScreen
    from war_tui.ui.screens.lobby import LobbyScreen

    with TableServer(dealing(*WAR_TEXTS)) as server:
        server.seat("oak", "bob")
        fd, link = server.connect("ann")
        joined = []
        link.on_join = lambda table, member, how: joined.append((table, member.name))
        app = table_app(fd, mode="lobby")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.chosen_table() == "oak")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert app.screen.keys == lobby_keys(leaderboard=False)  # no statistics file given: no leaderboard
            assert any(key.startswith("enter") for key, _ in app.screen.keys)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and app.controller.game.you is not None
                        and app.controller.game.you.seat is not None)
            assert joined == [("oak", "ann")]
            await pilot.press("q", "q")  # mid-game with bob at the table, q asks first and q again leaves
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.chosen_table() == "oak")
            assert app.is_running and link.member is None and not link.closed
            await pilot.press("enter")  # and back again
            await until(pilot, lambda: not isinstance(app.screen, LobbyScreen) and link.member is not None)
            assert len(joined) == 2


# ---------------------------------------------------------------- item 14: nothing made up before the table speaks


async def test_a_table_not_heard_from_yet_shows_no_game_0_and_no_empty_packets():
    import socket

    from screen_text import screen_rows
    from table_support import table_app

    ours, theirs = socket.socketpair()  # the server's end says nothing yet
    try:
        app = table_app(theirs.detach(), mode="play")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            text = "\n".join(screen_rows(app))
            for made_up in ("Game 0", "hand-made deal", "no cards left", "0 cards"):
                assert made_up not in text, (made_up, text)
            assert "waiting for the deal" in text
    finally:
        ours.close()


# ---------------------------------------------------------------- issue 40: a held key at game over


async def test_two_players_holding_their_keys_through_the_last_battle_keep_the_result_until_they_let_go():
    now = [0.0]
    settings = replace(SHOWN_WHOLE, two_players=True, packets=QUICK_WIN, result_hold=0.5)
    app = WarApp(settings, environ={"LANG": "C.UTF-8"}, clock=lambda: now[0], new_seed=lambda: 1234)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.board.deal is not None)
        for _ in range(30):  # both keys' auto-repeat, through the one battle and on, 30 ms apart
            await pilot.press("f", "j")
            now[0] += 0.03
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.controller.game_number == 1
        now[0] += 0.5  # both let go for the whole hold
        await pilot.press("f", "j")
        await until(pilot, lambda: app.controller.game_number == 2)
