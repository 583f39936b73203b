// Precompile Python for the browser with the very Pyodide that will run it (same magic number), so
// page loads do not compile sources inside WebAssembly. Files become unchecked hash-based .pyc.
//
//   node site/compile_python.mjs stdlib PYODIDE_DIR OUT.zip
//     python_stdlib.zip ships sources only, which every start would compile (cost: site/README.md).
//     Writes a copy of the zip with every module as .pyc; other files are copied unchanged. The
//     library is compiled as `python -OO` would (no docstrings, no asserts): a first visit downloads
//     its modules, and no module the site imports reads a docstring (unitile_py keeps its asserts).
//   node site/compile_python.mjs package PYODIDE_DIR STDLIB.zip SRC_DIR OUT_DIR
//     Every SRC_DIR/**/*.py as OUT_DIR/**/*.pyc, subpackages included (a sourceless package:
//     Python imports the .pyc directly), without docstrings (their asserts kept).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [mode, pyodideDir, ...rest] = process.argv.slice(2);
if (!["stdlib", "package"].includes(mode) || !pyodideDir || rest.length !== (mode === "stdlib" ? 1 : 3)) {
  console.error("usage: compile_python.mjs stdlib PYODIDE_DIR OUT.zip");
  console.error("       compile_python.mjs package PYODIDE_DIR STDLIB.zip SRC_DIR OUT_DIR");
  process.exit(2);
}
const dir = path.resolve(pyodideDir);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const options = { indexURL: dir + path.sep };
if (mode === "package") options.stdLibURL = path.resolve(rest[0]);
const pyodide = await loadPyodide(options);

const PYC = `
import ast, importlib.util, marshal

def without_docstrings(source: bytes, name: str) -> ast.Module:
    """The module's tree without its docstrings (a browser reads none; the asserts stay)."""
    tree = ast.parse(source, name)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass(lineno=first.lineno, col_offset=first.col_offset)]
    return tree

def pyc(source: bytes, name: str, optimize: int = -1, docstrings: bool = True) -> bytes:
    tree = source if docstrings else without_docstrings(source, name)
    code = compile(tree, name, "exec", dont_inherit=True, optimize=optimize)
    # PEP 552 header: magic, flags=1 (hash-based, not checked against a source), source hash.
    header = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + importlib.util.source_hash(source)
    return header + marshal.dumps(code)
`;
pyodide.runPython(PYC);

if (mode === "stdlib") {
  const out = rest[0];
  pyodide.FS.writeFile("/tmp/stdlib-in.zip", fs.readFileSync(path.join(dir, "python_stdlib.zip")));
  const summary = pyodide.runPython(`
import zipfile

compiled = copied = 0
with zipfile.ZipFile("/tmp/stdlib-in.zip") as src, zipfile.ZipFile(
    "/tmp/stdlib-out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            dst.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), pyc(data, info.filename, 2), zipfile.ZIP_DEFLATED)
            compiled += 1
        else:
            dst.writestr(info, data)
            copied += 1
f"{compiled} modules compiled, {copied} files copied"
`);
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, pyodide.FS.readFile("/tmp/stdlib-out.zip"));
  console.log(`compile_python: ${summary} -> ${out}`);
} else {
  const [, src, out] = rest;
  let count = 0;
  // The package and its subpackages (unitile_py.naked_diagonal), each module beside its source's place.
  const compileDir = (from, to) => {
    fs.mkdirSync(to, { recursive: true });
    for (const entry of fs.readdirSync(from, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const source = path.join(from, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "__pycache__") compileDir(source, path.join(to, entry.name));
        continue;
      }
      if (!entry.name.endsWith(".py")) continue;
      const name = path.relative(src, source).split(path.sep).join("/");
      pyodide.globals.set("_source", pyodide.toPy(new Uint8Array(fs.readFileSync(source))));
      const bytes = pyodide.runPython(`pyc(bytes(_source), ${JSON.stringify(name)}, docstrings=False)`);
      fs.writeFileSync(path.join(to, entry.name + "c"), bytes.toJs());
      bytes.destroy();
      count += 1;
    }
  };
  compileDir(src, out);
  console.log(`compile_python: ${count} modules of ${src} -> ${out}`);
}
