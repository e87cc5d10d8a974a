#!/usr/bin/env bash
# Builds the libFuzzer target in build-fuzz/ (UBSan + coverage) and runs it on
# the lit tests as a seed corpus. FUZZ_SECONDS (default 600) bounds the run.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DLLVM_USE_LINKER=lld -DTG_ENABLE_FUZZERS=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
ninja -C build-fuzz -j 2 tinygrad-parse-fuzzer
mkdir -p build-fuzz/corpus
find test examples -name '*.mlir' -exec cp {} build-fuzz/corpus/ \;
build-fuzz/bin/tinygrad-parse-fuzzer build-fuzz/corpus \
  -max_total_time="${FUZZ_SECONDS:-600}" -max_len=4096 -timeout=10 \
  -print_final_stats=1 "$@"
