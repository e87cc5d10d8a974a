#!/usr/bin/env python3
"""Group the tinygrad tests that fail through our backend but pass with tinygrad's own compiler.

    tinygrad_failures.py OURS.out BASELINE.out [--kernels DIR] [--check-log FILE]

OURS.out / BASELINE.out: `pytest -q` output (run with COLUMNS=400 so the short summary keeps the
messages) of the same test file with DEV=CPU:MLIR and with DEV=CPU. --kernels: the
TINYGRAD_MLIR_SAVE_FAILED directory (AST JSON + .err per rejected or mismatching kernel).
--check-log: a TINYGRAD_MLIR_LOG file from a TINYGRAD_MLIR_CHECK=1 PARALLEL=0 rerun, whose
"CHECK MISMATCH" lines name the kernels whose outputs differ from tinygrad's.
Prints a grouped list: compile errors by diagnostic, other failures by message, with tests,
kernels and the saved AST files.
"""
import argparse
import collections
import glob
import os
import re

FAILED = re.compile(r"^(FAILED|ERROR) (\S+)(?: - (.*))?$")
KERNEL = re.compile(r"cannot compile kernel (\S+) \(ast ([0-9a-f]+)\): (.*)")


def failures(path):
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FAILED.match(line.rstrip("\n"))
            if m:
                out[m.group(2)] = m.group(3) or ""
    return out


def norm_diag(d):
    d = re.sub(r'loc\("node \d+"\("[^"]*":\d+:\d+\)\): ', "", d)
    d = re.sub(r"^tinygrad-compile exited \d+: ", "", d)
    return d.strip()


def short(test):
    return test.split("::", 1)[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("ours")
    ap.add_argument("baseline")
    ap.add_argument("--kernels")
    ap.add_argument("--check-log")
    a = ap.parse_args()
    ours, base = failures(a.ours), failures(a.baseline)
    regress = {t: m for t, m in ours.items() if t not in base}
    fixed = sorted(t for t in base if t not in ours)
    saved = {}
    if a.kernels:
        for p in glob.glob(os.path.join(a.kernels, "*.json")):
            saved[os.path.basename(p)[:-5].rsplit("-", 1)[-1]] = p
    mismatch = collections.defaultdict(list)
    if a.check_log:
        with open(a.check_log, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\[pid \d+\] (\S+): CHECK MISMATCH (\S+) \(ast ([0-9a-f]+)\): (.*)", line.strip())
                if m:
                    mismatch[m.group(1)].append((m.group(2), m.group(3), m.group(4)))

    print(f"{len(ours)} fail through us, {len(base)} with tinygrad's compiler; "
          f"{len(regress)} fail only through us, {len(fixed)} only with tinygrad's")
    compile_groups, other_groups = collections.defaultdict(list), collections.defaultdict(list)
    for t, m in sorted(regress.items()):
        k = KERNEL.search(m)
        if k:
            compile_groups[norm_diag(k.group(3))].append((t, k.group(1), k.group(2)))
        else:
            other_groups[re.sub(r"\d+(\.\d+)?", "N", m)[:120]].append((t, m))
    print("\n## compile errors (tinygrad-compile rejected a kernel)")
    for diag, items in sorted(compile_groups.items(), key=lambda kv: -len(kv[1])):
        asts = sorted({(k, h) for _, k, h in items})
        print(f"\n### {len(items)} tests, {len(asts)} kernels: {diag}")
        print("tests: " + ", ".join(short(t) for t, _, _ in items))
        for k, h in asts[:4]:
            print(f"  e.g. {k} ast {h}" + (f": {saved[h]}" if h in saved else ""))
    print("\n## other failures (results or errors after compiling)")
    for msg, items in sorted(other_groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n### {len(items)} tests: {msg}")
        for t, _ in items:
            print(f"  {short(t)}")
            for k, h, why in mismatch.get(t, []):
                print(f"    CHECK: {k} ast {h}: {why[:300]}" + (f"\n      {saved[h]}" if h in saved else ""))
    if fixed:
        print("\n## failing only with tinygrad's compiler\n" + "\n".join("  " + short(t) for t in fixed))


if __name__ == "__main__":
    main()
