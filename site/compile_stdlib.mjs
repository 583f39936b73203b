// Precompile Pyodide's standard library: python_stdlib.zip ships .py sources only, so every page load
// would compile ~200 modules to bytecode inside WebAssembly (about 3 s here). This boots the very same
// Pyodide under node and writes a copy of the zip in which every module is unchecked hash-based .pyc
// (same magic number as the interpreter that will load it); other files are copied unchanged.
//
//   node site/compile_stdlib.mjs node_modules/pyodide OUT.zip
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, out] = process.argv.slice(2);
if (!pyodideDir || !out) {
  console.error("usage: node site/compile_stdlib.mjs PYODIDE_DIR OUT.zip");
  process.exit(2);
}
const dir = path.resolve(pyodideDir);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + path.sep });
pyodide.FS.writeFile("/tmp/stdlib-in.zip", fs.readFileSync(path.join(dir, "python_stdlib.zip")));
const summary = pyodide.runPython(`
import importlib.util
import marshal
import zipfile

compiled = copied = 0
with zipfile.ZipFile("/tmp/stdlib-in.zip") as src, zipfile.ZipFile(
    "/tmp/stdlib-out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as dst:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, info.filename, "exec", dont_inherit=True)
            # PEP 552 header: magic, flags=1 (hash-based, not checked against a source), source hash.
            pyc = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            pyc += importlib.util.source_hash(data) + marshal.dumps(code)
            dst.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), pyc, zipfile.ZIP_DEFLATED)
            compiled += 1
        else:
            dst.writestr(info, data)
            copied += 1
f"{compiled} modules compiled, {copied} files copied"
`);
fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
fs.writeFileSync(out, pyodide.FS.readFile("/tmp/stdlib-out.zip"));
console.log(`compile_stdlib: ${summary} -> ${out}`);
