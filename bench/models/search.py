#!/usr/bin/env python3
"""BEAM=2 side by side: our search (tgc_beam_search through the hook, DEV=CPU:MLIR) against tinygrad's
beam_search with its own compiler (DEV=CPU), on the realistic bench kernels (bench/kernels'
programs) and ResNet-18's convolution classes at batch 1.

        search.py BUILD_DIR              both sides, writes BUILD_DIR/bench/search.json
        search.py --side ours|tinygrad   one side in this process (the caller sets DEV): JSON lines

Per kernel: ours_search_s / tinygrad_search_s (do_to_program of the AST with KernelInfo.beam=2, no
cache on either side: IGNORE_BEAM_CACHE=1, CACHELEVEL=0; the search and the final compile), and
ours_best_ms / tinygrad_best_ms: the kernel each search found, both timed by one runner, our runtime's
CPU device (tgrt_program_launch: a kernel's core_id lanes in parallel on the device's threads, as DEV=CPU:MLIR
runs them); ours_seq_ms / tinygrad_seq_ms: both timed by tinygrad's CPUProgram, which calls the lanes one after
another (as DEV=CPU runs every kernel at a9069c17). One warm-up run, then the median of BENCH_SEARCH_REPS runs
(default 10), on args_from_ast's buffers written once with the same byte. Each side's search timed its
candidates with its own runner, so tinygrad's kernel was chosen for sequential lanes: the parallel column gives
it the lanes it never had (the ratio there is conservative for us), the sequential one denies ours the lanes
our search chose for.
Both sides use NUM_CPU_THREADS=2 and tinygrad's default PARALLEL for its compile workers.
Environment: TINYGRAD_SRC (required), BENCH_SEARCH_KERNELS (comma list of kernel ids to run).
"""
import json
import os
import statistics
import subprocess
import sys
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


def time_found(prg, bufs, var_vals, reps):
    """The found kernel `prg` (a PROGRAM) timed by both runners, each after one warm-up run: {"best_ms": median
    with its lanes in parallel (our runtime's CPU device), "seq_ms": median with its lanes one after another
    (tinygrad's CPUProgram)}. Both runners run the same ELF object; the output buffers must agree bitwise."""
    from tinygrad import Device
    from tinygrad_mlir.cpu_program import RuntimeCPUProgram
    dev = Device["CPU"]
    tinygrads = getattr(dev.runtime_t, "tinygrads", dev.runtime_t)  # DEV=CPU:MLIR wraps it (cpu_program.install)
    obj = prg.to_elf()
    args = [bufs[i]._buf for i in prg.arg.globals]
    kw = {"global_size": tuple(prg.arg.global_size), "local_size": (1, 1, 1), "vals": prg.arg.vals(var_vals), "wait": True}
    out, outs = {}, []
    for key, runner in (("best_ms", RuntimeCPUProgram(dev, obj)), ("seq_ms", tinygrads(dev, obj))):
        # Every buffer written before each runner's runs, the same byte (0x3f: f32 0.747) on both sides and
        # for both runners: an allocation never written reads as zeros, and where an allocator hands out
        # private anonymous memory (ours, on huge pages) those reads all hit one shared zero page, i.e. the
        # cache; and a kernel may read what it writes.
        for b in bufs:
            b.allocator._copyin(b._buf, memoryview(bytearray(b"\x3f") * b.nbytes))
        runner(*args, **kw)
        outs.append([bytes(bufs[i].as_memoryview()) for i in prg.arg.outs])
        out[key] = statistics.median(runner(*args, **kw) for _ in range(reps)) * 1e3
    if outs[0] != outs[1]:
        raise RuntimeError(f"{prg.src[0].arg.name}: the two runners' outputs differ")
    return out


def one_side(side):
    sys.path.insert(0, os.path.join(ROOT, "bench", "kernels"))
    from dataclasses import replace
    from tinygrad import Tensor, Device
    from tinygrad.uop.ops import Ops
    from tinygrad.helpers import Context
    import tinygrad.codegen as cg
    from tinygrad.codegen.opt.postrange import args_from_ast
    from tinygrad.codegen.opt.search import _ensure_buffer_alloc
    from export_kernels import programs
    ren = Device["CPU"].renderer
    reps = int(os.environ.get("BENCH_SEARCH_REPS", "10"))
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
            rawbufs, var_vals = args_from_ast(ast, "CPU")
            bufs = _ensure_buffer_alloc(rawbufs)
            times = time_found(prg, bufs, var_vals, reps)
            print("RESULT " + json.dumps({"id": kid, "description": desc, "search_s": search_s, **times,
                                          "opts": [repr(o) for o in prg.src[0].arg.applied_opts]}), flush=True)


def run_side(side, tg):
    # The found kernels are timed in tinygrad's allocator's memory on both sides (our renderer's huge-page
    # buffers off, python/tinygrad_mlir/cpu_memory.py): the ratio is the kernels', not the page size's.
    env = side_env(side, 2, tg, BUILD, IGNORE_BEAM_CACHE="1", TINYGRAD_MLIR_HUGE_PAGES="0")
    p = subprocess.run([PY, os.path.abspath(__file__), "--side", side], env=env, cwd=tg, capture_output=True, text=True)
    rows = [json.loads(ln[len("RESULT "):]) for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
    if p.returncode != 0:
        raise RuntimeError(f"search {side} failed (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")
    return {r["id"]: r for r in rows}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--side":
        return one_side(sys.argv[2])
    global BUILD
    build = BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
    tg = tinygrad_checkout("the BEAM comparison")
    if tg is None:
        return 0
    ours, theirs = run_side("ours", tg), run_side("tinygrad", tg)
    out = {"beam": 2, "threads": 2, "best_runner": "our runtime's CPU device, lanes in parallel, both sides",
           "seq_runner": "tinygrad's CPUProgram, lanes one after another, both sides", "kernels": {}}
    print(f"{'kernel':<28} {'ours s':>8} {'tg s':>8} {'ours ms':>9} {'tg ms':>9} {'search x':>8} {'best x':>7} {'seq x':>7}")
    for kid, o in ours.items():
        t = theirs.get(kid)
        if t is None:
            continue
        out["kernels"][kid] = {"description": o["description"], "ours_search_s": o["search_s"],
                               "tinygrad_search_s": t["search_s"], "ours_best_ms": o["best_ms"],
                               "tinygrad_best_ms": t["best_ms"], "ours_seq_ms": o["seq_ms"],
                               "tinygrad_seq_ms": t["seq_ms"], "ours_opts": o["opts"], "tinygrad_opts": t["opts"]}
        print(f"{kid:<28} {o['search_s']:8.2f} {t['search_s']:8.2f} {o['best_ms']:9.3f} {t['best_ms']:9.3f} "
              f"{t['search_s'] / o['search_s']:8.2f} {t['best_ms'] / o['best_ms']:7.2f} {t['seq_ms'] / o['seq_ms']:7.2f}")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    path = os.path.join(build, "bench", "search.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
