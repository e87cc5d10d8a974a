/*
 * tgrt-devices NAME...: opens each device ("CPU", "VULKAN:0", "CUDA:0",
 * "AMD:0") through the runtime's C API and prints tgrt_device_query's
 * answer, or the status and message when the device cannot be opened.
 * Exits 0 when every device opened, 1 otherwise. Plain C and the runtime
 * only: it runs where the compiler is absent (the device half of
 * scripts/device-check.sh).
 */
#include "tinygrad-rt/runtime.h"

#include <stdio.h>

static int show(const char *name) {
  tgrt_device *dev = NULL;
  tgrt_status s = tgrt_device_open(name, NULL, &dev);
  if (s != TGRT_OK) {
    printf("%s: %s: %s\n", name, tgrt_status_string(s), tgrt_last_error());
    return 1;
  }
  tgrt_device_info info = {0};
  info.api_version = TGRT_API_VERSION;
  s = tgrt_device_query(dev, &info);
  if (s != TGRT_OK) {
    printf("%s: query failed: %s: %s\n", name, tgrt_status_string(s), tgrt_last_error());
    tgrt_device_close(dev);
    return 1;
  }
  printf("%s: driver=%s arch=%s description=\"%s\" features=0x%x\n", name, info.driver, info.arch,
         info.description, info.features);
  printf("  max_workgroup_size=%ux%ux%u max_workgroup_invocations=%u max_workgroup_count=%ux%ux%u\n",
         info.max_workgroup_size[0], info.max_workgroup_size[1], info.max_workgroup_size[2],
         info.max_workgroup_invocations, info.max_workgroup_count[0], info.max_workgroup_count[1],
         info.max_workgroup_count[2]);
  printf("  shared_memory_bytes=%u subgroup_size=%u buffer_offset_alignment=%u\n",
         info.shared_memory_bytes, info.subgroup_size, info.buffer_offset_alignment);
  s = tgrt_device_close(dev);
  if (s != TGRT_OK) {
    printf("%s: close failed: %s: %s\n", name, tgrt_status_string(s), tgrt_last_error());
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int failed = 0;
  if (argc < 2) {
    fprintf(stderr, "usage: tgrt-devices NAME... (CPU, VULKAN:0, CUDA:0, AMD:0)\n");
    return 2;
  }
  for (int i = 1; i < argc; ++i)
    failed |= show(argv[i]);
  return failed;
}
