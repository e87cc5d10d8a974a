/* Built without -fPIC: array indexing uses absolute R_X86_64_32S addresses,
   which the loader satisfies by mapping the image below 2 GiB. */
static const int squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};
void nopic(int *restrict out, const int *restrict idx) {
  for (int i = 0; i < 8; i++) out[i] = squares[idx[i] & 7];
}
