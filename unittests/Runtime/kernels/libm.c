/* Calls into libm, resolved from the host process (undefined symbols). */
float expf(float);
float sqrtf(float);
void exp_kernel(float *restrict out, const float *restrict a, const int n) {
  for (int i = 0; i < n; i++) out[i] = expf(a[i]) + sqrtf(a[i] * a[i]);
}
