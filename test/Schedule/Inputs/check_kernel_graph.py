#!/usr/bin/env python3
"""Kernel graphs from --tg-kernel-graph against tinygrad's corpus.

For every program of schedules.jsonl: import the record's `call`, run
`tinygrad-opt --tg-kernel-graph`, export the kernel graph, and compare each
kernel AST (the SINK of every kernel CALL, in the graph's toposort order)
with the `ast` of the record's kernel_cases, structurally: two graphs are
equal when every node has the same op, dtype, arg, tag and equal sources.
Also compares the kernel count with num_kernels + num_copies (tinygrad's
kernel graph holds copies as kernels too).

Prints one line per program that differs and a summary; exits non-zero when
fewer than --min-identical programs are identical.
"""
import argparse, json, os, subprocess, sys


def canon(graph):
  """Structural key of the root of a corpus-format graph."""
  keys = []
  for n in graph["nodes"]:
    keys.append((n["op"], n["dtype"], json.dumps(n["arg"], sort_keys=True),
                 json.dumps(n["tag"], sort_keys=True), tuple(keys[i] for i in n["src"])))
  return keys


def subgraph(graph, root):
  """The corpus-format graph of `root`'s backward slice."""
  nodes = graph["nodes"]
  keep, stack = set(), [root]
  while stack:
    i = stack.pop()
    if i in keep: continue
    keep.add(i)
    stack.extend(nodes[i]["src"])
  order = sorted(keep)
  remap = {old: new for new, old in enumerate(order)}
  out = [dict(nodes[i], id=remap[i], src=[remap[s] for s in nodes[i]["src"]]) for i in order]
  return {"nodes": out, "root": remap[root]}


def first_difference(a, b):
  """A short description of where two graphs first differ."""
  ka, kb = canon(a), canon(b)
  ra, rb = ka[a["root"]], kb[b["root"]]
  def walk(x, y, depth=0):
    if x == y: return None
    if x[0] != y[0] or x[1] != y[1] or x[2] != y[2] or len(x[4]) != len(y[4]):
      return f"{x[0]}({x[1]}, arg={x[2]}, {len(x[4])} srcs) vs tinygrad {y[0]}({y[1]}, arg={y[2]}, {len(y[4])} srcs)"
    for sx, sy in zip(x[4], y[4]):
      if (d := walk(sx, sy, depth + 1)) is not None: return f"{x[0]} > {d}"
    return f"{x[0]}: tag {x[3]} vs {y[3]}"
  return walk(ra, rb)


def arg_device(graph, i):
  """Device of a kernel CALL argument (through AFTER)."""
  n = graph["nodes"][i]
  while n["op"] == "AFTER": n = graph["nodes"][n["src"][0]]
  a = n["arg"]
  return json.dumps(a.get("device")) if isinstance(a, dict) else None


def is_copy(graph, call):
  """A kernel over buffers on different devices: tinygrad's schedule turns it
  into a device copy (pm_copy_from_store), counted in num_copies."""
  return len({arg_device(graph, i) for i in graph["nodes"][call]["src"][1:]}) > 1


