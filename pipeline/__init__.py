"""The precompute pipeline: symmetry classes, the value solve, T for every position, verification.

Run it with ``python -m pipeline build --board 5x5``; see docs/pipeline.md for the design.
"""
