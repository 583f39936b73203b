"""``play`` and ``nd play`` with standard input closed (``<&-``): one line, exit status 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("command", [["play"], ["nd", "play"]])
def test_play_with_standard_input_closed_is_one_line(command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    # A shell closes file descriptor 0 for the child, as ``python -m unitile_py play <&-`` does.
    args = " ".join([sys.executable, "-m", "unitile_py", *command])
    done = subprocess.run(["bash", "-c", f"exec {args} <&-"], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip()
    assert err.count("\n") == 0 and "standard input is closed" in err and "Traceback" not in err, err
