"""Text measured in terminal cells: wide (CJK) characters and emoji take two, as Rich and Textual count them."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from war_tui.presentation.canvas import Canvas, border_label_row
from war_tui.presentation.cells import cell_width, cut_cells, fit_before, fit_cells, pad_cells, wrap_cells

SAMPLES = [
    "Ann", "山田太郎花子", "Zoë", "e\u0301", "😀", "♥", "♥\ufe0f", "Ｆｕｌｌ", "👍🏽", "👨\u200d👩\u200d👧", "🇯🇵",
    "한국어 이름", "Ann 山田 🎉", "…", "→",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_cells_are_counted_as_rich_counts_them(text):
    assert cell_width(text) == cell_len(text)


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("width", range(0, 8))
def test_a_cut_never_passes_its_width_nor_splits_a_character(text, width):
    cut = cut_cells(text, width)
    assert cell_len(cut) <= width and text.startswith(cut)
    assert cell_len(fit_cells(text, width)) <= max(width, 0)


@pytest.mark.parametrize("text", SAMPLES)
@pytest.mark.parametrize("width", range(0, 14))
def test_a_name_gives_way_to_its_tail_and_never_passes_its_width(text, width):
    fitted = fit_before(text * 3, " (you)", width)
    assert cell_width(fitted) <= width
    if width >= cell_width(" (you)") + 2:
        assert fitted.endswith(" (you)")


def test_names_wrap_and_pad_by_cells():
    assert wrap_cells("山田太郎花子 takes 2 cards", 14) == ["山田太郎花子", "takes 2 cards"]
    assert all(cell_len(line) <= 5 for line in wrap_cells("山田太郎花子 takes 2 cards", 5))
    assert pad_cells("山田", 6) == "山田  " and pad_cells("山田", 6, right=True) == "  山田"


def test_a_canvas_row_is_as_wide_as_the_canvas_whatever_it_holds():
    canvas = Canvas(20, 3)
    canvas.text(3, 0, "山田太郎花子 takes 2 cards")  # runs off the right edge
    canvas.text(-1, 1, "山田 wins")  # starts half off the left edge
    canvas.text(0, 2, "山田太郎")
    canvas.text(1, 2, "x")  # covers half of 山
    for row in canvas.runs():
        assert cell_len("".join(text for text, _ in row)) == 20


def test_a_wide_border_label_leaves_the_corner_where_it_belongs():
    row = border_label_row(16, "╭╮╰╯─│", True, "山田太郎花子 wins", "…", "f", "t")
    text = "".join(t for t, _ in row)
    assert cell_len(text) == 16 and text.endswith("╮")
