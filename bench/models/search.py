#!/usr/bin/env python3
"""BEAM=2 side by side: our search (tgc_beam_search through the hook, DEV=CPU:MLIR) against tinygrad's
beam_search with its own compiler (DEV=CPU), on the realistic bench kernels (bench/kernels'
programs) and ResNet-18's convolution classes at batch 1.

        search.py BUILD_DIR              both sides, writes BUILD_DIR/bench/search.json
        search.py --side ours|tinygrad   one side's searches in this process (the caller sets DEV): JSON
                                         lines, each found kernel saved to BENCH_SEARCH_FOUND/<side>/
        search.py --compare              both sides' found kernels timed in this one process (DEV=CPU)

Per kernel: ours_search_s / tinygrad_search_s (do_to_program of the AST with KernelInfo.beam=2, no
cache on either side: IGNORE_BEAM_CACHE=1, CACHELEVEL=0; the search and the final compile), and the
two found kernels' times, measured in one third process on the same buffers (args_from_ast's, written
once with the same byte), launched in pairs, ours first in one pair and tinygrad's in the next,
BENCH_SEARCH_REPS times (default 20) after a warm-up launch of each, medians: ours_best_ms / tinygrad_best_ms by our runtime's CPU device
(tgrt_program_launch: a kernel's core_id lanes in parallel on the device's threads, as DEV=CPU:MLIR
runs them), ours_seq_ms / tinygrad_seq_ms by tinygrad's CPUProgram (the lanes one after another, as
DEV=CPU runs every kernel at a9069c17). Separate processes per side read the same memory-bound kernel
up to 1.5x apart (which pages, what the caches hold); interleaving gives both the same state. Each
side's search timed its candidates with its own runner, so tinygrad's kernel was chosen for sequential
lanes: the parallel column gives it lanes it never had (conservative for us), the sequential one
denies ours the lanes our search chose. The two kernels' outputs must agree (1e-3).
Both sides use NUM_CPU_THREADS=2 and tinygrad's default PARALLEL for its compile workers.
Environment: TINYGRAD_SRC (required), BENCH_SEARCH_KERNELS (comma list of kernel ids to run).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from harness import ROOT, PY, side_env, tinygrad_checkout

BUILD = "build"


def resnet_convs(Tensor):
    """ResNet-18's convolution classes at batch 1 (stem, 3x3 at each stage, 1x1 downsample)."""
    e = Tensor.empty
    return {
        "resnet_stem_7x7s2": ("conv 3->64 7x7 stride 2 on 224x224", lambda: e(1, 3, 224, 224).conv2d(e(64, 3, 7, 7), stride=2, padding=3)),
        "resnet_3x3_64x56": ("conv 64->64 3x3 on 56x56", lambda: e(1, 64, 56, 56).conv2d(e(64, 64, 3, 3), padding=1)),
        "resnet_3x3_128x28": ("conv 128->128 3x3 on 28x28", lambda: e(1, 128, 28, 28).conv2d(e(128, 128, 3, 3), padding=1)),
        "resnet_3x3_256x14": ("conv 256->256 3x3 on 14x14", lambda: e(1, 256, 14, 14).conv2d(e(256, 256, 3, 3), padding=1)),
        "resnet_3x3_512x7": ("conv 512->512 3x3 on 7x7", lambda: e(1, 512, 7, 7).conv2d(e(512, 512, 3, 3), padding=1)),
        "resnet_1x1_down_256": ("conv 128->256 1x1 stride 2 on 28x28", lambda: e(1, 128, 28, 28).conv2d(e(256, 128, 1, 1), stride=2)),
    }


