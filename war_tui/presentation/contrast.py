"""Contrast between two colours as WCAG 2 computes it: what the high-contrast theme and the deck are held to."""

from __future__ import annotations

AA_TEXT = 4.5
"""WCAG 2 level AA for text of ordinary size."""
AA_GRAPHICS = 3.0
"""WCAG 2 level AA for the parts of a picture that carry meaning (card backs, frames, bars)."""


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance, 0 for black to 1 for white."""
    r, g, b = (_channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hex_rgb(text: str) -> tuple[int, int, int]:
    """ "#1d4fb8" as (29, 79, 184)."""
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
