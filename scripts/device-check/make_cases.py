"""The local half of scripts/device-check.sh: cases for a lent GPU.

Each case is a folder OUT/cases/<name>/ with
  case.json     what to run: binary, entry, launch size, the buffers (dtype,
                element count, input file or none, expected file or none,
                tolerances) in kernel-argument order, then the scalars
  kernel.cubin  the kernel for --arch (our NVVM route: tinygrad-opt
                --tg-gpu-to-nvvm, tinygrad-translate --emit-cubin) and
  kernel.ptx    its PTX (the driver JIT-compiles it where the cubin's arch
                does not match the device)
  *.bin         raw little-endian inputs and expected outputs
OUT/runtime/ holds the MLIR-free runtime and OUT/run_cases.py the device half.
OUT/conformance/ holds the runtime's gtest binary (TinygradRuntimeTests: it
links libTinygradRuntime.so only, no MLIR) and the conformance suite's kernels
it loads there (unittests/Runtime/kernels: cts_sm80.ptx, built from cts.gpu.mlir by
our NVVM route, and conformance.o for the CPU self-test); the device half runs
the suite's CUDA instantiation (gtest filter */CUDA) with them.

Built-in cases are the hand-written gpu.modules of test/Target/GPU/Inputs with
numpy references. --cases DIR --compiler CMD adds one case per kernel case
(*.json, the shared corpus format) of DIR: CMD is run as
    CMD CASE.json ARCH CASEDIR
and must write CASEDIR/kernel.cubin (and kernel.ptx) plus CASEDIR/launch.json
{"entry": ..., "global": [x,y,z], "local": [x,y,z], "scalar_bytes": [4, ...]};
the buffers' inputs and expected outputs come from the corpus case (params,
inputs, outputs, var_vals); an optional "globals" in launch.json lists the
buffer slots the kernel takes, in argument order. The kernel-AST route ships
as scripts/device-check/compile_case.py (tinygrad-compile --target
cuda:ARCH), the default compiler of --cases.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_cases import OPTS, add_bench_cases, add_self_test_cases  # noqa: E402

LIMIT_BYTES = 48 << 20  # the device tool carries 64 MiB in all


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"device-check: {' '.join(cmd)} failed:\n{r.stderr}")


def builtin_cases(rng):
    """name -> (kernel file stem, global, local, buffers, scalars, bench)."""
    f32 = np.float32
    a, b = rng.standard_normal(1024).astype(f32), rng.standard_normal(1024).astype(f32)
    c = np.zeros(1024, f32)
    c[:1000] = a[:1000] + b[:1000]
    red_in = rng.standard_normal(4096).astype(f32)
    m_in = rng.uniform(0.1, 4.0, 256).astype(f32)
    m_out = np.concatenate([np.exp2(m_in), np.log2(m_in), np.sin(m_in), np.exp2(m_in) / np.sqrt(m_in)]).astype(f32)
    v_in = rng.standard_normal(1024).astype(f32)
    t_in = rng.standard_normal(1024).astype(f32)
    t_out = t_in.reshape(32, 32)[:, ::-1].reshape(-1).copy()
    ma, mb = rng.standard_normal((512, 512)).astype(f32), rng.standard_normal((512, 512)).astype(f32)
    tight = dict(rtol=1e-6, atol=0)
    return {
        "add": ("add", [16, 1, 1], [64, 1, 1],
                [dict(input=a), dict(input=b), dict(expected=c, **tight)], [(1000, 4)], None),
        "reduce": ("reduce", [64, 1, 1], [64, 1, 1],
                   [dict(input=red_in), dict(expected=red_in.reshape(64, 64).sum(1, dtype=np.float64).astype(f32),
                                             rtol=1e-5, atol=1e-5)], [], None),
        "math": ("math", [1, 1, 1], [256, 1, 1],
                 [dict(input=m_in), dict(expected=m_out, rtol=1e-5, atol=1e-6)], [], None),
        "vec": ("vec", [2, 1, 1], [128, 1, 1],
                [dict(input=v_in), dict(expected=(v_in * 2).astype(np.float16), rtol=0, atol=0)], [], None),
        "alloc": ("alloc", [32, 1, 1], [32, 1, 1], [dict(input=t_in), dict(expected=t_out, **tight)], [], None),
        "matmul_naive_512": ("matmul", [32, 32, 1], [16, 16, 1],
                             [dict(input=ma.reshape(-1)), dict(input=mb.reshape(-1)),
                              dict(expected=(ma.astype(np.float64) @ mb).astype(f32).reshape(-1), rtol=1e-4, atol=1e-3)],
                             [], dict(op="matmul", m=512, n=512, k=512, dtype="float32",
                                      note="naive hand-written kernel, not our heuristic")),
    }


def write_buffers(case_dir, buffers):
    out = []
    for i, buf in enumerate(buffers):
        arr = buf.get("input", buf.get("expected"))
        entry = dict(dtype=str(arr.dtype), count=int(arr.size), input=None, expected=None,
                     rtol=buf.get("rtol", 0.0), atol=buf.get("atol", 0.0))
        for key in ("input", "expected"):
            if key in buf:
                name = f"{key}{i}.bin"
                np.ascontiguousarray(buf[key]).tofile(os.path.join(case_dir, name))
                entry[key] = name
        out.append(entry)
    return out


# What the conformance suite's CUDA and CPU instantiations load (unittests/Runtime/CMakeLists.txt
# builds them; Conformance.h names them): the CUDA run on the GPU, the CPU one in --self-test.
CONFORMANCE_KERNELS = ("cts_sm80.ptx", "conformance.o")


def add_conformance(build, out):
    """OUT/conformance: the runtime test binary and the kernels the suite's CUDA and CPU runs load."""
    binary = os.path.join(build, "unittests", "TinygradRuntimeTests")
    kernels = os.path.join(build, "unittests", "Runtime", "kernels")
    missing = [f for f in [binary] + [os.path.join(kernels, k) for k in CONFORMANCE_KERNELS] if not os.path.exists(f)]
    if missing:
        sys.exit(f"device-check: {', '.join(missing)} missing (build TinygradRuntimeTests first)")
    d = os.path.join(out, "conformance")
    os.makedirs(os.path.join(d, "kernels"))
    shutil.copy2(binary, d)
    for k in CONFORMANCE_KERNELS:
        shutil.copy2(os.path.join(kernels, k), os.path.join(d, "kernels"))
    return dict(binary="conformance/TinygradRuntimeTests", kernels="conformance/kernels")


