"""The exhaustive atlas of NDE configurations (docs/naked-diagonal-areas.md).

A **configuration** is a connected set ``A`` of k empty points (a polyomino, the *area*), the sides of
its box along which the board's edge runs (:func:`edge_sets`), and what lies on its *ring* (the points
within one row and one column of ``A`` that are not in ``A``): beyond the edge, nothing; orthogonally
next to ``A``, a red or a blue stone (an empty point there would be part of the area); touching ``A`` at
a corner only, a red stone, a blue stone or nothing that matters (an empty point of another region:
fact 1 of docs/naked-diagonal.md). Points beyond the ring cannot matter: a naked diagonal formed on a
point of ``A`` involves only its eight neighbours. A configuration is

* **valid** when its stones hold no naked diagonal (no position reached by play does), ``A`` empty,
  except where a point beyond the ring could hold the clothing stone;
* **NDE** when no order and colours fill ``A`` without forming a naked diagonal (:func:`tiny_fillable`,
  an exhaustive search over the partial colourings of ``A``: at most ``3**k`` of them; placements
  outside ``A`` cannot help, fact 1);
* **minimal** when it is valid and NDE and taking away corner-only stones (one or more: the only
  stones that can go while ``A`` stays a region) never leaves a valid NDE configuration;
* **BAD** when some colour is *banned* from it: that colour forms a naked diagonal on every point of
  ``A`` now (the project's reading of the rules' BAD);
* its **culprits** are the smallest connected parts of ``A`` that no clean sequence of placements inside
  ``A`` covers (:func:`culprits`); it is **irreducible** when ``A`` is its only culprit.

:func:`shape_flags` decides every ring pattern of one shape and one edge placement in one numba call;
the ring is counted in mixed radix so that taking a corner stone away always gives a smaller index, and
one pass in index order decides minimality. :func:`run_atlas` does every free polyomino up to k points
(one task each; a configuration and its images under the eight symmetries and the colour exchange are
one entry) and keeps the minimal configurations and those whose culprits are not BAD.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .geometry import GeoArgs
from .kernels import INLINE, JIT, forms

#: Flag bits of :func:`shape_flags`.
VALID, NDE, HAS_CORE, MINIMAL, RED_BANNED, BLUE_BANNED, IRREDUCIBLE, CULPRIT_BAD = 1, 2, 4, 8, 16, 32, 64, 128
#: Most points of an area (the search's states are base-3 numbers of k digits).
MAX_K = 7


@INLINE
def _masks(pts: np.ndarray, state: int, red: int, blue: int) -> tuple[int, int]:
    """The red and blue masks with the area points of ``state`` (base 3, digit i for pts[i]) added."""
    s = state
    for i in range(pts.shape[0]):
        d = s % 3
        s //= 3
        if d == 1:
            red |= 1 << pts[i]
        elif d == 2:
            blue |= 1 << pts[i]
    return red, blue


@JIT
def tiny_fillable(
    g: GeoArgs, pts: np.ndarray, red: int, blue: int, seen: np.ndarray, stamp: int, stack: np.ndarray
) -> bool:
    """Whether the area ``pts`` (board points) has a clean filling with the stones ``red``, ``blue``:
    a depth-first search over partial colourings (``seen[state] == stamp`` marks the ones visited;
    the caller passes a new stamp per call, so ``seen`` is never cleared)."""
    k = pts.shape[0]
    if k == 0:
        return True
    top = 0
    stack[0] = 0
    seen[0] = stamp
    while top >= 0:
        state = stack[top]
        top -= 1
        r, b = _masks(pts, state, red, blue)
        s = state
        place = 1
        for i in range(k):
            d = s % 3
            s //= 3
            if d == 0:
                for colour in range(1, 3):
                    own = r if colour == 1 else b
                    if forms(g, own, own, pts[i]):
                        continue
                    nxt = state + colour * place
                    if seen[nxt] == stamp:
                        continue
                    seen[nxt] = stamp
                    filled = True
                    t = nxt
                    for _ in range(k):
                        if t % 3 == 0:
                            filled = False
                            break
                        t //= 3
                    if filled:
                        return True
                    top += 1
                    stack[top] = nxt
            place *= 3
    return False


@JIT
def culprits(
    g: GeoArgs, pts: np.ndarray, red: int, blue: int, seen: np.ndarray, stamp: int, connected: np.ndarray,
    covered: np.ndarray,
) -> tuple[bool, bool]:
    """After :func:`tiny_fillable` answered NDE with ``stamp``: ``(irreducible, culprit_bad)``.

    A *culprit* is a smallest connected part of the area that no clean sequence of placements inside
    the area can cover (the states marked ``stamp`` are exactly those such sequences reach; the area
    itself is one, so one exists). ``irreducible``: the area is its only culprit (every connected proper
    part can be covered). ``culprit_bad``: some culprit has a banned colour (that colour forms a naked
    diagonal on each of its points now). ``connected`` lists the connected proper parts' masks (bit i
    for ``pts[i]``), smallest first."""
    k = pts.shape[0]
    covered[:] = False
    for state in range(seen.shape[0]):
        if seen[state] != stamp:
            continue
        filled = 0
        t = state
        for i in range(k):
            if t % 3 != 0:
                filled |= 1 << i
            t //= 3
        covered[filled] = True
    for mask in range(covered.shape[0] - 1, 0, -1):
        if covered[mask]:
            m = mask
            while m:
                low = m & -m
                covered[mask ^ low] = True
                m ^= low
    size = -1
    bad = False
    for i in range(connected.shape[0] + 1):
        mask = connected[i] if i < connected.shape[0] else (1 << k) - 1
        count = 0
        m = mask
        while m:
            m &= m - 1
            count += 1
        if size >= 0 and count > size:
            break
        if covered[mask]:
            continue
        size = count
        ban_r = True
        ban_b = True
        for j in range(k):
            if mask >> j & 1:
                if not forms(g, red, red, pts[j]):
                    ban_r = False
                if not forms(g, blue, blue, pts[j]):
                    ban_b = False
        bad = bad or ban_r or ban_b
    return size == k, bad


@JIT
def shape_flags(
    g: GeoArgs, pts: np.ndarray, ring: np.ndarray, options: np.ndarray, connected: np.ndarray, free: int
) -> np.ndarray:
    """The flags of every stone pattern of the ring. Ring point i takes ``options[i]`` values (1: no
    stone only, the board edge; 2: red or blue, a point orthogonally next to the area; 3: no stone, red
    or blue, a point diagonally next to it only); pattern index ``sum(v_i * w_i)`` with ``v_i`` 0 (no
    stone), 1 (red), 2 (blue) shifted to the point's options and mixed-radix weights ``w_i``, so taking
    a stone away from a point of the third kind gives a smaller index. ``free`` are the frame's points
    beyond the ring on the board: a stone there may clothe a diagonal of two ring stones (it cannot
    touch the area), so such a diagonal does not make the configuration invalid."""
    k = pts.shape[0]
    r_count = ring.shape[0]
    total = 1
    for i in range(r_count):
        total *= options[i]
    states = 1
    for _ in range(k):
        states *= 3
    flags = np.zeros(total, dtype=np.uint8)
    covered = np.zeros(1 << k, dtype=np.bool_)
    seen = np.zeros(states, dtype=np.int64)
    stack = np.empty(states + 1, dtype=np.int64)
    digits = np.zeros(r_count, dtype=np.int64)  # the position in the point's options
    weights = np.ones(r_count, dtype=np.int64)
    for i in range(1, r_count):
        weights[i] = weights[i - 1] * options[i - 1]
    red = 0
    blue = 0
    for i in range(r_count):
        if options[i] == 2:
            red |= 1 << ring[i]  # the first option of an orthogonal point: red
    for c in range(total):
        if c > 0:  # count up, keeping the masks
            i = 0
            while True:
                bit = 1 << ring[i]
                if digits[i] == options[i] - 1:
                    digits[i] = 0
                    red &= ~bit
                    blue &= ~bit
                    if options[i] == 2:
                        red |= bit
                    i += 1
                    continue
                digits[i] += 1
                v = digits[i] + (1 if options[i] == 2 else 0)
                red &= ~bit
                blue &= ~bit
                if v == 1:
                    red |= bit
                else:
                    blue |= bit
                break
        valid = True
        for i in range(r_count):
            bit = 1 << ring[i]
            if red & bit and forms(g, red, red | free, ring[i]):
                valid = False
                break
            if blue & bit and forms(g, blue, blue | free, ring[i]):
                valid = False
                break
        f = 0
        if valid:
            f |= VALID
            if not tiny_fillable(g, pts, red, blue, seen, c + 1, stack):
                f |= NDE
                ban_r = True
                ban_b = True
                for i in range(k):
                    if not forms(g, red, red, pts[i]):
                        ban_r = False
                    if not forms(g, blue, blue, pts[i]):
                        ban_b = False
                if ban_r:
                    f |= RED_BANNED
                if ban_b:
                    f |= BLUE_BANNED
                whole, culprit_bad = culprits(g, pts, red, blue, seen, c + 1, connected, covered)
                if whole:
                    f |= IRREDUCIBLE
                if culprit_bad:
                    f |= CULPRIT_BAD
        # Minimality: taking a stone away (points of the third kind) gives a smaller index, decided.
        inner = False
        for i in range(r_count):
            if options[i] == 3 and digits[i] != 0 and flags[c - digits[i] * weights[i]] & HAS_CORE:
                inner = True
                break
        if inner or f & NDE:
            f |= HAS_CORE
        if f & NDE and not inner:
            f |= MINIMAL
        flags[c] = f
    return flags


# Shapes and drawings --------------------------------------------------------------------------------


def free_polyominoes(k: int) -> list[frozenset[tuple[int, int]]]:
    """The free polyominoes of k cells (up to the eight symmetries of the square), each normalised to
    its canonical cell set with the smallest row and column 0."""
    shapes: set[frozenset[tuple[int, int]]] = {frozenset({(0, 0)})}
    for _ in range(k - 1):
        grown: set[frozenset[tuple[int, int]]] = set()
        for s in shapes:
            for r, c in s:
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    cell = (r + dr, c + dc)
                    if cell not in s:
                        grown.add(canonical_shape(s | {cell}))
        shapes = grown
    return sorted(shapes, key=lambda s: sorted(s))


def _normal(cells: Any) -> frozenset[tuple[int, int]]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _maps() -> list[Any]:
    return [
        lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (-r, -c),
        lambda r, c: (c, r), lambda r, c: (c, -r), lambda r, c: (-c, r), lambda r, c: (-c, -r),
    ]


def canonical_shape(cells: Any) -> frozenset[tuple[int, int]]:
    """The canonical image of a cell set under the eight symmetries."""
    return min((_normal([f(r, c) for r, c in cells]) for f in _maps()), key=lambda s: sorted(s))


#: Characters of a drawing: an area point, a red stone, a blue stone, no stone, beyond the board edge.
AREA, RED, BLUE, NONE, EDGE = "o", "R", "B", ".", "#"


def drawing(cells: dict[tuple[int, int], str]) -> str:
    """Rows (north first) joined by ``/`` over the bounding box of ``cells`` (points not given: no
    stone)."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    r1 = max(r for r, _ in cells)
    c1 = max(c for _, c in cells)
    return "/".join("".join(cells.get((r, c), NONE) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))