def compare(found, reps):
    """Both sides' found kernels (pickled by one_side under `found`), timed interleaved in this process by
    each runner: RESULT lines {"id", "ours_best_ms", "tinygrad_best_ms", "ours_seq_ms", "tinygrad_seq_ms"}."""
    import pickle
    import numpy as np
    from tinygrad import Device
    from tinygrad.dtype import _to_np_dtype
    from tinygrad.codegen.opt.postrange import args_from_ast
    from tinygrad.codegen.opt.search import _ensure_buffer_alloc
    from tinygrad_mlir.cpu_program import RuntimeCPUProgram
    dev = Device["CPU"]
    kids = sorted(f[:-4] for f in os.listdir(os.path.join(found, "ours")) if f.endswith(".pkl"))
    for kid in kids:
        if not os.path.exists(os.path.join(found, "tinygrad", kid + ".pkl")):
            continue
        k = {}
        for side in ("ours", "tinygrad"):
            with open(os.path.join(found, side, kid + ".pkl"), "rb") as f:
                k[side] = pickle.load(f)
        rawbufs, _ = args_from_ast(k["ours"]["ast"], "CPU")
        bufs = _ensure_buffer_alloc(rawbufs)
        out = {"id": kid}
        for col, runner in (("best_ms", RuntimeCPUProgram), ("seq_ms", dev.runtime_t)):
            # Every buffer written first, the same byte (0x3f: f32 0.747) for both kernels: an allocation
            # never written reads as zeros, all from one shared zero page (i.e. the cache) where it is
            # private anonymous memory.
            for b in bufs:
                b.allocator._copyin(b._buf, memoryview(bytearray(b"\x3f") * b.nbytes))
            launch, outs, tms = {}, {}, {"ours": [], "tinygrad": []}
            for side, f in k.items():
                rt, args = runner(dev, f["obj"]), [bufs[i]._buf for i in f["globals"]]
                launch[side] = lambda rt=rt, args=args, f=f: rt(*args, global_size=f["global_size"], local_size=(1, 1, 1),
                                                                 vals=f["vals"], wait=True)
                launch[side]()  # warm-up, and its outputs for the check below
                outs[side] = [np.frombuffer(bytes(bufs[i].as_memoryview()), _to_np_dtype(bufs[i].dtype)) for i in f["outs"]]
            for a, b in zip(outs["ours"], outs["tinygrad"]):
                if not np.allclose(a, b, rtol=1e-3, atol=1e-3, equal_nan=True):
                    raise RuntimeError(f"{kid}: the two found kernels' outputs differ")
            # Which kernel goes first alternates: the second of a pair may read an input the first has
            # just pulled into the cache. (Measured once: no kernel's ratio moved beyond run-to-run noise.)
            for rep in range(reps):
                for side in (("ours", "tinygrad") if rep % 2 == 0 else ("tinygrad", "ours")):
                    tms[side].append(launch[side]())
            for side in ("ours", "tinygrad"):
                out[f"{side}_{col}"] = statistics.median(tms[side]) * 1e3
        print("RESULT " + json.dumps(out), flush=True)