def compile_builtin(args, stem, case_dir):
    src = os.path.join(args.root, "test", "Target", "GPU", "Inputs", stem + ".mlir")
    mlir = os.path.join(case_dir, "kernel.nvvm.mlir")
    run([os.path.join(args.build, "bin", "tinygrad-opt"), src, f"--tg-gpu-to-nvvm=chip={args.arch}", "-o", mlir])
    translate = os.path.join(args.build, "bin", "tinygrad-translate")
    run([translate, "--emit-cubin", mlir, "-o", os.path.join(case_dir, "kernel.cubin")])
    run([translate, "--emit-ptx", mlir, "-o", os.path.join(case_dir, "kernel.ptx")])
    os.remove(mlir)


def corpus_case(args, path, case_dir):
    """A shared-corpus kernel case compiled by --compiler."""
    case = json.load(open(path))
    run(args.compiler.split() + [path, args.arch, case_dir])
    launch = json.load(open(os.path.join(case_dir, "launch.json")))
    buffers = []
    taken = launch.get("globals")
    for p in sorted(case["params"], key=lambda p: p["slot"]):
        if taken is not None and p["slot"] not in taken:
            continue
        dt = np.dtype(p["dtype"])
        slot = str(p["slot"])
        buf = {}
        if slot in case["inputs"]:
            buf["input"] = np.array(case["inputs"][slot], dtype=dt)
        if slot in case["outputs"]:
            buf["expected"] = np.array(case["outputs"][slot], dtype=dt)
            buf.update(rtol=1e-5, atol=1e-6)
        if not buf:
            buf["input"] = np.zeros(p["size"], dt)
        buffers.append(buf)
    scalars = [(int(case["var_vals"][v]), n) for v, n in zip(case["vars"], launch.get("scalar_bytes", []))]
    return launch["entry"], launch["global"], launch["local"], buffers, scalars


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--cases", help="a folder of kernel cases (*.json, the corpus format)")
    ap.add_argument("--compiler", help="CMD CASE.json ARCH CASEDIR (see the module docstring; default: "
                    "scripts/device-check/compile_case.py, our kernel-AST route)")
    ap.add_argument("--bench", action="store_true", help="add the bench kernels of scripts/device-check/bench "
                    "(bench_cases.py: matmul, softmax, layernorm, conv2d at realistic sizes; inputs generated there)")
    ap.add_argument("--bench-opts", default="ours,tinygrad",
                    help="whose opts heuristic the bench kernels are compiled with: ours, tinygrad or both")
    args = ap.parse_args()
    if args.compiler and not args.cases:
        sys.exit("device-check: --compiler needs --cases")
    if args.cases and not args.compiler:
        args.compiler = f"{sys.executable} {os.path.join(args.root, 'scripts', 'device-check', 'compile_case.py')}"
        os.environ.setdefault("BUILD", args.build)
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "cases"))
    runtime = os.path.join(args.out, "runtime")
    os.makedirs(runtime)
    for f in (os.path.join(args.build, "lib", "libTinygradRuntime.so"), os.path.join(args.build, "bin", "tgrt-devices")):
        shutil.copy2(f, runtime)
    for f in ("run_cases.py", "bench_ref.py"):
        shutil.copy2(os.path.join(args.root, "scripts", "device-check", f), args.out)

    rng = np.random.default_rng(24)
    names = []
    for name, (stem, glob, local, buffers, scalars, bench) in builtin_cases(rng).items():
        case_dir = os.path.join(args.out, "cases", name)
        os.makedirs(case_dir)
        compile_builtin(args, stem, case_dir)
        desc = dict(name=name, source=f"test/Target/GPU/Inputs/{stem}.mlir", arch=args.arch, binary="kernel.cubin",
                    ptx="kernel.ptx", entry=stem, global_size=glob, local_size=local,
                    buffers=write_buffers(case_dir, buffers), scalars=[dict(value=v, bytes=n) for v, n in scalars],
                    bench=bench)
        json.dump(desc, open(os.path.join(case_dir, "case.json"), "w"), indent=1)
        names.append(name)
    if args.cases:
        for f in sorted(os.listdir(args.cases)):
            if not f.endswith(".json"):
                continue
            name = "corpus_" + f[:-5]
            case_dir = os.path.join(args.out, "cases", name)
            os.makedirs(case_dir)
            entry, glob, local, buffers, scalars = corpus_case(args, os.path.join(args.cases, f), case_dir)
            desc = dict(name=name, source=os.path.join(args.cases, f), arch=args.arch, binary="kernel.cubin",
                        ptx="kernel.ptx" if os.path.exists(os.path.join(case_dir, "kernel.ptx")) else None,
                        entry=entry, global_size=glob, local_size=local, buffers=write_buffers(case_dir, buffers),
                        scalars=[dict(value=v, bytes=n) for v, n in scalars], bench=None)
            json.dump(desc, open(os.path.join(case_dir, "case.json"), "w"), indent=1)
            names.append(name)
    if args.bench:
        opts = args.bench_opts.split(",")
        if not opts or any(o not in OPTS for o in opts):
            sys.exit(f"device-check: --bench-opts takes {','.join(OPTS)}, got {args.bench_opts!r}")
        add_bench_cases(args.root, args.build, args.arch, args.out, names, opts)
    self_test = add_self_test_cases(args.root, args.build, args.out)
    conformance = add_conformance(args.build, args.out)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.out) for f in fs)
    if total > LIMIT_BYTES:
        sys.exit(f"device-check: {args.out} is {total >> 20} MiB, over the {LIMIT_BYTES >> 20} MiB budget")
    json.dump(dict(arch=args.arch, cases=names, self_test_cases=self_test, conformance=conformance),
              open(os.path.join(args.out, "manifest.json"), "w"), indent=1)
    print(f"device-check: {len(names)} cases for {args.arch} in {args.out} ({total / 1e6:.2f} MB)")
    print(f"device-check: the conformance suite's CUDA run in {os.path.join(args.out, 'conformance')}")
    print(f"device half: scripts/device-check.sh device {args.out}  (carry {args.out})")


if __name__ == "__main__":
    main()
