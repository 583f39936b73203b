"""Move generation and ordering shared by the proof searches (:mod:`.proof`'s alpha-beta, :mod:`.dfpn`).

:func:`ordered_children` writes the legal placements of the side to move into caller-owned arrays,
best first by a connection heuristic (the mover's shortest path between its edges, stones 0 and empty
points 1, minus the opponent's; then nearer the centre), and stops at a placement that wins at once.
The heuristic only orders: it never decides an outcome. :func:`canonical_pair` is a position's
canonical image as two words, unique on every board the kernels take (the one-word key of
:func:`.kernels.canonical` holds 2 N^2 + 1 bits, which fit 64 only up to 5 x 5).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .geometry import GeoArgs
from .kernels import (
    INLINE,
    JIT,
    canonical,
    dilate4,
    grow,
    image,
    is_legal_in,
    legal_points,
    lowest,
    winner_bits,
)

#: Shortest-path length meaning "no path".
FAR = 99
#: Columns of a child row: point, red, blue, next turn, canonical key (``key``: see :func:`expand`), the
#: path lengths (:func:`path_length`) of the side that moved and of the side to move next.
POINT, RED, BLUE, TURN, KEY, MOVER_PATH, NEXT_PATH = 0, 1, 2, 3, 4, 5, 6
#: Columns of a child row.
COLUMNS = 7


@INLINE
def path_length(g: GeoArgs, own: int, enemy: int, first: int, second: int) -> int:
    """Empty points the stones ``own`` still need for an orthogonal chain from edge ``first`` to
    ``second`` avoiding ``enemy`` (:data:`FAR` when none can)."""
    empty = g.full & ~(own | enemy)
    reach = grow(g, own & first, own)
    for k in range(g.size + 1):
        if reach & second:
            return k
        step = ((dilate4(g, reach) | first) & empty) | reach
        bigger = grow(g, step, step | own)
        if bigger == reach:
            return FAR
        reach = bigger
    return FAR


@INLINE
def path_lengths(g: GeoArgs, red: int, blue: int, turn: int) -> tuple[int, int]:
    """``(path length of the side turn, of the other side)`` (:func:`path_length`)."""
    d_red = path_length(g, red, blue, g.north, g.south)
    d_blue = path_length(g, blue, red, g.west, g.east)
    return (d_red, d_blue) if turn == 0 else (d_blue, d_red)


@INLINE
def winning_points(g: GeoArgs, own: int, first: int, second: int, empty: int) -> int:
    """The empty points on which one more stone joins the stones ``own`` from edge ``first`` to edge
    ``second`` (legality not considered): points next to, or on, both the stones joined to the first
    edge and those joined to the second."""
    near_first = dilate4(g, grow(g, own & first, own)) | first
    near_second = dilate4(g, grow(g, own & second, own)) | second
    return near_first & near_second & empty


@JIT
def wins_at_once(g: GeoArgs, red: int, blue: int, turn: int, memo: Any) -> bool:
    """Whether the side to move (``turn`` 0 Red, 1 Blue) of a position reached in play (every region
    fillable) has a legal placement that completes its chain: exactly :func:`ordered_children`'s winning
    point, testing the legality of the few points that would win instead of every point."""
    empty = g.full & ~(red | blue)
    if turn == 0:
        points = winning_points(g, red, g.north, g.south, empty)
    else:
        points = winning_points(g, blue, g.west, g.east, empty)
    while points:
        p = lowest(points)
        points &= points - 1
        if is_legal_in(g, grow(g, 1 << p, empty), red, blue, turn, p, memo):
            return True
    return False


@JIT
def loses_to_threat(g: GeoArgs, red: int, blue: int, turn: int, memo: Any) -> bool:
    """Whether the side to move (``turn`` 0 Red, 1 Blue) of a position reached in play (every region
    fillable) loses within two placements: it has no placement that wins at once, the other side has a
    legal placement that completes its chain, and after every legal placement of the side to move the
    other side still has one (:func:`wins_at_once`). Exactly what expanding the position and testing
    each child with :func:`wins_at_once` would prove; False says nothing.

    The replies on the other side's winning points are tried first, so a threat that one placement
    stops is usually refuted by the first legal reply."""
    other = 1 - turn
    empty = g.full & ~(red | blue)
    if other == 0:
        first = winning_points(g, red, g.north, g.south, empty)
    else:
        first = winning_points(g, blue, g.west, g.east, empty)
    if first == 0:
        return False
    # One winning point: a legal reply on it leaves the other side none.
    if first & (first - 1) == 0 and is_legal_in(g, grow(g, first, empty), red, blue, turn, lowest(first),
                                                memo):
        return False
    if not wins_at_once(g, red, blue, other, memo) or wins_at_once(g, red, blue, turn, memo):
        return False
    # A reply outside the regions of the winning points leaves each of them a winning point with its
    # region, and so its legality, unchanged (fact 1 of docs/naked-diagonal.md: regions never interact):
    # only the replies inside those regions can stop the threat.
    inside = grow(g, first, empty)
    for stage in range(2):
        points = first if stage == 0 else inside & ~first
        while points:
            p = lowest(points)
            points &= points - 1
            if not is_legal_in(g, grow(g, 1 << p, empty), red, blue, turn, p, memo):
                continue
            bit = 1 << p
            r2 = red | bit if turn == 0 else red
            b2 = blue | bit if turn == 1 else blue
            if not wins_at_once(g, r2, b2, other, memo):
                return False
    return True


@JIT
def wins_by_threat(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, least: int,
                   cache: np.ndarray) -> bool:
    """Whether the side to move (``turn`` 0 Red, 1 Blue) of a position reached in play has a legal
    placement after which the opponent :func:`loses_to_threat`: a win in three placements. Only the
    placements after which the mover's chain lacks one point, at ``least`` or more empty points
    (:func:`winning_points`, legality not considered), are tried; False says nothing. The answers of
    :func:`loses_to_threat` are kept in ``cache`` (:func:`loses_to_threat_cached`)."""
    return _threat_point(g, red, blue, turn, memo, least, g.full, cache) >= 0


@INLINE
def _recall(g: GeoArgs, cache: np.ndarray, column: int, red: int, blue: int, turn: int) -> tuple[int, int]:
    """``(slot, answer)`` of a position in the direct-mapped ``cache``: columns ``column`` and
    ``column + 1`` of a row hold ``red + 1`` and ``blue | turn << P``, plus ``1 << (P + 1)`` when the
    answer is True (P points). ``answer`` is 1 or 0 when the slot holds this position, -1 when not;
    ``slot`` is -1 when the cache has no room for these columns (no cache)."""
    if cache.shape[0] == 0 or cache.shape[1] < column + 2:
        return -1, -1
    tag = blue | turn << g.size
    at = ((red * 0x2545F4914F6CDD1D) ^ (tag * 0x5851F42D4C957F2D)) >> 17 & (cache.shape[0] - 1)
    if cache[at, column] == red + 1 and cache[at, column + 1] & ((1 << (g.size + 1)) - 1) == tag:
        return at, cache[at, column + 1] >> (g.size + 1)
    return at, -1


@INLINE
def _keep(g: GeoArgs, cache: np.ndarray, column: int, at: int, red: int, blue: int, turn: int,
          answer: bool) -> None:
    """Write a position's answer into slot ``at`` of :func:`_recall`'s cache (nothing when -1)."""
    if at >= 0:
        tag = blue | turn << g.size
        cache[at, column], cache[at, column + 1] = red + 1, tag | (1 << (g.size + 1) if answer else 0)


@JIT
def loses_to_threat_cached(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, cache: np.ndarray) -> bool:
    """:func:`loses_to_threat`, its answer kept in columns 0 and 1 of ``cache`` (:func:`_recall`; one slot
    per hash, overwritten; no rows: no cache): the same position asked again, as transpositions do, is
    answered from it."""
    at, known = _recall(g, cache, 0, red, blue, turn)
    if known >= 0:
        return known == 1
    answer = loses_to_threat(g, red, blue, turn, memo)
    _keep(g, cache, 0, at, red, blue, turn, answer)
    return answer


@JIT
def wins_by_threat_cached(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, least: int,
                          cache: np.ndarray) -> bool:
    """:func:`wins_by_threat`, its answer kept in columns 4 and 5 of ``cache`` (:func:`_recall`; a cache of
    fewer than 6 columns: asked every time). ``least`` must be the same in every call on one cache."""
    at, known = _recall(g, cache, 4, red, blue, turn)
    if known >= 0:
        return known == 1
    answer = wins_by_threat(g, red, blue, turn, memo, least, cache)
    _keep(g, cache, 4, at, red, blue, turn, answer)
    return answer


@JIT
def _threat_point(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, least: int, within: int,
                  cache: np.ndarray) -> int:
    """The placement of :func:`wins_by_threat` (-1 if none), trying only the placements on ``within``.

    Whether the side to move (``turn`` 0 Red, 1 Blue) of a position reached in play has a legal
    placement after which the opponent :func:`loses_to_threat`: a win in three placements. Only the
    placements after which the mover's chain lacks one point, at ``least`` or more empty points
    (:func:`winning_points`, legality not considered), are tried; False says nothing."""
    empty = g.full & ~(red | blue)
    own = red if turn == 0 else blue
    first = g.north if turn == 0 else g.west
    second = g.south if turn == 0 else g.east
    points = empty & within
    while points:
        p = lowest(points)
        points &= points - 1
        bit = 1 << p
        threats = winning_points(g, own | bit, first, second, empty & ~bit)
        if threats == 0 or (least > 1 and threats & (threats - 1) == 0):
            continue
        r2 = red | bit if turn == 0 else red
        b2 = blue | bit if turn == 1 else blue
        if threats & (threats - 1) == 0 and is_legal_in(g, grow(g, threats, empty & ~bit), r2, b2, 1 - turn,
                                                        lowest(threats), memo):
            continue  # the opponent can take the one winning point (tested before ``p`` is: only a filter)
        # Whether the opponent loses to the threat is asked first: it is usually no, and legality costs more.
        # On an illegal placement the answer means nothing (it is a function of the position all the same,
        # so the cache stays right), and the placement is then refused.
        if loses_to_threat_cached(g, r2, b2, 1 - turn, memo, cache) and is_legal_in(
                g, grow(g, bit, empty), red, blue, turn, p, memo):
            return p
    return -1


@INLINE
def connection_score(g: GeoArgs, red: int, blue: int, turn: int) -> int:
    """The mover's path length minus the opponent's (lower is better for the mover)."""
    mine, theirs = path_lengths(g, red, blue, turn)
    return mine - theirs


@INLINE
def canonical_pair(g: GeoArgs, red: int, blue: int, turn: int) -> tuple[int, int]:
    """``(high, low)`` of the smallest image of a position under the eight symmetries, compared as
    ``(turn << P | blue, red)`` (P points): the same image as :func:`.kernels.canonical`, whose key is
    ``high << P | low`` on boards up to 5 x 5, and unique up to 7 x 7."""
    size = g.size
    best_hi = -1
    best_lo = -1
    for s in range(8):
        r, b = image(g, s, red), image(g, s, blue)
        if g.swaps[s]:
            hi, lo = r | (1 - turn) << size, b
        else:
            hi, lo = b | turn << size, r
        if best_hi < 0 or hi < best_hi or (hi == best_hi and lo < best_lo):
            best_hi, best_lo = hi, lo
    return best_hi, best_lo


@JIT
def ordered_children(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, kids: np.ndarray,
                     score: np.ndarray) -> tuple[int, int]:
    """``(winning point, count)``: the legal placements of the side to move (``turn`` 0 Red, 1 Blue).

    ``winning point`` is a legal placement that wins at once (-1 if none; then ``count`` is 0).
    Otherwise ``kids[:count]`` holds one row per legal placement (columns :data:`POINT`, :data:`RED`,
    :data:`BLUE`, :data:`TURN`, :data:`MOVER_PATH`, :data:`NEXT_PATH`; :data:`KEY` is left to the caller),
    sorted best first by :func:`connection_score`, ties kept in point order (a stable insertion sort).
    ``kids`` needs at least ``g.size`` rows of :data:`COLUMNS` columns, ``score`` ``g.size`` entries.
    """
    return children_of(g, red, blue, turn, legal_points(g, red, blue, turn, memo), kids, score)


@JIT
def children_of(g: GeoArgs, red: int, blue: int, turn: int, mine: int, kids: np.ndarray,
                score: np.ndarray) -> tuple[int, int]:
    """:func:`ordered_children` with the legal points ``mine`` of the side to move already known."""
    count = 0
    centre = g.n - 1
    nxt = 1 - turn
    for p in range(g.size):
        if not mine >> p & 1:
            continue
        bit = 1 << p
        r2 = red | bit if turn == 0 else red
        b2 = blue | bit if turn == 1 else blue
        if winner_bits(g, r2, b2):
            return p, 0
        row, col = p // g.n, p % g.n
        mover, other = path_lengths(g, r2, b2, turn)
        s = (mover - other) * 64 + abs(2 * row - centre) + abs(2 * col - centre)
        j = count
        while j > 0 and score[j - 1] > s:
            score[j] = score[j - 1]
            kids[j, :] = kids[j - 1, :]
            j -= 1
        score[j] = s
        kids[j, POINT], kids[j, RED], kids[j, BLUE], kids[j, TURN] = p, r2, b2, nxt
        kids[j, MOVER_PATH], kids[j, NEXT_PATH] = mover, other
        count += 1
    return -1, count


@JIT
def expand(g: GeoArgs, red: int, blue: int, turn: int, memo: Any) -> tuple[int, np.ndarray]:
    """One node of the alpha-beta search: ``(winning point, children)``.

    ``winning point`` is a legal placement that wins at once (-1 if none; then there are no children).
    ``children[j] = (point, red, blue, next turn, canonical key)`` of each legal placement, best first by
    :func:`connection_score` (:func:`ordered_children`).
    """
    kids = np.empty((g.size, COLUMNS), dtype=np.int64)
    score = np.empty(g.size, dtype=np.int64)
    point, count = ordered_children(g, red, blue, turn, memo, kids, score)
    for j in range(count):
        kids[j, KEY] = canonical(g, kids[j, RED], kids[j, BLUE], kids[j, TURN])[0]
    return point, kids[:count, :5].copy()


@JIT
def loses_in_four_cached(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, cache: np.ndarray) -> bool:
    """:func:`loses_in_four`, its answer kept in columns 2 and 3 of ``cache`` (:func:`_recall`; a cache of
    fewer than 4 columns: asked every time)."""
    at, known = _recall(g, cache, 2, red, blue, turn)
    if known >= 0:
        return known == 1
    answer = loses_in_four(g, red, blue, turn, memo, cache)
    _keep(g, cache, 2, at, red, blue, turn, answer)
    return answer


@JIT
def loses_in_four(g: GeoArgs, red: int, blue: int, turn: int, memo: Any, cache: np.ndarray) -> bool:
    """Whether the side to move (``turn`` 0 Red, 1 Blue) of a position reached in play loses within four
    placements: it has a legal placement, none wins at once, and after every legal placement of the
    side to move the other side wins at once (:func:`wins_at_once`) or makes a threat it cannot stop
    (:func:`wins_by_threat` with threats of one or more points). Exactly what expanding the position
    and testing each child with those tests would prove; False says nothing.

    A placement of the side to move only takes an empty point, so the other side's placements that
    leave its chain lacking one point afterwards are among those that do now (``near``): only they
    are tried, and the placements of the side to move on ``near`` or on the other side's winning
    points come first (the refutation is usually among them)."""
    other = 1 - turn
    empty = g.full & ~(red | blue)
    own = red if other == 0 else blue
    first = g.north if other == 0 else g.west
    second = g.south if other == 0 else g.east
    wins = winning_points(g, own, first, second, empty)
    near = 0
    points = empty
    while points:
        p = lowest(points)
        points &= points - 1
        if winning_points(g, own | 1 << p, first, second, empty & ~(1 << p)):
            near |= 1 << p
    if near == 0 and wins == 0:
        return False
    if wins_at_once(g, red, blue, turn, memo):
        return False
    mine = legal_points(g, red, blue, turn, memo)
    if mine == 0:
        return False
    killer = -1
    for stage in range(2):
        points = mine & (near | wins) if stage == 0 else mine & ~(near | wins)
        while points:
            p = lowest(points)
            points &= points - 1
            bit = 1 << p
            r2 = red | bit if turn == 0 else red
            b2 = blue | bit if turn == 1 else blue
            if winner_bits(g, r2, b2):
                return False
            if wins_at_once(g, r2, b2, other, memo):
                continue
            # The other side's placement that refuted the previous one first, then the rest.
            if killer >= 0 and killer != p and _threat_point(g, r2, b2, other, memo, 1, 1 << killer,
                                                                   cache) >= 0:
                continue
            killer = _threat_point(g, r2, b2, other, memo, 1, near & ~bit, cache)
            if killer < 0:
                return False
    return True
