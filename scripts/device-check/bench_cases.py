"""The bench cases of scripts/device-check.sh local --bench (issue 24): the realistic kernels recorded
under scripts/device-check/bench/ (record_bench.py: tinygrad's schedule of each op, its kernels' ASTs
and their buffer wiring), compiled by our whole route for --arch (compile_case.py), once with our port
of tinygrad's opts heuristic and once with tinygrad's own heuristic (TG_OPTS=tinygrad, read by
tinygrad-compile), so that the device run measures our codegen apart from the opts picked.

A 4096x4096 input does not fit in the bundle, so a bench case carries a generator spec per input
(seed, distribution, shape, dtype) and the op's reference (run_cases.py computes it with torch on the
GPU in float64, or numpy without torch). case.json:
  kind "bench", buffers [{id, dtype, count, generate | null, output}], kernels [{binary, ptx, entry,
  global_size, local_size, args: buffer ids in argument order, applied_opts}] run in this order,
  reference {op, params, inputs, output, output_shape}, tolerance {rtol, atol}, bench {flops, bytes}.
The same ops at the small shapes of bench/small/ are compiled for the CPU (format "elf", arch "cpu")
into OUT/selftest/: the device half's --self-test runs them on the CPU device with the bench code path.
"""
import json
import os
import subprocess
import sys

# |got - want| <= atol + rtol * |want| against a float64 reference of the same (rounded) inputs
TOLERANCES = {"matmul": dict(rtol=1e-3, atol=1e-2), "conv2d": dict(rtol=1e-3, atol=1e-2),
              "softmax": dict(rtol=1e-4, atol=1e-7), "layernorm": dict(rtol=1e-4, atol=1e-4)}
# fp16 outputs: half rounding (2^-11 relative) on top of a float32 accumulation
HALF_TOLERANCE = dict(rtol=4e-3, atol=5e-2)
OPTS = {"ours": None, "tinygrad": "tinygrad"}


def work(rec):
    """FLOPs (multiply-adds count 2) and the bytes an ideal kernel moves: inputs read once, output written."""
    ref, item = rec["reference"], {"float32": 4, "float16": 2}[rec["dtype"]]
    n_in = sum(_prod(i["shape"]) for i in rec["inputs"])
    n_out = _prod(rec["output"]["shape"])
    if ref["op"] == "matmul":
        flops = 2 * ref["m"] * ref["n"] * ref["k"]
    elif ref["op"] == "conv2d":
        w = rec["inputs"][1]["shape"]
        flops = 2 * n_out * w[1] * w[2] * w[3]
    else:
        flops = None  # memory-bound: compared in GB/s
    return flops, (n_in + n_out) * item


