"""The two kinds of failure the command line reports in one line, by exit status.

* :class:`unitile_py.errors.GameError` (exit status 2): the user's input or environment is wrong (a bad
  board, position or path, a store the pipeline did not make, a read-only folder, a scheduler that cannot
  be reached or went away).
* :class:`CheckFailed` (exit status 1): the data is wrong: a check of the build failed, or a store's
  array is damaged (:class:`Damaged`: a chunk missing or failing its checksum).
"""

from __future__ import annotations


class CheckFailed(Exception):
    """A check failed: the printed report or the message says which (exit status 1)."""


class Damaged(CheckFailed):
    """An array of a store is damaged: a chunk is missing, or its bytes fail their checksum."""


class VerifyError(CheckFailed):
    """A build's verification failed: the printed report says which checks (exit status 1)."""
