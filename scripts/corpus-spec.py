#!/usr/bin/env python3
"""Checks tg-verify-spec against tinygrad's own verdicts on the corpus.

test/Transforms/Inputs/spec-verdicts.json (made by gen-spec-verdicts.py with
tinygrad) says, per corpus graph and phase, whether tinygrad's type_verify
accepts it or which node it rejects. Each graph is imported, the module is
checked with `tinygrad-opt --tg-verify-spec=phase=P`, and our verdict (ok, or
the node the first error is on) must be the same. Prints counts; exits 1 on
any disagreement."""
import argparse, json, os, re, subprocess, sys, tempfile

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--verdicts", required=True)
  ap.add_argument("--corpus", required=True)
  ap.add_argument("--translate", default="tinygrad-translate")
  ap.add_argument("--opt", default="tinygrad-opt")
  a = ap.parse_args()
  records = {}
  def record(file, rid):
    key = (file, rid)
    if key not in records:
      path = os.path.join(a.corpus, file)
      if file.endswith(".jsonl"):
        for line in open(path):
          d = json.loads(line)
          records[(file, d["id"])] = d
      else:
        records[key] = json.load(open(path))
    return records[key]
  agree = disagree = 0
  with tempfile.TemporaryDirectory() as tmp:
    for v in json.load(open(a.verdicts)):
      rec = record(v["file"], v["id"])
      src = os.path.join(tmp, "g.json")
      with open(src, "w") as f: json.dump(rec, f)
      imp = subprocess.run([a.translate, "--import-tinygrad-json", f"--graph-path={v['graph']}", src],
                           capture_output=True, text=True)
      if imp.returncode != 0:
        print(f"IMPORT-FAIL {v['id']} {v['graph']}: {imp.stderr[:200]}"); disagree += 1; continue
      chk = subprocess.run([a.opt, f"--tg-verify-spec=phase={v['phase']}", "-o", os.devnull],
                           input=imp.stdout, capture_output=True, text=True)
      if chk.returncode == 0:
        ours = "ok"
      else:
        # Nodes are imported one op per line in node order after "module {".
        m = re.search(r"<stdin>:(\d+):\d+: error", chk.stderr)
        ours = int(m.group(1)) - 2 if m else "error"
      if ours == v["verdict"]:
        agree += 1
      else:
        disagree += 1
        print(f"DISAGREE {v['file']} {v['id']} {v['graph']} phase={v['phase']}: tinygrad {v['verdict']}, ours {ours}")
  print(f"spec verdicts agreeing with tinygrad: {agree}/{agree + disagree}")
  return 1 if disagree else 0

if __name__ == "__main__": sys.exit(main())
