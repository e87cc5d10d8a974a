"""tinygrad's own dispatch of the schedule bench-runtime replays, for comparison.

A TinyJit function of N kernels (x = (x * 2 + 1).contiguous(), N times, over
16 floats) on DEV=CPU: after capture, each call replays N kernels through
tinygrad's JIT. Prints TINYGRAD_US_PER_LAUNCH, the median over calls of
(call time) / (kernels the call ran), in microseconds.

usage: cd <tinygrad> && DEV=CPU PYTHONPATH=. python3 tinygrad_reference.py [kernels=200] [calls=30]
"""
import sys, time

from tinygrad import Device, Tensor, TinyJit
from tinygrad.helpers import GlobalCounters


def main():
  n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
  calls = int(sys.argv[2]) if len(sys.argv) > 2 else 30

  @TinyJit
  def step(x):
    for _ in range(n):
      x = (x * 2 + 1).contiguous()
    return x.realize()

  inputs = [Tensor.full(16, float(i)).contiguous().realize() for i in range(calls + 3)]
  dev = Device[Device.DEFAULT]
  for t in inputs[:3]:  # run, capture, first replay
    step(t)
  dev.synchronize()
  per = []
  for t in inputs[3:]:
    GlobalCounters.reset()
    t0 = time.perf_counter()
    step(t)
    dev.synchronize()
    dt = time.perf_counter() - t0
    per.append(dt * 1e6 / max(GlobalCounters.kernel_count, 1))
  kernels = GlobalCounters.kernel_count
  assert kernels == n, f"expected {n} kernels per call, tinygrad ran {kernels}"
  per.sort()
  print(f"TINYGRAD_KERNELS_PER_CALL {kernels}")
  print(f"TINYGRAD_US_PER_LAUNCH {per[len(per) // 2]:.3f}")


if __name__ == "__main__":
  main()
