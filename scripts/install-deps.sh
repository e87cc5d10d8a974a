#!/usr/bin/env bash
# Installs everything tinygrad-mlir needs on a fresh Debian 12 machine. Idempotent:
# a second run only re-checks. Nothing may rely on what happens to be installed.
set -euo pipefail
PKGS=(
  cmake ninja-build ccache make git
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libclang-rt-22-dev
  libgtest-dev python3 python3-numpy python3-pip python3-setuptools pybind11-dev
  python3-pytest  # make test: the pytest plugin test and tinygrad's hand-written kernel tests
  libopenblas-dev  # bench/kernels: the OpenBLAS sgemm reference
  # The Vulkan target: the loader's headers (the runtime dlopens libvulkan at
  # run time), Mesa's lavapipe as the device tests and CI run on, spirv-val,
  # and the Khronos validation layer the driver's tests also run under.
  libvulkan-dev mesa-vulkan-drivers spirv-tools vulkan-validationlayers
  # The AMD target: lld linked in-process for HSACO (liblld-22-dev; the
  # ld.lld-22 executable of lld-22 is the fallback), ROCm's device libraries
  # (ocml/ockl bitcode for math) and comgr (the optional gfx90a linker).
  liblld-22-dev rocm-device-libs libamd-comgr-dev
)
# Optional, only with TINYGRAD_TEST_DEPS=1: what running tinygrad's own test files through
# the backend needs beyond pytest (torch is test_ops.py's oracle; hypothesis drives some
# files). `make test` needs neither.
if [ "${TINYGRAD_TEST_DEPS:-0}" = 1 ]; then
  PKGS+=(python3-torch python3-hypothesis)
fi
# Only with TINYGRAD_BENCH_DEPS=1 (`make bench`): PyTorch and torchvision, the
# model benchmark's anchor (bench/models: ResNet-18 from torchvision, the llama
# and the training step in torch). Without them its torch column is empty.
if [ "${TINYGRAD_BENCH_DEPS:-0}" = 1 ]; then
  PKGS+=(python3-torch python3-torchvision)
fi
# The NVIDIA target needs the CUDA toolkit for libdevice (math), nvJitLink or
# ptxas (cubins) and NVRTC; Debian main has none of them, so it is not
# installed here. It is found at CUDA_PATH, CUDA_HOME or /usr/local/cuda;
# without it PTX still builds, and the tests that need it are reported
# unsupported (lit) or skipped with that reason (gtest), never passed.
cuda=${CUDA_PATH:-${CUDA_HOME:-/usr/local/cuda}}
if [ -f "$cuda/nvvm/libdevice/libdevice.10.bc" ]; then
  echo "install-deps: CUDA toolkit found at $cuda"
else
  echo "install-deps: no CUDA toolkit at $cuda (NVIDIA math, cubins and NVRTC tests will not run)"
fi
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
