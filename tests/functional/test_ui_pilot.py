"""Every key and state of the full-screen game, driven through Textual's pilot.

Waiting is by polling for what a person would see (never a timing threshold).
"""

from __future__ import annotations

import pytest
from support.board_text import log_text
from war_ui_support import OPENING_SEED, QUICK_WIN, WAR_PACKETS, drawn, frame, make_app, until

from war_tui.core.engine import Game
from war_tui.core.rules import Gather, Result, Rules
from war_tui.presentation.speed import MAX
from war_tui.presentation.views import DealView
from war_tui.ui.components.battle_log import MAX_LINES, BattleLog
from war_tui.ui.components.packet import Packet
from war_tui.ui.components.pile import Pile
from war_tui.ui.components.status import StatusLine
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.help import HelpScreen
from war_tui.ui.screens.too_small import TooSmallScreen

pytestmark = [pytest.mark.app, pytest.mark.version_sensitive]  # see pyproject.toml's markers

SIZE = (100, 30)



def subtitle(packet) -> str:
    """A packet's count as the bottom row of its frame shows it ("26 → 27 (+1)" for the winner)."""
    return frame(packet)[1].strip("╰╯─+-").strip()


def subtitle_is_bold(packet) -> bool:
    """Whether the label in the frame's bottom row is bold (the winner's mark, read without colour)."""
    label = subtitle(packet)
    return any(segment.text == label and segment.style.bold for segment in packet.render_line(packet.size.height - 1))


def shown(widget) -> str:
    """What a widget draws, as plain text."""
    return drawn(widget)


def status_text(app) -> str:
    return shown(app.query_one(StatusLine))


async def test_opening_screen_shows_a_fresh_deal_and_runs_no_timers():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert f"seed {OPENING_SEED}" in status_text(app)
        assert "Battle 0" in status_text(app)
        assert subtitle(app.query_one("#packet-p1", Packet)) == "26 cards"
        assert "Press space" in shown(app.query_one(Pile))
        assert app.controller._auto_timer is None  # idle means idle: nothing ticking


@pytest.mark.parametrize("key", ["space", "enter", "f"])
async def test_flip_plays_exactly_one_battle_and_updates_counts_and_pile(key):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.controller.game.battles == 1
        n1, n2 = app.controller.game.counts
        assert (n1, n2) != (26, 26) and n1 + n2 == 52
        shown = subtitle(app.query_one("#packet-p1", Packet))
        assert shown.endswith(f"{n1} cards") or f"{shown}".split(" (+")[0].endswith(f"→ {n1}"), shown
        pile = app.query_one(Pile)
        assert pile.battle.battle == 1
        assert " Battle 1 " in frame(pile)[0]
        await pilot.press(key)
        await pilot.pause()
        assert app.controller.game.battles == 2 and pile.battle.battle == 2
        assert "    2" in log_text(app)


async def test_a_war_shows_face_down_cards_then_the_deciding_cards():
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        pile = app.query_one(Pile)
        drawn = shown(pile)
        assert drawn.count("▒▒▒") == 2 * 2 * 2  # two backs per player, two rows each
        for label in ("7♣", "9♠", "5♣", "7♥", "9♦", "3♠"):
            assert label in drawn
        assert "Alice takes 10 cards after a double war" in drawn
        top, bottom = frame(pile)  # a war's heavy frame, named
        assert top.startswith("┏━ Battle 1 ━") and top.endswith("━┓")
        assert bottom.startswith("┗━") and bottom.endswith("━ DOUBLE WAR! ━┛")
        winner, loser = app.query_one("#packet-p1", Packet), app.query_one("#packet-p2", Packet)
        # The winner is marked by its subtitle (read without colour), not its border.
        assert subtitle(winner) == "6 → 11 (+5)" and subtitle_is_bold(winner)
        assert subtitle(loser) == "1 card" and not subtitle_is_bold(loser)
        assert frame(winner)[1][:2] == frame(loser)[1][:2] == "╰─"  # the same frame
        assert "7♣ v  7♥ DOUBLE WAR → 5♣ v 3♠" in log_text(app)


