"""``python -m unitile_py``: see :mod:`unitile_py.cli`."""

import sys

from .cli import main

sys.exit(main())
