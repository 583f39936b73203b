"""``python -m pipeline.naked_diagonal``: the same commands as ``python -m pipeline nd-...``."""

import sys

from .cli import main

sys.exit(main())
