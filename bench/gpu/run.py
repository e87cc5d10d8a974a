#!/usr/bin/env python3
"""GPU compile time, side by side: every shared corpus kernel (or BENCH_GPU_KERNELS, a folder of cases)
compiled for each of our GPU targets through the C API in one warm process (tgc_compile_kernel: the
step list, the GPU emission, the conversion, the serialization), and for NVIDIA also by tinygrad's
own route on the same ASTs: its CUDA renderer and NVRTC, to a cubin (tinygrad's NV device; its CUDA
device stops at PTX and leaves the cubin to the driver, which is not here).

        run.py BUILD_DIR [OUT_JSON]

Writes OUT_JSON (default BUILD_DIR/bench/gpu.json): per target the median compile ms over the kernels
(`<format>_compile_ms_median`: spirv, cubin, ptx (cuda:sm_90:ptx, the same route stopped at the PTX
text), hsaco; `_compile_cpu_ms_median` the same in process-CPU time), the count that compiled, where the time went (`<format>_phases_ms_median` and `_mean`:
per phase of TGC_TEXT_PHASES, over the kernels, from each kernel's median compile), and for
cuda:sm_90 tinygrad's median and the ratio (`cubin_speedup_median`: tinygrad's median / ours). A kernel that fails on one side is
listed and left out of both medians; a kernel whose dtype the target lacks is listed as refused, not failed. AMD and Vulkan have no tinygrad reference here (its AMD
compiler needs a newer comgr than Debian's 5.2; tinygrad has no Vulkan backend): ours only.
Environment: TINYGRAD_SRC (required), TG_CORPUS_DIR, BENCH_GPU_REPS (timed compiles per kernel and
side, default 3; the median is taken), BENCH_GPU_LIMIT (first N kernels).
"""
import glob
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGETS = ("vulkan", "cuda:sm_90", "cuda:sm_90:ptx", "amd:gfx942")
# TGC_TEXT_PHASES' phases in the order a compile runs them
PHASES = ("codegen", "lower", "serialize", "translate", "target_machine", "link_library", "optimize", "llvm_codegen",
          "link_binary")
FORMAT = {"vulkan": "spirv", "cuda:sm_90": "cubin", "cuda:sm_90:ptx": "ptx", "amd:gfx942": "hsaco"}


def load_cases():
    folder = os.environ.get("BENCH_GPU_KERNELS") or os.path.join(
        os.environ.get("TG_CORPUS_DIR") or os.path.join(ROOT, "..", "shared", "corpus"), "kernels")
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    limit = int(os.environ.get("BENCH_GPU_LIMIT", "0"))
    return files[:limit] if limit else files


def rebuild(path, api, graph_to_uops, KernelInfo):
    """The case's kernel AST as tinygrad UOps (the SINK's KernelInfo rebuilt by hand: name and opts)."""
    with open(path) as f:
        g = json.load(f)["ast"]
    g.setdefault("root", len(g["nodes"]) - 1)
    info = g["nodes"][g["root"]]["arg"] or {}
    g["nodes"][g["root"]]["arg"] = None
    ast = graph_to_uops(g, api)
    return ast.replace(arg=KernelInfo(name=info.get("name", "test") if isinstance(info, dict) else "test"))


