"""Writing one board's table files into a folder without losing anything, all at once.

The folder may hold other things (another board's tables in a shared ``--tables DIR``, a user's notes):
only the files that this board's previous ``manifest.json`` there lists are the pipeline's, so only those
are replaced or removed, and a file of the new set that exists without being listed is a one-line
error rather than overwritten (:func:`check_folder`, also run before the build starts).

:func:`write_tables` writes the new files into a temporary folder next to the target, adds the other
entries of the target to it as hard links (no data copied), and then exchanges the two folders in one
``renameat2(RENAME_EXCHANGE)`` call: a write killed at any moment leaves either the old folder or the
new one, never a mixture. (Where the call is missing, the old folder is renamed aside and the new one
renamed in: a kill between the two leaves the old tables in ``.<name>.old-*``.) Leftovers of killed
writes (``.<name>.partial-*`` next to the folder) are removed by the next write.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import hashlib
import json
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board

MANIFEST = "manifest.json"
#: renameat2's flag that exchanges two paths atomically (Linux 3.15+), and "the current directory".
RENAME_EXCHANGE = 2
AT_FDCWD = -100


def owned_files(folder: Path, board: Board, ours: Iterable[str] = ()) -> set[str]:
    """The files of ``folder`` that belong to the board's tables: those its manifest lists, the manifest
    itself, and ``ours`` (the files the store's record says the pipeline wrote there; they stand in for a
    manifest that is missing or damaged). A manifest of another board, or one that is not the pipeline's
    when ``ours`` does not name it, is a one-line error: the folder holds someone else's tables."""
    path = folder / MANIFEST
    ours = {name for name in ours if Path(name).name == name}
    if not path.exists():
        return ours
    try:
        manifest = json.loads(path.read_bytes())
        files = manifest["files"]
        listed = {str(name) for name in files}
        other = str(manifest["board"])
    except (OSError, ValueError, KeyError, TypeError):
        if MANIFEST in ours:
            return ours
        raise UnitileError(
            f"tables {folder}: {MANIFEST} is not a manifest of the pipeline; not overwriting it"
        ) from None
    if other != str(board):
        raise UnitileError(
            f"tables {folder}: holds the tables of board {other}, not {board}; give another --tables DIR"
        )
    if any(Path(name).name != name for name in listed):
        raise UnitileError(f"tables {folder}: {MANIFEST} lists a file outside the folder; not touching it")
    return listed | {MANIFEST} | ours


def written_problem(folder: Path, record: Mapping[str, Any]) -> str | None:
    """What differs between ``folder`` and the files that the ``tables`` stage's ``record`` says it wrote:
    they were written to another folder, or a file is missing or holds other bytes than were written
    (its sha256). None when every file is there as written."""
    directory = record.get("directory")
    if directory != str(folder):
        return f"they were written to {directory}, not {folder}"
    files, manifest = record.get("files"), record.get("manifest_sha256")
    if not isinstance(files, Mapping) or not isinstance(manifest, str):
        return "the stage's record does not list them"
    want = {str(k): v.get("sha256") if isinstance(v, Mapping) else None for k, v in files.items()}
    for name, digest in sorted({**want, MANIFEST: manifest}.items()):
        if Path(name).name != name:
            return "the stage's record lists a file outside the folder"
        try:
            data = (folder / name).read_bytes()
        except FileNotFoundError:
            return f"{name} is missing"
        except OSError as exc:
            return f"{name} cannot be read ({exc.strerror or exc})"
        if hashlib.sha256(data).hexdigest() != digest:
            return f"{name} is not the file that was written (its sha256 differs)"
    return None


def check_folder(folder: Path, board: Board, names: Iterable[str], ours: Iterable[str] = ()) -> None:
    """Whether the tables ``names`` of ``board`` may be written into ``folder``: its nearest existing
    ancestor is a writable directory, and no entry named like a new file is someone else's (``ours``:
    see :func:`owned_files`)."""
    if folder.exists() and not folder.is_dir():
        raise UnitileError(f"tables {folder}: is a file, not a folder")
    ancestor = next(p for p in (folder, *folder.parents) if p.exists())
    if not ancestor.is_dir():
        raise UnitileError(f"tables {folder}: {ancestor} is a file, not a folder")
    # The new folder is made next to the old one, and a read-only folder is not to be replaced either.
    for target in (folder, folder.parent) if folder.exists() else (ancestor,):
        try:
            os.rmdir(tempfile.mkdtemp(prefix=f".{folder.name}.probe-", dir=target))
        except OSError as exc:
            raise UnitileError(f"tables {folder}: cannot write in {target} ({exc.strerror or exc})") from None
    if folder.exists():
        owned = owned_files(folder, board, ours)
        taken = sorted(n for n in names if (folder / n).exists() and n not in owned)
        if taken:
            raise UnitileError(
                f"tables {folder}: {', '.join(taken)} exist(s) and no manifest of board {board} there lists "
                "them; not overwriting: give another --tables DIR"
            )


def write_tables(
    folder: Path,
    board: Board,
    files: dict[str, bytes],
    before_swap: Callable[[], None] | None = None,
    ours: Iterable[str] = (),
) -> None:
    """Put ``files`` (names to bytes, the manifest among them) into ``folder`` in place of the board's
    previous tables, keeping everything else there (see the module docstring; ``ours``: see
    :func:`owned_files`). ``before_swap`` runs just before the folders are exchanged (for tests)."""
    folder = folder.resolve()
    ours = tuple(ours)
    check_folder(folder, board, files, ours)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        for leftover in folder.parent.glob(f".{folder.name}.partial-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        tmp = _new_folder(folder.parent, f".{folder.name}.partial-")
        for name, data in sorted(files.items()):
            (tmp / name).write_bytes(data)
        if folder.exists():
            owned = owned_files(folder, board, ours)
            for entry in sorted(folder.iterdir()):
                if entry.name not in owned and entry.name not in files:
                    _link(entry, tmp / entry.name)
        if before_swap is not None:
            before_swap()
        if folder.exists():
            _exchange(tmp, folder)
            shutil.rmtree(tmp)  # now the old folder
        else:
            os.rename(tmp, folder)
    except OSError as exc:
        raise UnitileError(f"tables {folder}: cannot write ({exc.strerror or exc})") from None


def _new_folder(parent: Path, prefix: str) -> Path:
    """A new folder ``parent/<prefix><random>`` made as ``mkdir`` makes one, following the umask
    (``tempfile.mkdtemp`` makes it 0700, and the folder renamed into place would keep that)."""
    for _ in range(100):
        path = parent / f"{prefix}{secrets.token_hex(4)}"
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no unused name for a new folder", str(parent / prefix))


def _link(src: Path, dst: Path) -> None:
    """``dst`` as another name of ``src`` (hard links, a tree of them for a folder; copies where the file
    system has no hard links)."""
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
    elif src.is_dir():
        shutil.copytree(src, dst, symlinks=True, copy_function=_link_file)
    else:
        _link_file(str(src), str(dst))


def _link_file(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _exchange(a: Path, b: Path) -> None:
    """Exchange two paths atomically (renameat2); without it, rename ``b`` aside and ``a`` onto it."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fn = getattr(libc, "renameat2", None)
    if fn is not None:
        if fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # no exchange on this file system
            raise OSError(code, os.strerror(code), str(b))
    aside = Path(tempfile.mkdtemp(prefix=f".{b.name}.old-", dir=b.parent))
    os.rmdir(aside)
    os.rename(b, aside)
    os.rename(a, b)
    os.rename(aside, a)
