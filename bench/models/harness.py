"""What run.py and search.py share: the python tinygrad runs under and the environment of a side."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
DEV = {"ours": "CPU:MLIR", "tinygrad": "CPU", "torch": "CPU"}


def side_env(side, threads, tg, build, **extra):
    """The environment of one side's process: tinygrad's DEV, NUM_CPU_THREADS (our hook follows it too),
    no disk cache, the hook on PYTHONPATH using `build`'s C API in process; none of the caller's TINYGRAD_MLIR_*,
    DEBUG or BEAM settings. tinygrad's C compiler is clang-22 (as bench/kernels' and the tests' reference),
    the LLVM our side is built on: tinygrad's default `clang` is Debian's 14 here (BENCH_TINYGRAD_CC picks
    another)."""
    b = os.path.abspath(build if os.path.isabs(build) else os.path.join(ROOT, build))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYGRAD_MLIR_", "DEBUG", "BEAM"))}
    env.update({"DEV": DEV[side], "CACHELEVEL": "0", "NUM_CPU_THREADS": str(threads),
                "CC": os.environ.get("BENCH_TINYGRAD_CC", "clang-22"),
                "OMP_NUM_THREADS": str(threads),
                "TINYGRAD_MLIR_CAPI": os.path.join(b, "lib", "libTinygradCAPI.so"), "TINYGRAD_MLIR_TRANSPORT": "capi",
                "PYTHONPATH": os.pathsep.join([os.path.join(ROOT, "python", "tinygrad_mlir", "site"),
                                               os.path.join(ROOT, "python"), tg])})
    env.update(extra)
    return env


def tinygrad_checkout(what):
    """TINYGRAD_SRC when it is a tinygrad checkout; else None, having said that `what` is skipped."""
    tg = os.environ.get("TINYGRAD_SRC")
    if tg and os.path.isdir(os.path.join(tg, "tinygrad")):
        return tg
    print(f"TINYGRAD_SRC is not set to a tinygrad checkout: {what} skipped")
    return None
