/* Kernels that take tinygrad's core_id as their last argument. */

/* 8 threads x 128 elements: each thread squares its own slice. */
void square_slices(float *restrict out, const float *restrict a, const int core_id) {
  for (int i = 0; i < 128; i++) out[core_id * 128 + i] = a[core_id * 128 + i] * a[core_id * 128 + i];
}

/* Counts how often each id runs. */
void count_ids(int *restrict hits, const int core_id) { __atomic_fetch_add(&hits[core_id], 1, __ATOMIC_RELAXED); }

/* A rendezvous: every thread arrives, then spins until all nthreads have
   arrived (or gives up after a bounded spin). Only a parallel launch passes:
   sequential calls would leave the first one alone at the barrier. */
void rendezvous(int *restrict state, const int nthreads, const int core_id) {
  __atomic_fetch_add(&state[0], 1, __ATOMIC_SEQ_CST);
  long spins = 0;
  while (__atomic_load_n(&state[0], __ATOMIC_SEQ_CST) < nthreads && spins < 4000000000L) {
    __builtin_ia32_pause();
    spins++;
  }
  state[1 + core_id] = __atomic_load_n(&state[0], __ATOMIC_SEQ_CST) >= nthreads ? 1 : -1;
}
