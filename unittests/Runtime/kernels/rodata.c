/* A lookup table in .rodata and float constants that -O2 puts in a
   .rodata.cst* pool; both are reached with R_X86_64_PC32. */
static const int table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
void lookup(float *restrict out, const float *restrict a) {
  for (int i = 0; i < 64; i++) out[i] = a[i] * 1.2345f + (float)table[(i * 7) & 15] - 0.375f;
}
