"""``python -m pipeline.naked_diagonal``: see :mod:`pipeline.naked_diagonal.cli`.

Ctrl-C or SIGTERM while the modules load (numba, dask and zarr take a while) is one line too.
"""

import signal
import sys

from unitile_py.command_line import EXIT_INTERRUPTED


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)  # run_command sets its own once the work starts
    try:
        from pipeline.naked_diagonal.cli import main
    except KeyboardInterrupt:
        print("interrupted while starting: nothing was done", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(main())
