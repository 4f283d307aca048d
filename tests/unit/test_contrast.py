"""WCAG contrast: the formula, the four-colour deck's card colours, and the high-contrast theme's own colours."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from war_tui.presentation.contrast import AA_TEXT, contrast, hex_rgb

ROOT = Path(__file__).resolve().parents[2]


def test_the_formula_gives_the_known_ratios():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((255, 255, 255), (255, 255, 255)) == pytest.approx(1.0)
    assert contrast(hex_rgb("#767676"), hex_rgb("#ffffff")) == pytest.approx(4.54, abs=0.01)  # the usual AA grey


def card_colours() -> dict[str, tuple[str, str]]:
    """Each suit style of the pile as the stylesheet draws it: (colour, card face)."""
    css = (ROOT / "styles" / "app.tcss").read_text()
    found = re.findall(r"Pile > \.pile--(face|red|diamond|club) \{ color: (#[0-9a-f]{6}); background: (#[0-9a-f]{6});", css)
    return {name: (fg, bg) for name, fg, bg in found}


def test_every_suit_is_readable_on_its_card():
    colours = card_colours()
    assert set(colours) == {"face", "red", "diamond", "club"}
    for name, (fg, bg) in colours.items():
        assert contrast(hex_rgb(fg), hex_rgb(bg)) >= AA_TEXT, name


def test_the_four_colours_differ():
    colours = {fg for fg, _ in card_colours().values()}
    assert len(colours) == 4


def test_the_high_contrast_theme_text_on_its_backgrounds():
    from war_tui.ui.theme import HIGH_CONTRAST

    t = HIGH_CONTRAST
    backgrounds = [t.background, t.surface, t.panel, t.variables["footer-background"]]
    texts = [t.foreground, t.primary, t.secondary, t.accent, t.warning, t.error, t.success] + [
        value for key, value in t.variables.items() if key.startswith("text") or key.endswith("foreground")
    ]
    for bg in backgrounds:
        for fg in texts:
            assert contrast(hex_rgb(fg), hex_rgb(bg)) >= AA_TEXT, (fg, bg)
