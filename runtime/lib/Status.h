//===- Status.h - error reporting inside the runtime ------------*- C++ -*-===//
//
// Internal functions return a Status: TGRT_OK, or a code whose message has
// already been stored as the calling thread's last error. Public entry points
// run their body through apiCall(), which also turns any escaping C++
// exception into a status, so nothing but a tgrt_status leaves the library.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_STATUS_H
#define TGRT_LIB_STATUS_H

#include "tinygrad-rt/runtime.h"

#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <system_error>

namespace tgrt {

using Status = tgrt_status;

/// Records `message` as this thread's last error and returns `code`.
Status fail(Status code, std::string message);
/// printf-style fail().
Status failf(Status code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/// Runs `body` (returning Status) and converts exceptions into a status.
template <typename Fn> Status apiCall(const char *function, Fn &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return failf(TGRT_OUT_OF_MEMORY, "%s: out of memory", function);
  } catch (const std::system_error &e) {
    return failf(TGRT_INTERNAL, "%s: system error: %s", function, e.what());
  } catch (const std::exception &e) {
    return failf(TGRT_INTERNAL, "%s: %s", function, e.what());
  } catch (...) {
    return failf(TGRT_INTERNAL, "%s: unknown exception", function);
  }
}

/// The integer a C caller passed for an enum parameter. C allows any int
/// there, while loading an out-of-range value through the C++ enum type is
/// undefined, so enum parameters are read through this.
template <typename Enum> int enumValue(const Enum &e) {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are int-sized here");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

} // namespace tgrt

#define TGRT_RETURN_IF_ERROR(expr)                                                                 \
  do {                                                                                             \
    ::tgrt::Status tgrt_status_ = (expr);                                                          \
    if (tgrt_status_ != TGRT_OK)                                                                   \
      return tgrt_status_;                                                                         \
  } while (0)

#endif // TGRT_LIB_STATUS_H
