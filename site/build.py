"""Assemble the static site: site/web, unitile_py (every game), each game's table folders as its entry
in the registry (unitile_py/registry.py) names them (Unitile's tables/5x5; Naked Diagonal's folders of
perfect play, the tables of tables/naked-diagonal/3x3 and 4x4 and the strategy of 5x5, a stored proof,
told apart by the manifest's ``kind``, and the data its pages read), the puzzle files (tables/puzzles/,
listed as ``puzzles`` in build.json) and the Pyodide runtime. build.json describes each game by its key
(``games``): its request prefix, the modules the worker preloads, its table files, when the worker
writes them and the request that loads them.

The result is one self-contained folder (default ``build/site``) that any static web server can host.
``build.json`` in it lists every file with its size; the service worker (``sw.js``) gets the same list
and a version, the hash of every file's bytes, so a new build gets new cache names and the page can
offer the update.

Each page of site/web starts with its head as data, ``<!-- page KEY=VALUE ... -->`` (its game, body
classes, stylesheets, module scripts, title and description: :func:`page_head` writes the head out). The
pages share one frame, written once in ``site/web/frame/``: ``<!-- frame:head -->``,
``<!-- frame:header -->`` and ``<!-- frame:footer -->`` in a page are replaced by those fragments (the
head carries the Content-Security-Policy of ``site/serve.py`` and the page's game's stylesheet; the
header marks the page's own link with ``aria-current``, and its game in the game switch; the header's
links, the footer's credit and the play page's words are those of the page's game, see ``GAMES``). A
fragment may have slots (``{{slot:keys}}``) that the page fills: the mark is then followed by
``<!-- slot:keys -->`` and its lines, and so on, up to ``<!-- /frame -->``. A page also gets a
``modulepreload`` for each of its modules.

    python site/build.py [--out build/site] [--salt TEXT]

Exit status 2 with a one-line message when something it needs is missing.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "site" / "web"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
#: The only Pyodide files needed to boot the interpreter (no packages are loaded), by their name in
#: the npm package and in the site. The two ES modules are vendored under ``.js`` names: every server
#: knows ``.js`` as JavaScript, while many (Debian's nginx, with its stock mime.types) send ``.mjs``
#: as application/octet-stream, which a module import refuses. The worker imports both itself
#: (loadPyodide's ``createPyodideModule``), so pyodide.js never asks for ``pyodide.asm.mjs``.
PYODIDE_FILES = {
    "pyodide.mjs": "pyodide.js",
    "pyodide.asm.mjs": "pyodide.asm.js",
    "pyodide.asm.wasm": "pyodide.asm.wasm",
    "python_stdlib.zip": "python_stdlib.zip",
    "pyodide-lock.json": "pyodide-lock.json",
}
#: Precompressed copies (``name.gz`` beside ``name``) for servers that send them in its place to a
#: browser that accepts gzip (nginx's gzip_static, many static hosts); other servers ignore them. Only
#: files of at least this many bytes that gzip makes at least GZIP_GAIN smaller get one (the wasm: 9.6
#: MB to 3.5 MB; the standard library and the tables are compressed already and get none).
GZIP_MIN_BYTES = 1024
GZIP_GAIN = 0.1
#: The folders of the files the worker fetches (Pyodide, unitile_py, the tables): build.json's
#: ``gzipped`` lists those that have a copy, which the worker asks for whatever the server.
WORKER_FETCHES = ("pyodide/", "py/", "tables/")
#: The source map comment at the end of pyodide.mjs: the map is not shipped, so it is dropped.
SOURCE_MAP = re.compile(rb"\n//# sourceMappingURL=[^\n]*\n?$")
#: The version of the ``pyodide`` npm package the site is built and tested with.
PYODIDE_VERSION = "314.0.7"
#: The committed tables: each game's spec (unitile_py/registry.py) names its folders here.
TABLES = ROOT / "tables"
#: The puzzle files of every game (unitile-5x5.json, naked-diagonal-4x4.json, ...).
PUZZLES = TABLES / "puzzles"
#: The ``kind`` of a table folder's manifest: tables (no kind) or a strategy (a stored proof).
TABLE_KINDS = {"": "tables", "strategy": "strategy"}
#: Precompiled Python (the standard library, unitile_py) is made once per input and kept here.
CACHE = ROOT / "build" / "cache"
COMPILE = ROOT / "site" / "compile_python.mjs"
#: The tool that finds the standard library the site needs: Pyodide under node imports every module
#: of unitile_py and runs both games' requests (site/exercise.py); the modules then imported are kept.
EXERCISE_RUNNER = ROOT / "site" / "run_exercise.mjs"
EXERCISE = ROOT / "site" / "exercise.py"
#: Where Pyodide mounts its standard library zip: a module's ``__file__`` starts with it.
STDLIB_MOUNT = re.compile(r"^/lib/python\d+\.zip/")
#: Packages of the standard library zip shipped whole: Pyodide's own (its boot and its bridge to
#: JavaScript import their parts when they need them).
STDLIB_WHOLE = ("pyodide/", "_pyodide/")
#: The fragments every page shares (not copied into the build themselves).
FRAME = WEB / "frame"
FRAME_MARK = re.compile(r"<!-- frame:([a-z]+) -->(?:\n(<!-- slot:.*?)<!-- /frame -->)?", re.S)
SLOT = re.compile(r"<!-- slot:([a-z]+) -->\n")
#: The games: each page of one says ``<html data-game="...">`` and gets its links, credit, stylesheet
#: and the play page's words in the frame; a page of none (about.html) gets both games' credit and the
#: last game's links from js/frame.js.
GAMES = {
    "unitile": {
        "name": "Unitile",
        "play": "./",
        "rules": "rules.html",
        "puzzles": "puzzles.html",
        "example": "1. c4 d4 2. …",
        "css": "",
        "swatch": "",
        "unit": "groups",
        "board": "board",
        "board_label": "Board, 5 by 5",
        "distance": "plies",
    },
    "nd": {
        "name": "Naked Diagonal",
        "play": "nd.html",
        "rules": "nd-rules.html",
        "puzzles": "nd-puzzles.html",
        "example": "1. e5 d4 2. …",
        "css": "css/nd.css",
        "swatch": " swatch-stone",
        "unit": "stones",
        "board": "board nd-board",
        "board_label": "Board",
        "distance": "placements",
    },
}
#: A page's head, as data: the comment that starts each page of site/web, ``<!-- page KEY=VALUE ... -->``
#: (a value with spaces in double quotes). The keys: its ``game`` (none for a page of the whole site),
#: ``entry`` "root" on the site's start page, the classes of its ``body``, its ``styles`` and module
#: ``scripts`` (each a list split at spaces; the first module starts first), its ``title`` and
#: ``description``.
PAGE_COMMENT = re.compile(r"\A<!-- page (.*?) -->\n", re.S)
PAGE_FIELD = re.compile(r'\s*([a-z]+)=(?:"([^"]*)"|([^\s"]+))')
#: The module that starts the worker (js/early.js starts it first on a page that lists this one).
WORKER_STARTER = "js/start-worker.js"
PAGE_KEYS = ("game", "entry", "body", "styles", "scripts", "title", "description")
PAGE_GAME = re.compile(r'<html[^>]*\sdata-game="([a-z]+)"')
#: A page's module script, and a module's static imports of its neighbours.
ENTRY = re.compile(r'<script type="module" src="js/([\w-]+\.js)">')
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+\.js)"', re.M)


class BuildError(Exception):
    """Something the build needs is missing; the message is one line."""


@dataclass(frozen=True)
class Built:
    """What a build produced."""

    out: Path
    version: str
    files: tuple[str, ...]
    total_bytes: int


def folder_kind(folder: Path) -> str | None:
    """``"tables"`` or ``"strategy"``: what a folder of tables holds, by its manifest's ``kind``; None
    without a manifest. A manifest of another kind, or unreadable, stops the build."""
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BuildError(f"{manifest}: unreadable ({exc})") from None
    kind = data.get("kind", "") if isinstance(data, dict) else None
    if kind not in TABLE_KINDS:
        raise BuildError(f"{manifest}: kind {kind!r} is neither tables nor a strategy")
    return TABLE_KINDS[kind]


def game_files(game: Any, out: Path) -> dict[str, list[Path]]:
    """Copy a game's table folders (those of its patterns that have a manifest) and the data its pages
    read into ``out``: ``{"tables": copies, "data": copies}``."""
    tables: list[Path] = []
    for pattern in game.tables:
        for folder in sorted(TABLES.glob(pattern)):
            if folder.is_dir() and folder_kind(folder) is not None:
                tables += _copy_tree(folder, out / "tables" / folder.relative_to(TABLES))
    data: list[Path] = []
    for pattern in game.page_data:
        for path in sorted(TABLES.glob(pattern)):
            if path.is_file():
                target = out / "tables" / path.relative_to(TABLES)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
                data.append(target)
    return {"tables": tables, "data": data}


def _copy_tree(src: Path, dst: Path, pattern: str = "*", skip: Path | None = None) -> list[Path]:
    """Copy the files under ``src`` matching ``pattern`` to ``dst`` (not those under ``skip``);
    returns the copies."""
    out = []
    for path in sorted(src.rglob(pattern)):
        if skip is not None and path.is_relative_to(skip):
            continue
        if path.is_file() and "__pycache__" not in path.parts:
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            out.append(target)
    return out


def _check_pyodide() -> None:
    package = PYODIDE_DIR / "package.json"
    if not package.exists():
        raise BuildError(f"{PYODIDE_DIR} is missing: run `npm ci` (or `make site`) first")
    version = json.loads(package.read_text())["version"]
    if version != PYODIDE_VERSION:
        raise BuildError(
            f"node_modules has pyodide {version}, the site needs {PYODIDE_VERSION}: run `npm ci`"
        )
    for name in PYODIDE_FILES:
        if not (PYODIDE_DIR / name).exists():
            raise BuildError(f"{PYODIDE_DIR / name} is missing: run `npm ci`")


def _run_compile(what: str, args: list[str], script: Path = COMPILE, doing: str = "precompiling") -> str:
    """Run a node ``script`` (default: the compiler) with ``args``; its output."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(f"node is needed for {doing} {what}: install nodejs")
    result = subprocess.run([node, str(script), *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(f"{doing} {what} failed: {last[:300]}")
    return result.stdout


def compiled_stdlib() -> Path:
    """Pyodide's python_stdlib.zip with every module precompiled to .pyc (cached in build/cache).

    The npm package ships sources only, and compiling them on every page load costs seconds.
    """
    key = hashlib.sha256(COMPILE.read_bytes() + (PYODIDE_DIR / "python_stdlib.zip").read_bytes())
    cached = CACHE / f"python_stdlib-{PYODIDE_VERSION}-{key.hexdigest()[:12]}.zip"
    if not cached.exists():
        partial = cached.with_suffix(".partial")
        _run_compile("the Python standard library", ["stdlib", str(PYODIDE_DIR), str(partial)])
        partial.replace(cached)
    return cached


def run_exercise(stdlib: Path) -> dict[str, Any]:
    """Run site/exercise.py in Pyodide under node from the standard library zip ``stdlib``: every module
    of unitile_py imported, both games' requests answered. Its counts and every module imported then,
    with its file: ``{"counts": {...}, "modules": {name: file or None}}``."""
    args = [str(PYODIDE_DIR), str(stdlib), str(ROOT / "unitile_py"), str(TABLES), str(EXERCISE)]
    out = _run_compile("both games in Pyodide", args, EXERCISE_RUNNER, "running")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def trimmed_stdlib() -> Path:
    """The precompiled standard library cut to the modules the site imports (cached in build/cache):
    those :func:`run_exercise` finds imported after running both games, and Pyodide's own packages
    whole. Stored uncompressed: the build's gzipped copy of the whole zip is smaller than a zip of
    deflated members."""
    full = compiled_stdlib()
    key = hashlib.sha256(full.name.encode() + EXERCISE_RUNNER.read_bytes() + EXERCISE.read_bytes())
    for path in package_sources(ROOT / "unitile_py"):
        key.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    cached = CACHE / f"python_stdlib-trimmed-{key.hexdigest()[:12]}.zip"
    if not cached.exists():
        files = run_exercise(full)["modules"].values()
        wanted = {STDLIB_MOUNT.sub("", f) for f in files if f and STDLIB_MOUNT.match(f)}
        wanted |= {f + "c" for f in wanted if f.endswith(".py")}
        partial = cached.with_suffix(".partial")
        with zipfile.ZipFile(full) as src, zipfile.ZipFile(partial, "w", zipfile.ZIP_STORED) as dst:
            for info in src.infolist():
                if info.filename in wanted or info.filename.startswith(STDLIB_WHOLE):
                    kept = zipfile.ZipInfo(info.filename, info.date_time)
                    dst.writestr(kept, src.read(info), zipfile.ZIP_STORED)
        partial.replace(cached)
    return cached


def pack_python(folder: Path, package: str, target: Path) -> None:
    """The ``package`` precompiled in ``folder`` as one tar archive at ``target`` (``unitile_py/...pyc``
    members, no owner, no time: the same bytes for the same files), which the worker unpacks into
    Python's file system: one request instead of one per module."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(target, "w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(folder.rglob("*.pyc")):
            member = tarfile.TarInfo(f"{package}/{path.relative_to(folder).as_posix()}")
            data = path.read_bytes()
            member.size, member.mode, member.mtime = len(data), 0o644, 0
            tar.addfile(member, io.BytesIO(data))


def package_sources(source: Path) -> list[Path]:
    """Every module of the package ``source``, its subpackages' too (unitile_py.naked_diagonal)."""
    return [p for p in sorted(source.rglob("*.py")) if "__pycache__" not in p.parts]


def compiled_package(source: Path) -> Path:
    """A folder with every ``source/**/*.py`` as a .pyc for Pyodide's Python (cached in build/cache)."""
    key = hashlib.sha256(COMPILE.read_bytes() + PYODIDE_VERSION.encode())
    for path in package_sources(source):
        key.update(path.relative_to(source).as_posix().encode() + b"\0" + path.read_bytes())
    cached = CACHE / f"{source.name}-{key.hexdigest()[:12]}"
    if not cached.is_dir():
        stdlib = compiled_stdlib()
        partial = cached.with_name(cached.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        _run_compile(source.name, ["package", str(PYODIDE_DIR), str(stdlib), str(source), str(partial)])
        partial.replace(cached)
    return cached


def _module_at(name: str, path: Path) -> Any:
    """The module in the file ``path`` (one that imports only the standard library), under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BuildError(f"{path.relative_to(ROOT)} cannot be read")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def games() -> tuple[Any, ...]:
    """The games of the registry (unitile_py/registry.py), each a ``GameSpec``."""
    return tuple(_module_at("unitile_site_registry", ROOT / "unitile_py" / "registry.py").games())


def meta_csp() -> str:
    """The Content-Security-Policy of ``site/serve.py`` as a meta tag may carry it (without
    ``frame-ancestors``, which only a header can set)."""
    module = _module_at("unitile_site_serve_csp", ROOT / "site" / "serve.py")
    parts = [p.strip() for p in str(module.CSP).split(";")]
    return "; ".join(p for p in parts if p and not p.startswith("frame-ancestors"))


def module_graph(js: Path, entry: str) -> list[str]:
    """``entry`` and every module of ``js`` it imports, directly or not (static imports only)."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = js / name
        if not path.is_file():
            raise BuildError(f"js/{name} is imported but missing")
        seen.append(name)
        todo.extend(IMPORT.findall(path.read_text()))
    return seen


def page_head(page: str, text: str) -> str:
    """The page's text with its head written out from its ``<!-- page ... -->`` comment: the doctype,
    ``<html>`` (with ``data-game`` and ``data-entry``), the frame's head mark, the description, the
    title, the stylesheets and scripts, and ``<body>``. A page without it is left as it is."""
    comment = PAGE_COMMENT.match(text)
    if comment is None:
        return text
    once: dict[str, str] = {}
    at, fields = 0, comment.group(1)
    while at < len(fields.rstrip()):
        found = PAGE_FIELD.match(fields, at)
        if found is None or found.group(1) not in PAGE_KEYS or found.group(1) in once:
            raise BuildError(f"{page}: its page comment is not KEY=VALUE of {', '.join(PAGE_KEYS)} "
                             f"once each, at {fields[at:].lstrip()[:30]!r}")
        once[found.group(1)] = found.group(2) if found.group(2) is not None else found.group(3)
        at = found.end()
    many = {key: once.pop(key, "").split() for key in ("styles", "scripts")}
    missing = [key for key in ("title", "description") if key not in once]
    missing += [] if many["scripts"] else ["scripts"]
    if missing:
        raise BuildError(f"{page}: its page comment has no {' and no '.join(missing)}")

    def esc(value: str) -> str:  # apostrophes stay as typed, a double quote cannot end an attribute
        return html.escape(value, quote=False).replace('"', "&quot;")

    def attr(name: str, key: str) -> str:
        return f' {name}="{esc(once[key])}"' if key in once else ""

    # A page whose first module starts the worker has early.js start it sooner (data-worker).
    worker = " data-worker" if WORKER_STARTER in many["scripts"] else ""
    lines = [
        "<!doctype html>",
        f'<html lang="en"{attr("data-game", "game")}{attr("data-entry", "entry")}{worker}>',
        "<head>",
        "<!-- frame:head -->",
        f'  <meta name="description" content="{esc(once["description"])}">',
        f"  <title>{esc(once['title'])}</title>",
        *(f'  <link rel="stylesheet" href="{esc(css)}">' for css in many["styles"]),
        *(f'  <script type="module" src="{esc(js)}"></script>' for js in many["scripts"]),
        "</head>",
        f"<body{attr('class', 'body')}>",
    ]
    return "\n".join(lines) + "\n" + text[comment.end():]


def game_of(page: str, text: str) -> str | None:
    """The game a page belongs to (its ``<html data-game>``), or None for a page of the whole site."""
    found = PAGE_GAME.search(text)
    if found is None:
        return None
    if found.group(1) not in GAMES:
        raise BuildError(f"{page}: data-game={found.group(1)!r} is none of {', '.join(GAMES)}")
    return found.group(1)


def fill_slots(page: str, name: str, fragment: str, given: str) -> str:
    """``fragment`` with each ``{{slot:...}}`` line replaced by the lines the page ``given`` for it."""
    parts = SLOT.split(given)
    slots = dict(zip(parts[1::2], parts[2::2], strict=True))
    for slot, lines in slots.items():
        mark = "{{slot:" + slot + "}}\n"
        if mark not in fragment:
            raise BuildError(f"{page}: the frame fragment {name!r} has no slot {slot!r}")
        fragment = fragment.replace(mark, lines)
    if "{{slot:" in fragment:
        raise BuildError(f"{page}: the frame fragment {name!r} has slots the page does not fill")
    return fragment


def frame_page(page: Path, fragments: dict[str, str]) -> str:
    """A page of site/web with the shared frame filled in (see the module's docstring)."""
    text = page_head(page.name, page.read_text())
    link = "./" if page.name == "index.html" else page.name
    game = game_of(page.name, text)
    names = [g["name"] for g in GAMES.values()]
    words = {**GAMES[game or "unitile"]}
    by = "is a game by Mark Steere" if game else "are games by Mark Steere"
    words["credit"] = f"{words['name'] if game else ' and '.join(names)} {by}"

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in fragments:
            raise BuildError(f"{page.name}: no frame fragment {name!r} in {FRAME}")
        fragment = fill_slots(page.name, name, fragments[name], match.group(2) or "").rstrip("\n")
        for key, value in words.items():
            fragment = fragment.replace("{{" + key + "}}", value)
        if name == "header":
            fragment = fragment.replace(f'<a href="{link}">', f'<a href="{link}" aria-current="page">')
            mark = f'data-game="{game}">'
            fragment = fragment.replace(mark, mark[:-1] + ' aria-current="true">')
        if name == "head":
            if game and words["css"]:
                fragment += f'\n  <link rel="stylesheet" href="{words["css"]}">'
            entries = ENTRY.findall(text)
            # In the order the page runs them: the worker's starter (the first script) and its
            # imports come first, so the worker starts before the page's other modules have loaded.
            modules = list(dict.fromkeys(m for e in entries for m in module_graph(page.parent / "js", e)))
            fragment += "".join(f'\n  <link rel="modulepreload" href="js/{m}">' for m in modules)
        return fragment.rstrip("\n")

    return FRAME_MARK.sub(fill, text)


def _frame_pages(out: Path) -> None:
    """Fill the frame into every page copied to ``out``."""
    if not FRAME.is_dir():
        return
    fragments = {p.stem: p.read_text() for p in sorted(FRAME.glob("*.html"))}
    fragments = {k: v.replace("{{csp}}", meta_csp()) for k, v in fragments.items()}
    for page in sorted(out.glob("*.html")):
        page.write_text(frame_page(page, fragments))


def precompress(out: Path, names: list[str]) -> list[str]:
    """Write ``name.gz`` beside each of ``names`` (paths in ``out``) that gzip shrinks enough (see
    GZIP_GAIN); returns the names that got one. They are in neither build.json nor the service
    worker's list: a server sends one in place of its original, which is what the browser caches."""
    written = []
    for name in names:
        data = (out / name).read_bytes()
        if len(data) < GZIP_MIN_BYTES:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= (1 - GZIP_GAIN) * len(data):
            (out / f"{name}.gz").write_bytes(packed)
            written.append(name)
    return written


def build(out: Path, salt: str = "") -> Built:
    """Build the site into ``out`` (emptied first); ``salt`` changes the version (tests use it)."""
    _check_pyodide()
    if not (WEB / "index.html").exists():
        raise BuildError(f"{WEB / 'index.html'} is missing")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    web = [p for p in _copy_tree(WEB, out, skip=FRAME) if p.name != "sw.js"]
    _frame_pages(out)
    # unitile_py as bytecode for Pyodide's Python 3.14 (importing compiles nothing in the browser), in
    # one archive.
    python = [out / "py" / "unitile_py.tar"]
    pack_python(compiled_package(ROOT / "unitile_py"), "unitile_py", python[0])
    registered = games()
    shipped = {game.key: game_files(game, out) for game in registered}
    # Both games' puzzles (tables/puzzles/*.json, from python -m pipeline puzzles and nd-puzzles).
    puzzles = _copy_tree(PUZZLES, out / "tables" / "puzzles", "*.json") if PUZZLES.is_dir() else []
    runtime = []
    stdlib = trimmed_stdlib()
    for name, vendored in PYODIDE_FILES.items():
        target = out / "pyodide" / vendored
        target.parent.mkdir(parents=True, exist_ok=True)
        source = stdlib if name == "python_stdlib.zip" else PYODIDE_DIR / name
        if name.endswith(".mjs"):
            target.write_bytes(SOURCE_MAP.sub(b"\n", source.read_bytes()))
        else:
            shutil.copyfile(source, target)
        runtime.append(target)

    def rel(paths: list[Path]) -> list[str]:
        return [p.relative_to(out).as_posix() for p in paths]

    copies = [path for parts in shipped.values() for paths in parts.values() for path in paths]
    files = sorted(rel(web + python + copies + puzzles + runtime))
    digest = hashlib.sha256(salt.encode())
    for name in files:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    version = digest.hexdigest()[:12]
    sizes = {name: (out / name).stat().st_size for name in files}
    info = {
        "version": version,
        "pyodide": PYODIDE_VERSION,
        "python": rel(python),
        "games": {
            game.key: {
                "name": game.name,
                "prefix": game.prefix,
                "preload": list(game.preload),
                "tables": rel(shipped[game.key]["tables"]),
                "tables_when": game.tables_when,
                "load_tables": game.load_tables,
            }
            for game in registered
        },
        "puzzles": rel(puzzles),
        "files": sizes,
        # The files the worker fetches that have a gzipped copy, with the copy's size: it asks for the
        # copy and inflates it itself, so a server that does not send the copies in their place sends
        # no more.
        "gzipped": {
            name: (out / f"{name}.gz").stat().st_size
            for name in precompress(out, files)
            if name.startswith(WORKER_FETCHES)
        },
    }
    (out / "build.json").write_text(json.dumps(info, indent=1) + "\n")
    precache = ["./", *files, "build.json"]
    sw = (WEB / "sw.js").read_text()
    for key, value in (("__VERSION__", json.dumps(version)), ("__FILES__", json.dumps(precache))):
        if key not in sw:
            raise BuildError(f"site/web/sw.js has no {key} placeholder")
        sw = sw.replace(key, value)
    (out / "sw.js").write_text(sw)
    precompress(out, ["build.json", "sw.js"])
    total = sum(sizes.values()) + (out / "build.json").stat().st_size + len(sw.encode())
    return Built(out, version, (*files, "build.json", "sw.js"), total)


def main(argv: list[str] | None = None) -> int:
    """Command line: build the site and print a one-line summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site", help="output folder")
    parser.add_argument("--salt", default="", help="extra text mixed into the version")
    args = parser.parse_args(argv)
    try:
        built = build(args.out, args.salt)
    except BuildError as exc:
        print(f"site build: {exc}", file=sys.stderr)
        return 2
    print(f"site {built.version}: {len(built.files)} files, {built.total_bytes / 1e6:.1f} MB in {built.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