async def test_auto_play_toggles_and_plays_by_itself():
    app = make_app(speed=32.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert app.board.auto and app.controller._auto_timer is not None
        assert "auto 32/s" in status_text(app)
        await until(pilot, lambda: app.controller.game.battles >= 3)
        await pilot.press("a")
        assert not app.board.auto and app.controller._auto_timer is None
        await pilot.pause()
        assert "auto off" in status_text(app)
        stopped_at = app.controller.game.battles
        await pilot.pause(0.2)
        assert app.controller.game.battles == stopped_at


async def test_speed_keys_step_through_the_ladder_up_to_max():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("plus")
        assert app.board.speed == 8.0
        await pilot.press("minus", "minus", "minus", "minus", "minus")
        assert app.board.speed == 0.5  # one battle every 2 s is the slowest
        await pilot.press("minus")
        assert app.board.speed == 0.5
        for _ in range(12):
            await pilot.press("plus")
        assert app.board.speed == MAX
        await pilot.pause()
        assert "(max)" in status_text(app)


async def test_max_speed_plays_many_battles_per_frame_and_shows_the_latest():
    # Seed 293 gathering cards as laid never ends: auto-play is still on when a stops it, however fast it ran.
    app = make_app(seed=293, speed=MAX, auto=True, rules=Rules(gather=Gather.LAID, max_battles=100_000_000))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.controller.game.battles > 300)
        await pilot.press("a")
        await pilot.pause()
        pile = app.query_one(Pile)
        assert not app.controller.game.over
        assert pile.battle.battle == app.controller.game.battles  # the pile shows the newest battle
        assert f"Battle {app.controller.game.battles:,}" in status_text(app)


async def test_pause_on_war_stops_auto_play_at_the_war():
    app = make_app(packets=WAR_PACKETS, speed=16.0, auto=True, pause_on_war=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.board.auto)
        await pilot.pause()
        assert app.controller.game.battles == 1 and app.query_one(Pile).battle.wars == 2
        await pilot.pause(0.2)
        assert app.controller.game.battles == 1


async def test_pause_on_war_also_works_at_max_speed_and_space_then_shows_the_war():
    app = make_app(seed=OPENING_SEED, speed=MAX, auto=True, pause_on_war=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.board.auto)
        await pilot.pause()
        assert app.controller.game.battles == 1  # seed 7 opens with a war
        pile = app.query_one(Pile)
        assert "4♠ ties 4♦" in shown(pile) and "▒▒▒" not in shown(pile)  # stopped at the tie
        await pilot.press("space")
        await pilot.pause()
        assert "▒▒▒" in shown(pile) and "takes" in shown(pile)


async def test_w_toggles_pause_on_war():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")
        assert app.board.pause_on_war
        await pilot.pause()
        assert "war stop" in status_text(app)
        await pilot.press("w")
        assert not app.board.pause_on_war


async def test_restart_deals_a_new_game_with_a_new_seed():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space", "space")
        await pilot.press("r")
        await pilot.pause()
        assert app.controller.game_number == 2
        assert app.controller.game.battles == 0 and app.controller.game.counts == (26, 26)
        assert app.controller.game.seed == 1001
        assert app.query_one(Pile).battle is None
        assert "Game 2 (seed 1001)" in status_text(app)
        assert "Game 2" in log_text(app)


async def test_game_over_appears_and_r_deals_again():
    app = make_app(packets=QUICK_WIN)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert "Player 1 wins" in str(app.screen.query_one("#result-title").render())
        assert app.board.tally[Result.P1] == 1
        await pilot.press("r")
        await pilot.pause()
        assert not isinstance(app.screen, GameOverScreen)
        assert app.controller.game_number == 2 and not app.controller.game.over
        assert "Wins Player 1: 1, Player 2: 0" in status_text(app)


async def test_space_at_game_over_deals_again_and_escape_shows_the_table():
    app = make_app(packets=QUICK_WIN)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, GameOverScreen) and app.controller.game.over
        assert "Player 1 takes 2 cards" in shown(app.query_one(Pile))
        await pilot.press("space")
        await pilot.pause()
        assert app.controller.game_number == 2


