"""`python -m briscola_tui`: the same command as `briscola`."""

import sys

from .cli import main

sys.exit(main())
