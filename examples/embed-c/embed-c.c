/* embed-c: compile a tinygrad kernel AST with the C API, run it with the
 * runtime, check the result.
 *
 *   embed-c [kernel.json] [k]
 *
 * kernel.json holds the AST of tinygrad's `out = in + k` (8 floats, k a
 * variable); the program prints the IR stages, tinygrad's ProgramInfo and
 * the outputs, and exits 0 only if every output is in[i] + k. */
#include <tinygrad-c/tinygrad.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_tgc(tgc_status s, const char *what) {
  if (s == TGC_OK)
    return 0;
  fprintf(stderr, "embed-c: %s: %s: %s\n", what, tgc_status_string(s), tgc_last_error());
  return 1;
}

static int check_rt(tgrt_status s, const char *what) {
  if (s == TGRT_OK)
    return 0;
  fprintf(stderr, "embed-c: %s: %s: %s\n", what, tgrt_status_string(s), tgrt_last_error());
  return 1;
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf)
    buf[n] = 0;
  *size = (size_t)n;
  return buf;
}

static void count_pass(const char *pass, const char *ir, size_t size, void *user) {
  (void)ir;
  (void)size;
  ++*(int *)user;
  if (*(int *)user == 1)
    printf("first stage: %s\n", pass);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : EMBED_KERNEL_JSON;
  int64_t k = argc > 2 ? atoll(argv[2]) : 3;
  size_t size = 0, i;
  char *json = read_file(path, &size);
  tgc_context *ctx = NULL;
  tgc_module *mod = NULL;
  tgc_kernel *kernel = NULL;
  tgc_kernel_info info;
  tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
  tgrt_device *dev = NULL;
  tgrt_program *prog = NULL;
  tgrt_buffer *bufs[2] = {NULL, NULL};
  float in[8], out[8];
  int passes = 0, bad = 0, rc = 1;

  if (!json) {
    fprintf(stderr, "embed-c: cannot read %s\n", path);
    return 1;
  }
  printf("tinygrad-c API %u (header %u)\n", tgc_api_version(), TGC_API_VERSION);
  opts.after_pass = count_pass;
  opts.user_data = &passes;
  info.api_version = TGC_API_VERSION;
  if (check_tgc(tgc_context_create(&ctx), "context") ||
      check_tgc(tgc_module_import_json(ctx, json, size, path, "ast", &mod), "import") ||
      check_tgc(tgc_compile_kernel_cpu(mod, &opts, &kernel), "compile") ||
      check_tgc(tgc_kernel_get_info(kernel, &info), "info"))
    goto done;
  printf("stages: %d\n", passes);
  printf("kernel %s: global_size [%s, %s, %s], %zu buffers, %zu vars", info.name,
         info.global_size_expr[0], info.global_size_expr[1], info.global_size_expr[2],
         info.num_globals, info.num_vars);
  for (i = 0; i < info.num_vars; ++i)
    printf(" %s (%s)", info.vars[i], info.var_dtypes[i]);
  printf("\n");
  /* tinygrad's Estimates of the kernel as compiled (-1: see *_expr) */
  printf("estimates: ops %s, lds %s, mem %s\n", info.ops_expr, info.lds_expr, info.mem_expr);
  if (info.num_globals != 2 || info.num_vars != 1 || info.global_elements[0] != 8) {
    fprintf(stderr, "embed-c: %s is not the 8-float add-k kernel\n", path);
    goto done;
  }

  for (i = 0; i < 8; ++i)
    in[i] = 0.5f * (float)i - 1.0f;
  if (check_rt(tgrt_device_open("CPU", NULL, &dev), "device") ||
      check_tgc(tgc_kernel_load(kernel, dev, &prog), "load") ||
      check_rt(tgrt_buffer_alloc(dev, sizeof out, &bufs[0]), "alloc") ||
      check_rt(tgrt_buffer_alloc(dev, sizeof in, &bufs[1]), "alloc") ||
      check_rt(tgrt_buffer_copy_in(bufs[1], 0, in, sizeof in), "copy in") ||
      check_tgc(tgc_kernel_launch(kernel, prog, bufs, 2, &k, 1), "launch") ||
      check_rt(tgrt_buffer_copy_out(bufs[0], 0, out, sizeof out), "copy out"))
    goto done;
  printf("out:");
  for (i = 0; i < 8; ++i) {
    printf(" %g", out[i]);
    bad += out[i] != in[i] + (float)k;
  }
  printf("\n%s\n", bad ? "MISMATCH" : "MATCH");
  rc = bad != 0;

done:
  if (bufs[0]) tgrt_buffer_free(bufs[0]);
  if (bufs[1]) tgrt_buffer_free(bufs[1]);
  if (prog) tgrt_program_free(prog);
  if (dev) tgrt_device_close(dev);
  if (kernel) tgc_kernel_destroy(kernel);
  if (mod) tgc_module_destroy(mod);
  if (ctx) tgc_context_destroy(ctx);
  free(json);
  return rc;
}
