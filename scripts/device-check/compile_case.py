#!/usr/bin/env python3
"""The kernel-AST compiler for scripts/device-check.sh's --cases: one shared-corpus kernel case through our
whole route (tinygrad-compile --target cuda:ARCH: the step list, the GPU emission, NVVM, the cubin) and its
PTX (tinygrad-run --emit=ptx), with the launch the runtime needs.

        compile_case.py CASE.json ARCH CASEDIR      (BUILD: the build folder, default <repo>/build)

Writes CASEDIR/kernel.cubin, CASEDIR/kernel.ptx and CASEDIR/launch.json: the entry, tinygrad's launch
dims (global: workgroups), the scalars' widths (8 bytes for a 64-bit variable) and the buffer slots the
kernel takes, in argument order (a kernel may drop a buffer it never reads).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    case, arch, out = sys.argv[1:4]
    build = os.environ.get("BUILD", os.path.join(ROOT, "build"))
    target = f"cuda:{arch}"
    res = json.loads(subprocess.run(
        [os.path.join(build, "bin", "tinygrad-compile"), "--graph-path=ast", f"--target={target}",
         "-o", os.path.join(out, "kernel.cubin"), case], check=True, capture_output=True, text=True).stdout)
    if res.get("format") != "cubin":
        sys.exit(f"compile_case: {case}: expected a cubin for {target}, got {res.get('format')!r}")
    subprocess.run([os.path.join(build, "bin", "tinygrad-run"), "--case", case, f"--target={target}", "--compile-only", "--emit=ptx",
                    "-o", os.path.join(out, "kernel.ptx")], check=True, capture_output=True)
    launch = {"entry": res["name"], "global": res["global_size"], "local": res["local_size"],
              "scalar_bytes": [8 if dt in ("int64", "uint64") else 4 for dt in res["var_dtypes"]],
              "globals": res["globals"]}
    with open(os.path.join(out, "launch.json"), "w") as f:
        json.dump(launch, f)


if __name__ == "__main__":
    main()