async def test_every_key_works_on_the_game_over_screen():
    app = make_app(packets=QUICK_WIN)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("w", "plus")
        assert app.board.pause_on_war and app.board.speed == 8.0
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("a")  # auto-play on at game over: a new deal, playing
        await pilot.pause()
        assert app.board.auto and app.controller.game_number == 2 and app.controller._auto_timer is not None
        await pilot.press("q")
    assert app.return_code == 0


async def test_help_opens_and_closes_and_keys_still_play_underneath():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "war" in str(app.screen.query_one("#help-rules").render())
        await pilot.press("space")
        assert app.controller.game.battles == 1
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark", "escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_quit_exits_from_the_board_and_from_help():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
    assert app.return_code == 0 and not app.is_running
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark", "q")
    assert not app.is_running


async def test_a_tiny_terminal_asks_to_be_enlarged_and_the_game_comes_back():
    app = make_app(speed=32.0, auto=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.resize_terminal(30, 8)
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        assert "Please enlarge the terminal" in str(app.screen.query_one("#too-small-message").render())
        battles = app.controller.game.battles
        await until(pilot, lambda: app.controller.game.battles > battles)  # auto-play carries on underneath
        await pilot.press("a")
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: not isinstance(app.screen, TooSmallScreen))
        await pilot.pause()
        assert app.query_one(Pile).battle.battle == app.controller.game.battles


async def test_game_over_while_too_small_keeps_the_notice_on_top():
    app = make_app(packets=QUICK_WIN)
    async with app.run_test(size=(30, 8)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))


async def test_compact_layout_at_40_by_12_still_shows_the_battle():
    app = make_app(packets=WAR_PACKETS)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        assert app.screen.has_class("-narrow", "-short")
        drawn = shown(app.query_one(Pile))
        assert "7♣" in drawn and "▒▒" in drawn and "5♣" in drawn and "3♠" in drawn
        assert "Player 1 takes 10" in drawn
        assert app.query_one(Pile).outer_size.height <= 6  # its frame included


