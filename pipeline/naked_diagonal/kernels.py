"""Numba kernels of the Naked Diagonal solve: bit masks, wins, symmetries, exact legality, children.

Written apart from :mod:`unitile_py.naked_diagonal` (only the tables of
:class:`pipeline.naked_diagonal.geometry.Geometry` come from its grid), so the two legality tests check
each other: ``tests/pipeline/naked_diagonal/test_legality.py`` compares them on every reachable 3 x 3 position
and ``bench/nd_solve.py legality`` on every 4 x 4 one and on random positions of larger boards.

**Legality** (docs/naked-diagonal.md, reading R1 and fact 1). A set ``S`` of empty points that is a
maximal region is *fillable* when some order and colours fill it without ever forming a naked diagonal.
:func:`fillable` decides it exactly, by a depth-first search over first placements: ``S`` is fillable
when some clean first placement leaves parts of ``S`` minus that point that are all fillable (the parts
never interact). The answer depends only on ``S`` and the stones (or jokers) on its ring of eight
neighbours, so it is memoised on those in a dictionary the caller keeps across positions. Each call
first tries constructive fillings (four reading orders, eight lattice orders, a filling that places
safe and single-colour points first, and reading orders that place a stuck point's clothing first):
one that succeeds *is* a clean filling, so "fillable" is then exact. Otherwise three exact reductions
run before the search:

* **settling** (:func:`settle`): a *safe* placement (it forms no naked diagonal, and every diagonal it
  makes with a point of ``S`` already has its colour or a joker at a shared point) can always go first
  in a clean filling when there is one (docs/naked-diagonal.md, "Safe first placements"), so safe
  placements are made until none is left, and what is left is fillable exactly when ``S`` is;
* **doomed points** (:func:`barred`, :func:`doomed`): a point that no clean filling can give either
  colour (each colour's placement there would find a diagonal of its colour whose shared points hold
  the other colour or are barred too) proves ``S`` not fillable; a dead point is the simplest case;
* **windows**: the points of ``S`` within one, then two, rows and columns of a point where the
  reading-order fillings got stuck, with the rest of ``S`` as *jokers* (points that clothe every
  diagonal and form none). A clean filling of ``S`` restricted to the window is a clean filling of this
  relaxed problem, so if the relaxed problem has none, neither has ``S``. Relaxed problems are decided
  by the same search.

The search then tries first the placements that would clothe a stuck point, then every other clean
placement.

A placement of colour X on p is legal when every region of the position is fillable, X on p forms no
naked diagonal, and every part of p's region minus p is fillable afterwards (the other regions are
unchanged). :func:`legal_masks` gives both colours' legal points, ``(0, 0)`` when some region is not
fillable (a position no game reaches). Most placements are decided without a search, by a *witness*
(a clean filling of every empty point): a placement that a witness still covers with it moved to the
front is legal (only the placements of its eight neighbours can change). The first witness is a
reading order's, else a small search's, else one read off :func:`fillable`'s answers; a placement no
kept witness covers gets its own (it first, then a reading order), and only the placements left go to
:func:`is_legal_in`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from .geometry import GeoArgs

#: Compiled once, cached on disk, without the GIL.
JIT = njit(cache=True, nogil=True)
#: Small functions of the board tables: inlined by numba, so the tuple is never passed in a call.
INLINE = njit(cache=True, nogil=True, inline="always")

#: The memo's key: the region or its part and the colours around it, as three masks.
MEMO_KEY = types.UniTuple(types.int64, 3)
#: Bits of a position's info byte: Red has won, Blue has won.
RED_WON, BLUE_WON = 1, 2


def new_memo() -> Dict:
    """An empty memo for :func:`fillable` (keep one per process and board; clear it when large)."""
    return Dict.empty(key_type=MEMO_KEY, value_type=types.int64)


# Masks --------------------------------------------------------------------------------------------


@INLINE
def dilate4(g: GeoArgs, m: int) -> int:
    """The mask with its orthogonal neighbours."""
    n = g.n
    return (m | (m << n) | (m >> n) | ((m & g.not_east) << 1) | ((m & g.not_west) >> 1)) & g.full


@INLINE
def dilate8(g: GeoArgs, m: int) -> int:
    """The mask with all eight neighbours of its points."""
    wide = m | ((m & g.not_east) << 1) | ((m & g.not_west) >> 1)
    return (wide | (wide << g.n) | (wide >> g.n)) & g.full


@INLINE
def grow(g: GeoArgs, seed: int, within: int) -> int:
    """The points of ``within`` orthogonally connected inside it to ``seed``."""
    group = seed & within
    while True:
        bigger = dilate4(g, group) & within
        if bigger == group:
            return group
        group = bigger


@INLINE
def forms(g: GeoArgs, own: int, clothes: int, p: int) -> bool:
    """Whether a stone on ``p`` of the colour whose stones are ``own`` forms a naked diagonal, when the
    points of ``clothes`` (own stones and jokers) clothe."""
    for k in range(4):
        q = g.dq[p, k]
        if q != 0 and own & q and not clothes & g.ds[p, k]:
            return True
    return False


@INLINE
def has_chain(g: GeoArgs, own: int, first: int, second: int) -> bool:
    """Whether the stones ``own`` join edge ``first`` to edge ``second`` orthogonally."""
    group = grow(g, own & first, own)
    return bool(group & second)


@INLINE
def winner_bits(g: GeoArgs, red: int, blue: int) -> int:
    """:data:`RED_WON`, :data:`BLUE_WON` or 0."""
    if has_chain(g, red, g.north, g.south):
        return RED_WON
    if has_chain(g, blue, g.west, g.east):
        return BLUE_WON
    return 0


@INLINE
def image(g: GeoArgs, s: int, mask: int) -> int:
    """The image of a mask under symmetry ``s``."""
    out = 0
    ch = 0
    while mask:
        out |= g.sym_tab[s, ch, mask & 255]
        mask >>= 8
        ch += 1
    return out


@INLINE
def canonical(g: GeoArgs, red: int, blue: int, turn: int) -> tuple[int, int]:
    """``(canonical key, images)`` of a position (``turn`` 1: Blue to move): the smallest key of its eight
    images, and the number of distinct positions among its images under the four maps that keep the
    players."""
    size = g.size
    keys = np.empty(8, dtype=np.int64)
    best = -1
    for s in range(8):
        r, b = image(g, s, red), image(g, s, blue)
        # The maps that exchange the edges exchange the colours and the side to move too.
        k = b | r << size | (1 - turn) << (2 * size) if g.swaps[s] else r | b << size | turn << (2 * size)
        keys[s] = k
        if best < 0 or k < best:
            best = k
    # Distinct images under the four maps that keep the players (those that exchange them give
    # positions with the other side to move, which play never reaches: see docs/naked-diagonal-solve.md).
    distinct = 0
    for s in range(8):
        if g.swaps[s]:
            continue
        seen = False
        for t in range(s):
            if keys[t] == keys[s]:
                seen = True
                break
        if not seen:
            distinct += 1
    return best, distinct


# Legality -----------------------------------------------------------------------------------------


#: Deepest nesting of :func:`fillable`'s search: a frame's area is never larger than its parent's, and
#: of two frames in a row the second's is smaller, so 2 x 49 + 1 frames at most on 7 x 7.
MAX_DEPTH = 128
# What a frame of the search does next.
_START, _WINDOWS, _PLACE, _PART, _SPLIT = 0, 1, 2, 3, 4


@INLINE
def _memo_key(g: GeoArgs, area: int, red: int, blue: int, jokers: int) -> tuple[int, int, int]:
    """What the fillability of ``area`` depends on: the area and the stones and jokers around it."""
    ring = dilate8(g, area) & ~area
    return area | (red & ring), area | (blue & ring), area | (jokers & ring)


@INLINE
def lowest(m: int) -> int:
    """The index of the lowest set bit of a non-zero mask."""
    p = 0
    while not m >> p & 1:
        p += 1
    return p


@INLINE
def popcount(m: int) -> int:
    """The number of set bits of a mask."""
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@INLINE
def _colour_for(g: GeoArgs, r: int, b: int, jokers: int, p: int, prefer: int) -> int:
    """The colour a constructive filling gives ``p`` (0 Red, 1 Blue; -1 when both would form a naked
    diagonal): the only safe one, else ``prefer`` (2: the colour with more orthogonal neighbours of its
    own, Red on a tie)."""
    red_ok = not forms(g, r, r | jokers, p)
    blue_ok = not forms(g, b, b | jokers, p)
    if red_ok and blue_ok:
        if prefer < 2:
            return prefer
        near = dilate4(g, 1 << p)
        return 1 if popcount(b & near) > popcount(r & near) else 0
    return 0 if red_ok else 1 if blue_ok else -1


@INLINE
def _greedy(g: GeoArgs, area: int, red: int, blue: int, jokers: int, order: int) -> bool:
    """Whether filling ``area`` point by point in one of four orders (``order`` 0: reading order, 1: its
    reverse, 2: column by column, 3: its reverse), each point with the colour of :func:`_colour_for`
    (the one with more orthogonal neighbours of its colour when both are safe), succeeds: if it does,
    that order is a clean filling."""
    return _stuck_at(g, area, red, blue, jokers, order) < 0


@INLINE
def _in_order(g: GeoArgs, order: int, i: int) -> int:
    """The i-th point of reading order ``order`` (0: reading order, 1: its reverse, 2: column by column,
    3: its reverse)."""
    k = g.size - 1 - i if order & 1 else i
    return (k % g.n) * g.n + k // g.n if order & 2 else k


@INLINE
def _stuck_at(g: GeoArgs, area: int, red: int, blue: int, jokers: int, order: int) -> int:
    """The point where :func:`_greedy`'s filling finds neither colour clean, -1 when it fills ``area``."""
    return _filled_in_order(g, area, red, blue, jokers, order, np.empty(0, dtype=np.int64), -1)[0]


