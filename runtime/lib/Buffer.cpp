//===- Buffer.cpp - allocation, views, host copies ------------------------===//

#include "Buffer.h"

#include <cstring>

using namespace tgrt;

tgrt_buffer::~tgrt_buffer() {
  if (!imported && (memory.handle || memory.host))
    device->driver->release(memory);
}

Status tgrt::checkRange(const tgrt_buffer *buffer, size_t offset, size_t size, const char *function,
                        const char *what) {
  if (offset > buffer->size || size > buffer->size - offset)
    return failf(TGRT_OUT_OF_RANGE,
                 "%s: %s range [%zu, %zu+%zu) is outside the %zu-byte buffer", function, what,
                 offset, offset, size, buffer->size);
  return TGRT_OK;
}

extern "C" {

tgrt_status tgrt_buffer_alloc(tgrt_device *device, size_t size, tgrt_buffer **out_buffer) {
  return apiCall("tgrt_buffer_alloc", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, "tgrt_buffer_alloc"));
    TGRT_RETURN_IF_ERROR(checkOut(out_buffer, "tgrt_buffer_alloc", "out_buffer"));
    Ref<tgrt_buffer> b = Ref<tgrt_buffer>::adopt(new tgrt_buffer);
    b->device = Ref<tgrt_device>::share(device);
    TGRT_RETURN_IF_ERROR(device->driver->allocate(size, b->memory));
    b->data = b->memory.host;
    b->size = size;
    *out_buffer = b.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_buffer_import_host(tgrt_device *device, void *host, size_t size,
                                    tgrt_buffer **out_buffer) {
  return apiCall("tgrt_buffer_import_host", [&]() -> Status {
    const char *fn = "tgrt_buffer_import_host";
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, fn));
    TGRT_RETURN_IF_ERROR(checkOut(out_buffer, fn, "out_buffer"));
    if (!host && size)
      return failf(TGRT_INVALID_ARGUMENT, "%s: host is NULL for %zu bytes", fn, size);
    Ref<tgrt_buffer> b = Ref<tgrt_buffer>::adopt(new tgrt_buffer);
    b->device = Ref<tgrt_device>::share(device);
    TGRT_RETURN_IF_ERROR(device->driver->importHost(host, size, b->memory));
    b->imported = true;
    b->data = b->memory.host;
    b->size = size;
    *out_buffer = b.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_buffer_view(tgrt_buffer *parent, size_t offset, size_t size, tgrt_buffer **out_view) {
  return apiCall("tgrt_buffer_view", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(parent, "tgrt_buffer_view", "parent"));
    TGRT_RETURN_IF_ERROR(checkOut(out_view, "tgrt_buffer_view", "out_view"));
    TGRT_RETURN_IF_ERROR(checkRange(parent, offset, size, "tgrt_buffer_view", "view"));
    Ref<tgrt_buffer> v = Ref<tgrt_buffer>::adopt(new tgrt_buffer);
    v->device = parent->device;
    v->parent = Ref<tgrt_buffer>::share(parent);
    v->root = parent->root;
    v->offset = parent->offset + offset;
    v->data = parent->data ? parent->data + offset : nullptr;
    v->size = size;
    *out_view = v.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_buffer_free(tgrt_buffer *buffer) { return apiRelease("tgrt_buffer_free", buffer); }

tgrt_status tgrt_buffer_size(const tgrt_buffer *buffer, size_t *out_size) {
  return apiQuery("tgrt_buffer_size", buffer, out_size, "out_size",
                  [](const tgrt_buffer &b) { return b.size; });
}

tgrt_status tgrt_buffer_host_pointer(tgrt_buffer *buffer, void **out_ptr) {
  return apiCall("tgrt_buffer_host_pointer", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(buffer, "tgrt_buffer_host_pointer", "buffer"));
    TGRT_RETURN_IF_ERROR(checkOut(out_ptr, "tgrt_buffer_host_pointer", "out_ptr"));
    if (!buffer->data)
      return failf(TGRT_UNSUPPORTED,
                   "tgrt_buffer_host_pointer: the buffer's memory on '%s' is not host-visible",
                   buffer->device->name.c_str());
    *out_ptr = buffer->data;
    return TGRT_OK;
  });
}

tgrt_status tgrt_buffer_copy_in(tgrt_buffer *buffer, size_t offset, const void *src, size_t size) {
  return apiCall("tgrt_buffer_copy_in", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(buffer, "tgrt_buffer_copy_in", "buffer"));
    if (!src && size)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_buffer_copy_in: src is NULL");
    TGRT_RETURN_IF_ERROR(checkRange(buffer, offset, size, "tgrt_buffer_copy_in", "destination"));
    if (!size)
      return TGRT_OK;
    if (!buffer->data)
      return buffer->device->driver->copyIn(buffer->root->memory, buffer->offset + offset, src, size);
    std::memmove(buffer->data + offset, src, size);
    return TGRT_OK;
  });
}

tgrt_status tgrt_buffer_copy_out(const tgrt_buffer *buffer, size_t offset, void *dst, size_t size) {
  return apiCall("tgrt_buffer_copy_out", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(buffer, "tgrt_buffer_copy_out", "buffer"));
    if (!dst && size)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_buffer_copy_out: dst is NULL");
    TGRT_RETURN_IF_ERROR(checkRange(buffer, offset, size, "tgrt_buffer_copy_out", "source"));
    if (!size)
      return TGRT_OK;
    if (!buffer->data)
      return buffer->device->driver->copyOut(buffer->root->memory, buffer->offset + offset, dst, size);
    std::memmove(dst, buffer->data + offset, size);
    return TGRT_OK;
  });
}

} // extern "C"