def timed(fn, reps):
    """The median wall ms of `reps` calls of fn, what the median call returned, and the median
    process-CPU ms (steadier than the wall clock on a loaded machine)."""
    ts = []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        r = fn()
        ts.append(((time.perf_counter() - t0) * 1e3, r, (time.process_time() - c0) * 1e3))
    cpu = statistics.median(t[2] for t in ts)
    ts.sort(key=lambda t: t[0])
    return statistics.median(t[0] for t in ts), ts[(len(ts) - 1) // 2][1], cpu


def phase_summary(per_kernel):
    """{phase: (median, mean) ms over the kernels}; a kernel without a phase (no library linked)
    counts 0 there."""
    seen = list(dict.fromkeys(p for ph in per_kernel for p in ph))
    names = [p for p in PHASES if p in seen] + [p for p in seen if p not in PHASES]
    return {p: (statistics.median([ph.get(p, 0.0) for ph in per_kernel]),
                statistics.mean([ph.get(p, 0.0) for ph in per_kernel])) for p in names}


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    tg = os.environ.get("TINYGRAD_SRC")
    if not tg or not os.path.isdir(os.path.join(tg, "tinygrad")):
        print("TINYGRAD_SRC is not set to a tinygrad checkout: bench/gpu skipped")
        return 0
    os.environ.setdefault("TINYGRAD_MLIR_CAPI", os.path.join(build, "lib", "libTinygradCAPI.so"))
    os.environ.setdefault("TINYGRAD_MLIR_TRANSPORT", "capi")
    os.environ.setdefault("CACHELEVEL", "0")
    sys.path[:0] = [os.path.join(ROOT, "python"), tg]
    from tinygrad.codegen import do_to_program
    from tinygrad.helpers import Target
    from tinygrad.uop.ops import KernelInfo, Ops
    from tinygrad.renderer.cstyle import CUDARenderer
    from tinygrad_mlir import backend
    from tinygrad_mlir.tinygrad import _API
    from tinygrad_mlir.uop_json import graph_to_uops

    reps = int(os.environ.get("BENCH_GPU_REPS", "3"))
    cases = load_cases()
    try:
        cuda = CUDARenderer(Target(device="NV", renderer="CUDA", arch="sm_90"))
    except Exception as e:  # no NVRTC: ours only
        print(f"tinygrad's NVRTC route is unavailable ({type(e).__name__}: {e}): no reference for cuda:sm_90")
        cuda = None
    ours = {t: {} for t in TARGETS}
    phases = {t: {} for t in TARGETS}
    cpu = {t: {} for t in TARGETS}
    ref, failed, refused = {}, [], []
    for path in cases:
        kid = os.path.basename(path)[:-5]
        ast = rebuild(path, _API, graph_to_uops, KernelInfo)
        for t in TARGETS:
            try:
                backend.compile_kernel(ast, target=t)  # warm: the first call of a target initialises LLVM's backend
                ours[t][kid], res, cpu[t][kid] = timed(lambda: backend.compile_kernel(ast, target=t)[0], reps)
                phases[t][kid] = res.get("phases", {})
            except Exception as e:
                msg = " ".join(str(e).split())
                # a dtype the target lacks is refused by design (the corpus' bfloat16 kernel on Vulkan)
                (refused if "a dtype " in msg and " does not have" in msg else failed).append(
                    f"{kid} ours {t}: {type(e).__name__}: {msg[:200]}")
        if cuda is not None:
            def tg_compile():
                prg = do_to_program(ast, cuda)
                assert any(s.op is Ops.BINARY for s in prg.src)
            try:
                tg_compile()
                ref[kid] = timed(tg_compile, reps)[0]
            except Exception as e:
                failed.append(f"{kid} tinygrad cuda:sm_90: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
    out = {"kernels": len(cases), "reps": reps, "failed": failed, "refused": refused}
    print(f"{'target':<14} {'kernels':>7} {'ours ms (median)':>17} {'tinygrad ms':>12} {'ratio':>6}")
    for t in TARGETS:
        both = sorted(set(ours[t]) & set(ref)) if t.startswith("cuda") and ref else sorted(ours[t])
        m = statistics.median([ours[t][k] for k in both]) if both else None
        name = FORMAT[t]
        out[f"{name}_compile_ms_median"] = m
        out[f"{name}_kernels"] = len(both)
        out[f"{name}_compile_cpu_ms_median"] = statistics.median([cpu[t][k] for k in both]) if both else None
        summary = phase_summary([phases[t][k] for k in both]) if both else {}
        out[f"{name}_phases_ms_median"] = {p: v[0] for p, v in summary.items()}
        out[f"{name}_phases_ms_mean"] = {p: v[1] for p, v in summary.items()}
        line = f"{t:<14} {len(both):>7} {m if m is not None else float('nan'):>17.2f}"
        if name == "cubin" and ref and both:
            r = statistics.median([ref[k] for k in both])
            out["tinygrad_cubin_compile_ms_median"] = r
            out["cubin_speedup_median"] = r / m
            line += f" {r:>12.2f} {r / m:>6.2f}"
        print(line)
        if summary:
            print("    phases, median/mean ms: " + ", ".join(f"{p} {a:.2f}/{b:.2f}" for p, (a, b) in summary.items()))
    for f in refused:
        print("REFUSED (a dtype the target lacks)", f)
    for f in failed:
        print("FAILED", f)
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(build, "bench", "gpu.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {path}")
    ours_failed = [f for f in failed if " ours " in f]
    return 1 if ours_failed else 0


if __name__ == "__main__":
    sys.exit(main())