@INLINE
def _filled_in_order(g: GeoArgs, area: int, red: int, blue: int, jokers: int, order: int, seq: np.ndarray,
                     at: int) -> tuple[int, int, int, int]:
    """:func:`_greedy`'s filling of ``area`` in reading order ``order``, each placement written to ``seq``
    from ``at`` on (as ``point * 2 + colour``; ``at`` -1: not written): ``(stuck, red, blue, at)`` where
    it ended, ``stuck`` the point where it found neither colour clean (-1 when it filled ``area``)."""
    r, b = red, blue
    for i in range(g.size):
        p = _in_order(g, order, i)
        if not area >> p & 1:
            continue
        colour = _colour_for(g, r, b, jokers, p, 2)
        if colour < 0:
            return p, r, b, at
        r, b = (r | 1 << p, b) if colour == 0 else (r, b | 1 << p)
        if at >= 0:
            seq[at] = p * 2 + colour
            at += 1
    return -1, r, b, at


@INLINE
def _repaired(g: GeoArgs, area: int, red: int, blue: int, jokers: int, order: int) -> bool:
    """Whether :func:`_greedy`'s filling succeeds once clothing points are placed first: where it gets
    stuck on p, a shared point of one of p's naked diagonals that can take that colour cleanly now is
    placed first, and the filling starts again (at most 8 times). Every placement is checked as it is
    made, so success is a clean filling."""
    a, r, b = area, red, blue
    for _ in range(8):
        p = _stuck_at(g, a, r, b, jokers, order)
        if p < 0:
            return True
        first_red, first_blue = _clothing(g, a, r, b, jokers, 1 << p)
        placed = False
        for colour in range(2):
            own, first = (r, first_red) if colour == 0 else (b, first_blue)
            while first and not placed:
                s = lowest(first)
                first &= first - 1
                if not forms(g, own, own | jokers, s):
                    r, b = (r | 1 << s, b) if colour == 0 else (r, b | 1 << s)
                    a &= ~(1 << s)
                    placed = True
        if not placed:
            return False
    return _stuck_at(g, a, r, b, jokers, order) < 0


