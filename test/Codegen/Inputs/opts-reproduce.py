"""Compiles each kernel AST twice with tinygrad-compile: as it comes (our heuristic picks its opts) and
with the opts the first compile reports (applied_opts) as its opts_to_apply, as BEAM's first candidate
is compiled. Prints "same NAME" where the two objects are byte for byte equal, else "differs NAME" with
both opt lists; exits 1 on any difference.

usage: opts-reproduce.py TINYGRAD-COMPILE AST.json...
"""
import json, os, subprocess, sys, tempfile

compiler, files = sys.argv[1], sys.argv[2:]


def compile_ast(path, wrapped):
    # a kernel case holds its AST under "ast"; a bare AST is the file itself
    args = [compiler, "--max-threads=2", path] + (["--graph-path=ast"] if wrapped else [])
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{path}: tinygrad-compile failed: {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout)


bad = 0
for f in files:
    name = os.path.basename(f)
    with open(f) as fh:
        case = json.load(fh)
    wrapped = "ast" in case
    first = compile_ast(f, wrapped)
    opts = first["uops"]["applied_opts"]
    ast = case["ast"] if wrapped else case
    root = next(n for n in ast["nodes"] if n["id"] == ast["root"])
    root["arg"]["opts_to_apply"] = [{"kind": "Opt", "op": o["op"], "axis": o["axis"], "arg": o["arg"]} for o in opts]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
        json.dump(case, tmp)
    try:
        again = compile_ast(tmp.name, wrapped)
    finally:
        os.unlink(tmp.name)
    if again["object_hex"] == first["object_hex"]:
        print("same", name)
    else:
        bad += 1
        print("differs", name, [(o["op"], o["axis"], o["arg"]) for o in opts], "->",
              [(o["op"], o["axis"], o["arg"]) for o in again["uops"]["applied_opts"]])
sys.exit(1 if bad else 0)
