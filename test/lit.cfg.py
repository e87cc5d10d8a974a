# -*- Python -*-
import os
import platform
import sys
import lit.formats
from lit.llvm import llvm_config

config.name = "tinygrad-mlir"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".json", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tinygrad_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tinygrad_src", config.tinygrad_src_root))
config.substitutions.append(("%tinygrad_obj", config.tinygrad_obj_root))
# TG_CORPUS_DIR points elsewhere (a worktree beside the checkout), as for the
# Python tests (python/run_tests.sh).
corpus_dir = os.environ.get("TG_CORPUS_DIR") or os.path.join(config.tinygrad_src_root, "..", "shared", "corpus")
config.substitutions.append(("%corpus", corpus_dir))
config.environment["TG_CORPUS_DIR"] = corpus_dir  # for the scripts tests run (demo.sh)
# The tinygrad corpus sits beside the checkout (../shared); tests that read it
# say `REQUIRES: corpus` and are reported unsupported where it is absent.
if os.path.isdir(corpus_dir):
    config.available_features.add("corpus")

# Tests of the x86 instructions the CPU target picks.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86")

# Tests of the tiles our heuristic sizes to AVX-512's 32 vector registers.
try:
    with open("/proc/cpuinfo") as f:
        if " avx512f" in f.read():
            config.available_features.add("avx512")
except OSError:
    pass

# The OpenBLAS reference of bench/kernels (built where OpenBLAS is found).
if os.path.exists(os.path.join(config.tinygrad_obj_root, "bench", "openblas-probe")):
    config.available_features.add("openblas")

# tinygrad itself (the oracle) for the tests that compare with it live:
# TINYGRAD_SRC, else a checkout beside this one.
tinygrad_ref = os.environ.get("TINYGRAD_SRC") or os.path.join(config.tinygrad_src_root, "..", "tinygrad")
if os.path.isdir(os.path.join(tinygrad_ref, "tinygrad")):
    config.available_features.add("tinygrad")
config.substitutions.append(("%tinygrad_ref", tinygrad_ref))

# GPU toolchains and devices (docs/Design.md, "NVIDIA and AMD targets"). The
# CUDA toolkit is found as the compiler finds it (CUDA_PATH, CUDA_HOME, else
# /usr/local/cuda); tests that need it say `REQUIRES: cuda-toolkit` and are
# reported unsupported where it is absent, never passed.
cuda_root = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
config.substitutions.append(("%cuda_root", cuda_root))
if os.path.exists(os.path.join(cuda_root, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("cuda-toolkit")
if os.path.exists(os.path.join(cuda_root, "bin", "ptxas")):
    config.available_features.add("ptxas")
if os.path.exists(os.path.join(cuda_root, "lib64", "stubs", "libcuda.so")):
    config.available_features.add("cuda-stub")
# Debian's rocm-device-libs (ocml/ockl bitcode) and libamd-comgr2.
rocm_device_libs = os.environ.get("TG_ROCM_DEVICE_LIBS") or "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
if os.path.exists(os.path.join(rocm_device_libs, "ocml.bc")):
    config.available_features.add("rocm-device-libs")
if any(os.path.exists(os.path.join(d, "libamd_comgr.so.2")) for d in ("/usr/lib/x86_64-linux-gnu", "/opt/rocm/lib")):
    config.available_features.add("comgr")
# GPUs: a device the runtime opens (tests that run kernels on one say
# `REQUIRES: cuda-device` / `amd-device` / `vulkan-device`, which lavapipe
# from scripts/install-deps.sh provides; elsewhere they are unsupported).
import shutil
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
import subprocess
for name, feature in (("CUDA:0", "cuda-device"), ("AMD:0", "amd-device"), ("VULKAN", "vulkan-device")):
    try:
        probe = subprocess.run([os.path.join(config.tinygrad_tools_dir, "tgrt-devices"), name],
                               capture_output=True, timeout=60)
        if probe.returncode == 0:
            config.available_features.add(feature)
    except (OSError, subprocess.TimeoutExpired):
        pass

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# `not` at the start of a RUN line is looked up on PATH (the default
# substitution only rewrites it after a pipe).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()
tool_dirs = [config.tinygrad_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tinygrad-opt", "tinygrad-translate", "tinygrad-sym-check", "tinygrad-schedule", "tinygrad-run", "tinygrad-compile", "tinygrad-lsp-server", "tgrt-devices"], tool_dirs)
