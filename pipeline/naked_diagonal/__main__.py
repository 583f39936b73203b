"""``python -m pipeline.naked_diagonal``: see :mod:`pipeline.naked_diagonal.cli`.

Ctrl-C or SIGTERM while the modules load (numba, dask and zarr take a while) is one line too.
"""

from unitile_py.command_line import main_module

if __name__ == "__main__":
    main_module("pipeline.naked_diagonal.cli")
