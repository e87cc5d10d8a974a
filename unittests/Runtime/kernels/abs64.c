/* A writable table of absolute pointers (R_X86_64_64 in .data) and two
   global entry points, to select one by name. */
static float one = 1.0f, two = 2.0f;
float *slots[2] = {&one, &two};
void first(float *restrict out) { out[0] = *slots[0]; }
void second(float *restrict out) { out[0] = *slots[1] + *slots[0]; }
