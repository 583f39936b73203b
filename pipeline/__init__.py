"""The precompute pipeline of both games: Unitile's tables (:mod:`pipeline.unitile`) and Naked
Diagonal's solves (:mod:`pipeline.naked_diagonal`), on one stage framework at this level.

Run it with ``python -m pipeline build --board 5x5`` or ``python -m pipeline nd-build --board 4x4``; see
docs/pipeline.md, docs/naked-diagonal-solve.md and docs/architecture.md.
"""
