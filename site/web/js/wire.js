// The wire between a page and the worker, typed once: the messages each way (rpc.js on the page,
// worker.js in the worker), build.json as the worker reads it (site/build.py writes it), and the
// replies of unitile_py.webapi.handle that the shared controllers read. Types only (JSDoc, checked by
// `make lint`'s tsc); modules name them as import("./wire.js").Name, so nothing loads this file.
// unitile_py/wire.py types the same shapes for Python, under the same names (Request, Answered,
// Refused, Reply, GameEntry, PlainGame, Played).

// ----- page -> worker ------------------------------------------------------------------------------

/**
 * A request's arguments (each request's own; unitile_py.webapi).
 * @typedef {Record<string, unknown>} Args
 */

/**
 * A request of unitile_py.webapi.handle: ``op`` its name under its game's prefix ("ut_play"),
 * ``args`` its arguments.
 * @typedef {{op: string, args: Args}} Request
 */

/**
 * A request sent to the worker, with the ``id`` its reply carries.
 * @typedef {Request & {id: number}} Call
 */

/**
 * Abandon call ``cancel`` (its id): its search is dropped between two slices, and no reply comes.
 * @typedef {{cancel: number}} Cancel
 */

/** @typedef {Call | Cancel} ToWorker */

// ----- worker -> page ------------------------------------------------------------------------------

/**
 * A loading message to show while Python starts.
 * @typedef {{type: "progress", text: string}} Progress
 */

/**
 * Python is up: the games it serves, the boot's timings, the build's version.
 * @typedef {{type: "ready", games: GameEntry[], timings: Timings, version: string}} Ready
 */

/**
 * Python did not start: why, in one line.
 * @typedef {{type: "failed", error: string}} Failed
 */

/**
 * A request answered: ``result`` is the request's own reply.
 * @typedef {{ok: true, result: unknown}} Answered
 */

/**
 * A request refused, in one line for the player (bad input, an illegal move, a bug named).
 * @typedef {{ok: false, error: string}} Refused
 */

/**
 * unitile_py.webapi.handle's reply to every request.
 * @typedef {Answered | Refused} Reply
 */

/**
 * The reply to call ``id``, as the worker sends it: ``ms`` the Python time spent on it, ``wall`` the
 * time from its arrival to its reply, ``hurried`` whether the deadline cut a search short (a request
 * that failed outside Python has no ``wall`` nor ``hurried``, one before Python started no ``ms``).
 * @typedef {{type: "reply", id: number, ms?: number, wall?: number, hurried?: boolean} & Reply} Replied
 */

/** @typedef {Progress | Ready | Failed | Replied} FromWorker */

/**
 * A game the worker serves (the "games" request: unitile_py/registry.py).
 * @typedef {{key: string, name: string, author: string, prefix: string}} GameEntry
 */

/**
 * The worker's boot in milliseconds since it started (bench/browser.py): Python up, then, on a start
 * without a snapshot, the boot tables fetched, the games imported, the tables loaded and the snapshot
 * taken; ``files`` each download as [file, start, end].
 * @typedef {object} Timings
 * @property {number} python
 * @property {number} [fetched]
 * @property {number} [imported]
 * @property {number} [tables]
 * @property {number} [snapshot]
 * @property {number} total
 * @property {boolean} restored whether the interpreter came from the snapshot
 * @property {Array<[string, number, number]>} files
 */

// ----- build.json (site/build.py) ------------------------------------------------------------------

/**
 * The build: its version, the archives of Python modules (unitile_py's .pyc in one tar, unpacked
 * under the worker's home), each game by key, the puzzle files and every file's size in bytes.
 * @typedef {object} BuildInfo
 * @property {string} version
 * @property {string} [pyodide]
 * @property {string[]} python
 * @property {Record<string, BuildGame>} games
 * @property {string[]} [puzzles]
 * @property {Record<string, number>} files
 * @property {Record<string, number>} [gzipped] the files the worker fetches that have a gzipped copy (name.gz), with its size
 */

/**
 * A game of build.json: its request prefix, the modules the worker imports before its snapshot, its
 * table files, when they are written ("boot": all loaded by its ``load_tables`` request, on its page
 * while Python starts, and kept in the snapshot; else those of the board a request names, at that
 * request).
 * @typedef {object} BuildGame
 * @property {string} name
 * @property {string} prefix
 * @property {string[]} preload
 * @property {string[]} tables
 * @property {"boot" | "first-request"} tables_when
 * @property {string} load_tables
 */

/**
 * A game of build.json with its key, as the worker keeps it.
 * @typedef {BuildGame & {key: string}} WorkerGame
 */

// ----- replies the shared controllers read (unitile_py.service.REQUESTS) -------------------------

/**
 * A colour: red or blue.
 * @typedef {"r" | "b"} Colour
 */

/**
 * A game as the page keeps it and sends it: its start (null for the usual one) and its moves by
 * name; Naked Diagonal's has its board's ``size`` too. The "new_game", "undo" and "load" replies.
 * @typedef {{start: string | null, moves: string[], size?: number}} PlainGame
 */

/**
 * The "state" reply, in the fields both games have (each adds its own: Unitile's bubble and groups,
 * Naked Diagonal's size and stones): the position after ``ply`` of the game's ``plies``.
 * @typedef {object} State
 * @property {number} ply
 * @property {number} plies
 * @property {string[]} moves
 * @property {Colour} turn
 * @property {string[]} legal the moves the side to move may make
 * @property {boolean} over
 * @property {Colour | null} winner
 * @property {string} result the record's result ("1-0", "0-1", "*")
 * @property {string} record
 * @property {string} position the position's text
 * @property {boolean} can_undo
 */

/**
 * The "play" reply: the game with the move, and its state (drawn as the "view" argument asked).
 * @template {State} [S=State] the state of the game's service
 * @typedef {{game: PlainGame, state: S}} Played
 */

export {};
