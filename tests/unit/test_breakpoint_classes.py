"""The board starts with the size classes Textual would give it on the first resize (so it is styled once)."""

from __future__ import annotations

from war_tui.ui.app import WarApp, breakpoint_classes


def textual_would_set(size: int, breakpoints: list[tuple[int, str]]) -> set[str]:
    """Textual's rule for a screen's breakpoints: the class of the largest threshold the size reaches."""
    reached = [(at, name) for at, name in breakpoints if size >= at]
    return {max(reached)[1]} if reached else set()


def test_the_size_classes_at_every_size_are_the_ones_a_resize_gives():
    for breakpoints in (WarApp.HORIZONTAL_BREAKPOINTS, WarApp.VERTICAL_BREAKPOINTS, [(50, "-b"), (10, "-a")]):
        names = {name for _, name in breakpoints}
        for size in range(0, 250):
            classes = breakpoint_classes(size, breakpoints)
            assert set(classes) == names
            assert {name for name, on in classes.items() if on} == textual_would_set(size, breakpoints), size
