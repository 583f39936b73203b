"""The Naked Diagonal solve: every reachable position of a small board with perfect play, proofs, and the
map of NDE areas.

``python -m pipeline nd-build --board 4x4`` (docs/naked-diagonal-solve.md) enumerates the positions that
play from the empty board reaches, tier by tier (number of stones), as dask tasks over key-range parts
of a sorted index of canonical positions, solves them by retrograde analysis from the last tier back,
checks everything and writes ``tables/naked-diagonal/<N>x<N>/`` (docs/naked-diagonal-tables.md).
``nd-prove`` decides larger boards' openings by a proof search; ``nd-strategy`` writes a solved board's
winner's strategy and ``nd-check-strategy`` replays one with the exact rules; ``nd-atlas``, ``nd-survey`` and
``nd-areas`` map the NDE areas (docs/naked-diagonal-areas.md). Modules, each importing only those above
it or before it in its row:

| module | what |
|---|---|
| ``geometry`` | the board's tables for the kernels (from the game's ``Grid``), keys of positions |
| ``kernels`` | numba: masks, wins, symmetries and canonical keys, exact legality, moves, combining values |
| ``store`` | the zarr store: tier arrays (one shard per part), stage names; records: :mod:`pipeline.store` |
| ``tier_parts`` | a tier as the stages read it: a part's positions and moves, a solved tier's values by key |
| ``context`` | ``Context`` and ``Stage`` (the shared framework's, for N x N) |
| ``tier_stage``, ``solve_stage``, ``verify_stage``, ``table_stages`` | the stages and their tasks |
| ``build`` | ``BuildOptions``, ``plan`` and ``run_build`` |
| ``moves`` | numba: the proof searches' move generation and ordering, two-word canonical images |
| ``dfpn`` | numba: the df-pn proof search (one compiled loop, transposition table, threat lookahead) |
| ``proof_store`` | the store of df-pn proofs: proven entries per task and round (resumable, shared) |
| ``ledger`` | the decided opening lines kept in the repository: one checksummed file per line |
| ``proof`` | the alpha-beta proof search and the tasks over opening lines (either search) |
| ``strategy_file`` | a winner's strategy: the writer, and a solved board's strategy from its tables |
| ``check_strategy`` | the strategy's verifier: only the game's rules engine and the strategy reader |
| ``atlas``, ``survey``, ``areas_file`` | the exhaustive atlas, the survey of games, the published file |
| ``cli`` | the commands (registered into ``python -m pipeline``) |
| ``__main__`` | ``python -m pipeline.naked_diagonal``: the same commands |

The stage framework they run on (the store's base, stage records, ``run_stages`` with usage sampling, the
executors) is :mod:`pipeline`'s, shared with Unitile: :mod:`pipeline.store`, :mod:`pipeline.stages`,
:mod:`pipeline.executor`.
"""
