"""Dense record numbers of positions under the symmetries that fix the bubble (see docs/tables.md).

The lookup tables store one *record* per class of positions that the symmetries make equivalent. A
position is first moved by a board symmetry so that its bubble lies on the representative cell ``f``
of its cell orbit (the smallest cell of the orbit; the symmetry is the first one in
``board.symmetries`` that does it). What is left is the group ``G`` of the board symmetries that fix
``f``, optionally together with the colour swap (``swap=True``). A :class:`Frame` numbers the classes
of ``G`` densely:

* The tile cells (every cell but ``f``) are split into *blocks* of at most 8 cells, each a union of
  ``G``-orbits of cells: orbits in order of their smallest cell, each put into the first block with
  room (first fit). A block's *pattern* is the number whose bit ``i`` says the ``i``-th cell of the
  block (increasing cell order) holds a red tile.
* The *key* of a colouring is its tuple of block patterns; the *canonical form* of a class is its member
  with the smallest key (tuples compare lexicographically, block 0 first).
* The record number of a class is the number of classes whose canonical form has a smaller key.

:meth:`Frame.index` computes it block by block along a chain of stabilisers, with counting tables.

>>> from unitile_py.unitile.board import Board
>>> f = Frame.of(Board.get(3, 3), 4, swap=False)   # bubble in the centre: the 8 symmetries
>>> f.count, [len(b) for b in f.blocks]
(13, [8])
>>> g = Frame.of(Board.get(3, 3), 4, swap=True)
>>> g.count
8
"""

from __future__ import annotations

from functools import cache

from .board import Board

#: Most cells in a block (patterns are bytes).
BLOCK_CELLS = 8


