/*===- openblas-probe.c - which of OpenBLAS's kernels is its best here ----===*
 *
 *   OPENBLAS_CORETYPE=NAME openblas-probe
 *
 * OpenBLAS picks its kernel from the CPU model it recognises. A release
 * older than the CPU falls back to a generic one (0.3.21 runs Prescott, SSE3
 * only, on an AVX-512 Sapphire/Emerald Rapids part: ~23 GFLOP/s where its
 * SkylakeX kernel reaches 120-145), and a ratio against that says nothing.
 * bench/kernels/run.sh runs this under each kernel the CPU's flags allow;
 * it checks the result against a double-precision reference and prints
 * `CORENAME GFLOPS` (sgemm 1024, 1 thread, best of a few calls), or fails.
 * The bench then measures OpenBLAS with the fastest one and reports both
 * that name and the one OpenBLAS chose itself.
 *
 *===----------------------------------------------------------------------===*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

char *openblas_get_corename(void);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fill(float *x, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    x[i] = (float)((seed >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0);
  }
}

int main(void) {
  enum { N = 1024, CHECK = 96 };
  float *a = malloc(sizeof(float) * N * N), *b = malloc(sizeof(float) * N * N), *c = malloc(sizeof(float) * N * N);
  if (!a || !b || !c)
    return 2;
  fill(a, (size_t)N * N, 1);
  fill(b, (size_t)N * N, 2);
  openblas_set_num_threads(1);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, b, N, 0.0f, c, N);
  /* A wrong kernel (one the CPU mishandles) is no reference at any speed. */
  for (int i = 0; i < CHECK; ++i)
    for (int j = 0; j < CHECK; ++j) {
      int r = i * (N / CHECK), q = (j * 37) % N;
      double want = 0, mag = 0;
      for (int k = 0; k < N; ++k) {
        want += (double)a[(size_t)r * N + k] * b[(size_t)k * N + q];
        mag += fabs((double)a[(size_t)r * N + k] * b[(size_t)k * N + q]);
      }
      if (fabs(c[(size_t)r * N + q] - want) > 1e-5 * mag + 1e-6) {
        fprintf(stderr, "openblas-probe: %s: C[%d,%d] = %g, expected %g\n", openblas_get_corename(), r, q,
                c[(size_t)r * N + q], want);
        return 1;
      }
    }
  double best = 1e30;
  for (int rep = 0; rep < 8; ++rep) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, a, N, b, N, 0.0f, c, N);
    double s = now() - t0;
    best = s < best ? s : best;
  }
  printf("%s %.1f\n", openblas_get_corename(), 2.0 * N * N * N / best * 1e-9);
  free(a);
  free(b);
  free(c);
  return 0;
}
