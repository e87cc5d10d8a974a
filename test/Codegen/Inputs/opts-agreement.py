"""Compares the opts our port of tinygrad's heuristic picks (tinygrad-run
--opts=tinygrad) with the opts tinygrad's own apply_opts picks for the same
AST on its CPU renderer (NUM_CPU_THREADS=2, as the corpus was made), or with
--target=cuda:sm_90 on its CUDARenderer for sm_90 against ours compiled for
that target, kernel by kernel, and prints the agreement rate. Exits 1 on any
disagreement.

A kernel listed in KNOWN (name, then why) must still disagree: one that
starts to agree fails too, so the list only shrinks.

usage: opts-agreement.py TINYGRAD-RUN TINYGRAD-CHECKOUT KERNELS-DIR KNOWN [--target=T]
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agreement import compare, kernels, tinygrad_answers

runner, tg_src, kernels_dir, known_file = sys.argv[1:5]
target = next((a.split("=", 1)[1] for a in sys.argv[5:] if a.startswith("--target=")), "cpu")
cases = kernels(kernels_dir)

# tinygrad's choices: the opts its apply_opts returns inside full_rewrite_to_sink.
ORACLE = r'''
import tinygrad.codegen as cg
got, orig = {}, cg.apply_opts
def spy(sink, ren, beam=0):
  out = orig(sink, ren, beam); got["opts"] = out.arg.applied_opts; return out
cg.apply_opts = spy
for f in sys.argv[1:]:
  got.clear()
  try:
    cg.full_rewrite_to_sink(ast_of(f), ren)
    print(json.dumps([f, str(tuple(got.get("opts", ())))]))
  except Exception as e:
    print(json.dumps([f, "ERROR %s" % type(e).__name__]))
'''


def ours_of(case):
    q = subprocess.run([runner, "--case", case, "--opts=tinygrad", "--target=" + target, "--compile-only", "--json"],
                       capture_output=True, text=True, timeout=300)
    last = q.stdout.strip().splitlines()[-1] if q.stdout.strip() else ""
    return json.loads(last).get("applied_opts") if last.startswith("{") else "ERROR " + q.stderr[-200:]


compare("opts", cases, tinygrad_answers(ORACLE, cases, tg_src, target), ours_of, known_file)