class Frame:
    """Record numbering of the colourings around one bubble cell; get one with :meth:`Frame.of`.

    Group elements are numbered: element ``e`` is the board symmetry ``sym_ids[e % n]`` (``n`` =
    number of symmetries fixing the cell), followed by the colour swap when ``e >= n``. Element 0 is the
    identity.
    """

    def __init__(self, board: Board, cell: int, swap: bool) -> None:
        self.board = board
        self.cell = cell
        self.swap = swap
        self.sym_ids: tuple[int, ...] = tuple(
            s for s, perm in enumerate(board.symmetries) if perm[cell] == cell
        )
        n = len(self.sym_ids)
        perms = [board.symmetries[s] for s in self.sym_ids]
        self.perms: tuple[tuple[int, ...], ...] = tuple(perms * (2 if swap else 1))
        self.flips: tuple[bool, ...] = tuple([False] * n + ([True] * n if swap else []))
        self.size = len(self.perms)
        self.blocks: tuple[tuple[int, ...], ...] = self._blocks(perms)
        self.widths = tuple(len(b) for b in self.blocks)
        self.compose = self._compose()
        self.act = self._actions()
        self._build_tables()

    @staticmethod
    @cache
    def of(board: Board, cell: int, swap: bool) -> Frame:
        """The frame of a bubble cell (tables built once)."""
        return Frame(board, cell, swap)

    def _blocks(self, perms: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        seen: set[int] = set()
        orbits = []
        for c in range(self.board.cells):
            if c == self.cell or c in seen:
                continue
            orbit = sorted({p[c] for p in perms})
            seen.update(orbit)
            orbits.append(orbit)
        blocks: list[list[int]] = []
        for orbit in orbits:
            for block in blocks:
                if len(block) + len(orbit) <= BLOCK_CELLS:
                    block.extend(orbit)
                    break
            else:
                blocks.append(list(orbit))
        return tuple(tuple(sorted(b)) for b in blocks)

    def _compose(self) -> list[list[int]]:
        """``compose[a][b]``: the element that applies ``b`` first, then ``a``."""
        where = {(p, f): e for e, (p, f) in enumerate(zip(self.perms, self.flips, strict=True))}
        out = []
        for a in range(self.size):
            pa, fa = self.perms[a], self.flips[a]
            row = []
            for b in range(self.size):
                pb, fb = self.perms[b], self.flips[b]
                row.append(where[(tuple(pa[pb[c]] for c in range(self.board.cells)), fa != fb)])
            out.append(row)
        return out

    def _actions(self) -> list[list[list[int]]]:
        """``act[e][j][p]``: the pattern of block ``j`` after element ``e``, from its pattern before."""
        out = []
        for perm, flip in zip(self.perms, self.flips, strict=True):
            inverse = [0] * self.board.cells
            for c, image in enumerate(perm):
                inverse[image] = c
            per_block = []
            for cells in self.blocks:
                pos = {c: i for i, c in enumerate(cells)}
                # Bit i of the image comes from the cell that the element moves onto cells[i].
                sources = [pos[inverse[c]] for c in cells]
                full = (1 << len(cells)) - 1
                # single[b]: the image of a pattern with only bit b set.
                single = [0] * len(cells)
                for i, src in enumerate(sources):
                    single[src] |= 1 << i
                row = [0] * (1 << len(cells))
                for p in range(1, 1 << len(cells)):
                    low = p & -p
                    row[p] = row[p ^ low] | single[low.bit_length() - 1]
                per_block.append([q ^ full for q in row] if flip else row)
            out.append(per_block)
        return out

    def _build_tables(self) -> None:
        """Canonicalisation and counting tables along the chains of stabilisers."""
        nb = len(self.blocks)
        red = self.board.red_count
        full_group = (1 << self.size) - 1
        # Subgroups (as bit masks over elements) met at each block, numbered per block.
        self.group_ids: list[dict[int, int]] = [dict() for _ in range(nb + 1)]
        self.group_ids[0][full_group] = 0
        self.can_pattern: list[list[list[int]]] = []
        self.can_element: list[list[list[int]]] = []
        self.can_next: list[list[list[int]]] = []
        for j in range(nb):
            pats, elems, nexts = [], [], []
            groups = list(self.group_ids[j])
            k = 0
            while k < len(groups):
                h_mask = groups[k]
                members = [e for e in range(self.size) if h_mask >> e & 1]
                pr, er, nr = [], [], []
                for p in range(1 << self.widths[j]):
                    best, best_e = -1, 0
                    for e in members:
                        q = self.act[e][j][p]
                        if best < 0 or q < best:
                            best, best_e = q, e
                    stab = 0
                    for e in members:
                        if self.act[e][j][best] == best:
                            stab |= 1 << e
                    ids = self.group_ids[j + 1]
                    if stab not in ids:
                        ids[stab] = len(ids)
                    pr.append(best)
                    er.append(best_e)
                    nr.append(ids[stab])
                pats.append(pr)
                elems.append(er)
                nexts.append(nr)
                k += 1
            self.can_pattern.append(pats)
            self.can_element.append(elems)
            self.can_next.append(nexts)
        # completions[j][g][k]: canonical completions of blocks j.. with k red tiles, stabiliser g.
        completions: list[list[list[int]]] = [[] for _ in range(nb + 1)]
        completions[nb] = [[1] + [0] * red for _ in self.group_ids[nb]]
        self.cum: list[list[list[list[int]]]] = [[] for _ in range(nb)]
        for j in range(nb - 1, -1, -1):
            width = self.widths[j]
            per_group = []
            cum_group = []
            for g in range(len(self.group_ids[j])):
                canonical, following = self.can_pattern[j][g], self.can_next[j][g]
                totals = [0] * (red + 1)
                cum_k = [[0] * (1 << width) for _ in range(red + 1)]
                for p in range(1 << width):
                    for k in range(red + 1):
                        cum_k[k][p] = totals[k]
                    if canonical[p] != p:
                        continue
                    ones = p.bit_count()
                    after = completions[j + 1][following[p]]
                    for k in range(ones, red + 1):
                        totals[k] += after[k - ones]
                per_group.append(totals)
                cum_group.append(cum_k)
            completions[j] = per_group
            self.cum[j] = cum_group
        self.count = completions[0][0][red]

    def patterns(self, red_cells: int) -> list[int]:
        """The block patterns of a set of red cells."""
        return [sum((red_cells >> c & 1) << i for i, c in enumerate(cells)) for cells in self.blocks]

    def index(self, patterns: list[int]) -> tuple[int, int]:
        """``(record number, element)``: the element maps the colouring onto its canonical form."""
        e = 0
        g = 0
        k = self.board.red_count
        out = 0
        act, compose = self.act, self.compose
        for j, raw in enumerate(patterns):
            p = act[e][j][raw]
            best = self.can_pattern[j][g][p]
            out += self.cum[j][g][k][best]
            k -= best.bit_count()
            e = compose[self.can_element[j][g][p]][e]
            g = self.can_next[j][g][p]
        return out, e


def orbit_rep(board: Board, cell: int) -> tuple[int, int]:
    """``(representative cell, symmetry)``: the first symmetry that moves ``cell`` to the smallest cell
    of its orbit."""
    rep = min(perm[cell] for perm in board.symmetries)
    for s, perm in enumerate(board.symmetries):
        if perm[cell] == rep:
            return rep, s
    raise AssertionError("unreachable")
