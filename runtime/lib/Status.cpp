//===- Status.cpp - thread-local last error, status names -----------------===//

#include "Status.h"

#include <cstdarg>
#include <cstdio>

namespace tgrt {
namespace {
thread_local std::string lastError;
} // namespace

Status fail(Status code, std::string message) {
  try {
    lastError = std::move(message);
  } catch (...) {
    lastError.clear(); // keep the code even if the message can't be stored
  }
  return code;
}

Status failf(Status code, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return fail(code, buf);
}

} // namespace tgrt

extern "C" {

uint32_t tgrt_api_version(void) { return TGRT_API_VERSION; }

const char *tgrt_status_string(tgrt_status status) {
  switch (tgrt::enumValue(status)) {
  case TGRT_OK: return "TGRT_OK";
  case TGRT_INVALID_ARGUMENT: return "TGRT_INVALID_ARGUMENT";
  case TGRT_OUT_OF_RANGE: return "TGRT_OUT_OF_RANGE";
  case TGRT_OUT_OF_MEMORY: return "TGRT_OUT_OF_MEMORY";
  case TGRT_NOT_FOUND: return "TGRT_NOT_FOUND";
  case TGRT_UNSUPPORTED: return "TGRT_UNSUPPORTED";
  case TGRT_INVALID_OBJECT: return "TGRT_INVALID_OBJECT";
  case TGRT_TIMEOUT: return "TGRT_TIMEOUT";
  case TGRT_ABORTED: return "TGRT_ABORTED";
  case TGRT_FAILED_PRECONDITION: return "TGRT_FAILED_PRECONDITION";
  case TGRT_INTERNAL: return "TGRT_INTERNAL";
  case TGRT_UNAVAILABLE: return "TGRT_UNAVAILABLE";
  }
  return "TGRT_UNKNOWN";
}

const char *tgrt_last_error(void) { return tgrt::lastError.c_str(); }

} // extern "C"
