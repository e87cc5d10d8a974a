#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz/ (UBSan + coverage) and runs
# each for FUZZ_SECONDS (default 600) on the lit tests / corpus as seeds.
# FUZZ_TARGETS picks which (default: parse json compile).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DLLVM_USE_LINKER=lld -DTG_ENABLE_FUZZERS=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
for target in ${FUZZ_TARGETS:-parse json compile}; do
  maxlen=8192
  mkdir -p "build-fuzz/corpus-$target"
  if [ "$target" = parse ]; then
    ninja -C build-fuzz -j 2 tinygrad-parse-fuzzer
    find test examples -name '*.mlir' -exec cp {} "build-fuzz/corpus-$target/" \;
    bin=build-fuzz/bin/tinygrad-parse-fuzzer
  elif [ "$target" = compile ]; then
    ninja -C build-fuzz -j 2 tinygrad-compile-fuzzer
    [ -d ../shared/corpus/kernels ] && cp ../shared/corpus/kernels/*.json "build-fuzz/corpus-$target/" || true
    bin=build-fuzz/bin/tinygrad-compile-fuzzer
    maxlen=120000 # corpus kernel files are up to ~100 KB
  else
    ninja -C build-fuzz -j 2 tinygrad-json-fuzzer
    find test -name '*.json' -exec cp {} "build-fuzz/corpus-$target/" \;
    [ -d ../shared/corpus/kernels ] && cp ../shared/corpus/kernels/*.json "build-fuzz/corpus-$target/" || true
    bin=build-fuzz/bin/tinygrad-json-fuzzer
  fi
  echo "== fuzzing $target for ${FUZZ_SECONDS:-600}s"
  "$bin" "build-fuzz/corpus-$target" -max_total_time="${FUZZ_SECONDS:-600}" \
    -max_len="$maxlen" -timeout=10 -print_final_stats=1 -artifact_prefix=build-fuzz/
done
