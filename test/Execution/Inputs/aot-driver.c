/* Runs a tensor program written ahead of time (tinygrad-run --emit=aot -o DIR/prog) with the runtime
   alone, on a fresh CPU device: the inputs' bytes come from argv[1] (the first prog_inputs in order,
   as aot-io.py writes the record's; the buffers the program creates follow them and are not filled),
   the program runs twice, and the outputs' bytes go to argv[2] (in prog_outputs order). With argv[3]
   and argv[4], new inputs are then read from argv[3], the program runs once more (prog_run replays
   the graph prog_create recorded) and the outputs go to argv[4]. With AOT_VAR0_FIRST=v in the
   environment, the first set runs with the first bound variable set to v, the second with its
   recorded value again (prog_run patches the changed variables into the recorded graph). */
#include "prog.h"

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, tgrt_status s, const char *message) {
  fprintf(stderr, "%s: %s: %s\n", what, tgrt_status_string(s), message ? message : tgrt_last_error());
  return 1;
}

static int read_inputs(prog_program *p, const char *path) {
  FILE *in = fopen(path, "rb");
  tgrt_status s;
  if (!in)
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
    if ((s = tgrt_buffer_copy_in(p->storage[t->storage], t->offset, bytes, t->bytes)) != TGRT_OK)
      return fail("tgrt_buffer_copy_in", s, NULL);
    free(bytes);
  }
  fclose(in);
  return 0;
}

static int write_outputs(prog_program *p, const char *path) {
  FILE *out = fopen(path, "wb");
  tgrt_status s;
  if (!out)
    return 2;
  for (unsigned i = 0; i < prog_NUM_OUTPUTS; ++i) {
    const prog_tensor *t = &prog_outputs[i];
    char *bytes = malloc(t->bytes + 1);
    if ((s = tgrt_buffer_copy_out(p->storage[t->storage], t->offset, bytes, t->bytes)) != TGRT_OK)
      return fail("tgrt_buffer_copy_out", s, NULL);
    fwrite(bytes, 1, t->bytes, out);
    free(bytes);
  }
  fclose(out);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 5)
    return 2;
  tgrt_device *dev = NULL;
  tgrt_status s = tgrt_device_open("CPU", NULL, &dev);
  if (s != TGRT_OK)
    return fail("tgrt_device_open", s, NULL);
  prog_program p;
  if ((s = prog_create(dev, &p)) != TGRT_OK)
    return fail("prog_create", s, p.message[0] ? p.message : NULL);
  const char *message = NULL, *var0 = getenv("AOT_VAR0_FIRST");
  int64_t recorded0 = p.vars[0];
  int rc;
  for (int set = 0; set < (argc - 1) / 2; ++set) {
    if ((rc = read_inputs(&p, argv[1 + 2 * set])) != 0)
      return rc;
    if (var0 && prog_NUM_VARS > 0)
      p.vars[0] = set == 0 ? strtoll(var0, NULL, 10) : recorded0;
    for (int run = 0; run < (set == 0 ? 2 : 1); ++run)
      if ((s = prog_run(&p, 60000, &message)) != TGRT_OK)
        return fail("prog_run", s, message);
    if ((rc = write_outputs(&p, argv[2 + 2 * set])) != 0)
      return rc;
  }
  printf("ran %d kernels' programs, %d inputs, %d outputs, %llu launches of %u recordings\n", prog_NUM_PROGRAMS,
         prog_NUM_INPUTS, prog_NUM_OUTPUTS, (unsigned long long)p.launches, p.recordings);
  prog_destroy(&p);
  tgrt_device_close(dev);
  return 0;
}