@INLINE
def _forced_first(g: GeoArgs, area: int, red: int, blue: int, jokers: int) -> bool:
    """Whether a filling that always places next a safe placement (:func:`_safe`), else a point with a
    single clean colour (one that forms no naked diagonal at that moment), else the first point in
    reading order that has a clean colour (the one with more orthogonal neighbours of its own), fills
    ``area`` cleanly. A point with no clean colour waits: a later placement may clothe it. It fails only
    when every point left has none; if it succeeds, it is a clean filling."""
    r, b = red, blue
    rest = area
    while rest:
        chosen = colour = -1
        fallback = fallback_colour = -1
        left = rest
        while left:
            p = lowest(left)
            left &= left - 1
            safe = _safe_colour(g, rest, r, b, jokers, p)
            if safe >= 0:
                chosen, colour = p, safe
                break
            red_first, blue_first = _colour_for(g, r, b, jokers, p, 0), _colour_for(g, r, b, jokers, p, 1)
            if red_first < 0:
                continue
            if red_first == blue_first:
                if chosen < 0:
                    chosen, colour = p, red_first
            elif fallback < 0:
                fallback, fallback_colour = p, _colour_for(g, r, b, jokers, p, 2)
        if chosen < 0:
            chosen, colour = fallback, fallback_colour
        if chosen < 0:
            return False
        r, b = (r | 1 << chosen, b) if colour == 0 else (r, b | 1 << chosen)
        rest &= ~(1 << chosen)
    return True


