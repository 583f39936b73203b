"""Two games by Mark Steere in pure standard-library Python: Unitile (:mod:`unitile_py.unitile`) and
Naked Diagonal (:mod:`unitile_py.naked_diagonal`); rules documents at marksteeregames.com.

The same files run in CPython and in the browser under Pyodide, so this package imports nothing
outside the standard library. The modules at this level are the plumbing both games share: cell names
and the form of a position text (:mod:`.coords`), colours, records, the game history that judges,
names and takes back moves (:mod:`.history`), the player protocol, match runner and the ``show`` and
``record`` commands (:mod:`.playing`), the generic search (:mod:`.mcts`), seeds, inputs, errors, the
checks of table files and their cache (:mod:`.table_io`), the web services' common part
(:mod:`.service`), how a command ends (:mod:`.command_line`), and the command line's and the web
worker's dispatchers (:mod:`.cli`, :mod:`.webapi`). Neither game's subpackage imports the other's
(docs/architecture.md).
"""
