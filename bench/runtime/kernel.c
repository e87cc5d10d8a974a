/* The bench's kernel, in tinygrad's CPU convention (buffers, then an int
   variable): small on purpose, so that a launch costs mostly the runtime. */
void bench_axpb(float *restrict out, const float *restrict in, const int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] * 2.0f + 1.0f;
}
