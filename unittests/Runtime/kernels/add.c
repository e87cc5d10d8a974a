/* The simplest tinygrad-shaped kernel: buffers first, then an int var. */
void add(float *restrict out, const float *restrict a, const float *restrict b, const int n) {
  for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}
