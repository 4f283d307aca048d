"""The game's high-contrast theme: every text and card readable at WCAG AA contrast (4.5:1) or better.

Black behind everything, white text, and strong accents; the variables Textual would derive by blending
(muted text, panels, borders) are set outright so none falls below the mark. A unit test computes the
ratio of every text colour the board uses against what it is drawn on.
"""

from __future__ import annotations

from textual.theme import Theme

from ..settings.values import HIGH_CONTRAST_THEME

HIGH_CONTRAST = Theme(
    name=HIGH_CONTRAST_THEME,
    primary="#4fb3ff",
    secondary="#ffd75f",
    accent="#ff87ff",
    warning="#ffd700",
    error="#ff6b6b",
    success="#5fff87",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#1c1c1c",
    boost="#1c1c1c",
    dark=True,
    text_alpha=1.0,
    variables={
        "text": "#ffffff",
        "text-muted": "#d0d0d0",
        "text-disabled": "#b0b0b0",
        "text-primary": "#7cc7ff",
        "text-secondary": "#ffe08a",
        "text-accent": "#ffa8ff",
        "text-warning": "#ffe066",
        "text-error": "#ff8a8a",
        "text-success": "#8affa8",
        "foreground-muted": "#d0d0d0",
        "panel-lighten-2": "#9e9e9e",
        "footer-key-foreground": "#ffd700",
        "footer-description-foreground": "#ffffff",
        "footer-background": "#1c1c1c",
        "border": "#ffffff",
        "border-blurred": "#9e9e9e",
    },
)