def canonical_drawing(cells: dict[tuple[int, int], str]) -> tuple[str, bool]:
    """``(drawing, swapped)``: the smallest drawing among the 16 images (eight symmetries, with and
    without the colour exchange) of a configuration given with its whole ring (no-stone points
    included, so the box is the area's box grown by one), and whether that image exchanges colours."""
    swap = {RED: BLUE, BLUE: RED, AREA: AREA, NONE: NONE, EDGE: EDGE}
    best: tuple[str, bool] | None = None
    for f in _maps():
        moved = {f(r, c): v for (r, c), v in cells.items()}
        for swapped in (False, True):
            text = drawing({p: swap[v] if swapped else v for p, v in moved.items()})
            if best is None or text < best[0]:
                best = (text, swapped)
    assert best is not None
    return best


def parse_drawing(text: str) -> dict[tuple[int, int], str]:
    """The cells of a drawing (every character, no-stone points included)."""
    return {(r, c): v for r, row in enumerate(text.split("/")) for c, v in enumerate(row)}


def banned_of(text: str) -> str:
    """The banned colours of a drawn configuration, recomputed in plain Python: ``""``, ``"R"``,
    ``"B"`` or ``"RB"`` (a colour is banned when it forms a naked diagonal on every area point)."""
    cells = parse_drawing(text)
    area = [p for p, v in cells.items() if v == AREA]
    out = ""
    for colour in (RED, BLUE):
        if all(_forms_on(cells, p, colour) for p in area):
            out += colour
    return out


