//===- Status.cpp - statuses, the thread's last error, diagnostics -------===//
#include "Internal.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

namespace {
thread_local std::string lastError;
} // namespace

tgc_status tgc::fail(tgc_status code, std::string message) {
  try {
    lastError = std::move(message);
  } catch (...) {
    lastError.clear(); // keep the code even if the message cannot be stored
  }
  return code;
}

namespace {
/// "file:line:col" like MLIR's tools print it; a node's name location as
/// its name ("node 3"); anything else in MLIR's syntax.
void printLocation(llvm::raw_ostream &os, mlir::Location loc) {
  if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(loc)) {
    os << f.getFilename().getValue() << ":" << f.getLine() << ":" << f.getColumn();
    return;
  }
  if (auto n = llvm::dyn_cast<mlir::NameLoc>(loc)) {
    os << n.getName().getValue();
    if (!llvm::isa<mlir::UnknownLoc>(n.getChildLoc())) {
      os << " (";
      printLocation(os, n.getChildLoc());
      os << ")";
    }
    return;
  }
  os << loc;
}
} // namespace

tgc::DiagnosticCapture::DiagnosticCapture(mlir::MLIRContext &ctx) : ctx(ctx) {
  handlerId = ctx.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(text);
    auto line = [&](mlir::Diagnostic &x) {
      printLocation(os, x.getLocation());
      os << ": ";
      switch (x.getSeverity()) {
      case mlir::DiagnosticSeverity::Error: os << "error: "; break;
      case mlir::DiagnosticSeverity::Warning: os << "warning: "; break;
      case mlir::DiagnosticSeverity::Note: os << "note: "; break;
      case mlir::DiagnosticSeverity::Remark: os << "remark: "; break;
      }
      os << x << "\n";
    };
    line(d);
    for (mlir::Diagnostic &n : d.getNotes())
      line(n);
    return mlir::success();
  });
}

tgc::DiagnosticCapture::~DiagnosticCapture() { ctx.getDiagEngine().eraseHandler(handlerId); }

tgc_status tgc::DiagnosticCapture::fail(tgc_status code, const std::string &what) {
  std::string msg = what;
  if (!text.empty()) {
    msg += ":\n";
    msg += text;
    while (!msg.empty() && msg.back() == '\n')
      msg.pop_back();
  }
  return tgc::fail(code, std::move(msg));
}

tgc_status tgc::copyOut(const std::string &s, char **out) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p)
    return fail(TGC_INTERNAL, "out of memory");
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = 0;
  *out = p;
  return TGC_OK;
}

extern "C" {

uint32_t tgc_api_version(void) { return TGC_API_VERSION; }

const char *tgc_status_string(tgc_status status) {
  int v;
  std::memcpy(&v, &status, sizeof v); // C may pass any int for an enum
  switch (v) {
  case TGC_OK: return "TGC_OK";
  case TGC_INVALID_ARGUMENT: return "TGC_INVALID_ARGUMENT";
  case TGC_PARSE_ERROR: return "TGC_PARSE_ERROR";
  case TGC_VERIFY_ERROR: return "TGC_VERIFY_ERROR";
  case TGC_PASS_FAILED: return "TGC_PASS_FAILED";
  case TGC_COMPILE_FAILED: return "TGC_COMPILE_FAILED";
  case TGC_RUNTIME_ERROR: return "TGC_RUNTIME_ERROR";
  case TGC_INTERNAL: return "TGC_INTERNAL";
  default: return "TGC_UNKNOWN";
  }
}

const char *tgc_last_error(void) { return lastError.c_str(); }

void tgc_string_free(char *str) { std::free(str); }

} // extern "C"
