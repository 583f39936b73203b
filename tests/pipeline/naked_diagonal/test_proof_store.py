"""The proof store of ``nd-prove --search dfpn`` (pipeline/naked_diagonal/proof_store.py): a proof stopped
after some rounds resumes to the same results with fewer nodes, the entries it keeps are proven (the
committed tables agree), a damaged round is reported and done again, and a foreign store is refused."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal import proof
from pipeline.naked_diagonal.dfpn import DfpnSearch
from pipeline.naked_diagonal.proof import prove_openings
from pipeline.naked_diagonal.proof_store import ProofStore
from unitile_py.command_line import EXIT_INTERRUPTED
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import tables_for

#: The search without its starting dn factor and threat lookahead (``runs``).
PLAIN = functools.partial(DfpnSearch, mobility=0, deep=0)
#: Nodes per round: 4x4's openings after one placement take 400 to 12,000 nodes, so several rounds.
ROUND = 1000


def run(n: int, store: Path | None, max_rounds: int = 0, log: list[str] | None = None) -> dict[str, Any]:
    return prove_openings(n, InProcessExecutor(), split=1, search="dfpn", log=(log or []).append,
                          store=None if store is None else str(store), round_nodes=ROUND,
                          max_rounds=max_rounds)


def answers(result: dict[str, Any]) -> tuple[Any, ...]:
    return result["empty_board"], result["first_placements"], [t["wins"] for t in result["tasks"]]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """4x4: in memory; fresh with a store; stopped after 2 rounds a task, then resumed."""
    root = tmp_path_factory.mktemp("proofs")
    with pytest.MonkeyPatch.context() as patch:
        # The search without its starting dn factor and threat lookahead: with them every 4x4 opening
        # takes at most two rounds, and the stop and resume need a task that takes more.
        patch.setattr(proof, "DfpnSearch", PLAIN)
        out: dict[str, Any] = {"memory": run(4, None), "fresh": run(4, root / "fresh.zarr")}
        out["stopped"] = run(4, root / "resumed.zarr", max_rounds=2)
        out["resumed"] = run(4, root / "resumed.zarr")
    out["store"] = root / "resumed.zarr"
    return out


def test_a_stopped_proof_resumes_to_the_same_results_with_fewer_nodes(runs: dict[str, Any]) -> None:
    memory, fresh, stopped, resumed = (runs[k] for k in ("memory", "fresh", "stopped", "resumed"))
    assert memory["empty_board"] == "loss"  # Blue wins 4x4
    assert answers(fresh) == answers(memory) == answers(resumed)
    assert None in [t["wins"] for t in stopped["tasks"]]  # some task needed more than 2 rounds
    assert max(t["rounds"] for t in fresh["tasks"]) > 2
    resumed_part = sum(t.get("run_nodes", 0) for t in resumed["tasks"])
    assert 0 < resumed_part < fresh["nodes"]
    # Totals continue over the runs: the resumed task's nodes include the stopped run's.
    for s, r in zip(stopped["tasks"], resumed["tasks"], strict=True):
        assert r["nodes"] >= s["nodes"]


def test_a_rerun_of_a_decided_store_runs_nothing(runs: dict[str, Any]) -> None:
    again = run(4, runs["store"])
    assert answers(again) == answers(runs["fresh"])
    assert all(t.get("recorded") for t in again["tasks"])


def position_of(n: int, high: int, low: int) -> Position:
    size = n * n
    return Position(Grid.get(n), low, high & ((1 << size) - 1), "rb"[high >> size])


@pytest.mark.parametrize("n", [3, 4])
def test_the_saved_entries_are_proven(n: int, runs: dict[str, Any], tmp_path: Path) -> None:
    store = runs["store"] if n == 4 else tmp_path / "p3.zarr"
    if n == 3:
        run(3, store)
    rows, rounds = ProofStore(str(store), n).load()
    assert len(rounds) >= len(runs["fresh"]["tasks"] if n == 4 else []) and rows.shape[0] > 0
    tables = tables_for(n)
    wins = losses = 0
    for high, low, pn, dn, _ in rows.tolist():
        outcome = tables.outcome(position_of(n, high, low))[0]
        assert outcome == ("win" if pn == 0 else "loss")
        wins, losses = wins + (pn == 0), losses + (dn == 0)
    assert wins and losses


def test_a_damaged_round_is_reported_and_done_again(runs: dict[str, Any], tmp_path: Path) -> None:
    store = tmp_path / "damaged.zarr"
    run(4, store, max_rounds=2)
    chunks = sorted(p for p in store.glob("proven/*/*/c/*/*") if p.stat().st_size > 8)
    assert chunks
    victim = chunks[0]
    victim.write_bytes(victim.read_bytes()[:-3])  # truncated: the crc32c fails
    log: list[str] = []
    ProofStore(str(store), 4).load(warn=log.append)
    assert len(log) == 1 and "\n" not in log[0] and "round ignored" in log[0]
    assert victim.parent.parent.parent.name in log[0]
    resumed = run(4, store, log=log)
    assert answers(resumed) == answers(runs["fresh"])


def test_a_store_of_another_board_or_search_is_refused(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "p3.zarr")
    base = ["nd-prove", "--in-process", "--quiet", "--store", store]
    assert nd_cli.main([*base, "--board", "3x3", "--search", "dfpn", "--round-nodes", "1000"]) == 0
    capsys.readouterr()
    for argv, words in ([["--board", "4x4", "--search", "dfpn"], "holds board 3x3, not 4x4"],
                        [["--board", "3x3", "--search", "alphabeta"], "df-pn proofs only"],
                        [["--board", "3x3", "--search", "dfpn", "--round-nodes", "10"], "at least 1,000"]):
        assert nd_cli.main([*base, *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and words in err


def test_ctrl_c_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(proof, "prove_openings", interrupted)
    argv = ["nd-prove", "--in-process", "--quiet", "--board", "3x3", "--search", "dfpn",
            "--store", str(tmp_path / "p.zarr")]
    assert nd_cli.main(argv) == EXIT_INTERRUPTED
    assert "stopped: rerun the same command to continue" in capsys.readouterr().err


def test_a_round_without_its_record_does_not_count(tmp_path: Path) -> None:
    # A write killed before the record: the array is there, its record is not.
    store = ProofStore(str(tmp_path / "p.zarr"), 3, create=True)
    rows = DfpnSearch(3)
    rows.prove(0, 0, 0)
    entries = rows.proven_entries()
    done = store.write_round("root", 1, "w1", entries, {"wins": rows.known(0, 0, 0)})
    store.create_array("proven/root/00002-w2", entries.shape, entries.shape, None, "int64", None, 0)
    assert [r.path for r in store.rounds()] == [done.path]
    loaded, rounds = store.load()
    assert rounds == [done] and loaded.shape == entries.shape
    fresh = DfpnSearch(3)
    fresh.load(loaded)
    assert fresh.prove(0, 0, 0) is True and fresh.last_nodes == 0  # known from the loaded entries


def test_hints_are_loaded_but_never_count_as_proof(runs: dict[str, Any], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "hints.zarr"
    monkeypatch.setattr(proof, "DfpnSearch", PLAIN)  # tasks of more than two rounds, as in ``runs``

    def hinted(max_rounds: int = 0) -> dict[str, Any]:
        return prove_openings(4, InProcessExecutor(), split=1, search="dfpn", log=lambda msg: None,
                              store=str(store), round_nodes=ROUND, max_rounds=max_rounds, hint_work=1)

    hinted(max_rounds=2)
    assert list(store.glob("hints/*/*/zarr.json"))
    resumed = hinted()
    assert answers(resumed) == answers(runs["fresh"])
    assert sum(t.get("hints_loaded", 0) for t in resumed["tasks"]) > 0
    search = DfpnSearch(4)
    rows, rounds = ProofStore(str(store), 4).load()
    hints = [h for r in rounds if (h := ProofStore(str(store), 4).read_hints(r)) is not None]
    assert hints and all(((h[:, 2] > 0) & (h[:, 3] > 0)).all() for h in hints)
    with pytest.raises(ValueError, match="only proven"):
        search.load(hints[0])
    with pytest.raises(ValueError, match="unproven"):
        search.load_hints(rows)
