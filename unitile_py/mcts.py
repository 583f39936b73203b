"""Monte Carlo tree search, generic over a game: UCT over random playouts, as in OpenSpiel's ``mcts.py``.

The search knows nothing of either game. A :class:`Domain` gives it, for a state, its *edges*: every
legal move with the state it leads to and the colour that move makes win (``""`` if none), and a
*rollout*, the evaluator: one random playout from a state to the end, returning the winner. Colours
are ``"r"`` and ``"b"``; ``turn_after`` says who moves in a child (the other side, or the same side
when a game skips a player who cannot move). All randomness comes from the injected generator.

Each iteration walks down the tree of moves tried so far, choosing by UCB1 (an untried move first,
at random among several, then the move with the best mix of its win rate and how rarely it was
tried), adds the first new state to the tree, runs a rollout from there, and credits the winner to
every move on the way down for the side that made it.

>>> class Race:  # a toy: from n counters take 1 or 2; who takes the last one wins
...     def edges(self, state):
...         n, turn = state
...         other = "b" if turn == "r" else "r"
...         return [(k, (n - k, other), turn if k == n else "") for k in (1, 2) if k <= n]
...     def turn_after(self, turn, child):
...         return child[1]
...     def rollout(self, state, edges, turn, rng):
...         while True:
...             move, state, winner = rng.choice(self.edges(state))
...             if winner:
...                 return winner
>>> stats = Search(Race(), random.Random(1)).run((4, "r"), "r", playouts=200)
>>> sorted(stats), sum(visits for visits, wins in stats.values())
([1, 2], 200)
>>> choose_move(Race(), (4, "r"), "r", 200, random.Random(1))  # leave a multiple of 3
1
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Generic, ParamSpec, Protocol, TypeVar, cast

#: UCB1 exploration constant (rewards are 0 or 1).
EXPLORATION = 1.4
#: Playouts between two pauses of :func:`choose_steps` (a few milliseconds on any board).
CHUNK = 8

S = TypeVar("S")
T = TypeVar("T")
A = ParamSpec("A")
Move = Hashable
#: A computation that pauses (yields None) between short pieces of work and returns a ``T`` at its end.
#: Resumed with ``send(True)`` instead of ``next()``, it hurries: a search stops adding playouts and
#: answers from those it has (a deadline's safety net; :func:`finish` never hurries).
Steps = Generator[None, bool | None, T]
#: One legal move: ``(move, state after it, colour it makes win or "")``.
Edge = tuple[int, S, str]


class Domain(Protocol[S]):
    """What the search needs of a game; states must not be terminal where the search asks."""

    def edges(self, state: S) -> Sequence[Edge[S]]:
        """Every legal move of a state in which the game goes on (non-empty)."""
        ...

    def turn_after(self, turn: str, child: S) -> str:
        """The colour to move in ``child``, reached by a move of ``turn``."""
        ...

    def rollout(self, state: S, edges: Sequence[Edge[S]], turn: str, rng: random.Random) -> str:
        """The winner of one random playout from ``state`` (``turn`` to move, ``edges`` its moves)."""
        ...


class _Node(Generic[S]):
    """A state in the search tree; statistics are per edge, from the view of the side to move."""

    __slots__ = ("children", "edges", "total", "turn", "visits", "wins")

    def __init__(self, turn: str, edges: Sequence[Edge[S]]) -> None:
        self.turn = turn
        self.edges = edges
        self.children: list[_Node[S] | None] = [None] * len(edges)
        self.visits = [0] * len(edges)
        self.wins = [0] * len(edges)
        self.total = 0


class Search(Generic[S]):
    """UCT search over random playouts; :meth:`run` returns how often each move was tried and won."""

    def __init__(self, domain: Domain[S], rng: random.Random) -> None:
        self.domain = domain
        self.rng = rng

    def run(
        self, state: S, turn: str, playouts: int, edges: Sequence[Edge[S]] | None = None
    ) -> dict[int, tuple[int, int]]:
        """Play ``playouts`` games from ``state`` (``turn`` to move; the game must go on).

        ``edges`` replaces the domain's moves at the root (a game may search below the root with a
        cheaper rule than the one its real moves obey). Returns ``{move: (visits, wins)}`` for every
        root move, wins counted for ``turn``. The same as :meth:`start`, then :meth:`play` of all the
        playouts in any number of pieces, then :meth:`stats`.
        """
        self.start(state, turn, edges)
        self.play(playouts)
        return self.stats()

    def start(self, state: S, turn: str, edges: Sequence[Edge[S]] | None = None) -> None:
        """Begin a search from ``state`` (as :meth:`run`), no playout yet: the tree lives in this object,
        so :meth:`play` can add playouts a few at a time."""
        self.root = self._node(turn, self.domain.edges(state) if edges is None else edges)

    def play(self, playouts: int) -> None:
        """Add ``playouts`` games to the search begun by :meth:`start`."""
        root = self.root
        for _ in range(playouts):
            self._iterate(root)

    def stats(self) -> dict[int, tuple[int, int]]:
        """``{move: (visits, wins)}`` of every root move so far, wins counted for the side to move."""
        root = self.root
        return {edge[0]: (n, w) for edge, n, w in zip(root.edges, root.visits, root.wins, strict=True)}

    def _node(self, turn: str, edges: Sequence[Edge[S]]) -> _Node[S]:
        return _Node(turn, edges)

    def _descend(self, root: _Node[S]) -> tuple[list[tuple[_Node[S], int]], str, tuple[_Node[S], S] | None]:
        """Walk down from ``root`` by :meth:`_select` until a move wins or reaches a state new to the
        tree, which becomes a node. Returns the ``(node, edge)`` path, the winner of the last move
        (``""`` if none) and the new node with its state (a playout starts there), or None."""
        domain = self.domain
        path: list[tuple[_Node[S], int]] = []
        node = root
        while True:
            i = self._select(node)
            path.append((node, i))
            _, child_state, winner = node.edges[i]
            if winner:
                return path, winner, None
            child = node.children[i]
            if child is None:
                child = self._node(domain.turn_after(node.turn, child_state), domain.edges(child_state))
                node.children[i] = child
                return path, "", (child, child_state)
            node = child

    def _iterate(self, root: _Node[S]) -> None:
        path, winner, new = self._descend(root)
        if new is not None:
            leaf, state = new
            winner = self.domain.rollout(state, leaf.edges, leaf.turn, self.rng)
        for n, i in path:
            n.visits[i] += 1
            n.total += 1
            if winner == n.turn:
                n.wins[i] += 1

    def _select(self, node: _Node[S]) -> int:
        visits = node.visits
        if node.total < len(visits):  # untried moves come first, and only then does UCB1 choose
            untried = [i for i, n in enumerate(visits) if n == 0]
            return untried[0] if len(untried) == 1 else untried[int(self.rng.random() * len(untried))]
        log_total = math.log(node.total)
        wins = node.wins
        best, best_score = 0, -1.0
        for i, n in enumerate(visits):
            score = wins[i] / n + EXPLORATION * math.sqrt(log_total / n)
            if score > best_score:
                best, best_score = i, score
        return best


class AmafDomain(Domain[S], Protocol):
    """A domain whose moves are small whole numbers (board points) and whose playouts say who placed
    where, for the all-moves-as-first statistics of :class:`RaveSearch` (as in Hex and Go programs)."""

    def playout(self, state: S, turn: str, rng: random.Random) -> tuple[str, int, int]:
        """A random playout as :meth:`Domain.rollout`: ``(winner, Red's moves, Blue's moves)`` as masks."""
        ...


class _RaveNode(_Node[S]):
    __slots__ = ("amaf_visits", "amaf_wins")

    def __init__(self, turn: str, edges: Sequence[Edge[S]]) -> None:
        super().__init__(turn, edges)
        self.amaf_visits = [0] * len(edges)
        self.amaf_wins = [0] * len(edges)


class RaveSearch(Search[S]):
    """UCT with rapid action value estimates: each move's value mixes its own win rate with the win
    rate of the playouts in which the same side made that move at any later time, the mix moving to
    its own as it is tried (``equivalence`` tries give both equal weight)."""

    def __init__(self, domain: AmafDomain[S], rng: random.Random, equivalence: float = 300.0) -> None:
        super().__init__(domain, rng)
        self.amaf: AmafDomain[S] = domain
        self.equivalence = equivalence

    def _node(self, turn: str, edges: Sequence[Edge[S]]) -> _RaveNode[S]:
        return _RaveNode(turn, edges)

    def _iterate(self, root: _Node[S]) -> None:
        path, winner, new = self._descend(root)
        red = blue = 0
        if new is not None:
            leaf, state = new
            winner, red, blue = self.amaf.playout(state, leaf.turn, self.rng)
        for node, i in reversed(path):
            n = cast(_RaveNode[S], node)
            move = n.edges[i][0]
            if move >= 0:
                if n.turn == "r":
                    red |= 1 << move
                else:
                    blue |= 1 << move
            n.visits[i] += 1
            n.total += 1
            won = winner == n.turn
            if won:
                n.wins[i] += 1
            mine = red if n.turn == "r" else blue
            for k, edge in enumerate(n.edges):
                m = edge[0]
                if m >= 0 and mine >> m & 1:
                    n.amaf_visits[k] += 1
                    if won:
                        n.amaf_wins[k] += 1

    def _select(self, node: _Node[S]) -> int:
        return self._rave_select(cast(_RaveNode[S], node))

    def _rave_select(self, node: _RaveNode[S]) -> int:
        k = self.equivalence
        log_total = math.log(node.total + 1)
        best, best_score = 0, -1.0
        rand = self.rng.random
        for i, n in enumerate(node.visits):
            a = node.amaf_visits[i]
            if n == 0 and a == 0:
                score = 2.0 + rand()  # untried and never seen in a playout: first, in random order
            else:
                q = node.wins[i] / n if n else 0.0
                qa = node.amaf_wins[i] / a if a else 0.0
                beta = a / (n + a + n * a / k) if a else 0.0
                score = (1 - beta) * q + beta * qa + 0.25 * math.sqrt(log_total / (n + 1))
            if score > best_score:
                best, best_score = i, score
        return best


def choose_steps(
    domain: Domain[S],
    state: S,
    turn: str,
    playouts: int,
    rng: random.Random,
    proportional: bool = False,
    edges: Sequence[Edge[S]] | None = None,
    search: type[Search[S]] = Search,
) -> Steps[int]:
    """The move a search player makes, in pieces: a move that wins at once if there is one (at random
    among several), the only move if there is one, else by a search of ``playouts`` games: the most
    visited move (ties to more wins, then at random), or with ``proportional`` a draw weighted by
    visits. ``edges`` are the root's moves if not the domain's (see :meth:`Search.run`); ``search`` is
    the search class (:class:`RaveSearch` for a domain that supports it).

    A generator that pauses after every :data:`CHUNK` playouts and returns the move; run to its end
    (:func:`finish`) it gives exactly :func:`choose_move`'s move. Resumed with ``send(True)`` it plays
    no more playouts and chooses from the visits so far (see :data:`Steps`)."""
    edges = domain.edges(state) if edges is None else edges
    winning = [move for move, _, winner in edges if winner == turn]
    if winning:
        return winning[0] if len(winning) == 1 else winning[rng.randrange(len(winning))]
    if len(edges) == 1:
        return edges[0][0]
    tree = search(domain, rng)
    tree.start(state, turn, edges)
    for done in range(0, playouts, CHUNK):
        if (yield):
            break
        tree.play(min(CHUNK, playouts - done))
    stats = tree.stats()
    moves = list(stats)
    if proportional:
        return rng.choices(moves, weights=[stats[m][0] for m in moves])[0]
    top = max(stats.values())
    tied = [m for m in moves if stats[m] == top]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


def finish(steps: Steps[T]) -> T:
    """Run a computation in pieces (:data:`Steps`) to its end and return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return cast(T, stop.value)


def in_one_call(steps: Callable[A, Steps[T]]) -> Callable[A, T]:
    """The function that makes the computation in pieces ``steps`` makes and runs it to its end
    (:func:`finish`): the same arguments, its result."""

    def run(*args: A.args, **kwargs: A.kwargs) -> T:
        return finish(steps(*args, **kwargs))

    return run


#: :func:`choose_steps` in one call: the move a search player makes.
choose_move = in_one_call(choose_steps)


__all__ = [
    "CHUNK",
    "EXPLORATION",
    "AmafDomain",
    "Domain",
    "Edge",
    "RaveSearch",
    "Search",
    "Steps",
    "choose_move",
    "choose_steps",
    "finish",
    "in_one_call",
]
