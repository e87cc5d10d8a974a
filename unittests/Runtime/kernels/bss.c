/* Writable zero-initialised state: a static array in .bss (PC32) and a global
   counter that -fPIC code reaches through the GOT (REX_GOTPCRELX). */
int kernel_calls;
static float acc[16];
void accumulate(float *restrict out, const float *restrict a) {
  kernel_calls++;
  for (int i = 0; i < 16; i++) {
    acc[i] += a[i];
    out[i] = acc[i];
  }
  out[16] = (float)kernel_calls;
}
