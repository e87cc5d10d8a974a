"""Kernel cases under BEAM's opts, ours against tinygrad's own C under the same opts.

Each kernel case (the corpus `kernels/` format tinygrad-run reads: an AST without variables, `params`, and
`inputs` where the case has them) is compiled with opts_to_apply set to every single action BEAM's CPU search
takes (search.py's `actions`: UPCAST, UNROLL, THREAD) on the bare kernel, and to some random pairs and triples
of them, by our compiler (DEV=CPU:MLIR's do_to_program) and by tinygrad's ClangRenderer; both run on the
case's inputs (zeros where it has none, or seeded random values with --random-inputs). The opts decide which
values tinygrad's devectorized C names (rounds, wraps) and where clang fuses, so ours must give tinygrad's
values under any of them, not only under the heuristics'.

Per candidate: identical (bit for bit, NaN for NaN), close (floats within 1e-5 of the output's largest
magnitude, 1e-2 at 16 bits: the steps our heuristic takes without an Opt, repeated around the opts, sum in
their own order), differ (anything else: a failure), failed (ours raised other than refusing the opts: a
failure), or not applicable (tinygrad's or our apply_opts refused the opts, or tinygrad's codegen failed).
Exit status 1 on a failure.

usage: cd <tinygrad> && DEV=CPU:MLIR CC=clang-22 PYTHONPATH=<repo>/python:. python3 opts_vs_tinygrad.py
       [--pairs N] [--random-inputs] CASE.json|DIR...
"""
import argparse
import dataclasses
import glob
import json
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "bool": np.bool_, "int8": np.int8,
      "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32,
      "int64": np.int64, "uint64": np.uint64}
FLOATS = ("float16", "bfloat16", "float32", "float64")


class HostBuffer:
    """Bytes at an address, as a runtime Program takes its buffers."""

    def __init__(self, data):
        self.arr = np.frombuffer(bytearray(data), dtype=np.uint8)
        self.va_addr, self.size = self.arr.ctypes.data, len(data)


def encode(values, dtype):
    """A case's values (numbers, or "nan"/"inf" strings) as the dtype's bytes."""
    vals = [float(v) if isinstance(v, str) else v for v in values]
    if dtype == "bfloat16":  # the recorded values are bfloat16's: their top 16 bits
        return (np.array(vals, np.float32).view(np.uint32) >> 16).astype(np.uint16).tobytes()
    return np.array(vals, NP[dtype]).tobytes()


def as_floats(raw, dtype):
    if dtype == "bfloat16":
        return (np.frombuffer(raw, np.uint16).astype(np.uint32) << 16).view(np.float32)
    return np.frombuffer(raw, NP[dtype])


def inputs_of(case, path, random_inputs):
    """{slot: bytes} of every buffer, or None where a dtype has no encoding here."""
    out = {}
    for p in case["params"]:
        dt, n = p["dtype"], p["size"]
        if dt not in NP and dt != "bfloat16":
            return None
        vals = case.get("inputs", {}).get(str(p["slot"]))
        if vals is None and random_inputs:
            rng = np.random.default_rng(abs(hash((path, p["slot"]))) % 2**32)
            vals = (rng.standard_normal(n) if dt in FLOATS else rng.integers(0, 10, n)).tolist()
        out[p["slot"]] = encode(vals, dt) if vals is not None else bytes((2 if dt == "bfloat16" else
                                                                          np.dtype(NP[dt]).itemsize) * n)
    return out


