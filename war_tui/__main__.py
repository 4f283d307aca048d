"""``python -m war_tui`` is the ``war-tui`` command."""

import sys

from .cli import main

sys.exit(main())
