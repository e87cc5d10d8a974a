#!/usr/bin/env python3
"""Runs tg-symbolic over every kernel AST and schedule graph of the corpus:
each must simplify without error, still verify, and (for the graphs tinygrad
accepts under spec_tensor) still satisfy spec_tensor afterwards. Prints
counts; exits 1 on any failure."""
import argparse, glob, json, os, subprocess, sys, tempfile

def run(cmd, inp=None):
  return subprocess.run(cmd, input=inp, capture_output=True, text=True)

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--corpus", required=True)
  ap.add_argument("--translate", default="tinygrad-translate")
  ap.add_argument("--opt", default="tinygrad-opt")
  a = ap.parse_args()
  graphs = []
  for path in sorted(glob.glob(os.path.join(a.corpus, "kernels", "*.json"))):
    graphs.append((json.load(open(path)), "ast", True))
  for line in open(os.path.join(a.corpus, "schedules.jsonl")):
    d = json.loads(line)
    graphs.append((d, "call", True))
    # Two tensor graphs are rejected by tinygrad's own spec_tensor (random
    # number programs); those are only required to simplify.
    graphs.append((d, "tensor_graph", d["id"] not in ("rand_uniform", "randint")))
  ok = bad = 0
  with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "g.json")
    for rec, path, spec in graphs:
      with open(src, "w") as f: json.dump(rec, f)
      imp = run([a.translate, "--import-tinygrad-json", f"--graph-path={path}", src])
      simp = run([a.opt, "--tg-symbolic"], imp.stdout) if imp.returncode == 0 else imp
      chk = run([a.opt, "--tg-verify-spec=phase=tensor", "-o", os.devnull], simp.stdout) \
        if simp.returncode == 0 and spec else simp
      if chk.returncode == 0:
        ok += 1
      else:
        bad += 1
        print(f"FAIL {rec['id']} {path}: {chk.stderr.strip()[:300]}")
  print(f"corpus graphs simplified and still valid: {ok}/{ok + bad}")
  return 1 if bad else 0

if __name__ == "__main__": sys.exit(main())