def _prod(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def compile_kernel(root, build, arch, rec, i, opts, case_dir):
    k = rec["kernels"][i]
    src = os.path.join(case_dir, f"k{i}.ast.json")
    with open(src, "w") as f:
        json.dump(dict(id=f"{rec['id']}__k{i}", ast=k["ast"], params=k["params"], vars=[], var_vals={},
                       inputs={}, outputs={}), f)
    kdir = os.path.join(case_dir, f"k{i}")
    os.makedirs(kdir)
    if arch == "cpu":
        return compile_kernel_cpu(build, k, src, kdir, i)
    env = dict(os.environ, BUILD=build)
    env.pop("TG_OPTS", None)
    if OPTS[opts]:
        env["TG_OPTS"] = OPTS[opts]
    r = subprocess.run([sys.executable, os.path.join(root, "scripts", "device-check", "compile_case.py"), src, arch, kdir],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"device-check: bench {rec['id']} kernel {i} ({opts} opts) failed to compile:\n{r.stderr}")
    applied = json.loads(subprocess.run(
        [os.path.join(build, "bin", "tinygrad-run"), "--case", src, f"--target=cuda:{arch}", "--compile-only", "--json"],
        env=env, check=True, capture_output=True, text=True).stdout.splitlines()[-1])["applied_opts"]
    os.remove(src)
    launch = json.load(open(os.path.join(kdir, "launch.json")))
    os.remove(os.path.join(kdir, "launch.json"))
    if launch["scalar_bytes"]:
        sys.exit(f"device-check: bench {rec['id']} kernel {i} takes scalars {launch['scalar_bytes']}")
    return dict(binary=f"k{i}/kernel.cubin", ptx=f"k{i}/kernel.ptx", entry=launch["entry"],
                global_size=launch["global"], local_size=launch["local"],
                args=[k["args"][slot] for slot in launch["globals"]], applied_opts=applied)


def compile_kernel_cpu(build, k, src, kdir, i):
    """A self-test kernel: an x86-64 object for the CPU device, one thread (no core id argument)."""
    res = json.loads(subprocess.run(
        [os.path.join(build, "bin", "tinygrad-compile"), "--graph-path=ast", "--target=cpu", "--max-threads=1",
         "-o", os.path.join(kdir, "kernel.o"), src], check=True, capture_output=True, text=True).stdout)
    os.remove(src)
    if res["format"] != "elf" or res["core_id_arg"] != -1 or res["vars"]:
        sys.exit(f"device-check: self-test kernel {src}: expected a one-thread ELF without variables, got {res}")
    return dict(format="elf", binary=f"k{i}/kernel.o", ptx=None, entry=res["name"], global_size=[1, 1, 1],
                local_size=[1, 1, 1], args=[k["args"][slot] for slot in res["globals"]],
                applied_opts=str(res.get("uops", {}).get("applied_opts")))


def bench_case(root, build, arch, path, opts, case_dir, seed):
    rec = json.load(open(path))
    kernels = [compile_kernel(root, build, arch, rec, i, opts, case_dir) for i in range(len(rec["kernels"]))]
    shapes = {i["id"]: i["shape"] for i in rec["inputs"]}
    buffers = []
    for b in rec["buffers"]:
        gen = None
        if b["id"] in shapes:
            gen = dict(seed=seed + len(buffers), distribution="normal", mean=0.0, std=1.0, shape=shapes[b["id"]],
                       dtype=b["dtype"])
        buffers.append(dict(id=b["id"], dtype=b["dtype"], count=b["count"], generate=gen,
                            output=b["id"] == rec["output"]["id"]))
    ref = rec["reference"]
    flops, nbytes = work(rec)
    tol = HALF_TOLERANCE if rec["dtype"] == "float16" else TOLERANCES[ref["op"]]
    return dict(name=f"bench_{rec['id']}" + ("" if opts == "ours" else f"_{opts}_opts"), kind="bench",
                source=os.path.relpath(path, root), tinygrad_source=rec["source"], arch=arch, opts=opts,
                buffers=buffers, kernels=kernels,
                reference=dict(ref, inputs=[i["id"] for i in rec["inputs"]], output=rec["output"]["id"],
                               output_shape=rec["output"]["shape"], dtype=rec["dtype"]),
                tolerance=tol, bench=dict(op=ref["op"], dtype=rec["dtype"], flops=flops, bytes=nbytes))


def add_bench_cases(root, build, arch, out, names, opts_list, seed=24, folder="cases", small=False):
    bench_dir = os.path.join(root, "scripts", "device-check", "bench", *(["small"] if small else []))
    for f in sorted(os.listdir(bench_dir)):
        if not f.endswith(".json"):
            continue
        for opts in opts_list:
            tmp = os.path.join(out, folder, "_bench_tmp")
            os.makedirs(tmp)
            desc = bench_case(root, build, arch, os.path.join(bench_dir, f), opts, tmp, seed)
            case_dir = os.path.join(out, folder, desc["name"])
            os.rename(tmp, case_dir)
            json.dump(desc, open(os.path.join(case_dir, "case.json"), "w"), indent=1)
            names.append(desc["name"])


def add_self_test_cases(root, build, out):
    """The bench ops at small shapes for the CPU device: the device half's --self-test runs them."""
    names = []
    add_bench_cases(root, build, "cpu", out, names, ["ours"], seed=5, folder="selftest", small=True)
    return names