def _forms_on(cells: dict[tuple[int, int], str], p: tuple[int, int], colour: str) -> bool:
    r, c = p
    for dr in (-1, 1):
        for dc in (-1, 1):
            shared = (cells.get((r + dr, c)), cells.get((r, c + dc)))
            if cells.get((r + dr, c + dc)) == colour and colour not in shared:
                return True
    return False


# The run --------------------------------------------------------------------------------------------

#: The sides a board edge may run along (just outside the area's box): north, south, west, east.
SIDES = "NSWE"


@dataclass(frozen=True)
class ShapeTask:
    """Decide every configuration around one free polyomino (every placement of the board's edges)."""

    cells: tuple[tuple[int, int], ...]


def edge_sets(h: int, w: int) -> list[str]:
    """The sets of sides along which the board edge may run for an area of box h x w on a square board
    (edges on both north and south make the board h high, so the area's width and the ring's columns on
    the board must fit in h, and so on)."""
    out = []
    for mask in range(16):
        sides = "".join(SIDES[i] for i in range(4) if mask >> i & 1)
        # Edges on two opposite sides fix the board's size; the area and the ring's points on the
        # board across must fit in it.
        if "N" in sides and "S" in sides and w + ("W" not in sides) + ("E" not in sides) > h:
            continue
        if "W" in sides and "E" in sides and h + ("N" not in sides) + ("S" not in sides) > w:
            continue
        out.append(sides)
    return out


