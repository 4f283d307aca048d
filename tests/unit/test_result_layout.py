"""The game-over dialog's words in the room a terminal gives: whole phrases, and time, seed and tally kept."""

from __future__ import annotations

from rich.cells import cell_len

from war_tui.presentation.result import ResultFacts, pack_parts, result_lines
from war_tui.presentation.words import enlarge_notice

FACTS = ResultFacts(
    why=["Bob ran out of cards."], battles="1,234", wars="56", deepest="a triple war",
    cards="Alice 52, Bob 0", time="3 min 5 s", seed="3466761160",
    tally="Tally  Alice 3 · Bob 2 · draws 0 · stopped 1",
)


def test_parts_go_to_the_next_line_whole():
    assert pack_parts(["r or space: deal again", "esc: look at the table", "q: quit"], " · ", 34) == [
        "r or space: deal again", "esc: look at the table · q: quit",
    ]


def test_every_layout_keeps_time_seed_and_tally_within_the_width():
    for width in range(30, 80):
        for rows in range(6, 16):
            lines = result_lines(FACTS, width, rows)
            text = "\n".join(lines)
            assert len(lines) <= rows and all(cell_len(line) <= width for line in lines)
            for words in ("3 min 5 s", "3466761160", "Alice 3", "stopped 1"):
                assert words in text, (width, rows, text)


def test_a_roomy_dialog_keeps_one_fact_a_line():
    lines = result_lines(FACTS, 66, 13)
    assert "Deepest war   a triple war" in lines and "Seed          3466761160" in lines


def test_the_enlarge_notice_is_whole_words_at_any_size():
    assert enlarge_notice(20, 5, (40, 12)) == ["Please enlarge the", "terminal", "(at least 40x12, now", "20x5)"]
    for width in range(6, 40):
        for height in range(2, 12):
            assert all(cell_len(line) <= width for line in enlarge_notice(width, height, (40, 12)))
