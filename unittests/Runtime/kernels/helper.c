/* Helpers the compiler may not inline: a static one (a direct call inside
   .text) and a global one defined after the kernel (a PLT32 to a defined
   global symbol, which tinygrad's own loader mis-patches), so the kernel
   stays at byte 0 of .text. */
float shift(float x);
static __attribute__((noinline)) float poly(float x) { return x * x * 0.5f + x * 3.0f - 2.0f; }
void kernel_with_helper(float *restrict out, const float *restrict a, const int n) {
  for (int i = 0; i < n; i++) out[i] = shift(poly(a[i]));
}
__attribute__((noinline)) float shift(float x) { return x + 0.75f; }
