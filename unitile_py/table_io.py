"""What both games' table readers share: where ``tables/`` is, and the checks of a manifest and of
the files it lists, each failure one line in the reading game's error class.

Each game's folder holds a ``manifest.json`` whose ``files`` object gives every file's size and
sha256 (docs/tables.md, docs/naked-diagonal-tables.md); the game's own reader checks the rest.

>>> check_files("t", {"a.bin": b"x"}, {"files": {"a.bin": {"bytes": 2, "sha256": "0" * 64}}}, GameError)
Traceback (most recent call last):
...
unitile_py.errors.GameError: t: a.bin has 1 bytes, manifest.json says 2 (truncated?)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import struct
import zlib
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from .errors import GameError

#: The environment variable that points the readers at another tables directory.
ENV = "UNITILE_TABLES"
SHA256 = re.compile(r"[0-9a-f]{64}", re.ASCII)
#: Most records per block a reader of a binary table file accepts.
MAX_PER_BLOCK = 1 << 20
#: The largest ``manifest.json`` a reader reads.
MAX_MANIFEST_BYTES = 1 << 20
#: The largest table file a reader reads when no manifest gives its size.
MAX_FILE_BYTES = 1 << 30
#: A directory a caller names, or None for the game's default.
Directory = str | os.PathLike[str] | None

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def tables_root() -> Path:
    """The tables directory: ``$UNITILE_TABLES`` if set, else ``tables/`` next to this package."""
    env = os.environ.get(ENV)
    return Path(env) if env else Path(__file__).resolve().parent.parent / "tables"


def root_of(directory: Directory, default: Callable[[], Path]) -> Path:
    """The directory a caller names, or ``default()`` (the game's folder of tables) for None."""
    return Path(directory) if directory is not None else default()


def folder_of(root: Path, board: str) -> Path:
    """The folder of one board's files: ``root`` itself when it holds a ``manifest.json``, else
    ``root/board``."""
    return root if (root / "manifest.json").is_file() else root / board


def loaded_once(load: Callable[[K, str], T], default: Callable[[], Path]) -> Callable[[K, Directory], T]:
    """``load(board, directory)`` as a function that loads (and checks) each board's tables once per
    process and directory, the directory resolved first and ``default()`` for None."""
    cached = cache(load)

    def tables(board: K, directory: Directory = None) -> T:
        return cached(board, str(root_of(directory, default).resolve()))

    return tables


def field(where: str, obj: Mapping[str, Any], key: str, kind: type, what: str, error: type[GameError]) -> Any:
    """``obj[key]``, which must be of ``kind``; else a one-line ``error`` naming the field."""
    value = obj.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise error(f"{where}: field {key!r} must be {what}")
    return value


def is_format(value: Any, want: int) -> bool:
    """True when a manifest's ``format`` is the whole number ``want``: JSON ``true`` is not 1, nor ``2.0`` 2
    (in Python a bool is an int and a float may equal one)."""
    return type(value) is int and value == want


def parse_manifest(
    where: str, raw: bytes, name: re.Pattern[str], named: str, error: type[GameError]
) -> dict[str, Any]:
    """The JSON object of a ``manifest.json`` whose ``files`` entries are checked: each name matches
    ``name`` (``named`` says how it should look), with a whole ``bytes`` and a hex ``sha256``."""
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise error(f"{where} is not valid JSON (truncated or altered?)") from None
    if not isinstance(manifest, dict):
        raise error(f"{where} is not a JSON object")
    files = field(where, manifest, "files", dict, "an object of file names", error)
    for file, info in files.items():
        if not name.fullmatch(file):
            raise error(f"{where}: file name {file[:40]!r} is not {named}")
        at = f"{where}: files[{file!r}]"
        if not isinstance(info, dict):
            raise error(f"{at} must be an object")
        size = field(at, info, "bytes", int, "a whole number", error)
        digest = field(at, info, "sha256", str, "a sha256 in hex", error)
        if size < 0 or not SHA256.fullmatch(digest):
            raise error(f"{at} has a bad size or sha256")
    return manifest


def check_files(
    where: str, files: Mapping[str, bytes], manifest: Mapping[str, Any], error: type[GameError]
) -> dict[str, bytes]:
    """Every file the manifest lists, present in ``files`` with its size and sha256."""
    data: dict[str, bytes] = {}
    for name, info in manifest["files"].items():
        if name not in files:
            raise error(f"{where}: {name} is missing")
        blob = bytes(files[name])
        if len(blob) != info["bytes"]:
            raise error(
                f"{where}: {name} has {len(blob)} bytes, manifest.json says {info['bytes']} (truncated?)"
            )
        if hashlib.sha256(blob).hexdigest() != info["sha256"]:
            raise error(f"{where}: {name} is altered (its sha256 differs from manifest.json)")
        data[name] = blob
    return data


def checked(
    where: str,
    files: Mapping[str, bytes],
    parse: Callable[[bytes], dict[str, Any]],
    error: type[GameError],
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest of a table folder's ``files`` (read by the game's ``parse``) and every file it
    lists, checked by :func:`check_files`; a missing ``manifest.json`` is one ``error`` line too."""
    if "manifest.json" not in files:
        raise error(f"{where}: manifest.json is missing")
    manifest = parse(bytes(files["manifest.json"]))
    return manifest, check_files(where, files, manifest, error)


def header_fields(
    where: str, data: bytes, header: struct.Struct, magic: bytes, version: int, what: str,
    error: type[GameError],
) -> tuple[Any, ...]:
    """The fields after the magic and the format of a binary file's ``header`` (which begins with both),
    once the file is long enough for it, starts with ``magic`` (else it is no ``what``) and has format
    ``version``; one-line ``error`` otherwise."""
    if len(data) < header.size:
        raise error(f"{where} is truncated")
    fields: tuple[Any, ...] = header.unpack_from(data, 0)
    if fields[0] != magic:
        raise error(f"{where} is not a {what}")
    if fields[1] != version:
        raise error(f"{where} has format {fields[1]}; this reader reads format {version}")
    return fields[2:]


def check_per_block(where: str, per_block: int, error: type[GameError]) -> None:
    """Records per block must be a power of two up to :data:`MAX_PER_BLOCK`."""
    if not 1 <= per_block <= MAX_PER_BLOCK or per_block & (per_block - 1):
        raise error(f"{where}: header field records per block {per_block} is not a power of two")


def manifest_kind(folder: Path) -> str | None:
    """What the ``manifest.json`` of ``folder`` says it is: its ``kind`` (``"strategy"`` for a Naked
    Diagonal strategy), ``""`` for a manifest without one (tables), None without a readable manifest
    that is a JSON object (a special file, one over :data:`MAX_MANIFEST_BYTES`, one that does not
    parse). The readers check the rest; this only tells tables and strategies apart."""
    try:
        raw = read_bytes("manifest", folder / "manifest.json", GameError, limit=MAX_MANIFEST_BYTES)
        manifest = json.loads(raw.decode("utf-8"))
    except (GameError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(manifest, dict):
        return None
    kind = manifest.get("kind", "")
    return kind if isinstance(kind, str) else None


def read_bytes(
    where: str, path: Path, error: type[GameError], size: int | None = None, limit: int = MAX_FILE_BYTES,
    shown: str | None = None,
) -> bytes:
    """The bytes of a table file, looked at before they are read: it must be a regular file (never a
    FIFO, a device or a link to one), of ``size`` bytes when the manifest gives it, else at most
    ``limit``; otherwise, or when it cannot be read, one ``error`` line naming it (as ``shown``, else by
    its path).

    The file is opened without blocking (a FIFO cannot hold the reader) and checked on the open
    descriptor, so that nothing swapped in between is read either.
    """
    name = shown if shown is not None else str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise error(f"{where}: cannot read {name}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb", buffering=0) as file:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise error(f"{where}: {name} is not a regular file")
            if size is not None and info.st_size != size:
                raise error(
                    f"{where}: {name} has {info.st_size} bytes, manifest.json says {size} (truncated?)"
                )
            want = size if size is not None else info.st_size
            if want > limit:
                raise error(f"{where}: {name} has {info.st_size} bytes, more than a reader reads ({limit})")
            data = _read_up_to(file, want + 1)
        except OSError as exc:
            raise error(f"{where}: cannot read {name}: {exc.strerror or exc}") from None
    if len(data) != want:
        raise error(f"{where}: {name} changed while it was read")
    return data


def _read_up_to(file: Any, count: int) -> bytes:
    """Up to ``count`` bytes of an unbuffered file, fewer only at its end."""
    parts: list[bytes] = []
    while count > 0:
        part = file.read(min(count, 1 << 24))
        if not part:
            break
        parts.append(part)
        count -= len(part)
    return b"".join(parts)


def inflate(where: str, data: bytes, size: int, error: type[GameError]) -> bytes:
    """The zlib stream ``data`` inflated, which must give exactly ``size`` bytes: never more than
    ``size + 1`` are inflated, so a block that would inflate further costs no memory; one ``error``
    line (``WHERE is corrupt`` or ``WHERE has the wrong size``) otherwise.

    >>> inflate("b", zlib.compress(b"abc"), 3, GameError)
    b'abc'
    >>> inflate("b", zlib.compress(bytes(1000)), 3, GameError)
    Traceback (most recent call last):
    ...
    unitile_py.errors.GameError: b has the wrong size
    """
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, size + 1)
    except (zlib.error, ValueError):
        raise error(f"{where} is corrupt") from None
    if len(raw) != size:
        raise error(f"{where} has the wrong size")
    if not inflater.eof or inflater.unused_data:
        raise error(f"{where} is corrupt")
    return raw


__all__ = [
    "ENV",
    "MAX_FILE_BYTES",
    "MAX_MANIFEST_BYTES",
    "MAX_PER_BLOCK",
    "SHA256",
    "Directory",
    "check_files",
    "check_per_block",
    "checked",
    "field",
    "folder_of",
    "header_fields",
    "inflate",
    "is_format",
    "loaded_once",
    "manifest_kind",
    "parse_manifest",
    "read_bytes",
    "root_of",
    "tables_root",
]
