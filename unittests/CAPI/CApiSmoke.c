/* Compiled as C99 (-std=c99 -pedantic-errors): the header is plain C and the
   library links from C. Compiles the sum-of-256 kernel given as JSON, runs it
   and checks the sum. Returns 0 on success, else the failing step. */
#include "tinygrad-c/tinygrad.h"

int tgc_c_api_smoke(const char *json, size_t size) {
  tgc_context *ctx = NULL;
  tgc_module *mod = NULL;
  tgc_kernel *k = NULL;
  tgc_kernel_info info;
  tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
  tgrt_device *dev = NULL;
  tgrt_program *prog = NULL;
  tgrt_buffer *bufs[2] = {NULL, NULL};
  float in[256], out = 0;
  int i, rc = 0;
  for (i = 0; i < 256; ++i) in[i] = (float)i;
  opts.max_threads = 2;
  info.api_version = TGC_API_VERSION;
  if (tgc_api_version() != TGC_API_VERSION) return 1;
  if (tgc_context_create(&ctx) != TGC_OK) return 2;
  if (tgc_module_import_json(ctx, json, size, "sum_all.json", "ast", &mod) != TGC_OK) { rc = 3; goto done; }
  if (tgc_compile_kernel_cpu(mod, &opts, &k) != TGC_OK) { rc = 4; goto done; }
  if (tgc_kernel_get_info(k, &info) != TGC_OK || info.num_globals != 2 || info.num_vars != 0) { rc = 5; goto done; }
  if (tgrt_device_open("CPU", NULL, &dev) != TGRT_OK) { rc = 6; goto done; }
  if (tgc_kernel_load(k, dev, &prog) != TGC_OK) { rc = 7; goto done; }
  if (tgrt_buffer_alloc(dev, sizeof out, &bufs[0]) != TGRT_OK ||
      tgrt_buffer_alloc(dev, sizeof in, &bufs[1]) != TGRT_OK) { rc = 8; goto done; }
  if (tgrt_buffer_copy_in(bufs[1], 0, in, sizeof in) != TGRT_OK) { rc = 9; goto done; }
  if (tgc_kernel_launch(k, prog, bufs, 2, NULL, 0) != TGC_OK) { rc = 10; goto done; }
  if (tgrt_buffer_copy_out(bufs[0], 0, &out, sizeof out) != TGRT_OK) { rc = 11; goto done; }
  if (out != 255.0f * 256.0f / 2.0f) rc = 12;
done:
  if (bufs[0]) tgrt_buffer_free(bufs[0]);
  if (bufs[1]) tgrt_buffer_free(bufs[1]);
  if (prog) tgrt_program_free(prog);
  if (dev) tgrt_device_close(dev);
  if (k) tgc_kernel_destroy(k);
  if (mod) tgc_module_destroy(mod);
  tgc_context_destroy(ctx);
  return rc;
}
