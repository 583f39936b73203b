"""The proof store trusts none of its records (issue 51, item 3): on a copy of a finished 4x4 store, a rerun
of ``nd-prove`` reports each damaged or implausible deciding round once, in one line, with or without
``--quiet``, does its work again and answers what the proven entries say (Blue wins 4x4), never what a
damaged record says; and the readers' fuzzer on the store (truncations, bit flips, changed records) and
on the ledger of decided lines."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import CheckFailed
from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal.ledger import digest as ledger_digest
from pipeline.naked_diagonal.ledger import read_ledger, write_entry
from pipeline.naked_diagonal.proof_store import ProofStore, decided, decided_by_entries, record_problem
from tests.game.test_fuzz_readers import LIMIT, time_limit
from unitile_py.errors import GameError

#: Nodes per round, as in the issue's store.
ROUND = "1000"


def prove(store: Path, *extra: str) -> list[str]:
    return ["nd-prove", "--in-process", "--board", "4x4", "--store", str(store), "--round-nodes", ROUND,
            *extra]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished ``nd-prove --board 4x4 --store S --round-nodes 1000`` store."""
    store = tmp_path_factory.mktemp("finished") / "p4.zarr"
    assert nd_cli.main([*prove(store), "--quiet"]) == 0
    return store


def deciding(store: Path) -> dict[str, Path]:
    """The folder of each task's deciding round."""
    return {task: store / r.path for task, r in decided(ProofStore(str(store), 4).load()[1]).items()}


def edit_meta(folder: Path, change: Callable[[dict[str, Any]], None]) -> None:
    meta = json.loads((folder / "zarr.json").read_text())
    change(meta)
    (folder / "zarr.json").write_text(json.dumps(meta))


def edit_record(folder: Path, change: Callable[[dict[str, Any]], None]) -> None:
    edit_meta(folder, lambda meta: change(meta["attributes"]["record"]))


def rerun(store: Path, capsys: pytest.CaptureFixture[str], quiet: bool = True) -> tuple[dict[str, Any], str]:
    capsys.readouterr()
    assert nd_cli.main(prove(store, *(["--quiet"] if quiet else []))) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return json.loads(out), err


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning:")]


