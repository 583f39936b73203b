"""Naked Diagonal's grid, positions, naked diagonals, wins, bans and the skip rule."""

from __future__ import annotations

import pytest

from tests.game.naked_diagonal import reference as ref
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal import legality
from unitile_py.naked_diagonal.areas import Solver
from unitile_py.naked_diagonal.bans import LeavesNDE, NakedDiagonal, Occupied
from unitile_py.naked_diagonal.culprit import coverable
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import (
    after,
    explain,
    is_legal,
    legal_masks,
    legal_placements,
    nde_regions,
)
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.rules import chain, dead, forming, naked_diagonals, winner
from unitile_py.naked_diagonal.witness import replay


def test_grid_geometry() -> None:
    g = Grid.get(4)
    assert (g.name(0), g.name(3), g.name(12), g.name(15)) == ("a4", "d4", "a1", "d1")
    assert g.point("b3") == 5
    assert sorted(g.orth[0]) == [1, 4]
    assert sorted(q for q, _, _ in g.diag[5]) == [0, 2, 8, 10]
    for p in range(g.size):
        for q, s, t in g.diag[p]:
            assert {s, t} <= set(g.orth[p]) and {s, t} <= set(g.orth[q])
    assert len(g.blocks) == 9
    assert g.components(0b1100_0000_0000_0011) == [0b11, 0b11 << 14]
    assert g.names(g.box(g.point("a1"), 1)) == ("a2", "b2", "a1", "b1")


