#!/usr/bin/env python3
"""Exports the kernels bench-kernels runs: realistic tinygrad programs and the shared corpus.

        export_kernels.py OUT_DIR [--corpus DIR]

With tinygrad importable (TINYGRAD_SRC=<checkout of a9069c17>), every program in PROGRAMS is
built from Tensor.empty inputs and scheduled by tinygrad (DEV=CPU). For each kernel of the
schedule it writes OUT_DIR/<program>__k<i>.json in the corpus kernel format (shared/corpus/
README.md): the AST entering codegen (the CALL's SINK with KernelInfo, as uop_json), buffer
slots/dtypes/sizes, and what tinygrad's own codegen makes of that AST with its default
heuristics: the rendered C (`c_source`), ProgramInfo (`program_info`, core_id included) and
estimates. It also times tinygrad's pipeline for the AST: `do_to_program` (its Python passes
and clang) in this process with CACHELEVEL=0, bypassing to_program_cache, after one warm-up
compile of an unrelated kernel so import-time work is not charged to the first kernel; the
manifest's `warmup` names that kernel, which bench-kernels compiles first as well.

Without tinygrad only the corpus is exported (the manifest says so). The corpus kernel files
already carry `c_source` and `program_info`; they are referenced, not copied.

OUT_DIR/manifest.json lists every kernel: {"tinygrad": bool, "kernels": [{"id", "group",
"file", ...}]}.
"""
import argparse
import glob
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What tinygrad's CPU backend is run with: its C compiler is the reference's clang-22, its
# thread split is pinned like the corpus (NUM_CPU_THREADS is its renderer's global_max), and
# no on-disk cache may serve a compile.
ENV = {"DEV": "CPU", "CACHELEVEL": "0", "CC": "clang-22", "PARALLEL": "0", "NUM_CPU_THREADS": "2"}

M16 = 16 * 1024 * 1024
# The kernel both sides compile before any timed compile (Tensor.empty(7, 3).exp2().sum(1)).
WARMUP_KERNEL = os.path.join(ROOT, "bench", "kernels", "warmup-kernel.json")


def programs(Tensor):
    """name -> (description, thunk building the output tensor)."""
    e = Tensor.empty
    return {
        "matmul_1024": ("matmul 1024x1024x1024 fp32", lambda: e(1024, 1024) @ e(1024, 1024)),
        "add_16m": ("elementwise add 16M fp32", lambda: e(M16) + e(M16)),
        "sum_16m": ("sum 16M fp32", lambda: e(M16).sum()),
        "softmax_4096x1024": ("softmax 4096x1024 over the last axis", lambda: e(4096, 1024).softmax(-1)),
        "conv2d_8x64x56": ("conv2d batch 8, 64->64 channels, 3x3, 56x56, pad 1",
                                              lambda: e(8, 64, 56, 56).conv2d(e(64, 64, 3, 3), padding=1)),
        "layernorm_4096x1024": ("layernorm 4096x1024 over the last axis", lambda: e(4096, 1024).layernorm(-1)),
    }