def damaged_copy(finished: Path, tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    store = tmp_path / "copy.zarr"
    shutil.copytree(finished, store)
    return store, deciding(store)


def check_redone(result: dict[str, Any], task: str) -> None:
    """Blue wins 4x4 as before, and the damaged task was searched again."""
    assert result["empty_board"] == "loss" and result["winner"] == "blue"
    (done,) = [t for t in result["tasks"] if "-".join(t["line"]) == task]
    assert not done.get("recorded") and done["wins"] is True


def test_the_finished_store_is_trusted_as_it_is(finished: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    store, rounds = damaged_copy(finished, tmp_path)
    assert len(rounds) >= 2
    result, err = rerun(store, capsys, quiet=False)
    assert not warnings(err) and all(t.get("recorded") for t in result["tasks"])
    assert result["empty_board"] == "loss"


@pytest.mark.parametrize(("damage", "words"), [
    (lambda f: (f / "zarr.json").write_text(""), "metadata cannot be read"),
    (lambda f: (f / "zarr.json").write_text("{"), "metadata cannot be read"),
    (lambda f: (f / "zarr.json").unlink(), "its zarr.json is missing"),
    (lambda f: edit_meta(f, lambda m: m.update(shape=[10**12, 5])), "shape is [1000000000000, 5]"),
    (lambda f: edit_meta(f, lambda m: m["chunk_grid"]["configuration"].update(chunk_shape=[10**12, 5])),
     "chunks are [1000000000000, 5]"),
    (lambda f: edit_record(f, lambda r: r.update(wins="yes")), "field wins is 'yes'"),
    (lambda f: edit_record(f, lambda r: r.update(nodes=-5)), "field nodes is -5"),
    (lambda f: edit_record(f, lambda r: r.update(round="x")), "field round is 'x'"),
    (lambda f: edit_record(f, lambda r: r.update(entries=10**12)), "field entries is 1000000000000"),
], ids=["emptied", "brace", "removed", "shape", "chunks", "wins-yes", "nodes-negative", "round-x",
        "entries-huge"])
def test_a_damaged_deciding_round_is_reported_once_and_redone(
        damage: Callable[[Path], None], words: str, finished: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    store, rounds = damaged_copy(finished, tmp_path)
    task, folder = sorted(rounds.items())[0]
    damage(folder)
    result, err = rerun(store, capsys)  # --quiet: the damage is still reported
    (line,) = warnings(err)
    assert words in line and folder.name in line and "round ignored" in line, line
    check_redone(result, task)
    # Without --quiet the warning is printed once too (it was printed twice), and the store, redone, holds.
    again, err = rerun(store, capsys, quiet=False)
    assert len(warnings(err)) == 1 and again["empty_board"] == "loss"


def test_flipped_wins_in_every_deciding_round_change_nothing(finished: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    store, rounds = damaged_copy(finished, tmp_path)
    for folder in rounds.values():
        edit_record(folder, lambda r: r.update(wins=not r["wins"]))
    result, err = rerun(store, capsys, quiet=False)
    lines = warnings(err)
    assert len(lines) == len(rounds), lines
    assert all("its record says a loss, the store's proven entries a win" in line for line in lines)
    assert result["empty_board"] == "loss" and result["winner"] == "blue"  # not "Red wins 4x4"
    for task in rounds:
        check_redone(result, task)
    # The redone rounds decide now; the flipped ones are still reported, once each.
    again, err = rerun(store, capsys)
    assert again["empty_board"] == "loss" and len(warnings(err)) == len(rounds)


def test_a_decided_round_is_checked_against_the_proven_entries(finished: Path) -> None:
    store = ProofStore(str(finished), 4)
    rows, rounds = store.load()
    said: list[str] = []
    assert decided_by_entries(4, rows, rounds, said.append, str(finished)) == decided(rounds)
    assert not said
    # Without the entries nothing is decided, and each deciding round says why.
    assert decided_by_entries(4, rows[:0], rounds, said.append) == {}
    assert len(said) == len(decided(rounds)) and all("no proven entry" in s for s in said)


def test_record_fields_are_checked_for_type_and_range() -> None:
    good = {"round": 1, "writer": "w", "entries": 2, "wins": True, "nodes": 5, "cpu_seconds": 0.5,
            "line": ["a1"], "proof": ["b2"]}
    assert record_problem(4, "a1", "00001-w", good, (2, 5)) is None
    for change, words in [({"round": True}, "field round"), ({"round": 2}, "field round"),
                          ({"writer": "v"}, "field writer"), ({"entries": 3}, "shape is [2, 5]"),
                          ({"wins": 1}, "field wins"), ({"nodes": 1.5}, "field nodes"),
                          ({"cpu_seconds": -1}, "field cpu_seconds"), ({"seconds": "x"}, "field seconds"),
                          ({"line": ["b1"]}, "not the line of task a1"), ({"proof": [3]}, "field proof"),
                          ({"entries": 1 << 40}, "field entries")]:
        why = record_problem(4, "a1", "00001-w", {**good, **change}, (2, 5))
        assert why is not None and words in why, (change, why)
    assert record_problem(4, "a1", "1-w", good, (2, 5)) == "its name is not <round>-<writer>"


def decisions(store: Path, said: list[str]) -> dict[str, bool]:
    """What a rerun takes as decided: each task's answer, from the checked rounds and entries."""
    rows, rounds = ProofStore(str(store), 4).load(warn=said.append)
    return {task: r.record["wins"] for task, r in decided_by_entries(4, rows, rounds, said.append).items()}


@dataclass(frozen=True)
class StoreDamage:
    """A truncation or a bit flip of one file of the store, or a field of a round's record changed (no
    checksum covers a record: any change is a re-signed one)."""

    kind: str
    file: int
    at: int
    how: int


#: The fields of a record a change picks from, the deciding one first.
FIELDS = ("wins", "round", "entries", "writer", "line", "nodes", "hints", "proof", "cpu_seconds", "table")
STORE_DAMAGE = st.builds(StoreDamage, st.sampled_from(["field", "truncate", "flip"]),
                         st.integers(0, 1 << 16), st.integers(0, 1 << 24), st.integers(0, 63))
#: What a record's field may be changed to (its old value given).
FIELD_CHANGES: list[Callable[[Any], Any]] = [
    lambda v: not v if isinstance(v, bool) else v + 1 if isinstance(v, int) else v if v else 2,
    lambda v: -5, lambda v: 10**12, lambda v: "yes", lambda v: None, lambda v: [], lambda v: "x",
    lambda v: 1.5, lambda v: ["a1"],
]


def damage_store(store: Path, damage: StoreDamage) -> bool:
    """Damage a copy of the store; False when nothing changed."""
    if damage.kind == "field":
        folders = sorted(p.parent for p in store.glob("proven/*/*/zarr.json"))
        folder = folders[damage.file % len(folders)]
        meta = json.loads((folder / "zarr.json").read_text())
        record = meta["attributes"]["record"]
        key = FIELDS[damage.at % len(FIELDS)]
        new = FIELD_CHANGES[damage.how % len(FIELD_CHANGES)](record.get(key))
        if key in record and new == record[key] and type(new) is type(record[key]):
            return False
        record[key] = new
        (folder / "zarr.json").write_text(json.dumps(meta))
        return True
    files = sorted(p for p in store.rglob("*") if p.is_file())
    path = files[damage.file % len(files)]
    body = bytearray(path.read_bytes())
    if not body:
        return False
    if damage.kind == "truncate":
        path.write_bytes(bytes(body[:damage.at % len(body)]))
    else:
        body[damage.at % len(body)] ^= 1 << (damage.how % 8)
        path.write_bytes(bytes(body))
    return True


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(damage=STORE_DAMAGE)
def test_a_damaged_store_is_reported_in_one_line_and_never_changes_an_answer(finished: Path,
                                                                          damage: StoreDamage) -> None:
    """The readers' fuzzer on the proof store: whatever the damage, reading ends in time, in one line of
    the project's errors or with one-line warnings, and every task it takes as decided has the answer the
    undamaged store gives (damage may leave a task undecided, to be searched again, never change it)."""
    pristine = decisions(finished, [])
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "copy.zarr"
        shutil.copytree(finished, store)
        if not damage_store(store, damage):
            return
        said: list[str] = []
        try:
            with time_limit(LIMIT):
                got = decisions(store, said)
        except (GameError, CheckFailed) as exc:
            assert str(exc) and "\n" not in str(exc), str(exc)
            return
        assert all(line and "\n" not in line for line in said), said
        assert all(pristine[task] == wins for task, wins in got.items()), (damage, got, pristine)


@pytest.fixture(scope="module")
def ledger(finished: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of the finished store's decided lines (as nd-prove --ledger writes it)."""
    folder = tmp_path_factory.mktemp("ledger") / "4x4"
    for r in decided(ProofStore(str(finished), 4).load()[1]).values():
        write_entry(folder, 4, r.record, {"round_nodes": int(ROUND)})
    return folder


def ledger_answers(folder: Path, said: list[str]) -> dict[str, bool]:
    return {name: entry["wins"] for name, entry in read_ledger(folder, 4, said.append).items()}


def read_damaged_ledger(ledger: Path, damage: StoreDamage, resigned: bool) -> None:
    """A damaged copy of the ledger: one-line warnings, and only the undamaged answers."""
    pristine = ledger_answers(ledger, [])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "4x4"
        shutil.copytree(ledger, folder)
        files = sorted(folder.glob("*.json"))
        path = files[damage.file % len(files)]
        if resigned:
            data = json.loads(path.read_text())
            key = FIELDS[damage.at % len(FIELDS)]
            data[key] = FIELD_CHANGES[damage.how % len(FIELD_CHANGES)](data.get(key))
            body = {k: v for k, v in data.items() if k != "sha256"}
            path.write_text(json.dumps({**body, "sha256": ledger_digest(body)}))
        else:
            body = bytearray(path.read_bytes())
            if damage.kind == "truncate":
                body = body[:damage.at % len(body)]
            else:
                body[damage.at % len(body)] ^= 1 << (damage.how % 8)
            path.write_bytes(bytes(body))
        said: list[str] = []
        with time_limit(LIMIT):
            got = ledger_answers(folder, said)
        assert all(line and "\n" not in line for line in said), said
        assert all(pristine[name] == wins for name, wins in got.items()), (damage, got, pristine)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(damage=st.builds(StoreDamage, st.sampled_from(["truncate", "flip"]), st.integers(0, 63),
                        st.integers(0, 1 << 16), st.integers(0, 63)))
def test_a_damaged_ledger_entry_is_reported_and_never_answers(ledger: Path, damage: StoreDamage) -> None:
    read_damaged_ledger(ledger, damage, resigned=False)


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(damage=st.builds(StoreDamage, st.just("field"), st.integers(0, 63), st.just(0), st.just(0)))
def test_a_resigned_ledger_entry_never_answers(ledger: Path, damage: StoreDamage) -> None:
    read_damaged_ledger(ledger, damage, resigned=True)


@pytest.mark.parametrize("change", ["flip", "shorten", "illegal"])
def test_a_resigned_verdict_is_refused_by_its_replayed_proof(ledger: Path, tmp_path: Path,
                                                              change: str) -> None:
    """A forger who flips an entry's verdict (or cuts or breaks its proof line) and signs it again: the
    line and proof, replayed by the game's rules, contradict it; the entry is reported and not used."""
    folder = tmp_path / "4x4"
    shutil.copytree(ledger, folder)
    path = sorted(folder.glob("*.json"))[0]
    data = json.loads(path.read_text())
    body = {k: v for k, v in data.items() if k != "sha256"}
    if change == "flip":
        body["wins"] = not body["wins"]
    elif change == "shorten":
        body["proof"] = body["proof"][:-1]
    else:
        body["proof"] = [body["line"][0], *body["proof"][1:]]  # a point already taken
    path.write_text(json.dumps({**body, "sha256": ledger_digest(body)}))
    said: list[str] = []
    got = read_ledger(folder, 4, said.append)
    assert path.stem not in got and len(got) == len(list(ledger.glob("*.json"))) - 1
    words = {"flip": "a win of the side it says loses", "shorten": "does not end the game",
             "illegal": "do not replay"}[change]
    assert len(said) == 1 and str(path) in said[0] and words in said[0], said