async def test_no_color_is_respected_and_suits_stay_distinct(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(packets=WAR_PACKETS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert app.no_color
        svg = app.export_screenshot()
        assert "#c2252d" not in svg  # the red of hearts and diamonds is gone...
        drawn = shown(app.query_one(Pile))
        assert "7♥" in drawn and "9♦" in drawn and "7♣" in drawn  # ...but every suit has its own symbol


@pytest.mark.parametrize(
    "settings, environ",
    [({"ascii": True}, {"LANG": "en_GB.UTF-8"}), ({}, {"LANG": "C"}), ({}, {})],
    ids=["--ascii", "LANG=C", "no-locale"],
)
async def test_ascii_mode_uses_letters_and_ascii_borders(settings, environ):
    app = make_app(packets=WAR_PACKETS, environ=environ, **settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        drawn = shown(app.query_one(Pile))
        assert "7C" in drawn and "7H" in drawn and "+---+" in drawn
        assert not any(ch in drawn for ch in "♣♦♥♠┌▒")
        text = app.export_screenshot()
        assert "╭" not in text and "┏" not in text and "♣" not in text


async def test_time_limit_stops_the_game_and_names_the_leader():
    app = make_app(time_limit=0.002)  # 0.12 seconds
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "space", "space")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.controller.game.result is Result.STOPPED
        facts = str(app.screen.query_one("#result-facts").render())
        leader = app.controller.game.leader
        assert "time limit" in facts
        assert (f"Player {leader.index + 1} was ahead" if leader else "level") in facts


async def test_screensaver_deals_again_forever_keeping_the_tally():
    app = make_app(screensaver=True, speed=MAX, screensaver_pause=0.1, rules=Rules(max_battles=60))
    async with app.run_test(size=SIZE) as pilot:
        assert app.board.auto
        await until(pilot, lambda: app.controller.game_number >= 3)
        assert sum(app.board.tally.values()) >= 2
        await pilot.press("q")
    assert not app.is_running


async def test_a_new_deal_due_while_the_app_closes_is_dropped_not_a_crash():
    """The screensaver's next deal can fall due while Textual is taking the screens down (a very short
    pause, or a test leaving ``run_test``). It must not crash: no ScreenStackError from the deal, no
    KeyError (no 'log--deal' in COMPONENT_CLASSES) from a battle log whose styles are already gone.
    Here the deal and a battle arrive at exactly that moment, every time."""
    app = make_app(screensaver=True, speed=MAX, screensaver_pause=60, rules=Rules(max_battles=60))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        games = app.controller.game_number
        close_all = app._close_all

        async def close_all_then_deal() -> None:
            await close_all()
            app.controller._deal_next()
            app.board.action_flip()
            app.board.deal = DealView(games + 1, 5, app.controller.rules, (26, 26), 52)

        app._close_all = close_all_then_deal
    assert not app.is_running
    assert app.controller.game_number == games


async def test_the_stats_seam_reports_each_finished_game_once_and_replays_a_seed():
    app = make_app(packets=QUICK_WIN)
    reported = []
    app.finished_hooks.append(lambda game, seconds: reported.append((game.result, game.battles, seconds)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        await pilot.press("escape", "w")  # more keys after the end report nothing more
        assert reported == [(Result.P1, 1, 0.0)]
        rules = Rules(war_cards=2)
        game = app.controller.new_game(5, rules)
        await pilot.pause()
        assert game is app.controller.game and game.seed == 5 and game.rules == rules
        assert game.initial == Game.deal(5, rules).initial
        assert "2 cards down per war" in log_text(app)


async def test_command_palette_offers_the_game_actions():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for title in ("Flip", "Auto-play", "Faster", "Slower", "Stop at wars", "Restart", "Help"):
            assert title in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Restart")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: app.controller.game_number == 2)


async def test_the_battle_log_keeps_a_bounded_number_of_lines():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(BattleLog)
        await pilot.pause()
        from war_tui.ui.adapter import EngineAdapter

        class Board:
            def __init__(self):
                self.views = []

            @property
            def battle(self):
                return self.views[-1] if self.views else None

            @battle.setter
            def battle(self, view):
                self.views.append(view)

        board = Board()
        game = Game.deal(OPENING_SEED)
        adapter = EngineAdapter(board)
        game.subscribe(lambda event: adapter.on_event(event, game))
        game.play(50)
        for i in range(MAX_LINES + 200):
            log.battle = board.views[i % len(board.views)]
        await pilot.pause()
        assert len(log.lines) == MAX_LINES


@pytest.mark.parametrize(
    "p1, p2, title, pile_words",
    [
        ("7C 2C 3C", "7H", "Player 1 wins", "Player 2 cannot finish the war"),
        ("7C 2C", "7H 2D", "A draw", "Nobody takes the pile"),
    ],
)
async def test_a_game_ended_in_a_war_shows_its_last_cards_and_says_why(p1, p2, title, pile_words):
    from war_tui.core.cards import parse_cards

    app = make_app(packets=(tuple(parse_cards(p1)), tuple(parse_cards(p2))))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert title in str(app.screen.query_one("#result-title").render())
        assert pile_words in shown(app.query_one(Pile))
        assert "7♣" in shown(app.query_one(Pile))


async def test_a_theme_change_restyles_the_board_though_styles_are_kept_between_battles():
    """Widgets keep their component styles across repaints (looked up once, not per battle); a new
    theme must still reach them, the winner's coloured subtitle included."""
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        status, winner = app.query_one(StatusLine), app.query_one("#packet-p1", Packet)

        def value_style():
            return status.visual_style.rich_style + status.get_component_rich_style("status--value")

        before = (value_style(), winner.render_line(winner.size.height - 1))
        assert any(segment.style == before[0] for segment in status.render_line(0))
        app.theme = "gruvbox"
        await pilot.pause()
        await pilot.pause()
        after = (value_style(), winner.render_line(winner.size.height - 1))
        assert after[0] != before[0]
        assert any(segment.style == after[0] for segment in status.render_line(0))  # drawn in the new theme
        assert after[1] != before[1] and subtitle(winner) == "6 → 11 (+5)"
