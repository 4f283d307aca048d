"""At 40x12, 60x20 and 80x24 every screen shows whole words, and the seed wherever a game is named."""

from __future__ import annotations

import re

import pytest
from screen_text import screen_text
from war_ui_support import WAR_PACKETS, drawn, make_app, until

from war_tui.settings.play import PlaySettings
from war_tui.ui.components.pile import Pile
from war_tui.ui.screens.game_over import GameOverScreen
from war_tui.ui.screens.stats import StatsScreen

pytestmark = pytest.mark.app  # see pyproject.toml's markers

SIZES = [(40, 12), (60, 20), (80, 24)]
SEED = 3466761160  # ten digits: the longest seeds people copy from the screen


def game_named_with_its_seed(text: str) -> None:
    for found in re.finditer(r"Game \d+", text):
        rest = text[found.end():found.end() + 40]
        assert rest.startswith((f" (seed {SEED})", " (hand-made deal)", " · seed", " | seed")), text


@pytest.mark.parametrize("size", SIZES)
async def test_game_over_keeps_time_seed_and_tally_whole(size):
    app = make_app(PlaySettings(seed=SEED), auto=True, speed=float("inf"))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        text = screen_text(app)
    assert re.search(rf"Seed\s+{SEED}", text), text
    for words in ("Time", "Tally", "stopped 0", "r or space: deal again", "esc: look at the table", "q: quit"):
        assert words in text, (words, text)


@pytest.mark.parametrize("size", SIZES)
async def test_the_hint_and_tally_of_a_hand_made_game_stay_whole(size):
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("space", "space")
        await pilot.pause()
        text = screen_text(app)
    for words in ("Time", "Tally", "draws 0", "stopped 0", "r or space: deal again", "esc: look at the table"):
        assert words in text, (words, text)


@pytest.mark.parametrize("size", SIZES)
async def test_the_status_line_names_the_game_with_its_seed(size):
    app = make_app(PlaySettings(seed=SEED), names=("Alice", "Bob"))
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        await pilot.pause()
        status = screen_text(app).splitlines()[0]
    game_named_with_its_seed(status)
    if size[0] >= 80:
        assert f"seed {SEED}" in status


async def test_the_status_line_after_a_stopped_game_at_40_by_12_ends_on_a_whole_word():
    app = make_app(PlaySettings(seed=SEED), time_limit=0.0001, auto=True, speed=0.5)
    async with app.run_test(size=(40, 12)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")
        await pilot.pause()
        status = screen_text(app).splitlines()[0]
    assert status.rstrip().endswith(("stopped", "P2")), status


@pytest.mark.parametrize("size", [(20, 5), (30, 8), (39, 11)])
async def test_the_too_small_notice_is_whole_words(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(app)
    words = text.split()
    assert "enlarge" in words or "Enlarge" in words or "Need" in words
    assert "40x12" in text or "40x12)" in text
    for word in words:
        assert word in ("Please", "enlarge", "Enlarge", "the", "terminal", "(at", "least", "40x12,", "40x12)", "now",
                        f"{size[0]}x{size[1]})", "to", "40x12", "Need"), (word, text)


@pytest.mark.parametrize("size", SIZES)
async def test_the_stats_footer_names_only_whole_keys(size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        footer = screen_text(app).splitlines()[-1]
    assert "esc Back" in footer
    assert "space Flip" not in footer  # the game's keys work here but are not this screen's to show


@pytest.mark.parametrize("size", SIZES)
async def test_a_war_being_laid_says_its_face_down_cards_in_whole_words(size):
    """At 40x12 the pile said "War! 1 card face down each, then the next": a narrow pile takes a shorter wording."""
    app = make_app(packets=WAR_PACKETS, names=("Alice", "Bob"), auto=True, speed=16.0, pause_on_war=True, war_step=5.0)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: not app.board.auto)  # stopped at the war's tie
        await pilot.press("space")  # lays its face-down cards, which stay five seconds
        await until(pilot, lambda: "▒" in drawn(app.query_one(Pile)))
        words = " ".join(drawn(app.query_one(Pile)).split())
    assert "War! 1 card face down each" in words or "War! 1 card down each" in words, words
    assert "then" not in words or "then the next cards decide" in words, words
