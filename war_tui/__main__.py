"""``python -m war_tui`` is the ``war-tui`` command."""

import sys

from . import run

sys.exit(run())
