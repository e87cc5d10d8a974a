/* Runs a tensor program written ahead of time (tinygrad-run --emit=aot -o DIR/prog) with the runtime
   alone: the inputs' bytes come from argv[1] (the first prog_inputs in order, as aot-io.py writes the
   record's; the buffers the program creates follow them and are not filled), the
   program runs twice on a fresh CPU device, and the outputs' bytes go to argv[2] (in prog_outputs
   order). */
#include "prog.h"

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, tgrt_status s, const char *message) {
  fprintf(stderr, "%s: %s: %s\n", what, tgrt_status_string(s), message ? message : tgrt_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  tgrt_device *dev = NULL;
  tgrt_status s = tgrt_device_open("CPU", NULL, &dev);
  if (s != TGRT_OK)
    return fail("tgrt_device_open", s, NULL);
  prog_program p;
  if ((s = prog_create(dev, &p)) != TGRT_OK)
    return fail("prog_create", s, NULL);
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
  if (!in || !out)
    return 2;
  for (unsigned i = 0; i < prog_NUM_INPUTS; ++i) {
    const prog_tensor *t = &prog_inputs[i];
    char *bytes = malloc(t->bytes + 1);
    size_t got = fread(bytes, 1, t->bytes, in);
    if (got == 0 && feof(in)) { /* the record's inputs are done */
      free(bytes);
      break;
    }
    if (got != t->bytes)
      return fail("reading the inputs", TGRT_OUT_OF_RANGE, "a short input");
    if ((s = tgrt_buffer_copy_in(p.storage[t->storage], t->offset, bytes, t->bytes)) != TGRT_OK)
      return fail("tgrt_buffer_copy_in", s, NULL);
    free(bytes);
  }
  const char *message = NULL;
  for (int run = 0; run < 2; ++run)
    if ((s = prog_run(&p, 60000, &message)) != TGRT_OK)
      return fail("prog_run", s, message);
  for (unsigned i = 0; i < prog_NUM_OUTPUTS; ++i) {
    const prog_tensor *t = &prog_outputs[i];
    char *bytes = malloc(t->bytes + 1);
    if ((s = tgrt_buffer_copy_out(p.storage[t->storage], t->offset, bytes, t->bytes)) != TGRT_OK)
      return fail("tgrt_buffer_copy_out", s, NULL);
    fwrite(bytes, 1, t->bytes, out);
    free(bytes);
  }
  fclose(in);
  fclose(out);
  prog_destroy(&p);
  tgrt_device_close(dev);
  printf("ran %d kernels' programs, %d inputs, %d outputs\n", prog_NUM_PROGRAMS, prog_NUM_INPUTS, prog_NUM_OUTPUTS);
  return 0;
}
