//===- AheadOfTime.h - a tensor program as an object and a C header -*- C++ -*-===//
//
// The ahead-of-time path: a scheduled, compiled tensor program
// written as one ELF object (the schedule converted to runtime calls,
// convert-hcq-to-runtime, compiled for the host; each kernel's ELF object as
// a constant byte array) and a C header that declares it and, as static
// inline functions, creates the program's buffers and programs on a runtime
// device, runs the schedule and releases everything. A C program includes
// the header and links the object with libTinygradRuntime alone: no
// compiler at run time (test/Execution/aot-program.test).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_AHEADOFTIME_H
#define TINYGRAD_EXECUTION_AHEADOFTIME_H

#include "tinygrad/Execution/ScheduleToHCQ.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::tinygrad::exec {

/// A tensor program as the schedule sees it.
struct AOTProgram {
  func::FuncOp schedule;                ///< the hcq function (tg-schedule-to-hcq)
  std::vector<int64_t> storageBytes;    ///< allocations, by storage id
  std::vector<HCQBuffer> buffers;       ///< the schedule's buffers: ranges of storages
  std::vector<std::string> kernels;     ///< each program's ELF object
  std::vector<std::string> entries;     ///< and its entry symbol
  std::vector<std::string> vars;        ///< bound variables, in the schedule's order
  std::vector<int64_t> varValues;       ///< the values the program was built with
  /// An input or output tensor: a dense byte range of one storage.
  struct Tensor {
    unsigned storage = 0;
    int64_t offset = 0, bytes = 0;
    std::string dtype;
    std::vector<int64_t> shape;
    std::string device; ///< the tensor's device in tinygrad ("CPU", "PYTHON")
  };
  std::vector<Tensor> inputs, outputs;
  std::string source;                   ///< what it was made from, for the header's comment
};

struct AOTFiles {
  std::string object; ///< ELF relocatable object
  std::string header; ///< C99
};

/// `name` prefixes every symbol (a C identifier). Errors name what failed.
llvm::Expected<AOTFiles> emitAheadOfTime(const AOTProgram &program, llvm::StringRef name);

} // namespace mlir::tinygrad::exec

#endif // TINYGRAD_EXECUTION_AHEADOFTIME_H
