"""What shared tables look like: a player's and a spectator's screen, the lobby, two players at one keyboard.

Regenerate after a deliberate change with ``pytest --snapshot-update``.
"""

import pytest
from table_support import TABLE_SCREEN_STATES

pytestmark = pytest.mark.app  # see pyproject.toml's markers


@pytest.mark.parametrize("state", sorted(TABLE_SCREEN_STATES))
def test_table_screen_state(snap_compare, state):
    size, factory, keys = TABLE_SCREEN_STATES[state]
    assert snap_compare(factory(), terminal_size=size, press=keys)
