/* STREAM-style reference loops for bench-kernels (built with -O3 -march=native).
 *
 * add: c[i] = a[i] + b[i], STREAM's "Add". sum: a float32 sum with 64
 * independent accumulators, so that it vectorizes without -ffast-math (the
 * inner loop needs no reassociation); what a memory-bound reduction can reach
 * on one core. */
#include <stddef.h>

__attribute__((noinline)) void tg_stream_add(float *restrict c, const float *restrict a,
                                             const float *restrict b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

__attribute__((noinline)) float tg_stream_sum(const float *restrict a, size_t n) {
  float acc[64] = {0};
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    for (int j = 0; j < 64; ++j)
      acc[j] += a[i + j];
  float s = 0;
  for (int j = 0; j < 64; ++j)
    s += acc[j];
  for (; i < n; ++i)
    s += a[i];
  return s;
}
