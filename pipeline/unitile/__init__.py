"""Unitile's precompute: symmetry classes, the value solve, T for every position, perfect play, the
lookup tables, and the checks of each (docs/pipeline.md).

``python -m pipeline build --board 5x5`` runs its stages on the shared framework of :mod:`pipeline`
(the executor, the store's arrays, the stage records and usage sampling).
"""