def compare(ours, ref, dtype):
    """'identical', 'close' or a description of the difference."""
    if ours == ref:
        return "identical"
    if dtype in FLOATS:
        o, r = as_floats(ours, dtype), as_floats(ref, dtype)
        same = (o.view(f"u{o.itemsize}") == r.view(f"u{r.itemsize}")) | (np.isnan(o) & np.isnan(r))
        if same.all():
            return "identical"
        tol = 1e-2 if dtype in ("float16", "bfloat16") else 1e-5
        finite = np.isfinite(r)
        atol = tol * max(1.0, float(np.abs(r[finite].astype(np.float64)).max())) if finite.any() else tol
        ok = np.isclose(o, r, rtol=tol, atol=atol, equal_nan=True)
        if ok.all():
            return "close"
        i = int(np.argmin(ok))
        return f"{int((~ok).sum())}/{ok.size} {dtype} past tolerance, first [{i}]: ours {o[i]!r}, tinygrad {r[i]!r}"
    o, r = np.frombuffer(ours, NP.get(dtype, np.uint8)), np.frombuffer(ref, NP.get(dtype, np.uint8))
    i = int(np.argmax(o != r))
    return f"{int((o != r).sum())}/{o.size} {dtype} differ, first [{i}]: ours {o[i]!r}, tinygrad {r[i]!r}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--pairs", type=int, default=12, help="random pairs and triples of actions per kernel")
    ap.add_argument("--random-inputs", action="store_true", help="seeded random values where a case has none")
    args = ap.parse_args()
    from tinygrad import Device
    import tinygrad.codegen as tg_codegen
    from tinygrad.codegen.opt import KernelOptError
    from tinygrad.codegen.opt.postrange import Scheduler
    from tinygrad.renderer.cstyle import ClangRenderer
    from tinygrad.uop.ops import KernelInfo
    from tinygrad_mlir import tinygrad as hook
    from tinygrad_mlir.check_candidates import CPU_ACTIONS, beyond_beam_upcast
    from tinygrad_mlir.uop_json import graph_to_uops
    dev = Device["CPU"]
    clang = ClangRenderer(dataclasses.replace(dev.renderer.target, renderer="CLANG"))
    files = [f for c in args.cases for f in (sorted(glob.glob(os.path.join(c, "*.json"))) if os.path.isdir(c) else [c])]
    counts = dict.fromkeys(("identical", "close", "differ", "failed", "not applicable"), 0)
    cases = 0
    for path in files:
        with open(path) as f:
            case = json.load(f)
        if not isinstance(case, dict) or not isinstance(case.get("ast"), dict) or case.get("vars") or \
                "params" not in case:
            continue
        g = case["ast"]
        g.setdefault("root", len(g["nodes"]) - 1)
        g["nodes"][g["root"]]["arg"] = None
        try:
            base = graph_to_uops(g, hook._API).replace(arg=KernelInfo(name="k"))
        except ValueError:
            continue  # an arg kind a kernel entering codegen does not carry
        buffers = inputs_of(case, path, args.random_inputs)
        if buffers is None:
            continue
        dtypes_ = {p["slot"]: p["dtype"] for p in case["params"]}
        cases += 1
        rng = random.Random(os.path.basename(path))
        cands = [(a,) for a in CPU_ACTIONS] + \
            [tuple(rng.choice(CPU_ACTIONS) for _ in range(rng.choice((2, 3)))) for _ in range(args.pairs)]

        def run(prg):
            bufs = {s: HostBuffer(b) for s, b in buffers.items()}
            gs, ls = prg.arg.launch_dims({})
            dev.runtime(prg.to_elf())(*[bufs[s] for s in prg.arg.globals], global_size=gs, local_size=ls, vals=(),
                                      wait=True)
            return {s: bufs[s].arr.tobytes() for s in prg.arg.outs}
        # The kernel as tinygrad's apply_opts receives it (its passes before the opts, once): a candidate whose
        # opts its Scheduler refuses there is not applicable, without the whole compile
        pre = []
        orig_apply = tg_codegen.apply_opts
        tg_codegen.apply_opts = lambda sink, ren, beam=0: pre.append(sink) or orig_apply(sink, ren, beam=beam)
        try:
            hook._original_do_to_program(base, clang)
        except Exception:
            pass
        finally:
            tg_codegen.apply_opts = orig_apply

        def tinygrad_takes(opts):
            if not pre:
                return True
            try:
                k = Scheduler(pre[0], clang)
                k.convert_loop_to_global()
                for o in opts:
                    k.apply_opt(o)
                return True
            except KernelOptError:
                return False
        for opts in cands:
            if beyond_beam_upcast(opts):
                continue
            if not tinygrad_takes(opts):
                counts["not applicable"] += 1
                continue
            ast = base.replace(arg=dataclasses.replace(base.arg, opts_to_apply=opts))
            try:
                ref = run(hook._original_do_to_program(ast, clang))
            except Exception:  # tinygrad's codegen or clang fails
                counts["not applicable"] += 1
                continue
            try:
                ours = run(hook.do_to_program(ast, dev.renderer))
            except KernelOptError:  # our apply_opts refuses them (MLIROptError is one)
                counts["not applicable"] += 1
                continue
            except Exception as e:
                counts["failed"] += 1
                print(f"FAILED {path} {list(opts)}: {type(e).__name__}: {' '.join(str(e).split())[:300]}", flush=True)
                continue
            verdicts = [compare(ours[s], ref[s], dtypes_[s]) for s in sorted(ref)]
            bad = [v for v in verdicts if v not in ("identical", "close")]
            kind = "differ" if bad else "close" if "close" in verdicts else "identical"
            counts[kind] += 1
            if bad:
                print(f"DIFFER {path} {list(opts)}: {'; '.join(bad)}", flush=True)
    total = sum(counts.values())
    print(f"opts vs tinygrad: {cases} kernels, {total} candidates: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
    return 1 if counts["differ"] or counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
