#!/usr/bin/env python3
"""Where a model's first call goes, on one side (run.py measures it; this says why).

        first_call.py MODEL SIDE [--threads N] [--top K] [--build BUILD_DIR]

In a fresh process with the side's environment (harness.side_env; TINYGRAD_SRC required), builds MODEL as
models.py does and times its first call, split into tinygrad's scheduling (create_linear_with_vars), the
lowering and compiling of the new kernels (lower_and_compile: our compile threads, or tinygrad's worker
pool) and the rest (running the kernels, Python around them). For SIDE=ours, also the compiles: their
count, summed time and phases (codegen, llvm_opt, llvm_emit; TGC_TEXT_PHASES), the K slowest with
their kernel names, and each compile batch (one lower_and_compile, i.e. one realize: tinygrad hands a
first call's kernels over in several) with its wall time against the least it could take, its longest
compile or its compiles shared out over the threads, whichever is more. Wall times on a shared machine:
compare sides in one sitting.
"""
import argparse
import json
import subprocess
import sys
import time

from harness import HERE, PY, side_env, tinygrad_checkout

CHILD = r"""
import json, sys, time
HERE, MODEL, SIDE = sys.argv[1:4]
sys.path.insert(0, HERE)
import models
step, sync, _ = models.tinygrad_model(MODEL)
kernels, batches = [], []
if SIDE == "ours":
    from tinygrad_mlir import backend
    orig = backend.compile_kernel
    def compile_kernel(ast, *a, **k):
        res, ast_json, name = orig(ast, *a, **k)
        kernels.append({"name": name, "ms": res.get("compile_ms", 0.0), "phases": res.get("phases", {})})
        return res, ast_json, name
    backend.compile_kernel = compile_kernel
    # each lower_and_compile's batch (one per realize): its wall time against its kernels' compiles
    from tinygrad_mlir import compile_threads
    compile_all = compile_threads.compile_all
    def batched(todo, compile_one, threads):
        first, t0 = len(kernels), time.perf_counter()
        try:
            return compile_all(todo, compile_one, threads)
        finally:
            batches.append({"wall_ms": (time.perf_counter() - t0) * 1e3, "threads": threads,
                            "kernels": list(range(first, len(kernels)))})
    compile_threads.compile_all = batched
split = models.FirstCallSplit()
t0 = time.perf_counter()
with split:
    step()
    sync()
first = time.perf_counter() - t0
print("RESULT " + json.dumps({"first_s": first, **split.as_dict(first), "kernels": kernels, "batches": batches}))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("side", choices=["ours", "tinygrad"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--build", default="build", help="the build tree whose C API our side uses (a relative path is taken from the repository root)")
    a = ap.parse_args()
    tg = tinygrad_checkout("first_call.py")
    if tg is None:
        return 1
    p = subprocess.run([PY, "-c", CHILD, HERE, a.model, a.side], env=side_env(a.side, a.threads, tg, a.build), cwd=tg, capture_output=True,
                       text=True)
    r = next((json.loads(ln[7:]) for ln in p.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if r is None:
        print(f"{a.model} {a.side} failed (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")
        return 1
    print(f"{a.model} {a.side} {a.threads}t: first call {r['first_s']:.2f} s = schedule {r['schedule_s']:.2f} + "
          f"lower+compile {r['compile_s']:.2f} + run and the rest {r['rest_s']:.2f}")
    ks = r["kernels"]
    if ks:
        phases = {}
        for k in ks:
            for ph, ms in k["phases"].items():
                phases[ph] = phases.get(ph, 0.0) + ms
        print(f"  {len(ks)} kernels compiled, {sum(k['ms'] for k in ks) / 1e3:.2f} s summed over threads: " +
              ", ".join(f"{ph} {ms / 1e3:.2f} s" for ph, ms in phases.items()))
        for k in sorted(ks, key=lambda k: -k["ms"])[:a.top]:
            ph = " ".join(f"{n} {v:.0f}" for n, v in k["phases"].items())
            top = max(k["phases"], key=k["phases"].get) if k["phases"] else "-"
            print(f"  {k['ms']:8.1f} ms  {k['name']:<32} {ph}  (most: {top})")
    bs = r.get("batches") or []
    if bs:
        # A batch cannot finish before its longest compile nor before its compiles shared out over the
        # threads: what the wall time above that bound is (Python, imbalance), and which kernel bounds it.
        print(f"  {len(bs)} compile batches (one per realize), {sum(b['wall_ms'] for b in bs):.0f} ms wall:")
        for b in bs:
            own = [ks[i] for i in b["kernels"]]
            if not own:
                continue
            longest = max(own, key=lambda k: k["ms"])
            bound = max(longest["ms"], sum(k["ms"] for k in own) / max(1, min(b["threads"], len(own))))
            print(f"    {len(own):3d} kernels  wall {b['wall_ms']:7.1f} ms  bound {bound:7.1f} ms  "
                  f"longest {longest['ms']:6.1f} ms {longest['name']}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main())
