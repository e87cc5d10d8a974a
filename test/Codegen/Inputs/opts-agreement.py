"""Compares the opts our port of tinygrad's heuristic picks (tinygrad-run
--opts=tinygrad) with the opts tinygrad's own apply_opts picks for the same
AST on its CPU renderer (NUM_CPU_THREADS=2, as the corpus was made), kernel
by kernel, and prints the agreement rate. Exits 1 on any disagreement.

A kernel listed in KNOWN (name, then why) must still disagree: one that
starts to agree fails too, so the list only shrinks.

usage: opts-agreement.py TINYGRAD-RUN TINYGRAD-CHECKOUT KERNELS-DIR KNOWN
"""
import glob, json, os, subprocess, sys

runner, tg_src, kernels_dir, known_file = sys.argv[1:5]
known = {l.split()[0] for l in open(known_file) if l.strip() and not l.startswith("#")}
cases = sorted(glob.glob(os.path.join(kernels_dir, "*.json")))

# tinygrad's choices: one python process for all kernels (its import is slow).
ORACLE = r'''
import json, sys
from tinygrad.uop.ops import *
import tinygrad.uop.ops as ops_mod, tinygrad.dtype as dt_mod
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.device import Device
import tinygrad.codegen as cg
ns = dict(vars(ops_mod)); ns.update({k: v for k, v in vars(dt_mod).items() if not k.startswith("_")})
ns.update(Opt=Opt, OptOps=OptOps)
got, orig = {}, cg.apply_opts
def spy(sink, ren, beam=0):
  out = orig(sink, ren, beam); got["opts"] = out.arg.applied_opts; return out
cg.apply_opts = spy
ren = Device["CPU"].renderer
for f in sys.argv[1:]:
  got.clear()
  try:
    cg.full_rewrite_to_sink(eval(json.load(open(f))["repr"], ns), ren)
    print(json.dumps([f, str(tuple(got.get("opts", ())))]))
  except Exception as e:
    print(json.dumps([f, "ERROR %s" % type(e).__name__]))
'''
env = dict(os.environ, PYTHONPATH=tg_src, NUM_CPU_THREADS="2", DEV="CPU")
py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
p = subprocess.run([py, "-c", ORACLE] + cases, capture_output=True, text=True, env=env, timeout=1200)
theirs = dict(json.loads(l) for l in p.stdout.splitlines() if l.startswith("["))
if len(theirs) != len(cases):
    sys.exit("tinygrad oracle failed:\n" + p.stderr[-2000:])

agree = bad = 0
for case in cases:
    name = os.path.basename(case)[:-len(".json")]
    q = subprocess.run([runner, "--case", case, "--opts=tinygrad", "--json"], capture_output=True,
                       text=True, timeout=300)
    last = q.stdout.strip().splitlines()[-1] if q.stdout.strip() else ""
    ours = json.loads(last).get("applied_opts") if last.startswith("{") else "ERROR " + q.stderr[-200:]
    if ours == theirs[case]:
        agree += 1
        if name in known:
            bad += 1
            print(f"XAGREE {name}: listed as differing, now agrees: remove it from the list")
    else:
        if name not in known:
            bad += 1
        print(f"{'known difference' if name in known else 'DIFFER'} {name}\n  ours:     {ours}\n  tinygrad: {theirs[case]}")
print(f"opts agreement: {agree}/{len(cases)} kernels, {bad} unexpected")
sys.exit(1 if bad else 0)
