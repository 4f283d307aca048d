"""How the game looks, as plain functions: glyphs, card faces, words, speeds, little charts.

Nothing here imports Textual or Rich, so every choice about what a person sees
(which suit glyph, which border, how a war is worded, how a 52-card bar splits)
is unit-tested without a screen. Widgets only paint what these functions return.
Import from the module of each concern (``presentation.words``, ``presentation.speed`` ...).
"""
