"""``python -m war_tui`` is the ``war-tui`` command."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while loading: nothing started, nothing to say
    sys.exit(130)

sys.exit(main())
