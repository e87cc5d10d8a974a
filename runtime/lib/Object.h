//===- Object.h - reference-counted runtime objects -------------*- C++ -*-===//
//
// Every handle in the C API points at a tgrt::Object: a per-type magic
// number plus an intrusive atomic reference count, so that a NULL or mistyped
// handle is reported instead of dereferenced further. The caller's handle is
// one reference; objects that depend on another (a view on its parent, a
// queued command on its buffers) hold their own.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_OBJECT_H
#define TGRT_LIB_OBJECT_H

#include "Status.h"

#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tgrt {

/// Base of every handle type. Deliberately not polymorphic: the magic is the
/// first word of every handle, so a mistyped handle can be recognised by
/// reading it, and release() destroys through a per-type function.
class Object {
public:
  template <typename T> static void destroyAs(Object *o) { delete static_cast<T *>(o); }

  Object(uint32_t magic, void (*destroy)(Object *)) : magic_(magic), destroy_(destroy) {}
  ~Object() { magic_ = 0; }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      destroy_(this);
  }
  uint32_t magic() const { return magic_; }

private:
  uint32_t magic_;
  std::atomic<uint32_t> refs_{1};
  void (*destroy_)(Object *);
};

/// An owning pointer that retains on copy and releases on destruction.
template <typename T> class Ref {
public:
  Ref() = default;
  /// Adopts a reference the caller already holds (e.g. a fresh object).
  static Ref adopt(T *p) {
    Ref r;
    r.p_ = p;
    return r;
  }
  /// Takes a new reference to p.
  static Ref share(T *p) {
    if (p)
      p->retain();
    return adopt(p);
  }
  Ref(const Ref &o) : p_(o.p_) {
    if (p_)
      p_->retain();
  }
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_)
      p_->release();
  }
  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  /// Gives up ownership without releasing.
  T *leak() { return std::exchange(p_, nullptr); }

private:
  T *p_ = nullptr;
};

/// Checks a handle argument: non-NULL and of type T (T::kMagic).
template <typename T> Status checkHandle(const T *h, const char *function, const char *what) {
  if (!h)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %s is NULL", function, what);
  if (h->magic() != T::kMagic)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %s is not a valid %s handle (released?)", function,
                 what, T::kTypeName);
  return TGRT_OK;
}

/// Checks an out-pointer argument.
inline Status checkOut(const void *p, const char *function, const char *what) {
  if (!p)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %s is NULL", function, what);
  return TGRT_OK;
}

/// A whole query entry point: checks the handle and the out-pointer, then
/// stores get(*handle) through `out`.
template <typename H, typename T, typename Get>
Status apiQuery(const char *function, H *handle, T *out, const char *outName, Get get) noexcept {
  return apiCall(function, [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(handle, function, std::remove_const_t<H>::kTypeName));
    TGRT_RETURN_IF_ERROR(checkOut(out, function, outName));
    *out = get(*handle);
    return TGRT_OK;
  });
}

/// A whole release entry point: drops the caller's reference.
template <typename H> Status apiRelease(const char *function, H *handle) noexcept {
  return apiCall(function, [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(handle, function, H::kTypeName));
    handle->release();
    return TGRT_OK;
  });
}

} // namespace tgrt

#endif // TGRT_LIB_OBJECT_H