def frame_args(h: int, w: int) -> GeoArgs:
    """Kernel tables of an h x w frame (point ``r * w + c``): only the diagonal tables, which are all
    :func:`tiny_fillable` and :func:`.kernels.forms` read, are filled in."""
    size = h * w
    if size > 62:
        raise ValueError(f"a {h} x {w} frame does not fit 62-bit masks")
    dq = np.zeros((size, 4), dtype=np.int64)
    ds = np.zeros((size, 4), dtype=np.int64)
    for r in range(h):
        for c in range(w):
            k = 0
            for dr in (-1, 1):
                for dc in (-1, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < h and 0 <= cc < w:
                        dq[r * w + c, k] = 1 << (rr * w + cc)
                        ds[r * w + c, k] = 1 << (rr * w + c) | 1 << (r * w + cc)
                        k += 1
    zero = np.zeros(1, dtype=np.int64)
    return GeoArgs(n=w, size=size, full=(1 << size) - 1, not_west=0, not_east=0, north=0, south=0, west=0,
                  east=0, dq=dq, ds=ds, box1=zero, box2=zero, sym_tab=np.zeros((1, 1, 1), dtype=np.int64),
                  swaps=zero)


def frame(
    cells: tuple[tuple[int, int], ...], sides: str
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """``(n, area points, ring points, options, ring cells)`` of a shape placed at (1, 1) in a frame of
    its box grown by one (``n`` columns), with the board's edge along ``sides`` (see
    :func:`shape_flags` for the options)."""
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    n = w + 2
    inside = {(r + 1, c + 1) for r, c in cells}
    ring = sorted({(r + dr, c + dc) for r, c in inside for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - inside)

    def off(r: int, c: int) -> bool:
        return (("N" in sides and r == 0) or ("S" in sides and r == h + 1) or ("W" in sides and c == 0)
                or ("E" in sides and c == w + 1))

    options = []
    for r, c in ring:
        if off(r, c):
            options.append(1)
        elif any((r + dr, c + dc) in inside for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            options.append(2)
        else:
            options.append(3)
    pts = np.array(sorted(r * n + c for r, c in inside), dtype=np.int64)
    return (n, pts, np.array([r * n + c for r, c in ring], dtype=np.int64), np.array(options, dtype=np.int64),
            ring)


def free_points(cells: tuple[tuple[int, int], ...], sides: str) -> int:
    """The frame's points (see :func:`frame`) on the board but beyond the ring, as a mask."""
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    n = w + 2
    inside = {(r + 1, c + 1) for r, c in cells}
    near = {(r + dr, c + dc) for r, c in inside for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    out = 0
    for r in range(h + 2):
        for c in range(w + 2):
            off = (("N" in sides and r == 0) or ("S" in sides and r == h + 1) or ("W" in sides and c == 0)
                   or ("E" in sides and c == w + 1))
            if (r, c) not in near and not off:
                out |= 1 << (r * n + c)
    return out


def connected_parts(cells: tuple[tuple[int, int], ...]) -> np.ndarray:
    """The masks (bit i for the i-th cell in reading order) of the connected proper nonempty parts of a
    shape, smallest first."""
    order = sorted(cells)
    k = len(order)
    out = []
    for mask in range(1, (1 << k) - 1):
        chosen = {order[i] for i in range(k) if mask >> i & 1}
        start = next(iter(chosen))
        seen = {start}
        todo = [start]
        while todo:
            r, c = todo.pop()
            for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if q in chosen and q not in seen:
                    seen.add(q)
                    todo.append(q)
        if seen == chosen:
            out.append(mask)
    out.sort(key=lambda m: (bin(m).count("1"), m))
    return np.array(out, dtype=np.int64)


def decode(index: int, ring: list[tuple[int, int]], options: np.ndarray) -> dict[tuple[int, int], str]:
    """The ring's cells of a pattern index (see :func:`shape_flags`)."""
    out = {}
    x = index
    for cell, opt in zip(ring, options.tolist(), strict=True):
        d = x % opt
        x //= opt
        out[cell] = EDGE if opt == 1 else ((RED, BLUE)[d] if opt == 2 else (NONE, RED, BLUE)[d])
    return out


def shape_task(task: ShapeTask) -> dict[str, Any]:
    """The counts of one shape (every edge placement) and its minimal NDE configurations and those whose
    culprits are not BAD (canonical drawings, each with the number of patterns it stands for)."""
    import resource

    t0, c0 = time.perf_counter(), time.process_time()
    h = max(r for r, _ in task.cells) + 1
    w = max(c for _, c in task.cells) + 1
    counts = {"patterns": 0, "valid": 0, "nde": 0, "nde_not_bad": 0, "minimal": 0, "irreducible": 0,
              "irreducible_not_bad": 0, "culprit_not_bad": 0}
    found: dict[str, dict[str, Any]] = {}
    ring_size = 0
    for sides in edge_sets(h, w):
        n, pts, ring_pts, options, ring = frame(task.cells, sides)
        ring_size = len(ring)
        g = frame_args(h + 2, w + 2)
        free = free_points(task.cells, sides)
        flags = shape_flags(g, pts, ring_pts, options, connected_parts(task.cells), free)
        banned = flags & (RED_BANNED | BLUE_BANNED)
        counts["patterns"] += int(flags.shape[0])
        counts["valid"] += int(np.count_nonzero(flags & VALID))
        counts["nde"] += int(np.count_nonzero(flags & NDE))
        counts["nde_not_bad"] += int(np.count_nonzero((flags & NDE != 0) & (banned == 0)))
        counts["minimal"] += int(np.count_nonzero(flags & MINIMAL))
        counts["irreducible"] += int(np.count_nonzero(flags & IRREDUCIBLE))
        counts["irreducible_not_bad"] += int(np.count_nonzero((flags & IRREDUCIBLE != 0) & (banned == 0)))
        counts["culprit_not_bad"] += int(np.count_nonzero((flags & NDE != 0) & (flags & CULPRIT_BAD == 0)))
        area_cells = {(p // n, p % n): AREA for p in pts.tolist()}
        pick = np.flatnonzero((flags & MINIMAL != 0) | ((flags & NDE != 0) & (flags & CULPRIT_BAD == 0)))
        for index in pick.tolist():
            f = int(flags[index])
            text, _ = canonical_drawing({**area_cells, **decode(index, ring, options)})
            entry = found.setdefault(text, {
                "drawing": text, "k": len(pts), "minimal": bool(f & MINIMAL), "banned": banned_of(text),
                "irreducible": bool(f & IRREDUCIBLE), "culprit_bad": bool(f & CULPRIT_BAD),
                "stones": sum(v in (RED, BLUE) for v in text), "patterns": 0,
            })
            entry["patterns"] += 1
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "shape": drawing({(r, c): AREA for r, c in task.cells}),
        "k": len(task.cells),
        "ring": ring_size,
        **counts,
        "found": sorted(found.values(), key=lambda e: e["drawing"]),
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - c0, 3),
        "max_rss_mib": round(usage.ru_maxrss / 1024, 1),
    }


def run_atlas(executor: Any, k_max: int, log: Any = print) -> dict[str, Any]:
    """Every shape up to ``k_max`` points as one task each; the entries merged up to symmetry."""
    t0 = time.perf_counter()
    tasks = [ShapeTask(tuple(sorted(s))) for k in range(1, k_max + 1) for s in free_polyominoes(k)]
    results = executor.map(shape_task, tasks, "atlas")
    entries: dict[str, dict[str, Any]] = {}
    per_k: dict[int, dict[str, Any]] = {}
    for res in results:
        row = per_k.setdefault(res["k"], {"shapes": 0, "patterns": 0, "valid": 0, "nde": 0, "nde_not_bad": 0,
                                          "irreducible": 0, "irreducible_not_bad": 0, "culprit_not_bad": 0,
                                          "minimal_patterns": 0, "cpu_seconds": 0.0, "max_rss_mib": 0.0})
        row["shapes"] += 1
        for name in ("patterns", "valid", "nde", "nde_not_bad", "irreducible", "irreducible_not_bad",
                     "culprit_not_bad"):
            row[name] += res[name]
        row["minimal_patterns"] += res["minimal"]
        row["cpu_seconds"] = round(row["cpu_seconds"] + res["cpu_seconds"], 3)
        row["max_rss_mib"] = max(row["max_rss_mib"], res["max_rss_mib"])
        for e in res["found"]:
            known = entries.get(e["drawing"])
            if known is None:
                entries[e["drawing"]] = dict(e)
            else:
                known["patterns"] += e["patterns"]
    for k, row in per_k.items():
        mine = [e for e in entries.values() if e["k"] == k]
        row["minimal"] = sum(e["minimal"] for e in mine)
        row["minimal_not_bad"] = sum(e["minimal"] and not e["banned"] for e in mine)
        row["culprit_not_bad_entries"] = sum(not e["culprit_bad"] for e in mine)
    log(f"atlas up to k = {k_max}: {len(tasks)} shapes, {time.perf_counter() - t0:.1f} s")
    ordered = sorted(entries.values(), key=lambda e: (e["k"], e["stones"], e["drawing"]))
    return {"k_max": k_max, "per_k": {str(k): v for k, v in sorted(per_k.items())}, "entries": ordered,
            "tasks": [{k: v for k, v in r.items() if k != "found"} for r in results],
            "seconds": round(time.perf_counter() - t0, 3)}


def classify(text: str) -> dict[str, Any]:
    """The exhaustive kernels' verdict on one drawn configuration (areas of at most :data:`MAX_K`
    points): ``{"nde", "banned", "irreducible", "culprit_bad", "valid"}``. Cells ``R`` and ``B`` are
    stones, ``o`` the area; everything else is no stone."""
    rows = text.split("/")
    h, w = len(rows), len(rows[0])
    g = frame_args(h, w)
    area_cells = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == AREA]
    k = len(area_cells)
    if not 1 <= k <= MAX_K:
        raise ValueError(f"{text}: {k} area points, expected 1 to {MAX_K}")
    pts = np.array([r * w + c for r, c in area_cells], dtype=np.int64)
    red = sum(1 << (r * w + c) for r in range(h) for c in range(w) if rows[r][c] == RED)
    blue = sum(1 << (r * w + c) for r in range(h) for c in range(w) if rows[r][c] == BLUE)
    near = {(r + dr, c + dc) for r, c in area_cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    free = sum(1 << (r * w + c) for r in range(h) for c in range(w)
               if rows[r][c] == NONE and (r, c) not in near)
    valid = not any(forms(g, own, own | free, p) for own in (red, blue) for p in range(h * w) if own >> p & 1)
    seen = np.zeros(3**k, dtype=np.int64)
    stack = np.empty(3**k + 1, dtype=np.int64)
    nde = not tiny_fillable(g, pts, red, blue, seen, 1, stack)
    out: dict[str, Any] = {"valid": valid, "nde": nde, "banned": banned_of(text)}
    if nde:
        shape = tuple((r - min(a for a, _ in area_cells), c) for r, c in area_cells)
        whole, bad = culprits(g, pts, red, blue, seen, 1, connected_parts(shape),
                              np.zeros(1 << k, dtype=np.bool_))
        out.update(irreducible=whole, culprit_bad=bad)
    return out