def export_tinygrad(out_dir, only=None):
    for k, v in ENV.items():
        os.environ[k] = v
    src = os.environ.get("TINYGRAD_SRC")
    if src:
        sys.path.insert(0, src)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from tinygrad import Tensor, Device
    from tinygrad.uop.ops import Ops
    import tinygrad.codegen as cg
    from tinygrad_mlir import uop_json

    ren = Device["CPU"].renderer
    # Time clang inside tinygrad's pipeline separately (compile_cached calls compile).
    clang_ms = []
    orig_compile = ren.compiler.compile
    def timed_compile(src):
        t = time.perf_counter()
        try:
            return orig_compile(src)
        finally:
            clang_ms.append((time.perf_counter() - t) * 1e3)
    ren.compiler.compile = timed_compile

    def kernels_of(t):
        linear, var_vals = t.linear_with_vars()
        return [c.src[0] for c in linear.src if c.op is Ops.CALL and c.src[0].op is Ops.SINK], var_vals

    # Warm-up: one unrelated kernel through the whole pipeline, the one bench-kernels compiles
    # before its timed compiles (WARMUP_KERNEL, recorded from this program): both sides warm
    # up alike. The AST compiled here is written beside the exports for bench-kernels to use.
    warm = kernels_of(Tensor.empty(7, 3).exp2().sum(1))[0]
    for ast in warm:
        cg.do_to_program(ast, ren)
    with open(WARMUP_KERNEL) as f:
        rec = json.load(f)
    rec["ast"] = uop_json.uop_to_json(warm[0])
    with open(os.path.join(out_dir, "warmup.json"), "w") as f:
        json.dump(rec, f, separators=(",", ":"))

    records = []
    for prog, (desc, build) in programs(Tensor).items():
        if only and prog not in only:
            continue
        asts, var_vals = kernels_of(build())
        for i, ast in enumerate(asts):
            clang_ms.clear()
            t0 = time.perf_counter()
            prg = cg.do_to_program(ast, ren)
            total_ms = (time.perf_counter() - t0) * 1e3
            sink, src_uop = prg.src[0], prg.src[2]
            info = prg.arg
            est = sink.arg.estimates
            params = []
            for p in sorted((u for u in ast.toposort() if u.op is Ops.PARAM and u.arg.slot >= 0 and u.src
                                              and u.src[0].op is Ops.CONST), key=lambda u: u.arg.slot):
                params.append({"slot": p.arg.slot, "dtype": uop_json.dtype_name(p.arg.dtype), "size": int(p.src[0].arg)})
            rec = {
                "id": f"{prog}__k{i}", "format_version": 1, "group": "realistic",
                "program": {"id": prog, "description": desc, "kernel_index": i, "kernels": len(asts)},
                "name": sink.arg.function_name, "ast": uop_json.uop_to_json(ast), "params": params,
                "vars": [], "var_vals": dict(var_vals),
                "program_info": {"function_name": sink.arg.function_name, "global_size": [int(x) for x in info.global_size],
                                                  "local_size": [int(x) for x in info.local_size], "globals": list(info.globals),
                                                  "outs": list(info.outs), "ins": list(info.ins),
                                                  "vars": [{"name": v.arg.name, "slot": v.arg.slot, "dtype": uop_json.dtype_name(v.dtype)}
                                                                    for v in info.vars]},
                "estimates": {"ops": int(est.ops), "lds": int(est.lds), "mem": int(est.mem)} if est is not None else None,
                "applied_opts": [repr(o) for o in sink.arg.applied_opts],
                "c_source": src_uop.arg,
                "tinygrad_compile_ms": total_ms, "tinygrad_clang_ms": sum(clang_ms),
                "config": dict(ENV), "renderer": type(ren).__name__,
            }
            uop_json.validate_graph(rec["ast"])
            path = os.path.join(out_dir, rec["id"] + ".json")
            with open(path, "w") as f:
                json.dump(rec, f, separators=(",", ":"))
            records.append({"id": rec["id"], "group": "realistic", "program": prog, "file": path,
                                            "tinygrad_compile_ms": total_ms, "tinygrad_clang_ms": sum(clang_ms)})
            print(f"  {rec['id']:<26} {rec['name']:<34} global_size={rec['program_info']['global_size'][0]} "
                        f"tinygrad to_program {total_ms:7.1f} ms (clang {sum(clang_ms):6.1f} ms)", file=sys.stderr)
    return records


def export_corpus(corpus_dir):
    records = []
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*.json"))):
        with open(path) as f:
            rec = json.load(f)
        if "ast" not in rec or "c_source" not in rec or "program_info" not in rec:
            continue
        records.append({"id": rec["id"], "group": "corpus", "program": rec["program"]["id"], "file": os.path.abspath(path)})
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "kernels"))
    ap.add_argument("--only", nargs="*", help="realistic programs to export (default: all)")
    ap.add_argument("--no-tinygrad", action="store_true", help="export the corpus kernels only")
    ap.add_argument("--why", default="--no-tinygrad", help="with --no-tinygrad: the reason, for the manifest")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    records, have_tg, why = [], False, None
    if not a.no_tinygrad:
        src = os.environ.get("TINYGRAD_SRC")
        if not src or not os.path.isdir(os.path.join(src, "tinygrad")):
            why = "TINYGRAD_SRC is not set to a tinygrad checkout"
        else:
            records += export_tinygrad(a.out_dir, a.only)
            have_tg = True
    else:
        why = a.why
    if os.path.isdir(a.corpus):
        records += export_corpus(a.corpus)
    warmup = os.path.join(a.out_dir, "warmup.json") if have_tg else WARMUP_KERNEL
    manifest = {"tinygrad": have_tg, "no_tinygrad_reason": why, "corpus": os.path.abspath(a.corpus),
                            "env": ENV if have_tg else None, "warmup": os.path.abspath(warmup), "kernels": records}
    with open(os.path.join(a.out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    n_real = sum(r["group"] == "realistic" for r in records)
    print(f"exported {n_real} realistic + {len(records) - n_real} corpus kernels to {a.out_dir}"
                + ("" if have_tg else f" (realistic kernels skipped: {why})"), file=sys.stderr)


if __name__ == "__main__":
    main()
