#!/usr/bin/env bash
# Installs everything tinygrad-mlir needs on a fresh Debian 12 machine. Idempotent:
# a second run only re-checks. Nothing may rely on what happens to be installed.
set -euo pipefail
PKGS=(
  cmake ninja-build ccache make git
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libclang-rt-22-dev
  libgtest-dev python3 python3-numpy pybind11-dev
  libopenblas-dev  # bench/kernels: the OpenBLAS sgemm reference
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
