#!/usr/bin/env python3
"""Real models end to end: tinygrad with our backend (DEV=CPU:MLIR), with its own CPU compiler
(DEV=CPU) and PyTorch, each model and thread count in fresh processes (models.py).

        run.py BUILD_DIR

Writes BUILD_DIR/bench/models.json: per model ours_ms, tinygrad_ms, torch_ms (steady-state
medians), ours_first_s, tinygrad_first_s (first call: schedule + compile + run, no disk cache) at
the largest thread count, and every thread count under "by_threads", where each row also has
ours_first_split / tinygrad_first_split (models.py's first_split: schedule_s, compile_s, rest_s). Ours and tinygrad's outputs
must agree (the same seeds give both the same weights and inputs): a mismatch fails the run.

Environment: TINYGRAD_SRC (required: a checkout of a9069c17), BENCH_MODELS (comma list, default
resnet18,llama,mnist_train), BENCH_MODELS_THREADS (default 1,2), BENCH_MODELS_REPS (timed calls,
default 5), BS (mnist_train's batch, default 512 as beautiful_mnist's), BENCH_MODELS_OUT (the JSON's
path instead of BUILD_DIR/bench/models.json).
"""
import json
import os
import subprocess
import sys

from harness import HERE, PY, side_env, tinygrad_checkout

SIDES = ("ours", "tinygrad", "torch")
BUILD = "build"


def run_one(model, side, threads, reps, tg):
    env = side_env(side, threads, tg, BUILD)
    p = subprocess.run([PY, os.path.join(HERE, "models.py"), model, side, "--threads", str(threads),
                        "--reps", str(reps)], env=env, cwd=tg, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"{model} {side} {threads}t failed (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")


def agree(a, b, tol=1e-3):
    return len(a) == len(b) and all(abs(x - y) <= tol * (1 + abs(y)) for x, y in zip(a, b))


# Models whose steps change their own state (a training step's weights and Adam moments): after the
# first step, float rounding that differs between two correct compilers compounds from step to step
# (mnist_train: step 1 equal, step 2 2e-7 apart, ~0.4% after 8 steps, no kernel differing under
# TINYGRAD_MLIR_CHECK). Their first step must agree; the last is reported, not required.
STATEFUL = {"mnist_train"}


def rel_diff(a, b):
    return max((abs(x - y) / (1 + abs(y)) for x, y in zip(a, b)), default=0.0)


def main():
    global BUILD
    build = BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
    tg = tinygrad_checkout("bench/models")
    if tg is None:
        return 0
    try:
        subprocess.run([PY, "-c", "import torch, torchvision"], check=True, capture_output=True)
        have_torch = True
    except subprocess.CalledProcessError:
        print("PyTorch/torchvision are not importable by", PY, ": the torch column is left empty")
        have_torch = False
    models = os.environ.get("BENCH_MODELS", "resnet18,llama,mnist_train").split(",")
    threads = [int(t) for t in os.environ.get("BENCH_MODELS_THREADS", "1,2").split(",")]
    reps = int(os.environ.get("BENCH_MODELS_REPS", "5"))
    out, failed = {"reps": reps, "threads": threads, "models": {}}, False
    print(f"{'model':<12} {'thr':>3} {'ours ms':>9} {'tinygrad ms':>11} {'torch ms':>9} {'ours 1st s':>10} "
          f"{'tg 1st s':>9} {'vs tg':>6} {'vs torch':>8}")
    for m in models:
        by = {}
        for t in threads:
            r = {s: run_one(m, s, t, reps, tg) for s in SIDES if s != "torch" or have_torch}
            row = {"ours_ms": r["ours"]["median_ms"], "tinygrad_ms": r["tinygrad"]["median_ms"],
                   "torch_ms": r["torch"]["median_ms"] if "torch" in r else None,
                   "ours_first_s": r["ours"]["first_s"], "tinygrad_first_s": r["tinygrad"]["first_s"],
                   "torch_first_s": r["torch"]["first_s"] if "torch" in r else None,
                   # where each first call went: scheduling is tinygrad's Python on both sides
                   "ours_first_split": r["ours"]["first_split"], "tinygrad_first_split": r["tinygrad"]["first_split"],
                   "times_ms": {s: r[s]["times_ms"] for s in r},
                   "first_outputs_agree": agree(r["ours"]["first_check"], r["tinygrad"]["first_check"]),
                   "outputs_agree": agree(r["ours"]["check"], r["tinygrad"]["check"]),
                   "last_outputs_rel_diff": rel_diff(r["ours"]["check"], r["tinygrad"]["check"])}
            if not row["first_outputs_agree"] or (m not in STATEFUL and not row["outputs_agree"]):
                failed = True
                print(f"{m} {t}t: ours and tinygrad's outputs differ: first call {r['ours']['first_check']} vs "
                      f"{r['tinygrad']['first_check']}, last {r['ours']['check']} vs {r['tinygrad']['check']}")
            elif not row["outputs_agree"]:
                print(f"{m} {t}t: first step agrees; after {reps + 2} more training steps the outputs are "
                      f"{row['last_outputs_rel_diff']:.1e} apart (float rounding compounding, see STATEFUL)")
            by[str(t)] = row
            vs_torch = f"{row['torch_ms'] / row['ours_ms']:8.2f}" if row["torch_ms"] else f"{'-':>8}"
            print(f"{m:<12} {t:>3} {row['ours_ms']:9.2f} {row['tinygrad_ms']:11.2f} "
                  f"{row['torch_ms'] if row['torch_ms'] else float('nan'):9.2f} {row['ours_first_s']:10.2f} "
                  f"{row['tinygrad_first_s']:9.2f} {row['tinygrad_ms'] / row['ours_ms']:6.2f} {vs_torch}")
            print("    first call = schedule + compile + rest: " + ", ".join(
                f"{s} {sp['schedule_s']:.2f} + {sp['compile_s']:.2f} + {sp['rest_s']:.2f} s"
                for s, sp in (("ours", row["ours_first_split"]), ("tinygrad", row["tinygrad_first_split"]))))
        top = by[str(max(threads))]
        out["models"][m] = {**{k: top[k] for k in ("ours_ms", "tinygrad_ms", "torch_ms", "ours_first_s",
                                                   "tinygrad_first_s", "torch_first_s")},
                            "threads": max(threads), "by_threads": by}
    path = os.environ.get("BENCH_MODELS_OUT") or os.path.join(build, "bench", "models.json")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {path}" + (" (FAILED: outputs differ)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
