/* The conformance suite's kernels for the CPU driver, with the same meaning
   as kernels/cts_*.spirv.mlir for Vulkan. The suite calls them with the
   kernel's buffers and scalars, then the thread count and tinygrad's
   core_id, so each thread takes one contiguous slice of [0, n). */

static void slice(int n, int nthreads, int core_id, int *begin, int *end) {
  int chunk = (n + nthreads - 1) / nthreads;
  *begin = core_id * chunk;
  *end = *begin + chunk < n ? *begin + chunk : n;
}

/* out[i] = a[i] + b[i] for i < n. */
void cts_add(float *out, const float *a, const float *b, const int n, const int nthreads,
             const int core_id) {
  int begin, end;
  slice(n, nthreads, core_id, &begin, &end);
  for (int i = begin; i < end; i++) out[i] = a[i] + b[i];
}

/* buf[i] = buf[i] * 3 + (lo(k) ^ hi(k)) for i < n, wrapping 32-bit. */
void cts_affine(unsigned *buf, const int n, const long long k, const int nthreads,
                const int core_id) {
  int begin, end;
  slice(n, nthreads, core_id, &begin, &end);
  unsigned kk = (unsigned)(unsigned long long)k ^ (unsigned)((unsigned long long)k >> 32);
  for (int i = begin; i < end; i++) buf[i] = buf[i] * 3u + kk;
}