def one_side(side):
    sys.path.insert(0, os.path.join(ROOT, "bench", "kernels"))
    from dataclasses import replace
    from tinygrad import Tensor, Device
    from tinygrad.uop.ops import Ops
    from tinygrad.helpers import Context
    import tinygrad.codegen as cg
    from tinygrad.codegen.opt.postrange import args_from_ast
    from export_kernels import programs
    import pickle
    ren = Device["CPU"].renderer
    found = os.path.join(os.environ["BENCH_SEARCH_FOUND"], side)
    os.makedirs(found, exist_ok=True)
    only = [k for k in os.environ.get("BENCH_SEARCH_KERNELS", "").split(",") if k]

    def kernels_of(t):
        linear, var_vals = t.linear_with_vars()
        return [c.src[0] for c in linear.src if c.op is Ops.CALL and c.src[0].op is Ops.SINK], var_vals

    # warm-up: an unrelated kernel through the whole pipeline (imports, first compile)
    for ast in kernels_of(Tensor.empty(7, 3).exp2().sum(1))[0]:
        cg.do_to_program(ast, ren)
    progs = {**programs(Tensor), **resnet_convs(Tensor)}
    for prog, (desc, build) in progs.items():
        asts, _ = kernels_of(build())
        for i, ast in enumerate(asts):
            kid = f"{prog}__k{i}"
            if only and kid not in only:
                continue
            ast_b = ast.replace(arg=replace(ast.arg, beam=2))
            with Context(IGNORE_BEAM_CACHE=1, CACHELEVEL=0):
                t0 = time.perf_counter()
                prg = cg.do_to_program(ast_b, ren)
                search_s = time.perf_counter() - t0
            _, var_vals = args_from_ast(ast, "CPU")
            with open(os.path.join(found, kid + ".pkl"), "wb") as f:
                pickle.dump({"ast": ast, "obj": prg.to_elf(), "globals": list(prg.arg.globals), "outs": list(prg.arg.outs),
                             "global_size": tuple(prg.arg.global_size), "vals": prg.arg.vals(var_vals)}, f)
            print("RESULT " + json.dumps({"id": kid, "description": desc, "search_s": search_s,
                                          "opts": [repr(o) for o in prg.src[0].arg.applied_opts]}), flush=True)


def run_side(side, tg, found, mode=None):
    """One process: `side`'s searches (mode --side), or the comparison of the found kernels (--compare, on
    DEV=CPU: tinygrad's allocator for every buffer, so the ratio is the kernels' and not the page size's)."""
    env = side_env(side, 2, tg, BUILD, IGNORE_BEAM_CACHE="1", BENCH_SEARCH_FOUND=found)
    p = subprocess.run([PY, os.path.abspath(__file__), *(mode or ["--side", side])], env=env, cwd=tg,
                       capture_output=True, text=True)
    rows = [json.loads(ln[len("RESULT "):]) for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
    if p.returncode != 0:
        raise RuntimeError(f"search {side} failed (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")
    return {r["id"]: r for r in rows}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--side":
        return one_side(sys.argv[2])
    if len(sys.argv) == 2 and sys.argv[1] == "--compare":
        return compare(os.environ["BENCH_SEARCH_FOUND"], int(os.environ.get("BENCH_SEARCH_REPS", "20")))
    global BUILD
    build = BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
    tg = tinygrad_checkout("the BEAM comparison")
    if tg is None:
        return 0
    with tempfile.TemporaryDirectory() as found:
        ours, theirs = run_side("ours", tg, found), run_side("tinygrad", tg, found)
        times = run_side("tinygrad", tg, found, ["--compare"])
    out = {"beam": 2, "threads": 2, "best_runner": "our runtime's CPU device, lanes in parallel, both sides",
           "seq_runner": "tinygrad's CPUProgram, lanes one after another, both sides", "kernels": {}}
    print(f"{'kernel':<28} {'ours s':>8} {'tg s':>8} {'ours ms':>9} {'tg ms':>9} {'search x':>8} {'best x':>7} {'seq x':>7}")
    for kid, o in ours.items():
        t, m = theirs.get(kid), times.get(kid)
        if t is None or m is None:
            continue
        out["kernels"][kid] = {"description": o["description"], "ours_search_s": o["search_s"],
                               "tinygrad_search_s": t["search_s"], **{k: v for k, v in m.items() if k != "id"},
                               "ours_opts": o["opts"], "tinygrad_opts": t["opts"]}
        print(f"{kid:<28} {o['search_s']:8.2f} {t['search_s']:8.2f} {m['ours_best_ms']:9.3f} {m['tinygrad_best_ms']:9.3f} "
              f"{t['search_s'] / o['search_s']:8.2f} {m['tinygrad_best_ms'] / m['ours_best_ms']:7.2f} "
              f"{m['tinygrad_seq_ms'] / m['ours_seq_ms']:7.2f}")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    path = os.path.join(build, "bench", "search.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
