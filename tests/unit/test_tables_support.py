"""The fake clock the tables tests run on."""

from __future__ import annotations

import pytest

from war_tui.tables import FakeClock, seconds_until

# ------------------------------------------------------------------ the clock


def test_the_fake_clock_moves_only_when_told():
    clock = FakeClock(5.0)
    assert clock() == 5.0
    assert clock.advance(2.5) == 7.5
    assert clock() == 7.5
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_seconds_until_a_deadline_never_goes_below_zero():
    clock = FakeClock(10.0)
    assert seconds_until(None, clock) is None
    assert seconds_until(12.0, clock) == 2.0
    assert seconds_until(3.0, clock) == 0.0
