#!/usr/bin/env bash
# Benchmarks live in bench/ as separate programs and are run side by side with
# their reference. None exists yet: the first (bench/symbolic) comes with the
# symbolic engine.
set -euo pipefail
BUILD=${1:-build}
ran=0
for b in "$BUILD"/bench/*; do
  [ -x "$b" ] || continue
  "$b"; ran=1
done
[ "$ran" -eq 1 ] || echo "bench: no benchmarks built yet"
