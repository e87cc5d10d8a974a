//===- Passes.td - lowering passes -------------------------*- tablegen -*-===//
#ifndef TINYGRAD_CONVERSION_PASSES_TD
#define TINYGRAD_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerKernel : Pass<"tg-lower-kernel", "::mlir::ModuleOp"> {
  let summary = "Lower kernel SINKs to func/scf/arith/math/memref";
  let description = [{
    Each kernel (a `tg.sink` with `#tg.kernel_info` over END/STORE/INDEX/
    RANGE/REDUCE/ALU ops) becomes a `func.func` with tinygrad's CPU calling
    convention: one memref per buffer PARAM in slot order, then one i32 per
    scalar variable. RANGE becomes `scf.for`, with every value placed in the
    outermost loop its ranges allow; REDUCE becomes an accumulator (a stack
    slot SROA promotes) updated inside its ranges; gated loads and stores
    become `scf.if`; ALU ops become arith/math with tinygrad's C semantics
    (FLOORDIV/FLOORMOD with Python rounding, MAX as `a<b ? b : a`, CAST via
    C conversions, THREEFRY decomposed as tinygrad does). In a kernel
    whose buffers exceed the host's last-level cache, whole-vector stores
    that stream along the innermost loop become non-temporal stores behind
    a test of the buffer's alignment, and the function ends with a fence.
    Large kernels are marked `tg-keep-loops` (a lean LLVM middle end, no
    unrolling), small ones `tg-scalarize` where that measured faster.
    Launch metadata is
    attached to the func (`tg.globals`, `tg.outs`, `tg.ins`, `tg.vars`,
    `tg.threads`). Before the emission the CPU target's opts run (the
    thread split of tinygrad's heuristics over `threads` cores, 0 = the
    host's) and tinygrad's transcendental decompositions.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "cores for the core_id thread split (0: the host's)">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "the target: cpu, vulkan, cuda:sm_<N> or amd:gfx<N> (a GPU target gives a gpu.module)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect", "::mlir::gpu::GPUDialect",
    "::mlir::spirv::SPIRVDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

#endif
