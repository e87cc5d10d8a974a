"""Compiles a kernel AST with tinygrad-compile under its heuristic's opts plus EXTRA (one or more opts, as a
BEAM candidate grown from the heuristic's kernel is), twice: as our compiler applies opts_to_apply (repeating
the heuristic's steps that no Opt names where the opts extend its own, ApplyOpts.cpp) and with
TG_OPTS=none (the opts alone). Prints "stepped" where the objects differ (the steps were repeated),
"plain" where they are equal (the opts were applied without them), or "failed" with the diagnostic.

usage: opts-after-steps.py TINYGRAD-COMPILE AST.json OP AXIS ARG [OP AXIS ARG ...]
"""
import json, os, subprocess, sys, tempfile

compiler, path, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
if not rest or len(rest) % 3:
    sys.exit("usage: opts-after-steps.py TINYGRAD-COMPILE AST.json OP AXIS ARG [OP AXIS ARG ...]")
extra = [(rest[i], int(rest[i + 1]), int(rest[i + 2])) for i in range(0, len(rest), 3)]


def compile_ast(p, env=None):
    out = subprocess.run([compiler, "--max-threads=2", p, "--graph-path=ast"], capture_output=True, text=True,
                         env={**os.environ, **(env or {})})
    return out.returncode, (json.loads(out.stdout) if out.returncode == 0 else out.stderr.strip())


with open(path) as fh:
    case = json.load(fh)
rc, first = compile_ast(path)
if rc:
    sys.exit(f"heuristic compile failed: {first}")
opts = [{"kind": "Opt", "op": o["op"], "axis": o["axis"], "arg": o["arg"]} for o in first["uops"]["applied_opts"]]
root = next(n for n in case["ast"]["nodes"] if n["id"] == case["ast"]["root"])
root["arg"]["opts_to_apply"] = opts + [{"kind": "Opt", "op": op, "axis": axis, "arg": arg} for op, axis, arg in extra]
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
    json.dump(case, tmp)
try:
    rc, ours = compile_ast(tmp.name)
    rc_plain, plain = compile_ast(tmp.name, {"TG_OPTS": "none"})
finally:
    os.unlink(tmp.name)
name = ", ".join(f"{op} {axis} {arg}" for op, axis, arg in extra)
if rc or rc_plain:
    print("failed", name, (ours if rc else plain).splitlines()[-1][:300])
else:
    print("stepped" if ours["object_hex"] != plain["object_hex"] else "plain", name)
