//===- Internal.h - what the C API's handles are --------------*- C++ -*-===//
//
// A tgc_context owns an MLIRContext and a mutex; modules and kernels hold a
// shared_ptr to it, so handles can be released in any order. Every entry
// point runs through apiCall(): it takes the context's lock, captures the
// context's diagnostics into the thread's last error and turns any escaping
// C++ exception into a status.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_CAPI_INTERNAL_H
#define TINYGRAD_LIB_CAPI_INTERNAL_H

#include "tinygrad-c/tinygrad.h"
#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/Execution/TensorProgram.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct tgc_context {
  std::shared_ptr<struct TgcContextImpl> impl;
};

struct TgcContextImpl {
  TgcContextImpl();
  std::recursive_mutex mutex;
  mlir::MLIRContext mlir;
  /// Every kernel compiled in this context shares its pass pipelines (one
  /// per target).
  mlir::tinygrad::KernelCompiler compiler{&mlir};
};

struct tgc_module {
  std::shared_ptr<TgcContextImpl> ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

// A compiled kernel holds no MLIR objects, so it needs no context.
struct tgc_kernel {
  mlir::tinygrad::CompiledKernel kernel;
  uint32_t format = TGRT_FORMAT_ELF;
  int64_t globalSize[3] = {1, 1, 1}, localSize[3] = {1, 1, 1};
  std::string globalSizeExpr[3], localSizeExpr[3];
  std::vector<const char *> varNames, varDTypes;
  std::string phases; ///< TGC_TEXT_PHASES
};

// The interning context outlives the program whose UOps it holds
// (members are destroyed in reverse order).
struct tgc_program {
  std::shared_ptr<TgcContextImpl> ctx;
  std::unique_ptr<mlir::tinygrad::sym::Context> sym;
  std::unique_ptr<mlir::tinygrad::exec::TensorProgram> program;
  std::vector<int64_t> bufferElements; // tgc_tensor_info.shape of each buffer
};

namespace tgc {

/// "cuda:sm_90:ptx" -> ("cuda:sm_90", "ptx"): the emit kind a CUDA target
/// string may end with (tgc_compile_kernel); "" when it names none.
std::pair<llvm::StringRef, llvm::StringRef> splitEmitKind(llvm::StringRef target);

/// Held by a GPU target's compile (its LLVM back end and serialization run
/// one kernel at a time per process), by BEAM and by tgc_program's
/// compiles. A CPU kernel's tgc_compile_kernel does not take it: the host's
/// back end is per thread (CPUTarget.cpp's thread_local target machine and
/// object pipeline).
std::mutex &compileMutex();

/// CompileOptions::afterPass calling a C tgc_ir_callback with the
/// printed module.
std::function<void(llvm::StringRef, mlir::ModuleOp)> moduleIRCallback(tgc_ir_callback fn, void *user);

/// fail(TGC_INVALID_ARGUMENT, ...) for a struct of another api_version.
tgc_status badVersion(const char *function, uint32_t got);

/// Records `message` as this thread's last error and returns `code`.
tgc_status fail(tgc_status code, std::string message);

/// Collects the diagnostics emitted on a context while it is alive, as
/// "location: error: message" lines (notes included).
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &ctx);
  ~DiagnosticCapture();
  /// fail(code, what + the captured diagnostics).
  tgc_status fail(tgc_status code, const std::string &what);

private:
  mlir::MLIRContext &ctx;
  uint64_t handlerId;
  std::string text;
};

/// The SINK of the kernel AST in `module` (its context's lock held), once
/// tinygrad's spec accepts it; a failed status (diagnostics in `diags`)
/// otherwise. `function` names the caller in the message.
tgc_status kernelRoot(tgc_module *module, DiagnosticCapture &diags, const char *function, mlir::Value &root);

/// The handle of kernel `k`, compiled for `target`: its launch dims (a GPU
/// kernel's as exported, the CPU's core_id over its threads), phases and
/// variable names.
tgc_kernel *kernelHandle(mlir::tinygrad::CompiledKernel k, const mlir::tinygrad::TargetDescription &target);

/// Runs `body` and converts exceptions into a status.
template <typename Fn> tgc_status apiCall(const char *function, Fn &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TGC_INTERNAL, std::string(function) + ": out of memory");
  } catch (const std::exception &e) {
    return fail(TGC_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(TGC_INTERNAL, std::string(function) + ": unknown exception");
  }
}

/// Registers the passes tgc_module_run_pipeline can name (once per process).
void registerPasses();

/// A malloc'ed NUL-terminated copy for a char ** out-parameter.
tgc_status copyOut(const std::string &s, char **out);

} // namespace tgc

#endif