def run(bin_dir, call, tmp):
  with open(tmp, "w") as f: json.dump(call, f)
  imp = subprocess.run([os.path.join(bin_dir, "tinygrad-translate"), "--import-tinygrad-json", tmp],
                       capture_output=True, text=True)
  if imp.returncode: return None, "import: " + imp.stderr.strip()
  # tinygrad type-verifies the kernel graph with spec_kernel_graph (enter_calls=False) as it returns it
  opt = subprocess.run([os.path.join(bin_dir, "tinygrad-opt"), "--tg-kernel-graph", "--tg-verify-spec=phase=kernel_graph"],
                       input=imp.stdout, capture_output=True, text=True)
  if opt.returncode: return None, " ".join(opt.stderr.split())[:400]
  exp = subprocess.run([os.path.join(bin_dir, "tinygrad-translate"), "--export-tinygrad-json"],
                       input=opt.stdout, capture_output=True, text=True)
  if exp.returncode: return None, "export: " + exp.stderr.strip()
  return json.loads(exp.stdout), None


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--bin", required=True)
  ap.add_argument("--corpus", required=True)
  ap.add_argument("--tmp", default="/tmp/check_kernel_graph.json")
  ap.add_argument("--only", default=None, help="comma-separated program ids")
  ap.add_argument("--min-identical", type=int, default=0)
  ap.add_argument("--oracle", default=None,
                  help="directory of tinygrad's own get_kernel_graph ASTs (<id>__k<i>.json, <id>.json "
                       "with the kernel count) to compare with instead of the corpus")
  ap.add_argument("--known", default=None,
                  help="file of 'program: reason' lines for programs whose corpus ASTs are known to "
                       "differ from get_kernel_graph's output")
  ap.add_argument("-v", action="store_true")
  a = ap.parse_args()
  only = set(a.only.split(",")) if a.only else None
  known = {}
  if a.known:
    for ln in open(a.known):
      if ln.strip() and not ln.startswith("#"):
        k, _, why = ln.partition(":")
        known[k.strip()] = why.strip()
  total = identical = count_ok = known_diff = 0
  unexpected = []
  for line in open(os.path.join(a.corpus, "schedules.jsonl")):
    rec = json.loads(line)
    if only and rec["id"] not in only: continue
    total += 1
    want_count = rec["num_kernels"] + rec["num_copies"]
    cases = rec["kernel_cases"]
    ref_path = lambda k, case: os.path.join(a.corpus, "kernels", case + ".json")
    if a.oracle:
      want_count = json.load(open(os.path.join(a.oracle, rec["id"] + ".json")))["n"]
      cases = [f"{rec['id']}__k{i}" for i in range(want_count)]
      ref_path = lambda k, case: os.path.join(a.oracle, case + ".json")
    graph, err = run(a.bin, rec["call"], a.tmp)
    if graph is None:
      print(f"FAIL {rec['id']}: {err}")
      if rec["id"] in known: known_diff += 1
      else: unexpected.append(rec["id"])
      continue
    calls = [i for i, n in enumerate(graph["nodes"]) if n["op"] == "CALL"]
    if a.oracle:
      count_equal = len(calls) == want_count
      count_msg = f"{len(calls)} kernels, tinygrad {want_count}"
    else:
      copies = [c for c in calls if is_copy(graph, c)]
      calls = [c for c in calls if c not in copies]
      count_equal = len(calls) == rec["num_kernels"] and len(copies) == rec["num_copies"]
      count_msg = f"{len(calls)} kernels + {len(copies)} copies, tinygrad {rec['num_kernels']} + {rec['num_copies']}"
    if count_equal: count_ok += 1
    diffs = []
    if not count_equal: diffs.append(count_msg)
    for k, (ci, case) in enumerate(zip(calls, cases)):
      ref = json.load(open(ref_path(k, case)))["ast"]
      ours = subgraph(graph, graph["nodes"][ci]["src"][0])
      if canon(ours)[ours["root"]] != canon(ref)[ref["root"]]:
        diffs.append(f"k{k}: {first_difference(ours, ref)}")
    if len(calls) < len(cases): diffs.append("missing kernels")
    if diffs:
      tag = "KNOWN" if rec["id"] in known else "DIFF"
      print(f"{tag} {rec['id']}: " + "; ".join(diffs)[:600] + (f" ({known[rec['id']]})" if rec["id"] in known else ""))
      if rec["id"] in known: known_diff += 1
      else: unexpected.append(rec["id"])
    else:
      identical += 1
      if rec["id"] in known:
        print(f"FIXED {rec['id']}: listed as a known difference but identical")
        unexpected.append(rec["id"])
      elif a.v: print(f"OK   {rec['id']}")
  print(f"identical kernel ASTs: {identical}/{total} programs; kernel count equal: {count_ok}/{total}; "
        f"known differences: {known_diff}; unexpected: {len(unexpected)}")
  return 0 if identical >= a.min_identical and not (a.known and unexpected) else 1


if __name__ == "__main__":
  sys.exit(main())
