/* Links a schedule compiled ahead of time (convert-hcq-to-runtime, then
   LLVM) with the runtime alone and runs it: no compiler at run time. */
#include "tinygrad-rt/hcq.h"

#include <stdio.h>

void copies(tgrt_hcq_state *state, void *const *objects, const int64_t *vars);

int main(void) {
  tgrt_device *dev = NULL;
  tgrt_buffer *b[3] = {NULL, NULL, NULL};
  if (tgrt_device_open("CPU", NULL, &dev) != TGRT_OK)
    return 2;
  for (int i = 0; i < 3; ++i)
    if (tgrt_buffer_alloc(dev, 256, &b[i]) != TGRT_OK)
      return 2;
  unsigned in[64], out[64];
  for (int i = 0; i < 64; ++i)
    in[i] = 3u * i + 1u;
  tgrt_buffer_copy_in(b[0], 0, in, sizeof in);
  tgrt_hcq_state *state = NULL;
  tgrt_hcq_state_create(0, 10000, &state);
  void *objects[4] = {dev, b[0], b[1], b[2]};
  copies(state, objects, NULL);
  const char *message = NULL;
  if (tgrt_hcq_state_status(state, &message) != TGRT_OK) {
    printf("failed: %s\n", message);
    return 1;
  }
  tgrt_hcq_state_destroy(state);
  tgrt_buffer_copy_out(b[2], 0, out, sizeof out);
  int same = 1;
  for (int i = 0; i < 64; ++i)
    same &= out[i] == in[i];
  printf("%s\n", same ? "copied" : "differs");
  for (int i = 0; i < 3; ++i)
    tgrt_buffer_free(b[i]);
  tgrt_device_close(dev);
  return same ? 0 : 1;
}
