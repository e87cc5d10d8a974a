#!/usr/bin/env python3
"""Two builds of the C API library side by side on the same machine load: bench/gpu/run.py run with
each in turn, ROUNDS times (A, B, A, B, ...), and per figure the median over the rounds of each
side and their ratio (before / after). For a change to the GPU compile route measured on a loaded
machine, where only a same-run ratio means anything.

        compare.py BEFORE_LIB AFTER_LIB [ROUNDS]

BEFORE_LIB and AFTER_LIB are libTinygradCAPI.so files (copy the one built before the change aside,
with libTinygradRuntime.so beside it).
Environment: as run.py's (TINYGRAD_SRC required; BENCH_GPU_LIMIT, BENCH_GPU_REPS, TG_CORPUS_DIR).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build")


def figures(d):
    """The figures to compare in one gpu.json: every *_ms_median, and every phase's median and mean."""
    out = {k: v for k, v in d.items() if k.endswith("_ms_median") and isinstance(v, (int, float))}
    for stat in ("median", "mean"):
        for k, v in d.items():
            if k.endswith(f"_phases_ms_{stat}") and isinstance(v, dict):
                out.update({f"{k[:-len(f'_phases_ms_{stat}')]}.{p} ({stat})": ms for p, ms in v.items()})
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    libs = {"before": os.path.abspath(sys.argv[1]), "after": os.path.abspath(sys.argv[2])}
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    runs = {side: [] for side in libs}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            for side, lib in libs.items():
                out = os.path.join(tmp, f"{side}{r}.json")
                env = dict(os.environ, TINYGRAD_MLIR_CAPI=lib)
                p = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), BUILD, out], env=env,
                                   capture_output=True, text=True)
                if p.returncode:
                    print(f"run.py with {lib} failed:\n{p.stdout}{p.stderr}")
                    return 1
                with open(out) as f:
                    runs[side].append(figures(json.load(f)))
    keys = [k for k in runs["after"][0] if all(k in run for side in runs for run in runs[side])]
    print(f"{'figure':<40} {'before ms':>10} {'after ms':>10} {'before/after':>13}")
    for k in keys:
        b = statistics.median(run[k] for run in runs["before"])
        a = statistics.median(run[k] for run in runs["after"])
        print(f"{k:<40} {b:>10.2f} {a:>10.2f} {b / a if a else float('nan'):>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
