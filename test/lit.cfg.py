# -*- Python -*-
import os
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

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# `not` at the start of a RUN line is looked up on PATH (the default
# substitution only rewrites it after a pipe).
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()
tool_dirs = [config.tinygrad_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tinygrad-opt", "tinygrad-translate", "tinygrad-sym-check", "tinygrad-schedule", "tinygrad-run", "tinygrad-compile", "tinygrad-lsp-server"], tool_dirs)
