/* bfloat16 conversions, which clang lowers to compiler-rt calls
   (__truncsfbf2, __truncdfbf2) on CPUs without AVX512-BF16. */
void to_bf16(unsigned short *restrict out, const float *restrict a, const double *restrict d) {
  for (int i = 0; i < 8; i++) {
    __bf16 b = (__bf16)a[i];
    __builtin_memcpy(&out[i], &b, 2);
    __bf16 c = (__bf16)d[i];
    __builtin_memcpy(&out[8 + i], &c, 2);
  }
}
