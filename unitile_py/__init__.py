"""Two games by Mark Steere in pure standard-library Python: Unitile (:mod:`unitile_py.unitile`) and
Naked Diagonal (:mod:`unitile_py.naked_diagonal`); rules documents at marksteeregames.com.

The same files run in CPython and in the browser under Pyodide, so this package imports nothing
outside the standard library. The modules at this level are the plumbing both games share (cell
names, colours, records, history, the player protocol and match runner, the generic search, seeds,
inputs, errors, the command line's and the web worker's dispatchers); neither game's subpackage
imports the other's (docs/architecture.md).
"""
