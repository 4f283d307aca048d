"""What the screen looks like in the states people meet first (pytest-textual-snapshot).

Regenerate after a deliberate change with ``pytest --snapshot-update``.
"""

import pytest
from war_ui_support import SCREEN_STATES

pytestmark = pytest.mark.app  # see pyproject.toml's markers


@pytest.mark.parametrize("state", sorted(SCREEN_STATES))
def test_screen_state(snap_compare, state):
    size, factory, keys = SCREEN_STATES[state]
    assert snap_compare(factory(), terminal_size=size, press=keys)
