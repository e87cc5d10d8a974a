/* Calls a function that is not on the runtime's allow-list. */
float not_a_libm_function(float);
void calls_unknown(float *restrict out) { out[0] = not_a_libm_function(out[0]); }