def test_symmetries() -> None:
    g = Grid.get(5)
    images = {s.image for s in g.symmetries}
    assert len(images) == 8
    for s in g.symmetries:
        assert sorted(s.image) == list(range(25))
        north_to_side = s.apply(g.north) in (g.west, g.east)
        assert north_to_side == s.swaps_edges
        assert s.apply(g.north) in ((g.west, g.east) if s.swaps_edges else (g.north, g.south))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected the rows joined by '/'"),
        ("... r", "1 rows, so each needs 1 points; row 1 has 3"),
        (".../.../... x", "side to move 'x' must be 'r' or 'b'"),
        (".../..../... r", "row 2 has 4"),
        (".../.x./... r", "row 2 has 'x'; points are R, B or ."),
        ("R../.R./... b", "a3 and b2 form a naked diagonal of Red"),
        ("/".join(["." * 27] * 27) + " r", "board size 27: expected 1 to 26"),
        (".../.../... r b", "expected the rows"),
    ],
)
def test_parse_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(NakedDiagonalError) as info:
        Position.parse(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_text_round_trips() -> None:
    for text in (". r", ".../.../... r", "RB../RR../..B./.... b", "RBRR/R..R/RRBR/RRRR r"):
        assert str(Position.parse(text)) == text
    assert str(Position.empty(3)) == ".../.../... r"


def test_place_checks_emptiness_and_naked_diagonals() -> None:
    p = Position.parse("..R/.../B.. b")
    g = p.grid
    with pytest.raises(NakedDiagonalError, match="c3 is not empty"):
        p.place(g.point("c3"), "b")
    with pytest.raises(NakedDiagonalError, match="Red on b2 forms a naked diagonal with c3"):
        p.place(g.point("b2"), "r")
    q = p.place(g.point("b3"), "r")
    assert str(q) == ".RR/.../B.. b" and q.turn == "b"


def test_naked_diagonal_masks() -> None:
    g = Grid.get(3)
    red = 1 << g.point("a3")
    blue = 1 << g.point("b3") | 1 << g.point("a2")
    assert forming(g, red, g.full & ~(red | blue)) == 1 << g.point("b2")
    assert g.names(dead(g, red, blue, g.full & ~(red | blue))) == ("b2",)
    assert naked_diagonals(g, 1 << 0 | 1 << 4, 0) == [(0, 4, "r")]
    assert naked_diagonals(g, 1 << 0 | 1 << 4 | 1 << 1, 0) == []


def test_winner_and_chain() -> None:
    assert winner(Grid.get(1), 1, 0) == "r" and winner(Grid.get(1), 0, 1) == "b"
    p = Position.parse(".R./BRB/.R. b")
    assert p.winner() == "r"
    assert p.grid.names(chain(p.grid, p.red, "r")) == ("b3", "b2", "b1")
    assert Position.parse(".R./BBB/.R. r").winner() == "b"
    assert Position.parse(".R./B.B/.R. r").winner() is None


def test_bans_explained() -> None:
    p = Position.parse("..R/.../B.. r")
    g = p.grid
    assert explain(p, g.point("c3"), "b") == Occupied(g.point("c3"), "r")
    assert explain(p, g.point("b2"), "r") == NakedDiagonal(g.point("b2"), g.point("c3"), "r")
    assert explain(p, g.point("a3"), "r") is None


def test_leaving_an_nde_area() -> None:
    p = Position.parse("R.../B.R./..R./...B b")
    g = p.grid
    ban = explain(p, g.point("c4"), "b")
    assert isinstance(ban, LeavesNDE)
    assert g.names(ban.area) == ("b4", "b3", "a2", "b2", "a1", "b1", "c1")
    assert not ban.bad and ban.banned == ()
    assert not is_legal(p, g.point("c4"), "b")
    # The culprit is one point that no clean sequence in the region can cover (checked by brute force).
    board, _ = ref.board_of(str(p.place(g.point("c4"), "b")))
    assert ban.culprit.bit_count() == 1
    assert not ref.fillable(board, frozenset(g.points(ban.culprit)), frozenset(g.points(ban.area)))
    p = Position.parse("R.../B.R./.RR./B..B b")
    ban = explain(p, g.point("c4"), "b")
    assert isinstance(ban, LeavesNDE)
    assert g.names(ban.area) == ("b4", "b3")
    assert ban.bad and ban.banned == ("r", "b")
    assert ban.describe(g) == ("Blue on c4 would leave the NDE area b4 b3 (BAD: Red and Blue banned); "
                               "a part no sequence can cover: b4")


def test_a_board_with_an_nde_region_has_no_legal_placement() -> None:
    p = Position.parse("RBRR/R..R/RRBR/RRRR b")
    assert len(nde_regions(p)) == 1
    assert legal_placements(p) == ((), ())


def test_after_passes_the_turn_or_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    p = Position.empty(3)
    q = after(p, p.grid.point("b2"))
    assert str(q) == ".../.R./... b"
    with pytest.raises(NakedDiagonalError, match="Red on a1 forms a naked diagonal with b2"):
        after(after(q, q.grid.point("c3")), q.grid.point("a1"))
    with pytest.raises(NakedDiagonalError, match="b2 is not empty"):
        after(q, q.grid.point("b2"))
    # No skip turned up in thousands of random games; the mechanism, with Blue made to have none:
    monkeypatch.setattr(legality, "has_legal_placement", lambda pos, colour: colour != "b")
    assert after(p, p.grid.point("b2")).turn == "r"
    monkeypatch.undo()
    won = after(Position.parse(".R./.R./... r"), Grid.get(3).point("b1"))
    assert won.winner() == "r"
    with pytest.raises(NakedDiagonalError, match="game is over"):
        after(won, 0)


def _connected_subsets(g: Grid, within: frozenset[int], k: int) -> set[frozenset[int]]:
    """Every orthogonally connected k-subset of ``within``, grown independently of the engine's code."""
    level = {frozenset([p]) for p in within}
    for _ in range(k - 1):
        level = {s | {q} for s in level for p in s for q in g.orth[p] if q in within and q not in s}
    return level


def test_the_culprit_is_a_smallest_part_no_sequence_can_cover_by_brute_force() -> None:
    """Seeded random games on 4x4 and 5x5: for every ban that leaves an NDE area of at most 9 points,
    the culprit is connected, no clean sequence in the area covers it, and every connected part with
    fewer points can be covered (all by the brute force of reference.py)."""
    import random

    rng = random.Random(7)
    checked = 0
    for n in (4, 5) * 40:
        pos = Position.empty(n)
        g = pos.grid
        while pos.winner() is None:
            red, blue = legal_placements(pos)
            mine = red if pos.turn == "r" else blue
            for p in g.points(pos.empty_points):
                if p in mine:
                    continue
                ban = explain(pos, p, pos.turn)
                if not isinstance(ban, LeavesNDE) or ban.area.bit_count() > 9:
                    continue
                board, _ = ref.board_of(str(pos.place(p, pos.turn)))
                area = frozenset(g.points(ban.area))
                culprit = frozenset(g.points(ban.culprit))
                assert culprit <= area and _connected_subsets(g, culprit, len(culprit)) >= {culprit}
                assert not ref.fillable(board, culprit, area), (str(pos), g.name(p))
                for k in range(1, len(culprit)):
                    for part in _connected_subsets(g, area, k):
                        assert ref.fillable(board, part, area), (str(pos), g.name(p), sorted(part))
                checked += 1
            pos = after(pos, rng.choice(mine))
    assert checked > 100


def test_a_ban_found_late_in_a_9x9_game_is_explained_at_once() -> None:
    """Regression: a 9x9 benchmark game once reached this position with a 41-point NDE region (h7 can
    be covered by neither colour). Each of the three Blue stones that could have been placed last is
    illegal in the position before it, and explain names h7 as the culprit at once (the culprit
    search used to run for minutes here, trying an exhaustive cover of every point before h7)."""
    final = Position.parse("B...B...R/R.B.R.BBR/R.R.R.B../..R...R.B/B.RBB..../..R.R..R./RBR....../"
                           "R...BBRB./RBBR...BB r")
    g = final.grid
    assert [g.names(m) for m in nde_regions(final)] and final.blue >> g.point("h8") & 1
    for name in ("h8", "g7", "i6"):
        p = g.point(name)
        before = Position(g, final.red, final.blue & ~(1 << p), "b")
        assert nde_regions(before) == ()
        ban = explain(before, p, "b")
        assert isinstance(ban, LeavesNDE), name
        assert not is_legal(before, p, "b")
        if name == "h8":
            assert ban.area.bit_count() == 41 and g.names(ban.culprit) == ("h7",)


def test_a_13x13_placement_the_stuck_first_search_could_not_decide_is_legal() -> None:
    """Regression: in this 13x13 benchmark position every construction of the 113 points left by Red
    e8 gets stuck near the top, and the exhaustive search that placed near those points first ran for
    minutes; near e8 first it finds a filling at once. The search now restarts in other orders."""
    pos = Position.parse("......RB...B./RRRBB...R.BB./.....R....R.R/...R...RB...R/.B....RR..R.B/"
                         ".R...B.B...../..B..BRR.R.../.RR..B......R/.B.......B.BR/.......RRB.../"
                         "....B.B...R../.B..........B/.B..R.B.B.B.. b")
    g = pos.grid
    e8 = g.point("e8")
    assert explain(pos, e8, "r") is None and is_legal(pos, e8, "r")
    red, _blue = legal_masks(pos)
    assert red >> e8 & 1
    after = pos.place(e8, "r")
    area = g.grow(g.dilate4(1 << e8), after.empty_points)
    witness = Solver(g).witness(area, after.red, after.blue, 0, e8)
    assert witness is not None and replay(g, after.red, after.blue, witness)


def test_a_13x13_region_only_the_reversed_stuck_order_fills_quickly_is_fillable() -> None:
    """Regression: the position after the one above (Red e8, Blue e2): every construction of its
    112-point region gets stuck, and the search in the stuck points' order ran for minutes; the third
    order of the restarts finds a filling at once."""
    pos = Position.parse("......RB...B./RRRBB...R.BB./.....R....R.R/...R...RB...R/.B....RR..R.B/"
                         ".R..RB.B...../..B..BRR.R.../.RR..B......R/.B.......B.BR/.......RRB.../"
                         "....B.B...R../.B..B.......B/.B..R.B.B.B.. b")
    g = pos.grid
    region = max(g.components(pos.empty_points), key=int.bit_count)
    witness = Solver(g).witness(region, pos.red, pos.blue)
    assert region.bit_count() == 112 and witness is not None and replay(g, pos.red, pos.blue, witness)
    assert nde_regions(pos) == () and any(legal_masks(pos))


def test_a_13x13_nde_area_is_proved_by_a_window_beside_the_last_placement() -> None:
    """Regression: Blue g1 here leaves a 54-point part that is NDE; no window of radius 1 or 2 around g1
    proves it, and the exhaustive search of an NDE area cannot stop early: it ran for minutes. A
    window of radius 2 around g2 (a neighbour of g1) proves it. Its culprit took minutes too (the
    covering search of f2 alone had no window proofs below its first level and no backjumps)."""
    pos = Position.parse("R..R.R..RBRB./RRBB.......BR/R..R..RRB...R/R..RBRR...B.B/.BBBB...R.B.B/"
                         "...BBRBB....B/B.R......B.../B.B.R..R.BRRR/RR..R..B.B.B./.B..B.RBR..../"
                         "..RRR..B.BR../.BRBB..R.BRR./....R..RBBRBB b")
    g = pos.grid
    g1 = g.point("g1")
    assert not is_legal(pos, g1, "b") and not legal_masks(pos)[1] >> g1 & 1
    after = pos.place(g1, "b")
    part = g.grow(1 << g.point("g2"), after.empty_points)
    assert part.bit_count() == 54 and Solver(g).witness(part, after.red, after.blue, 0, g1) is None
    core = Solver(g).decide(part, after.red, after.blue, 0, g1)
    # (which small core the search finds depends on its order; the brute force checks this one alone,
    # with every other empty point a joker)
    assert isinstance(core, int) and not core & ~part and core.bit_count() <= 8
    jokers = g.full & ~(after.red | after.blue | core)
    points = frozenset(g.bits(core))
    assert not ref.fillable(ref.board_of_masks(g.size, after.red, after.blue, jokers), points, points)
    ban = explain(pos, g1, "b")
    assert isinstance(ban, LeavesNDE) and ban.area == part and not ban.bad
    assert g.names(ban.culprit) == ("f3", "f2")
    solver = Solver(g)
    assert not coverable(solver, part, ban.culprit, after.red, after.blue)
    assert all(coverable(solver, part, 1 << p, after.red, after.blue) for p in g.bits(ban.culprit))


E6_POSITION = (".BR.BR...B.../..R...B....B./R...RR.R.R.../..B.R.BB...R./.R..B..R.B.../.RR.BR.B..R../"
               ".......R....R/...B...B.B.B./BBRB..RR.B.../BB....B....R./B...B.R.BBRR./BRBRR...R..../"
               "BR..R..B...BR r")


def test_a_large_nde_area_is_explained_with_an_irreducible_culprit() -> None:
    """Regression: Red e6 here leaves a 101-point NDE area. explain ran for more than five minutes:
    the region was tested without the placement as the solver's hint (so without the grown window),
    and the culprit search tried every connected part by size (tens of ms each). Now the culprit of a
    region this large is a minimal core: connected, unfillable even with every other point of the area
    as a joker (so no clean sequence covers it), and each piece left by dropping one point fillable."""
    pos = Position.parse(E6_POSITION)
    g = pos.grid
    e6 = g.point("e6")
    ban = explain(pos, e6, "r")
    assert isinstance(ban, LeavesNDE) and ban.area.bit_count() == 101 and not ban.bad
    after = pos.place(e6, "r")
    culprit = ban.culprit
    assert not culprit & ~ban.area and len(g.components(culprit)) == 1 and culprit.bit_count() <= 30
    solver = Solver(g)
    assert solver.witness(culprit, after.red, after.blue, ban.area & ~culprit) is None
    for p in g.bits(culprit):
        for piece in g.components(culprit & ~(1 << p)):
            assert solver.witness(piece, after.red, after.blue, ban.area & ~piece) is not None


def test_an_nde_region_tested_alone_is_proved_from_where_the_constructions_got_stuck() -> None:
    """Regression: the same 101-point area tested as a region on its own (as a loaded start is), with
    no last placement to grow a window from: the restarted search ran for minutes. The grown window
    now starts from each point the constructions got stuck on in turn (about 5 s here)."""
    pos = Position.parse(E6_POSITION)
    g = pos.grid
    after = pos.place(g.point("e6"), "r")
    fresh = legality.Engine(g)  # (the shared engine may know the answer already)
    answers = [(m.bit_count(), fresh.region(m, after.red, after.blue).fillable)
               for m in g.components(after.empty_points)]
    assert sorted(answers)[-1] == (101, False) and all(ok for size, ok in answers if size < 101)
