"""Compares the Estimates we report for each corpus kernel as compiled (tinygrad-compile's
uops.estimates, with tinygrad's opts: TG_OPTS=tinygrad) with the Estimates tinygrad's own lowering of
the same AST gives (Estimates.from_uops on its linearized program, CPU renderer, 2 threads, as the
corpus was made), kernel by kernel; prints the agreement rate. Exits 1 on any unexpected difference.

A kernel listed in KNOWN (name, then why) must still differ: one that starts to agree fails too, so
the list only shrinks.

usage: estimates-agreement.py TINYGRAD-COMPILE TINYGRAD-CHECKOUT KERNELS-DIR KNOWN
"""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from agreement import compare, kernels, tinygrad_answers

compiler, tg_src, kernels_dir, known_file = sys.argv[1:5]
cases = kernels(kernels_dir)

# tinygrad's estimates: its full_rewrite_to_sink, linearized, counted (no C compile needed).
ORACLE = r'''
from tinygrad.codegen import full_rewrite_to_sink, line_rewrite, pm_linearize_cleanups, linearize
from tinygrad.renderer import Estimates
for f in sys.argv[1:]:
  try:
    ast = ast_of(f)
    sink = full_rewrite_to_sink(ast, ren, optimize=ast.tag is None)
    e = Estimates.from_uops(tuple(line_rewrite(linearize(sink), pm_linearize_cleanups)), ignore_indexing=True)
    print(json.dumps([f, [e.ops, e.lds, e.mem]]))
  except Exception as e:
    print(json.dumps([f, "ERROR %s" % type(e).__name__]))
'''


def ours_of(case):
    q = subprocess.run([compiler, "--graph-path=ast", case], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, TG_OPTS="tinygrad"))
    if q.returncode != 0:
        return "ERROR " + q.stderr[-200:]
    e = json.loads(q.stdout)["uops"]["estimates"]
    return [e["ops"], e["lds"], e["mem"]]


compare("estimates", cases, tinygrad_answers(ORACLE, cases, tg_src), ours_of, known_file)
