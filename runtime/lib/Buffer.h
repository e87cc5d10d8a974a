//===- Buffer.h - buffers and views ------------------------------*- C++ -*-===//
#ifndef TGRT_LIB_BUFFER_H
#define TGRT_LIB_BUFFER_H

#include "Device.h"

struct tgrt_buffer final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x46425254; // "TRBF"
  static constexpr const char *kTypeName = "buffer";

  tgrt_buffer() : Object(kMagic, &Object::destroyAs<tgrt_buffer>) {}
  ~tgrt_buffer();

  tgrt::Ref<tgrt_device> device;
  tgrt::Ref<tgrt_buffer> parent; // set for views
  tgrt::Memory memory;           // the driver's allocation (root buffers only)
  const tgrt_buffer *root = this; // the buffer owning `memory`
  size_t offset = 0;             // of this buffer's first byte in root's memory
  uint8_t *data = nullptr;       // host address of the first byte, if mapped
  size_t size = 0;
  bool imported = false;         // memory the caller owns (tgrt_buffer_import_host)
};

namespace tgrt {
/// TGRT_OUT_OF_RANGE unless [offset, offset+size) lies inside the buffer.
Status checkRange(const tgrt_buffer *buffer, size_t offset, size_t size, const char *function,
                  const char *what);
} // namespace tgrt

#endif // TGRT_LIB_BUFFER_H
