#!/usr/bin/env python3
"""Round-trip every UOp graph of the tinygrad corpus through tinygrad-translate.

For each graph (symbolic.jsonl: input / expected / tinygrad / simplified
graphs; kernels/*.json: ast; schedules.jsonl: tensor_graph and call) the graph
is imported into MLIR, verified, exported back to JSON and compared with the
original node for node (op, dtype, src, arg, tag, node order, root). Where the
corpus stores tinygrad's render() of a graph, the rendered root is compared
with it too, and where it stores repr(uop) (tinygrad's pretty_print), so is
the pretty-printed root.

All graphs go through one tinygrad-translate process
(--tinygrad-json-roundtrip reads one graph per line).

`input_render` is tinygrad's render() of the *unsimplified* input, but
UOp.render() simplifies before rendering, so it is only reported (not a
failure) when it differs from our render of the raw input.

Exit status: 0 when every graph round-trips and every checked render matches.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict


def strict_eq(a, b):
    """JSON equality that keeps bool/int/float apart and compares floats by repr."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_eq(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return a == b


def first_diff(a, b):
    """Describe where two graphs differ (node id and field)."""
    na, nb = a.get("nodes", []), b.get("nodes", [])
    if len(na) != len(nb):
        return f"node count {len(na)} vs {len(nb)}"
    for x, y in zip(na, nb):
        for k in set(x) | set(y):
            if not strict_eq(x.get(k), y.get(k)):
                return f"node {x.get('id')} field {k!r}: {json.dumps(x.get(k))[:200]} vs {json.dumps(y.get(k))[:200]}"
    if not strict_eq(a.get("root"), b.get("root")):
        return f"root {a.get('root')} vs {b.get('root')}"
    return "top-level fields differ"


def symbolic_graphs(rec):
    """List (path, graph, expected_render or None, checked, expected_repr or None)."""
    out = []

    def walk(obj, path):
        if not isinstance(obj, dict):
            return
        for key, val in obj.items():
            p = f"{path}.{key}" if path else key
            if isinstance(val, dict) and "nodes" in val and "root" in val:
                render, checked = None, True
                if isinstance(obj.get(key + "_render"), str):
                    render = obj[key + "_render"]
                elif key == "graph" and isinstance(obj.get("graph_render"), str):
                    render = obj["graph_render"]
                elif key == "graph" and isinstance(obj.get("render"), str) and not path.endswith("expected"):
                    render = obj["render"]
                if key == "input":
                    # render() simplifies first: informational only
                    checked = False
                rep = obj.get(key + "_repr")
                if rep is None and key == "graph":
                    rep = obj.get("repr")
                out.append((p, val, render, checked, rep if isinstance(rep, str) else None))
            elif isinstance(val, dict):
                walk(val, p)

    walk(rec, "")
    return out


def collect(corpus):
    items = []  # (file, label, graph, expected_render, checked, expected_repr)
    path = os.path.join(corpus, "symbolic.jsonl")
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            for p, g, r, checked, rep in symbolic_graphs(rec):
                items.append(("symbolic.jsonl", f"{rec['id']}:{p}", g, r, checked, rep))
    for fn in sorted(glob.glob(os.path.join(corpus, "kernels", "*.json"))):
        with open(fn) as f:
            rec = json.load(f)
        items.append(("kernels/*.json", f"{rec['id']}:ast", rec["ast"], None, True, rec.get("repr")))
    with open(os.path.join(corpus, "schedules.jsonl")) as f:
        for line in f:
            rec = json.loads(line)
            for key in ("tensor_graph", "call"):
                items.append(("schedules.jsonl", f"{rec['id']}:{key}", rec[key], None, True, rec.get(key + "_repr")))
    return items


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--translate", default="tinygrad-translate", help="tinygrad-translate binary")
    ap.add_argument("--corpus", required=True, help="corpus directory (shared/corpus)")
    ap.add_argument("--show", type=int, default=20, help="failures to print per category")
    ap.add_argument("-v", "--verbose", action="store_true", help="also list input_render differences")
    args = ap.parse_args()

    items = collect(args.corpus)
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "graphs.jsonl")
        with open(inp, "w") as f:
            for it in items:
                f.write(json.dumps(it[2]) + "\n")
        proc = subprocess.run([args.translate, "--tinygrad-json-roundtrip", inp],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        print(f"tinygrad-translate failed (exit {proc.returncode}):\n{proc.stderr}", file=sys.stderr)
        return 1
    results = {}
    for line in proc.stdout.splitlines():
        if line.strip():
            r = json.loads(line)
            results[r["line"]] = r

    stats = defaultdict(lambda: defaultdict(int))
    failures = defaultdict(list)
    for i, (fname, label, graph, render, checked, rep) in enumerate(items, start=1):
        s = stats[fname]
        s["graphs"] += 1
        r = results.get(i)
        if r is None:
            failures["missing result"].append(label)
            continue
        if "error" in r:
            failures["import/export"].append(f"{label}: {r['error']}")
            continue
        s["imported"] += 1
        if strict_eq(r["graph"], graph):
            s["roundtripped"] += 1
        else:
            failures["roundtrip"].append(f"{label}: {first_diff(r['graph'], graph)}")
        if rep is not None:
            s["reprs checked"] += 1
            if r["repr"] == rep:
                s["reprs identical"] += 1
            else:
                failures["repr"].append(f"{label}: got {r['repr'][:300]!r}, expected {rep[:300]!r}")
        if render is None:
            continue
        if checked:
            s["renders checked"] += 1
            if r["render"] == render:
                s["renders identical"] += 1
            else:
                failures["render"].append(f"{label}: got {r['render']!r}, expected {render!r}")
        else:
            s["input_render checked (info)"] += 1
            if r["render"] == render:
                s["input_render identical (info)"] += 1
            elif args.verbose:
                failures["input_render (info)"].append(f"{label}: got {r['render']!r}, tinygrad {render!r}")

    for fname, s in stats.items():
        print(f"{fname}: " + ", ".join(f"{k} {v}" for k, v in s.items()))
    total = sum(s["graphs"] for s in stats.values())
    ok = sum(s["roundtripped"] for s in stats.values())
    print(f"total: {total} graphs, {ok} round-tripped")
    failed = False
    for cat, fl in failures.items():
        info = "(info)" in cat
        failed |= not info
        print(f"{'NOTE' if info else 'FAIL'} {cat}: {len(fl)}")
        for msg in fl[:args.show]:
            print(f"  {msg}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