@INLINE
def _lattice(g: GeoArgs, area: int, red: int, blue: int, jokers: int, offset: int, prefer: int) -> bool:
    """Whether a lattice order fills ``area`` cleanly: first the points whose (row, column) parities,
    relative to the offset (``offset`` 0 to 3: row parity * 2 + column parity), are (0, 0), then (0, 1),
    (1, 0) and (1, 1), each with the colour ``prefer`` (0 Red, 1 Blue) when it forms no naked diagonal,
    else the other (the construction of :mod:`unitile_py.naked_diagonal.construct`, without its clothing
    repairs). Two points of one phase share no 2x2 block, and in open ground one colour everywhere is
    clean."""
    r, b = red, blue
    n = g.n
    r0, c0 = offset >> 1, offset & 1
    for phase in range(4):
        for p in range(g.size):
            if not area >> p & 1 or ((p // n - r0) & 1) * 2 + ((p % n - c0) & 1) != phase:
                continue
            colour = _colour_for(g, r, b, jokers, p, prefer)
            if colour < 0:
                return False
            r, b = (r | 1 << p, b) if colour == 0 else (r, b | 1 << p)
    return True


@INLINE
def _any_greedy(g: GeoArgs, area: int, red: int, blue: int, jokers: int) -> bool:
    """Whether one of :func:`_greedy`'s four orders, the eight lattice orders of :func:`_lattice`,
    :func:`_forced_first` or :func:`_repaired` fills ``area`` cleanly (each tried only when those before
    it fail)."""
    for order in range(4):
        if _greedy(g, area, red, blue, jokers, order):
            return True
    for offset in range(4):
        for prefer in range(2):
            if _lattice(g, area, red, blue, jokers, offset, prefer):
                return True
    if _forced_first(g, area, red, blue, jokers):
        return True
    return _repaired(g, area, red, blue, jokers, 0) or _repaired(g, area, red, blue, jokers, 1)


@INLINE
def _safe(g: GeoArgs, area: int, own: int, jokers: int, p: int) -> bool:
    """Whether a stone of ``own``'s colour on ``p`` is a *safe* first placement of ``area``: it forms no
    naked diagonal, and every diagonal it makes with a point of ``area`` already has an own stone or a
    joker next to both (docs/naked-diagonal.md, "Safe first placements": if ``area`` has a clean
    filling, it has one that starts with any safe placement)."""
    clothes = own | jokers
    for k in range(4):
        q = g.dq[p, k]
        if q != 0 and (own | area) & q and not clothes & g.ds[p, k]:
            return False
    return True


@INLINE
def _safe_colour(g: GeoArgs, area: int, red: int, blue: int, jokers: int, p: int) -> int:
    """0 when Red on ``p`` is safe (:func:`_safe`), else 1 when Blue on it is, else -1."""
    if _safe(g, area, red, jokers, p):
        return 0
    return 1 if _safe(g, area, blue, jokers, p) else -1


@INLINE
def settle(g: GeoArgs, area: int, red: int, blue: int, jokers: int) -> tuple[int, int, int]:
    """``(area, red, blue)`` after placing safe placements (:func:`_safe`) until none is left: the area
    left is fillable exactly when ``area`` is (each safe placement keeps a clean filling when there is
    one, and the parts it leaves never interact)."""
    a, r, b, _ = _settle_recorded(g, area, red, blue, jokers, np.empty(0, dtype=np.int64), -1)
    return a, r, b


@INLINE
def _settle_recorded(g: GeoArgs, area: int, red: int, blue: int, jokers: int, seq: np.ndarray,
                     at: int) -> tuple[int, int, int, int]:
    """:func:`settle`, each safe placement written to ``seq`` from ``at`` on (as ``point * 2 +
    colour``; ``at`` -1: not written): ``(area, red, blue, at)`` after them."""
    a, r, b = area, red, blue
    changed = True
    while changed and a:
        changed = False
        rest = a
        while rest:
            bit = rest & -rest
            rest &= rest - 1
            p = lowest(bit)
            safe = _safe_colour(g, a, r, b, jokers, p)
            if safe < 0:
                continue
            r, b = (r | bit, b) if safe == 0 else (r, b | bit)
            a &= ~bit
            if at >= 0:
                seq[at] = p * 2 + safe
                at += 1
            changed = True
    return a, r, b, at


@INLINE
def barred(g: GeoArgs, area: int, red: int, blue: int) -> tuple[int, int]:
    """``(no red, no blue)``: points of ``area`` that no clean filling ever gives Red, and Blue.

    The largest sets with this property: Red on p is barred when p has a red stone diagonally next to it
    whose two shared points each hold a blue stone or are barred for Red (the same for Blue). In a
    filling that gave some barred point its barred colour, the first such placement would find the
    shared points of that diagonal without its colour (enemy stones, still empty, or of the other
    colour), and would form a naked diagonal. A point barred for both colours can never be filled, so
    the area has no clean filling (:func:`doomed`); a dead point is the smallest example.
    """
    no_red, no_blue = area, area
    while True:
        red_next = _still_barred(g, red, blue, no_red)
        blue_next = _still_barred(g, blue, red, no_blue)
        if red_next == no_red and blue_next == no_blue:
            return no_red, no_blue
        no_red, no_blue = red_next, blue_next


@INLINE
def _still_barred(g: GeoArgs, own: int, enemy: int, barred_now: int) -> int:
    """The points of ``barred_now`` with a diagonal ``own`` stone whose shared points are each an
    ``enemy`` stone or in ``barred_now`` (one step of :func:`barred`'s fixed point)."""
    out = 0
    rest = barred_now
    while rest:
        p = lowest(rest)
        rest &= rest - 1
        for k in range(4):
            q = g.dq[p, k]
            if q != 0 and own & q and g.ds[p, k] & ~(enemy | barred_now) == 0:
                out |= 1 << p
                break
    return out


@INLINE
def doomed(g: GeoArgs, area: int, red: int, blue: int) -> int:
    """The points of ``area`` barred for both colours (:func:`barred`): if there is one, ``area`` has no
    clean filling."""
    no_red, no_blue = barred(g, area, red, blue)
    return no_red & no_blue


@INLINE
def _clothing(g: GeoArgs, area: int, red: int, blue: int, jokers: int, stuck: int) -> tuple[int, int]:
    """``(red first, blue first)``: the points of ``area`` whose stone of that colour would clothe a
    naked diagonal that a point of ``stuck`` would form with that colour now."""
    out_red = out_blue = 0
    for p in range(g.size):
        if stuck >> p & 1:
            for k in range(4):
                q, shared = g.dq[p, k], g.ds[p, k]
                if red & q and not (red | jokers) & shared:
                    out_red |= shared & area
                if blue & q and not (blue | jokers) & shared:
                    out_blue |= shared & area
    return out_red, out_blue


@INLINE
def _next_placement(g: GeoArgs, at: int, area: int, red: int, blue: int, jokers: int, first_red: int,
                    first_blue: int) -> int:
    """The next first placement from ``at`` on in :func:`fillable`'s order (``4 * size``: none left):
    ``at`` stands for the point ``(at >> 1) % size`` and the colour ``at & 1`` (0 Red, 1 Blue); a first
    pass takes the placements of ``first_red`` and ``first_blue`` (those that clothe a stuck point), a
    second the others; each is a point of ``area`` that forms no naked diagonal (jokers clothing)."""
    while at < 4 * g.size:
        p, colour = (at >> 1) % g.size, at & 1
        own = red if colour == 0 else blue
        first = (first_red if colour == 0 else first_blue) >> p & 1
        if area >> p & 1 and (at < 2 * g.size) == (first != 0) and not forms(g, own, own | jokers, p):
            return at
        at += 1
    return at


@JIT
def fillable(g: GeoArgs, area: int, red: int, blue: int, jokers: int, memo: Dict) -> bool:
    """Whether the connected set of empty points ``area`` has a clean filling (see the module docstring).

    ``jokers`` are empty points outside ``area`` that clothe every diagonal and form none. The search is
    recursive; it runs on an explicit stack of frames (numba's cache cannot reload recursive functions).
    A frame first settles its area (:func:`settle`), then looks for a doomed set (:func:`doomed`) and
    tries the constructive fillings; what is left, split into its parts, is searched (windows, then
    every clean first placement) by frames that skip those first steps.
    """
    f_area = np.empty(MAX_DEPTH, dtype=np.int64)
    f_red = np.empty(MAX_DEPTH, dtype=np.int64)
    f_blue = np.empty(MAX_DEPTH, dtype=np.int64)
    f_jok = np.empty(MAX_DEPTH, dtype=np.int64)
    f_settled = np.empty(MAX_DEPTH, dtype=np.bool_)  # settled, not doomed, no construction fills it
    f_seeds = np.empty(MAX_DEPTH, dtype=np.int64)  # the points the windows are centred on
    f_first_red = np.empty(MAX_DEPTH, dtype=np.int64)  # first placements tried, Red's and Blue's
    f_first_blue = np.empty(MAX_DEPTH, dtype=np.int64)
    f_state = np.empty(MAX_DEPTH, dtype=np.int64)
    f_at = np.empty(MAX_DEPTH, dtype=np.int64)  # the next window point, or the candidate point * 2 + colour
    f_rest = np.empty(MAX_DEPTH, dtype=np.int64)  # parts still to fill (after the candidate, or settled)
    f_red2 = np.empty(MAX_DEPTH, dtype=np.int64)
    f_blue2 = np.empty(MAX_DEPTH, dtype=np.int64)
    top = 0
    f_area[0], f_red[0], f_blue[0], f_jok[0], f_state[0] = area, red, blue, jokers, _START
    f_settled[0] = False
    result = -1  # the answer of the frame just finished, for the frame below it
    while True:
        a, r, b, j = f_area[top], f_red[top], f_blue[top], f_jok[top]
        state = f_state[top]
        done = -1
        call_area = 0
        call_red = call_blue = call_jok = 0
        call_settled = False
        if state == _START:
            # 2: a clean filling found at once, not worth a memo entry.
            known = 2 if a == 0 or (not f_settled[top] and _any_greedy(g, a, r, b, j)) else -1
            if known < 0:
                known = memo.get(_memo_key(g, a, r, b, j), -1)
            if known >= 0:
                done = known
            elif f_settled[top]:
                state = _WINDOWS
                f_at[top] = 0
                # The windows are centred where the reading-order fillings got stuck.
                seeds = 0
                for order in range(4):
                    stuck = _stuck_at(g, a, r, b, j, order)
                    if stuck >= 0:
                        seeds |= 1 << stuck
                f_seeds[top] = seeds
                f_first_red[top], f_first_blue[top] = _clothing(g, a, r, b, j, seeds)
            else:
                a2, r2, b2 = settle(g, a, r, b, j)
                if a2 == 0:
                    done = 2
                elif doomed(g, a2, r2, b2):
                    done = 0
                elif a2 != a and _any_greedy(g, a2, r2, b2, j):
                    done = 2
                else:
                    state = _SPLIT
                    f_rest[top], f_red2[top], f_blue2[top] = a2, r2, b2
                    result = 1
        if done < 0 and state == _SPLIT:
            rest = f_rest[top]
            if result == 0:
                done = 0
            elif rest == 0:
                done = 1
            else:
                part = grow(g, rest & -rest, rest)
                f_rest[top] = rest & ~part
                call_area, call_red, call_blue, call_jok = part, f_red2[top], f_blue2[top], j
                # A settled area in one piece skips straight to the search.
                call_settled = part == rest
        elif state == _WINDOWS and result == 0:
            done = 0
        elif state == _PART and result == 1 and f_rest[top] == 0:
            done = 1
        if done < 0 and call_area == 0 and state == _WINDOWS:
            seeds = f_seeds[top]
            at = f_at[top]
            # First the windows of one row and column around each seed, then of two.
            while at < 2 * g.size:
                d = at % g.size
                if seeds >> d & 1:
                    window = grow(g, 1 << d, (g.box1[d] if at < g.size else g.box2[d]) & a)
                    if window != a:
                        call_area, call_red, call_blue, call_jok = window, r, b, j | (a & ~window)
                        break
                at += 1
            f_at[top] = at + 1
            if call_area == 0:
                state = _PLACE
                f_at[top] = 0
        if done < 0 and call_area == 0 and state == _PART:
            if result == 1:
                rest = f_rest[top]
                part = grow(g, rest & -rest, rest)
                f_rest[top] = rest & ~part
                call_area, call_red, call_blue, call_jok = part, f_red2[top], f_blue2[top], j
            else:
                state = _PLACE
                f_at[top] += 1
        if done < 0 and call_area == 0 and state == _PLACE:
            at = _next_placement(g, f_at[top], a, r, b, j, f_first_red[top], f_first_blue[top])
            f_at[top] = at
            if at == 4 * g.size:
                done = 0
            else:
                p, colour = (at >> 1) % g.size, at & 1
                bit = 1 << p
                r2 = r | bit if colour == 0 else r
                b2 = b | bit if colour == 1 else b
                rest = a & ~bit
                if rest == 0:
                    done = 1
                else:
                    part = grow(g, rest & -rest, rest)
                    f_rest[top] = rest & ~part
                    f_red2[top], f_blue2[top] = r2, b2
                    state = _PART
                    call_area, call_red, call_blue, call_jok = part, r2, b2, j
        f_state[top] = state
        if done >= 0:
            if done == 2:
                done = 1
            else:
                memo[_memo_key(g, a, r, b, j)] = done
            if top == 0:
                return done == 1
            top -= 1
            result = done
        else:
            top += 1
            if top == MAX_DEPTH:
                raise ValueError("fillable: the search nested deeper than MAX_DEPTH")
            f_area[top], f_red[top], f_blue[top], f_jok[top] = call_area, call_red, call_blue, call_jok
            f_settled[top] = call_settled
            f_state[top] = _START
            result = -1


@JIT
def all_fillable(g: GeoArgs, empty: int, red: int, blue: int, memo: Dict) -> bool:
    """Whether every maximal region of the empty points ``empty`` is fillable."""
    rest = empty
    while rest:
        part = grow(g, rest & -rest, rest)
        rest &= ~part
        if not fillable(g, part, red, blue, 0, memo):
            return False
    return True


@JIT
def is_legal_in(g: GeoArgs, region: int, red: int, blue: int, colour: int, p: int, memo: Dict) -> bool:
    """Whether ``colour`` (0 Red, 1 Blue) on ``p`` of the fillable region ``region`` is legal."""
    own = red if colour == 0 else blue
    if forms(g, own, own, p):
        return False
    bit = 1 << p
    r2 = red | bit if colour == 0 else red
    b2 = blue | bit if colour == 1 else blue
    return all_fillable(g, region & ~bit, r2, b2, memo)


@INLINE
def _witness(g: GeoArgs, empty: int, red: int, blue: int, first: int, first_colour: int, order: int,
             w_colour: np.ndarray, w_red: np.ndarray, w_blue: np.ndarray, w_index: np.ndarray) -> bool:
    """Whether a clean filling of all of ``empty`` is found by placing ``first_colour`` (0 Red, 1 Blue) on
    ``first`` (-1: none; the caller checks that it forms no naked diagonal) and then the rest in
    :func:`_greedy`'s reading order ``order``; if so it is a *witness*, held by the arrays:
    ``w_colour[i]`` of its i-th placement, ``w_red[i]`` and ``w_blue[i]`` the stones before it,
    ``w_index[p]`` the placement of point p."""
    r, b = red, blue
    at = 0
    if first >= 0:
        w_colour[0], w_red[0], w_blue[0] = first_colour, r, b
        w_index[first] = 0
        at = 1
        r, b = (r | 1 << first, b) if first_colour == 0 else (r, b | 1 << first)
    rest = empty & ~(r | b)
    for i in range(g.size):
        p = _in_order(g, order, i)
        if not rest >> p & 1:
            continue
        colour = _colour_for(g, r, b, 0, p, 2)
        if colour < 0:
            return False
        w_colour[at], w_red[at], w_blue[at] = colour, r, b
        w_index[p] = at
        at += 1
        r, b = (r | 1 << p, b) if colour == 0 else (r, b | 1 << p)
    return True


@INLINE
def _finishing_order(g: GeoArgs, area: int, red: int, blue: int, seq: np.ndarray,
                     length: int) -> tuple[bool, int, int, int, int]:
    """``(finished, stuck, red, blue, length)``: whether one of :func:`_greedy`'s reading orders fills
    ``area`` cleanly (the first that does writes its placements to ``seq`` from ``length`` on, and
    ``red``, ``blue`` and ``length`` are those after them), and the points where the orders before it
    got stuck."""
    stuck = 0
    for order in range(4):
        point, r, b, at = _filled_in_order(g, area, red, blue, 0, order, seq, length)
        if point < 0:
            return True, stuck, r, b, at
        stuck |= 1 << point
    return False, stuck, red, blue, length


@INLINE
def _as_witness(g: GeoArgs, empty: int, red: int, blue: int, seq: np.ndarray, length: int,
                w_colour: np.ndarray, w_red: np.ndarray, w_blue: np.ndarray, w_index: np.ndarray) -> bool:
    """Whether the placements ``seq[:length]`` (``point * 2 + colour``) fill ``empty`` and none forms a
    naked diagonal when it is made; if so they are written as a witness (:func:`_witness`)."""
    r, b = red, blue
    for i in range(length):
        p, colour = seq[i] >> 1, seq[i] & 1
        bit = 1 << p
        own = r if colour == 0 else b
        if not empty & bit or (r | b) & bit or forms(g, own, own, p):
            return False
        w_colour[i], w_red[i], w_blue[i] = colour, r, b
        w_index[p] = i
        r, b = (r | bit, b) if colour == 0 else (r, b | bit)
    return (r | b) == (red | blue | empty)


@JIT
def _searched_witness(g: GeoArgs, empty: int, red: int, blue: int, w_colour: np.ndarray, w_red: np.ndarray,
                      w_blue: np.ndarray, w_index: np.ndarray, budget: int) -> bool:
    """:func:`_witness` found by a small search where no reading order fills the points: each node makes
    the safe placements (:func:`settle`), then tries to finish with a reading order, then branches on
    its placements that form no naked diagonal, first those that clothe a point where the reading
    orders got stuck; at most ``budget`` nodes. Every placement is checked as it is made
    (:func:`_as_witness`), so a witness found is a clean filling; False says nothing."""
    depth = g.size + 2
    seq = np.empty(g.size, dtype=np.int64)
    frames = np.empty((7, depth), dtype=np.int64)  # one row a field, one column a frame
    f_area, f_red, f_blue, f_length = frames[0], frames[1], frames[2], frames[3]
    f_next, f_clothe_red, f_clothe_blue = frames[4], frames[5], frames[6]
    f_area[0], f_red[0], f_blue[0], f_length[0] = empty, red, blue, 0
    top = 0
    nodes = 0
    entering = True
    while True:
        if entering:
            entering = False
            nodes += 1
            a, r, b, length = _settle_recorded(g, f_area[top], f_red[top], f_blue[top], 0, seq, f_length[top])
            finished, stuck, r, b, length = _finishing_order(g, a, r, b, seq, length)
            if finished:
                return _as_witness(g, empty, red, blue, seq, length, w_colour, w_red, w_blue, w_index)
            f_area[top], f_red[top], f_blue[top], f_length[top] = a, r, b, length
            f_clothe_red[top], f_clothe_blue[top] = _clothing(g, a, r, b, 0, stuck)
            f_next[top] = 0
        if nodes >= budget:
            return False
        a, r, b = f_area[top], f_red[top], f_blue[top]
        k = _next_placement(g, f_next[top], a, r, b, 0, f_clothe_red[top], f_clothe_blue[top])
        f_next[top] = k + 1
        if k == 4 * g.size:
            if top == 0:
                return False
            top -= 1
            continue
        p, colour = (k >> 1) % g.size, k & 1
        bit = 1 << p
        seq[f_length[top]] = p * 2 + colour
        f_area[top + 1] = a & ~bit
        f_red[top + 1], f_blue[top + 1] = (r | bit, b) if colour == 0 else (r, b | bit)
        f_length[top + 1] = f_length[top] + 1
        top += 1
        entering = True


@JIT
def _extracted_witness(g: GeoArgs, empty: int, red: int, blue: int, w_colour: np.ndarray, w_red: np.ndarray,
                       w_blue: np.ndarray, w_index: np.ndarray, memo: Dict, budget: int) -> bool:
    """:func:`_witness` read off :func:`fillable`'s answers, for points that :func:`fillable` found
    fillable: the parts are filled one after the other (fact 1 of docs/naked-diagonal.md: they never
    interact), each by its safe placements, then a reading order if one finishes it, else the first
    placement in :func:`fillable`'s order after which it finds every part left fillable. At most
    ``budget`` calls of :func:`fillable`; every placement is checked as it is made
    (:func:`_as_witness`), so a witness found is a clean filling."""
    seq = np.empty(g.size, dtype=np.int64)
    todo = np.empty(g.size + 1, dtype=np.int64)
    r, b, length = red, blue, 0
    rest = empty
    count = 0
    while rest:
        part = grow(g, rest & -rest, rest)
        rest &= ~part
        todo[count] = part
        count += 1
    calls = 0
    while count:
        count -= 1
        a, r, b, length = _settle_recorded(g, todo[count], r, b, 0, seq, length)
        if a == 0:
            continue
        finished, seeds, r, b, length = _finishing_order(g, a, r, b, seq, length)
        if finished:
            continue
        # fillable's order, so that its answers are mostly in the memo already.
        first_red, first_blue = _clothing(g, a, r, b, 0, seeds)
        chosen = -1
        k = _next_placement(g, 0, a, r, b, 0, first_red, first_blue)
        while k < 4 * g.size:
            if calls >= budget:
                return False
            calls += 1
            p, colour = (k >> 1) % g.size, k & 1
            r2, b2 = (r | 1 << p, b) if colour == 0 else (r, b | 1 << p)
            if all_fillable(g, a & ~(1 << p), r2, b2, memo):
                chosen = p * 2 + colour
                break
            k = _next_placement(g, k + 1, a, r, b, 0, first_red, first_blue)
        if chosen < 0:
            return False
        p, colour = chosen >> 1, chosen & 1
        seq[length] = chosen
        length += 1
        r, b = (r | 1 << p, b) if colour == 0 else (r, b | 1 << p)
        left = a & ~(1 << p)
        while left:
            part = grow(g, left & -left, left)
            left &= ~part
            todo[count] = part
            count += 1
    return _as_witness(g, empty, red, blue, seq, length, w_colour, w_red, w_blue, w_index)


@INLINE
def _covered(g: GeoArgs, empty: int, p: int, colour: int, w_colour: np.ndarray, w_red: np.ndarray,
             w_blue: np.ndarray, w_index: np.ndarray) -> bool:
    """Whether the witness with ``colour`` on ``p`` moved to the front is still clean after ``p``: then
    ``colour`` on ``p`` leaves every part of its region fillable (the rest of the witness fills them).
    Only the placements next to ``p`` (its eight neighbours) can change: whether a placement forms a naked
    diagonal depends on its eight neighbours alone. The caller checks ``p`` itself."""
    at = w_index[p]
    bit = 1 << p
    near = g.box1[p] & empty & ~bit
    while near:
        q = lowest(near)
        near &= near - 1
        i = w_index[q]
        r, b = w_red[i], w_blue[i]
        if at < i:  # p was placed before q in the witness: take its old stone away
            r &= ~bit
            b &= ~bit
        if colour == 0:
            r |= bit
        else:
            b |= bit
        own = r if w_colour[i] == 0 else b
        if forms(g, own, own, q):
            return False
    return True


@JIT
def legal_masks(g: GeoArgs, red: int, blue: int, memo: Dict) -> tuple[int, int]:
    """The points where Red, and where Blue, may legally place (wins not considered); ``(0, 0)`` when some
    region is not fillable."""
    return _legal(g, red, blue, 0, 1, memo)


@JIT
def legal_points(g: GeoArgs, red: int, blue: int, colour: int, memo: Dict) -> int:
    """The points where ``colour`` (0 Red, 1 Blue) may legally place: ``legal_masks(...)[colour]``,
    without testing the other colour."""
    return _legal(g, red, blue, colour, colour, memo)[colour]


#: Witnesses that :func:`_legal` keeps at once.
WITNESSES = 8
#: Nodes of :func:`_searched_witness` for one witness.
WITNESS_NODES = 8
#: Calls of :func:`fillable` that :func:`_extracted_witness` may make for one witness.
EXTRACT_CALLS = 24


@INLINE
def _legal(g: GeoArgs, red: int, blue: int, first: int, last: int, memo: Dict) -> tuple[int, int]:
    """Red's and Blue's legal points, for the colours ``first`` to ``last`` (0 Red, 1 Blue; 0 for the
    others). A clean filling of every empty point (a *witness*, :func:`_witness`) proves legal each
    placement that forms no naked diagonal and that it still covers with the placement moved to the
    front (:func:`_covered`). The first witness is a reading order's, else a small search's
    (:func:`_searched_witness`), else, the points being fillable, one read off :func:`fillable`'s
    answers (:func:`_extracted_witness`). A placement none of the witnesses kept covers gets one of its
    own, that placement first and then a reading order, kept for the placements after it (the oldest
    given up past :data:`WITNESSES`); without one, :func:`is_legal_in` decides it."""
    empty = g.full & ~(red | blue)
    w_colour = np.empty((WITNESSES, g.size), dtype=np.int64)
    w_red = np.empty((WITNESSES, g.size), dtype=np.int64)
    w_blue = np.empty((WITNESSES, g.size), dtype=np.int64)
    w_index = np.empty((WITNESSES, g.size), dtype=np.int64)
    valid = np.zeros(WITNESSES, dtype=np.bool_)
    for order in range(4):
        if _witness(g, empty, red, blue, -1, 0, order, w_colour[0], w_red[0], w_blue[0], w_index[0]):
            valid[0] = True
            break
    if not valid[0]:
        valid[0] = _searched_witness(g, empty, red, blue, w_colour[0], w_red[0], w_blue[0], w_index[0],
                                     WITNESS_NODES)
    out_red = out_blue = 0
    if not valid[0]:
        if not all_fillable(g, empty, red, blue, memo):
            return out_red, out_blue
        valid[0] = _extracted_witness(g, empty, red, blue, w_colour[0], w_red[0], w_blue[0], w_index[0],
                                      memo, EXTRACT_CALLS)
    made = 1 if valid[0] else 0
    for colour in range(first, last + 1):
        own = red if colour == 0 else blue
        out = 0
        for p in range(g.size):
            if not empty >> p & 1 or forms(g, own, own, p):
                continue
            covered = False
            for k in range(WITNESSES):
                if valid[k] and _covered(g, empty, p, colour, w_colour[k], w_red[k], w_blue[k], w_index[k]):
                    covered = True
                    break
            if not covered:
                k = made % WITNESSES
                for order in range(4):
                    covered = _witness(g, empty, red, blue, p, colour, order, w_colour[k], w_red[k],
                                       w_blue[k], w_index[k])
                    if covered:
                        break
                valid[k] = covered  # a failed attempt leaves the slot's arrays half written
                made += 1 if covered else 0
            if covered or is_legal_in(g, grow(g, 1 << p, empty), red, blue, colour, p, memo):
                out |= 1 << p
        if colour == 0:
            out_red = out
        else:
            out_blue = out
    return out_red, out_blue


@JIT
def can_place(g: GeoArgs, red: int, blue: int, colour: int, memo: Dict) -> bool:
    """Whether ``colour`` has a legal placement (stops at the first one found)."""
    empty = g.full & ~(red | blue)
    if not all_fillable(g, empty, red, blue, memo):
        return False
    for p in range(g.size):
        if empty >> p & 1 and is_legal_in(g, grow(g, 1 << p, empty), red, blue, colour, p, memo):
            return True
    return False


@JIT
def legal_many(g: GeoArgs, red: np.ndarray, blue: np.ndarray, memo: Dict) -> tuple[np.ndarray, np.ndarray]:
    """:func:`legal_masks` of many positions."""
    out_red = np.empty(red.shape[0], dtype=np.int64)
    out_blue = np.empty(red.shape[0], dtype=np.int64)
    for i in range(red.shape[0]):
        out_red[i], out_blue[i] = legal_masks(g, red[i], blue[i], memo)
    return out_red, out_blue


# Positions of a tier ------------------------------------------------------------------------------


@JIT
def describe(g: GeoArgs, keys: np.ndarray, memo: Dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For canonical keys: both colours' legal points (``red | blue << 32``), the info byte (who has won)
    and the number of distinct images of each position."""
    m = keys.shape[0]
    legal = np.empty(m, dtype=np.int64)
    info = np.empty(m, dtype=np.uint8)
    orbit = np.empty(m, dtype=np.uint8)
    size = g.size
    for i in range(m):
        k = keys[i]
        red, blue, turn = k & g.full, (k >> size) & g.full, (k >> (2 * size)) & 1
        lr, lb = legal_masks(g, red, blue, memo)
        legal[i] = lr | lb << 32
        info[i] = winner_bits(g, red, blue)
        orbit[i] = canonical(g, red, blue, turn)[1]
    return legal, info, orbit


@JIT
def child_of(g: GeoArgs, red: int, blue: int, turn: int, p: int, memo: Dict) -> tuple[int, int]:
    """``(canonical key, skip)`` after the side to move (``turn``) places on ``p`` (legal): the opponent
    moves next, unless nobody has won and the opponent has no legal placement (a skip: ``skip`` is 1 and
    the same side moves again). The canonical key's side-to-move bit is that of the canonical image, so
    only ``skip`` says whose turn it is compared with this position."""
    bit = 1 << p
    r2 = red | bit if turn == 0 else red
    b2 = blue | bit if turn == 1 else blue
    nxt = 1 - turn
    if winner_bits(g, r2, b2) == 0 and not can_place(g, r2, b2, nxt, memo):
        nxt = turn
    return canonical(g, r2, b2, nxt)[0], int(nxt == turn)


@JIT
def children(g: GeoArgs, keys: np.ndarray, legal: np.ndarray, info: np.ndarray, memo: Dict) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """Every move of the positions of a tier: ``(parent row, point, canonical child key, skip)`` (see
    :func:`child_of`), parents in order, points increasing; positions with a winner have none. The
    points are those of the canonical position (the key's)."""
    size = g.size
    total = 0
    for i in range(keys.shape[0]):
        if info[i] == 0:
            turn = (keys[i] >> (2 * size)) & 1
            total += popcount(legal[i] >> (32 * turn) & g.full)
    parent = np.empty(total, dtype=np.int64)
    point = np.empty(total, dtype=np.int64)
    child = np.empty(total, dtype=np.int64)
    skip = np.empty(total, dtype=np.int64)
    at = 0
    for i in range(keys.shape[0]):
        if info[i] != 0:
            continue
        k = keys[i]
        red, blue, turn = k & g.full, (k >> size) & g.full, (k >> (2 * size)) & 1
        mine = legal[i] >> (32 * turn) & g.full
        for p in range(size):
            if mine >> p & 1:
                parent[at] = i
                point[at] = p
                child[at], skip[at] = child_of(g, red, blue, turn, p, memo)
                at += 1
    return parent, point, child, skip


@JIT
def is_canonical(g: GeoArgs, keys: np.ndarray) -> np.ndarray:
    """Whether each key is its position's canonical key."""
    size = g.size
    out = np.empty(keys.shape[0], dtype=np.bool_)
    for i in range(keys.shape[0]):
        k = keys[i]
        out[i] = canonical(g, k & g.full, (k >> size) & g.full, (k >> (2 * size)) & 1)[0] == k
    return out


# Values -------------------------------------------------------------------------------------------


@JIT
def combine(info: np.ndarray, parent: np.ndarray, child_value: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """The values of a tier's positions from their children's (perfect play, see :mod:`.solve_stage`).

    ``child_value[j]`` is the value of move ``j``'s position for its side to move, ``skip[j]`` 1 when
    that side is the mover again (the opponent was skipped). A value is ``+d`` for a win in d placements,
    ``-d`` for a loss in d, 0 for a
    position where the side to move has lost already.
    """
    m = info.shape[0]
    best = np.zeros(m, dtype=np.int16)
    started = np.zeros(m, dtype=np.bool_)
    for j in range(parent.shape[0]):
        i = parent[j]
        v = child_value[j]
        # The child's side to move wins when v > 0; this side wins when that side is the other one
        # and loses, or is this side (a skip) and wins. The move adds one placement.
        wins = (v > 0) == (skip[j] == 1)
        mine = abs(v) + 1 if wins else -(abs(v) + 1)
        if not started[i] or better(mine, best[i]):
            best[i] = mine
            started[i] = True
    for i in range(m):
        if info[i] != 0:
            best[i] = 0
        elif not started[i]:
            best[i] = -32768  # a position with no move and no winner: the caller reports it
    return best


@INLINE
def better(a: int, b: int) -> bool:
    """Whether value ``a`` is better than ``b`` for the side to move: a win beats a loss, a faster win a
    slower one, a longer loss a shorter one."""
    if a > 0 and b > 0:
        return a < b
    if a > 0 or b > 0:
        return a > 0
    return a < b


# The memo of each process ----------------------------------------------------------------------------

#: Entries a process's memo may hold before it is cleared (about 100 bytes each).
MEMO_LIMIT = 4_000_000
_MEMOS: dict[int, Dict] = {}


def memo_for(n: int) -> Dict:
    """This process's memo for the n x n board, cleared first when it has grown past :data:`MEMO_LIMIT`
    (tasks on one worker share it: regions recur from position to position)."""
    memo = _MEMOS.get(n)
    if memo is None or len(memo) > MEMO_LIMIT:
        memo = _MEMOS[n] = new_memo()
    return memo
