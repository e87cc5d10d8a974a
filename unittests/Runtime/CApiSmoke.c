/* Compiled as C99 (-std=c99 -pedantic-errors): the header is plain C and the
   library links from C. Returns 0 on success, else the failing step. */
#include "tinygrad-rt/runtime.h"

#include <string.h>

int tgrt_c_api_smoke(void) {
  tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
  tgrt_device *dev = NULL;
  tgrt_buffer *buf = NULL;
  tgrt_signal *sig = NULL;
  tgrt_queue *q = NULL;
  tgrt_arg arg = tgrt_arg_int(-3);
  unsigned char in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
  uint64_t value = 0;
  opts.num_threads = 2;
  if (tgrt_api_version() != TGRT_API_VERSION) return 1;
  if (arg.kind != TGRT_ARG_INT || (int64_t)arg.value != -3) return 2;
  if (tgrt_device_open("CPU", &opts, &dev) != TGRT_OK) return 3;
  if (tgrt_buffer_alloc(dev, 8, &buf) != TGRT_OK) return 4;
  if (tgrt_buffer_copy_in(buf, 0, in, 8) != TGRT_OK) return 5;
  if (tgrt_buffer_copy_out(buf, 0, out, 9) != TGRT_OUT_OF_RANGE) return 6;
  if (strlen(tgrt_last_error()) == 0) return 7;
  if (tgrt_signal_create(dev, 0, &sig) != TGRT_OK) return 8;
  /* Enum parameters may carry any int from C. */
  if (strcmp(tgrt_status_string((tgrt_status)1234), "TGRT_UNKNOWN") != 0) return 15;
  if (tgrt_queue_create(dev, (tgrt_queue_type)7, &q) != TGRT_INVALID_ARGUMENT || q) return 16;
  if (!strstr(tgrt_last_error(), "unknown queue type 7")) return 17;
  if (tgrt_queue_create(dev, TGRT_QUEUE_COPY, &q) != TGRT_OK) return 9;
  if (tgrt_queue_signal(q, sig, 1) != TGRT_OK || tgrt_queue_submit(q) != TGRT_OK) return 10;
  if (tgrt_signal_wait(sig, 1, TGRT_WAIT_INFINITE) != TGRT_OK) return 11;
  if (tgrt_signal_value(sig, &value) != TGRT_OK || value != 1) return 12;
  if (tgrt_buffer_copy_out(buf, 0, out, 8) != TGRT_OK || memcmp(in, out, 8) != 0) return 13;
  tgrt_queue_destroy(q);
  tgrt_signal_destroy(sig);
  tgrt_buffer_free(buf);
  if (tgrt_device_close(dev) != TGRT_OK) return 14;
  return 0;
}
