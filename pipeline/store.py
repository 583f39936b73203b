"""What every game's store shares: a zarr group in a directory the pipeline made (its marker file), the
stage records in the group's attributes, and one-line errors for what goes wrong.

:class:`StageStore` is the base of :class:`pipeline.unitile.store.Store` and
:class:`pipeline.naked_diagonal.store.Store`: it checks or makes the directory (:meth:`StageStore.prepare`),
opens the group, checks or writes the game's metadata attribute, and keeps the records of the completed
stages (``stages = {name: record}``). A write that the file system refuses (read-only, full) is a one-line
user error of the game; an unreadable ``zarr.json`` is :class:`pipeline.errors.Damaged`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import fsspec.config
import fsspec.core
import fsspec.implementations.local
import zarr

from unitile_py.errors import GameError
from unitile_py.table_io import is_format

from .arrays import CONFIG, DECODE_ERRORS, codecs
from .errors import Damaged

# A store may also be any fsspec URL that the client and every worker can reach (``file:///shared/x.zarr``
# on a shared file system, ``s3://bucket/x.zarr``, ``gs://...``; see docs/cluster.md). fsspec's local file
# system does not create parent directories by default; zarr's own local store does, so make ``file://``
# URLs behave the same (in every process that imports this module: the client and the workers' tasks).
fsspec.config.conf.setdefault("file", {}).setdefault("auto_mkdir", True)


def as_record(value: object) -> dict[str, Any]:
    """A JSON attribute that should be an object, as a dict (empty when it is missing or anything else).

    >>> as_record({"board": "3x5"}), as_record(None), as_record([1])
    ({'board': '3x5'}, {}, {})
    """
    return dict(value) if isinstance(value, Mapping) else {}


def is_number(value: object) -> bool:
    """True for a JSON number (not a bool).

    >>> is_number(1.5), is_number("slow"), is_number(True)
    (True, False, False)
    """
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_whole(value: object) -> bool:
    """True for a whole number that is not negative (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def is_wholes(value: object) -> bool:
    """True for a list of whole numbers that are not negative."""
    return isinstance(value, list) and all(is_whole(v) for v in value)


def is_text(value: object) -> bool:
    """True for a string."""
    return isinstance(value, str)


def is_object(value: object) -> bool:
    """True for a JSON object."""
    return isinstance(value, Mapping)


#: What a field of a stage record must be: ``(its description, its test)``.
Check = tuple[str, Callable[[Any], bool]]
NUMBER: Check = ("a number", is_number)
WHOLE: Check = ("a whole number", is_whole)
WHOLES: Check = ("a list of whole numbers", is_wholes)
TEXT: Check = ("a text", is_text)
OBJECT: Check = ("an object", is_object)


def is_url(path: str) -> bool:
    """True for an fsspec URL (``file://``, ``s3://`` ...), False for a plain path.

    >>> is_url("file:///shared/3x5.zarr"), is_url("build/3x5.zarr")
    (True, False)
    """
    return "://" in path


def resolved(path: str) -> str:
    """A store path made absolute (tasks on the workers open it from their own directory); a URL as it is."""
    return path if is_url(path) else str(Path(path).resolve())


def place(path: str) -> tuple[Any, str, bool]:
    """``(file system, root, local)`` of a store path or URL (fsspec)."""
    if is_url(path):
        fs, root = fsspec.core.url_to_fs(path)
        return fs, root, isinstance(fs, fsspec.implementations.local.LocalFileSystem)
    return fsspec.filesystem("file"), str(Path(path).absolute()), True


def why(exc: OSError) -> str:
    """The reason of an OSError, for a one-line message."""
    return str(exc.strerror or exc)


def _blocking_file(root: str) -> Path | None:
    """The nearest existing ancestor of a local path when it is not a directory (a file in the way)."""
    for parent in Path(root).parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


@dataclass(frozen=True)
class StoreKind:
    """What tells one game's stores apart."""

    #: The game's user error (a :class:`unitile_py.errors.GameError`).
    error: type[GameError]
    #: What the store is called in "not a ... store".
    name: str
    #: The group attribute holding ``{format, board}``, and the format.
    meta_key: str
    format: int
    #: The file that marks a directory as a store the pipeline made (written first when it creates one).
    marker: str
    marker_text: bytes


class StageStore:
    """A game's zarr group of arrays and stage records at ``path`` (``create`` makes it when missing).

    A game's store sets :attr:`kind` and its messages :meth:`_not_found`, :meth:`_foreign` and
    :meth:`_incomplete`; ``board`` is the text of its board (``5x5``).
    """

    kind: ClassVar[StoreKind]
    #: For each stage, the fields of its record that other stages and commands read (``a.b``: field ``b``
    #: of the object in field ``a``), and what each must be (:meth:`record` checks them: a record edited or
    #: damaged is :class:`pipeline.errors.Damaged`).
    fields: ClassVar[Mapping[str, Mapping[str, Check]]] = {}

    @property
    def error(self) -> type[GameError]:
        """The game's user error."""
        return self.kind.error

    def __init__(self, path: str, board: str, create: bool = False) -> None:
        self.path = path
        self.prepare(create)
        try:
            self.root = zarr.open_group(path, mode="a" if create else "r+")
        except (FileNotFoundError, zarr.errors.GroupNotFoundError):
            raise self._not_found() from None
        except OSError as exc:
            raise self.error(f"store {path}: cannot open it ({why(exc)})") from None
        except DECODE_ERRORS:
            raise self._damaged() from None
        raw = self.root.attrs.get(self.kind.meta_key)
        if raw is None:
            if not create:
                raise self.error(f"store {path}: not a {self.kind.name} store")
            with self._writing():
                self.root.attrs[self.kind.meta_key] = {"format": self.kind.format, "board": board}
                self.root.attrs["stages"] = {}
        else:
            meta = as_record(raw)
            if meta.get("board") != board:
                raise self.error(f"store {path}: holds board {meta.get('board')}, not {board}")
            if not is_format(meta.get("format"), self.kind.format):  # true is not 1, nor 2.0 2
                raise self.error(f"store {path}: format {meta.get('format')}, expected {self.kind.format}")

    # Messages of the game ---------------------------------------------------------------------------

    def _not_found(self) -> GameError:
        """The error for a store that does not exist (saying how to make it)."""
        return self.error(f"store {self.path}: not found")

    def _foreign(self, fs: Any, root: str) -> GameError:
        """The error for a directory with contents but no marker."""
        return self.error(f"store {self.path}: not made by the pipeline (no {self.kind.marker})")

    def _incomplete(self, name: str) -> GameError:
        """The error for a stage that must be complete and is not."""
        return self.error(f"store {self.path}: stage {name!r} is not complete")

    def _damaged(self) -> Damaged:
        return Damaged(f"store {self.path}: its zarr.json cannot be read (the store is damaged)")

    # The directory ------------------------------------------------------------------------------------

    def prepare(self, create: bool) -> None:
        """Check that the path is a store of this game, or (``create``) make it: a new or empty directory
        gets the marker before anything else. Refuses, in one line, a file, a path under a file, and a
        directory with other contents: the pipeline deletes and overwrites only in its own stores."""
        path = self.path
        try:
            fs, root, local = place(path)
        except (ImportError, ValueError) as exc:  # a scheme fsspec does not know or cannot load here
            raise self.error(f"store {path}: cannot open it ({exc})") from None
        try:
            if fs.isfile(root):
                raise self.error(f"store {path}: is a file, not a store directory")
            blocker = _blocking_file(root) if local else None
            if blocker is not None:
                raise self.error(f"store {path}: {blocker} is a file, not a directory")
            if fs.exists(f"{root}/{self.kind.marker}"):
                return
            if fs.isdir(root) and fs.ls(root, detail=False):
                raise self._foreign(fs, root)
            if not create:
                raise self._not_found()
            fs.makedirs(root, exist_ok=True)
            fs.pipe_file(f"{root}/{self.kind.marker}", self.kind.marker_text)
        except OSError as exc:
            doing = "create" if create else "read"
            raise self.error(f"store {path}: cannot {doing} it ({why(exc)})") from None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A context in which an OSError (a read-only or full file system) is a one-line user error."""
        try:
            yield
        except OSError as exc:
            raise self.error(f"store {self.path}: cannot write in it ({why(exc)})") from None

    def check_writable(self) -> None:
        """A one-line error now, rather than after the first stage, when the store cannot be written."""
        fs, root, _ = place(self.path)
        probe = f"{root}/.unitile-probe"
        with self._writing():
            fs.pipe_file(probe, b"")
            fs.rm_file(probe)

    def create_array(
        self,
        name: str,
        shape: tuple[int, ...],
        chunks: tuple[int, ...],
        shards: tuple[int, ...] | None,
        dtype: Any,
        compressor: Any | None,
        fill: Any,
    ) -> zarr.Array:
        """(Re)create an array with inner ``chunks`` in ``shards`` (none when they are the chunks), compressed
        with ``compressor`` and a crc32c checksum on every chunk, every chunk stored even when it equals
        ``fill`` (:mod:`pipeline.arrays`)."""
        with self._writing():
            return zarr.create_array(
                store=self.path,
                name=name,
                shape=shape,
                chunks=chunks,
                shards=None if shards == chunks else shards,
                dtype=dtype,
                compressors=codecs(compressor),
                fill_value=fill,
                overwrite=True,
                config=CONFIG,
            )

    # Stage records ------------------------------------------------------------------------------------

    def stages(self) -> dict[str, Any]:
        """All stage records (a fresh read)."""
        try:
            stages = as_record(zarr.open_group(self.path, mode="r").attrs.get("stages"))
        except DECODE_ERRORS:
            raise self._damaged() from None
        # A record that is not an object (edited or damaged) is a stage not complete: it runs again.
        return {name: record for name, record in stages.items() if isinstance(record, Mapping)}

    def record(self, name: str) -> dict[str, Any] | None:
        """The record of a completed stage, or None; a field that others read and that is not what it must
        be (:attr:`fields`) is :class:`pipeline.errors.Damaged`, in one line naming it."""
        record = self.stages().get(name)
        if record is None:
            return None
        for key, (what, test) in self.fields.get(name, {}).items():
            value: Any = record
            for part in key.split("."):  # "report.positions": a field of an object
                value = value.get(part) if isinstance(value, Mapping) else None
            if not test(value):
                raise self.damaged_record(name, f"{key} is not {what}")
        return record

    def damaged_record(self, name: str, problem: str) -> Damaged:
        """The error for a stage record that is not as the stage wrote it (``problem`` says how)."""
        return Damaged(f"store {self.path}: the record of stage {name!r}: {problem} (the store is damaged; "
                       f"rerun the stage with --force {name})")  # fmt: skip

    def done(self, name: str) -> bool:
        """True when the stage completed."""
        return name in self.stages()

    def require(self, name: str) -> dict[str, Any]:
        """The record of a stage that must be complete, or a one-line error."""
        rec = self.record(name)
        if rec is None:
            raise self._incomplete(name)
        return rec

    def mark_done(self, name: str, record: dict[str, Any]) -> None:
        """Record a completed stage (its arrays must already be written)."""
        stages = self.stages()
        stages[name] = record
        with self._writing():
            self.root.attrs["stages"] = stages

    def clear(self, names: list[str]) -> None:
        """Forget completed stages (before rerunning them or a stage they depend on)."""
        stages = self.stages()
        if any(n in stages for n in names):
            with self._writing():
                self.root.attrs["stages"] = {k: v for k, v in stages.items() if k not in names}
