//===- Passes.td - cross-dialect tinygrad passes -----------*- tablegen -*-===//
#ifndef TINYGRAD_TRANSFORMS_PASSES_TD
#define TINYGRAD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifySpec : Pass<"tg-verify-spec"> {
  let summary = "Check tinygrad's phase spec (tinygrad/uop/spec.py) on every UOp";
  let description = [{
    Runs one of tinygrad's spec matchers over every op nested under the
    anchor: rules are tried in tinygrad's order, the first rule with an
    opinion decides, and a UOp that no rule accepts is rejected. The
    diagnostic names the rule and the offending operand.

    Phases: `shared`, `tensor` (the graph handed to the scheduler and kernel
    ASTs entering codegen), `program` (after codegen), `hcq`,
    `kernel_graph` (the scheduler's output) and `full` (the union used on
    every construction at SPEC=2).
  }];
  let options = [
    Option<"phase", "phase", "std::string", /*default=*/"\"full\"",
           "spec to check: shared, tensor, program, hcq, kernel_graph, full">
  ];
}

def KernelGraph : Pass<"tg-kernel-graph", "::mlir::ModuleOp"> {
  let summary = "tinygrad's get_kernel_graph: rangeify and split a callified program into kernels";
  let description = [{
    The module's root is a callified program, `CALL(SINK(stores), *buffers)`
    (or its body SINK). Its body goes through tinygrad's get_kernel_graph on
    the interned engine: earliest rewrites, rangeify (realize map, range
    assignment, movement ops as index math), un-staging by tinygrad's cost
    rules, stage to store and the kernel split. The root is replaced by the
    kernel graph: a SINK of AFTERs over kernel `CALL(SINK(arg=KernelInfo),
    *args)`. Unsupported input is a diagnostic naming the op.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
}

class SymbolicPassBase<string name, string sum> : Pass<name> {
  let summary = sum;
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
}

def SymbolicSimple : SymbolicPassBase<"tg-symbolic-simple",
    "tinygrad's symbolic_simple: constant folding and local algebra"> {
  let description = [{
    Rewrites every UOp graph in the anchor's blocks with tinygrad's
    `symbolic_simple` rules (self/zero folding, exact constant folding, bool
    algebra, cast chains, where folding), using tinygrad's graph_rewrite
    semantics: children first, every result rewritten again to a fixed point,
    shared sub-graphs rewritten once. Graph roots are the UOp results without
    uses; the rewritten graph replaces the old one.
  }];
}

def Symbolic : SymbolicPassBase<"tg-symbolic",
    "tinygrad's sym: the full symbolic simplifier"> {
  let description = [{
    tinygrad's `sym` (symbolic_simple + commutative ordering + term
    combination, lt folding, div/mod folding, simplify_valid and cleanups)
    plus `pm_cast_weak`, with value ranges from tinygrad's vmin/vmax rules.
    Division by zero and rule cycles are reported as errors on the root.
  }];
}

def SimplifyValid : SymbolicPassBase<"tg-simplify-valid",
    "tinygrad's sym + pm_move_where_on_load + indexing_simplify: simplify gated indices"> {
  let description = [{
    Simplifies index expressions under their validity gates (tinygrad's
    `simplify_valid` / `uop_given_valid`), moves WHERE conditions into
    gated loads (`pm_move_where_on_load`) and applies codegen's
    `indexing_simplify` (gated and image index simplification).
  }];
}

def DecomposeCPU : SymbolicPassBase<"tg-decompose-cpu",
    "tinygrad's decompositions for the CPU target (xexp2, xlog2, xsin, xpow)"> {
  let description = [{
    The ops tinygrad's Clang renderer has no code for, rewritten with
    tinygrad's own decompositions (codegen/decomp/transcendental.py): EXP2,
    LOG2 and SIN of float16/32/64 become tinygrad's 1-ulp approximations
    (Payne-Hanek reduction for large sin arguments), other float dtypes go
    through float32, POW becomes xpow. Part of what tg-lower-kernel runs.
  }];
}

def DecomposeDTypes : SymbolicPassBase<"tg-decompose-dtypes",
    "tinygrad's dtype decompositions for the CPU target (fp8 emulated at half)"> {
  let description = [{
    On each kernel SINK, tinygrad's pm_dtype_decomps / pm_float_decomp
    (codegen/decomp/dtype.py) for the dtypes tinygrad's Clang renderer
    lacks: an fp8 buffer becomes uint8 storage, reads become LOAD + f2f to
    half, casts to fp8 saturate (f2f_clamp), stores narrow with f2f
    (round to nearest even, NaN kept, denormals zero), and fp8 arithmetic
    computes at half. Part of what tg-lower-kernel runs.
  }];
}

def ResolveUnshards : SymbolicPassBase<"tg-resolve-unshards",
    "tinygrad's multi_pm on a kernel: in-kernel shards resolved to the shard a range owns"> {
  let description = [{
    On each kernel SINK, tinygrad's `multi_pm` (schedule/multi.py) as
    full_rewrite_to_sink runs it first: a PARAM sharded over devices
    becomes its shard UNSHARDed over a DEVICE range, and ops on an UNSHARD
    (a fragment over a thread range) become ops on the shard: an INDEX
    takes the index within the shard the range owns (contiguous or strided
    ownership, else tinygrad's "cannot shard index" error), ALUs, movement
    ops, STACK and stores follow the sharding. What needs data from other
    shards (COPY, ALLREDUCE, resharding) is an error. Part of what
    tg-lower-kernel runs.
  }];
}

def EarlyMovementOps : SymbolicPassBase<"tg-early-movement-ops",
    "tinygrad's early movement ops: pm_mops on a kernel, views become index math"> {
  let description = [{
    On each kernel SINK, tinygrad's `pm_mops` bottom up (the "early
    movement ops" step of full_rewrite_to_sink): an INDEX of a movement op
    (RESHAPE, PERMUTE, SHRINK, PAD, EXPAND, FLIP) indexes its source with
    apply_movement_op's index math, and movement ops and INDEX move past
    AFTER and END, so hand-written kernels (`C.reshape(16, 16)[i, j]`,
    `C.after(k)[i, j]`) index their buffers as scheduled kernels do. Part of
    what tg-lower-kernel runs.
  }];
}

def AddLocalBuffers : SymbolicPassBase<"tg-add-local-buffers",
    "tinygrad's add local buffers: a kernel's STAGE becomes a LOCAL buffer, views index math"> {
  let description = [{
    On each kernel SINK, tinygrad's `pm_add_local_buffers + pm_mops` (the
    "add local buffers" step of full_rewrite_to_sink, after the opts): a
    STAGE left in the kernel becomes a BUFFER of its addrspace and shape,
    numbered from 0, filled under its ranges and read AFTER the fill
    (`buf.after(buf[rngs].store(x).end(rngs))`), and INDEXes of movement
    ops left by the opts become index math. Part of what tg-lower-kernel
    runs.
  }];
}

def DeviceToVar : SymbolicPassBase<"tg-device-to-var",
    "tinygrad's pm_device_to_var: a DEVICE range becomes the _device_num variable"> {
  let description = [{
    On each kernel SINK, tinygrad's `pm_device_to_var` (codegen/gpudims.py):
    a RANGE of axis type DEVICE becomes the variable `_device_num` in
    [0, n) (tinygrad binds it per device when it launches a multi-device
    program), and ENDs no longer close it. Part of what tg-lower-kernel runs.
  }];
}

def SplitRanges : SymbolicPassBase<"tg-split-ranges",
    "tinygrad's split ranges: a RANGE taken modulo a divisor of its size becomes two"> {
  let description = [{
    On each kernel SINK, tinygrad's `pm_split_ranges + pm_flatten_range`
    (codegen/simplify.py): a RANGE(n) used as `r % c` with c dividing n (not
    WARP/DEVICE, first modulus seen wins) becomes `r0*c + r1`, r0 of size
    n/c with ids `(..., 0)` and r1 of size c with ids `(..., 1)`; then
    simplified. Part of what tg-lower-kernel runs, before tg-apply-opts.
  }];
}

def SimplifyRanges : SymbolicPassBase<"tg-simplify-ranges",
    "tinygrad's initial symbolic and simplify ranges: merge ranges, shrink gated ones"> {
  let description = [{
    On each kernel SINK, tinygrad's "initial symbolic" (`sym +
    pm_flatten_range`) then `pm_flatten_range + pm_simplify_ranges`: two
    ranges an END closes next to each other (any two of a REDUCE), of one
    axis type and in the same reduces, merge into one when the index math
    then has no more FLOORDIV/FLOORMOD; a range every use of which is gated
    by `r < c` shrinks to c. Part of what tg-lower-kernel runs, before
    tg-apply-opts (which needs tinygrad's axes to pick tinygrad's opts).
  }];
}

def ApplyOpts : SymbolicPassBase<"tg-apply-opts",
    "tinygrad's apply_opts for the CPU: opts_to_apply, or a heuristic's opts"> {
  let description = [{
    On each kernel SINK: KernelInfo.opts_to_apply applied exactly, else the
    heuristic of `mode` (tinygrad: hand_coded_optimizations as tinygrad runs
    it for its CPU renderer; ours: our register tiles and split reduces;
    none: NOOPT). UPCAST/UNROLL/THREAD split a RANGE as tinygrad's shift_to
    does (the new range gets the next axis id and the opt's axis type);
    THREAD ranges then become the core_id variable. Part of what
    tg-lower-kernel runs. An opt that fails is an error naming it.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"ours\"",
           "whose heuristic: ours, tinygrad or none">,
    Option<"threads", "threads", "unsigned", /*default=*/"2",
           "cores available (tinygrad's global_max)">
  ];
}

def CPUThreads : SymbolicPassBase<"tg-cpu-threads",
    "The THREAD opt of tinygrad's CPU heuristics (core_id over the outer axis)"> {
  let description = [{
    On each kernel SINK: the first WEAK axis divisible by the largest thread
    count in {32,16,12,8,6,5,4,3,2} not above `threads` (about 128K ops per
    thread) becomes `core_id * (n/T) + RANGE(n/T)`, core_id a variable in
    [0, T). Outputs are computed the same way; tagged ASTs, kernels with a
    core_id already and symbolic sizes are left alone. Part of what
    tg-lower-kernel runs.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"2",
           "cores available (tinygrad's global_max)">
  ];
}

def TestPrintIntRanges : Pass<"tg-test-print-int-ranges"> {
  let summary = "Test: print upstream IntegerRangeAnalysis results as remarks";
  let description = [{
    Runs upstream's `IntegerRangeAnalysis` (with `DeadCodeAnalysis` and
    `SparseConstantPropagation`, as upstream's TestIntRangeInference does)
    over the anchor and emits, for each op result with a known integer
    range, a remark `int range [lo, hi] : <type>` (bounds signed for weakint
    and si*, unsigned for ui* and bool) followed by the full
    ConstantIntRanges. Our ops implement InferIntRangeInterface with
    tinygrad's vmin/vmax (lib/Symbolic/IntRanges.cpp), so this checks those
    rules through the upstream dataflow framework.
  }];
}

def Callify : Pass<"tg-callify", "::mlir::ModuleOp"> {
  let summary = "tinygrad's transform_to_call: a tensor graph SINK becomes CALL(SINK(assigns), *buffers)";
  let description = [{
    The module's root is the tensor graph tinygrad hands its scheduler (a
    SINK of the tensors to realize). Every realized value gets a buffer and
    a store (`buf.after(buf.store(x))`), input buffers, buffer views and
    bound variables become positional PARAMs inside the body and the real
    buffers the CALL's arguments (the normalized form the schedule cache
    keys on). Fresh buffers are numbered after the program's. Unsupported
    input (precompiled FUNCTIONs, DISK devices, multi-device views) is a
    diagnostic.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect", "::mlir::tinygrad::tgt::TGTDialect", "::mlir::tinygrad::tgk::TGKDialect"];
}

def CreateSchedule : Pass<"tg-create-schedule", "::mlir::ModuleOp"> {
  let summary = "tinygrad's create_schedule: a kernel graph becomes a LINEAR of kernel CALLs";
  let description = [{
    The module's root is a kernel graph (a SINK of AFTERs over kernel
    CALLs). Kernels are ordered by their buffer states: a kernel runs after
    the kernels that produced the states it reads (RAW) and before the write
    that supersedes a state it reads (WAR), in Kahn order with tinygrad's
    tie-breaking. A cycle is a diagnostic naming the buffers.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect", "::mlir::tinygrad::tgt::TGTDialect", "::mlir::tinygrad::tgk::TGKDialect", "::mlir::tinygrad::hcq::HCQDialect"];
}

def Schedule : Pass<"tg-schedule", "::mlir::ModuleOp"> {
  let summary = "tensor graph -> LINEAR over buffers: callify, kernel graph, create_schedule, resolve, copies, memory planning";
  let description = [{
    tinygrad's create_linear_with_vars on the module's root tensor graph:
    tg-callify, tg-kernel-graph, tg-create-schedule, then resolve_linear_call
    (PARAMs to the program's buffers, fresh intermediates, bound variables),
    pm_copy_from_store and memory planning (intermediates whose lifetimes do
    not overlap share an arena). The root becomes the final LINEAR; the
    planned and unplanned peak bytes are remarks on it.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect", "::mlir::tinygrad::tgt::TGTDialect", "::mlir::tinygrad::tgk::TGKDialect", "::mlir::tinygrad::hcq::HCQDialect"];
}

#endif
