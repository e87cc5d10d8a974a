//===- VerifySpec.cpp - tinygrad's phase specs as a pass ------------------===//
//
// A spec is an ordered rule list, exactly like tinygrad's PatternMatcher
// specs: the first rule that has an opinion (accept or reject) decides, and a
// UOp no rule accepts is rejected. Per-op invariants that hold in every phase
// (operand dtypes, shapes, arg forms) are the op verifiers; this pass adds
// the rules that depend on where in the pipeline a graph is.
//
// CHECK_OOB (z3 proofs of index bounds) is off by default in tinygrad;
// validate_index therefore accepts, as it does there.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/DenseSet.h"
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Transforms/Passes.h"

#include "llvm/Support/InterleavedRange.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_VERIFYSPEC
#include "tinygrad/Transforms/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

namespace {

/// A rule's opinion: accept, reject (with a reason), or no opinion.
struct Verdict {
  enum Kind { None, Accept, Reject } kind = None;
  std::string why;
  static Verdict none() { return {}; }
  static Verdict accept() { return {Accept, ""}; }
  static Verdict reject(std::string why) { return {Reject, std::move(why)}; }
  static Verdict ok(bool b, std::string why) {
    return b ? accept() : reject(std::move(why));
  }
};

struct Rule {
  const char *name;
  Verdict (*check)(Operation *op);
};

//===----------------------------------------------------------------------===//
// Helpers in tinygrad's vocabulary
//===----------------------------------------------------------------------===//

StringRef uop(Operation *op) {
  return op ? getTinygradOpName(op->getName().getStringRef()) : StringRef();
}
StringRef uop(Value v) { return uop(v.getDefiningOp()); }
bool is(Operation *op, std::initializer_list<StringRef> names) {
  StringRef n = uop(op);
  return llvm::is_contained(names, n);
}
bool is(Value v, std::initializer_list<StringRef> names) {
  return is(v.getDefiningOp(), names);
}
std::optional<DType> dtypeOf(Value v) { return getDType(v.getType()); }
std::optional<DType> dtypeOf(Operation *op) {
  return dtypeOf(op->getResult(0));
}
bool isMovement(Operation *op) {
  return is(op, {"RESHAPE", "EXPAND", "PERMUTE", "PAD", "SHRINK", "FLIP"});
}
bool isMovement(Value v) { return isMovement(v.getDefiningOp()); }
bool isALU(Operation *op) {
  return is(op, {"EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL", "NEG", "TRUNC",
                 "ADD", "MUL", "SHL", "SHR", "CDIV", "MAX", "CMOD", "CMPLT",
                 "CMPNE", "CMPEQ", "XOR", "OR", "AND", "THREEFRY", "SUB",
                 "FDIV", "POW", "FLOORDIV", "FLOORMOD", "WHERE", "MULACC"});
}
ParamAttr paramArg(Operation *op) {
  if (auto p = dyn_cast<ParamOp>(op))
    return p.getArg();
  if (auto b = dyn_cast<BufferOp>(op))
    return b.getArg();
  return {};
}
bool hasShapeSrc(Operation *op) { return op->getNumOperands() == 1; }
bool isDeviceAttr(Attribute a) {
  if (!a) // deviceless (e.g. a BUFFER whose ParamArg has no device)
    return false;
  auto isStr = [](Attribute x) { return isa<StringAttr>(x); };
  auto arr = dyn_cast_or_null<ArrayAttr>(a);
  return isStr(a) || (arr && llvm::all_of(arr, isStr));
}
/// tinygrad's is_variable: an ALU storage node with a value range.
bool isVariable(Operation *op) {
  ParamAttr arg = op ? paramArg(op) : ParamAttr();
  return arg && arg.getAddrspace() == AddrSpace::ALU && arg.getVminVmax();
}
/// Derived device (tinygrad's UOp.device), null when deviceless.
Attribute deviceOf(Value v, int depth = 0) {
  Operation *op = v.getDefiningOp();
  if (!op || depth > 64)
    return {};
  if (ParamAttr arg = paramArg(op))
    return arg.getDevice();
  if (auto c = dyn_cast<tgt::CopyOp>(op))
    return c.getDevice();
  if (auto a = dyn_cast<tgt::AllReduceOp>(op))
    return a.getDevice();
  if (auto m = dyn_cast<tgt::MSelectOp>(op)) {
    auto devs = dyn_cast_or_null<ArrayAttr>(deviceOf(m.getSrc(), depth + 1));
    return devs && m.getIndex() < devs.size() ? devs[m.getIndex()] : Attribute();
  }
  if (auto m = dyn_cast<tgt::MStackOp>(op)) {
    SmallVector<Attribute> devs;
    for (Value s : m.getSrcs())
      devs.push_back(deviceOf(s, depth + 1));
    if (llvm::any_of(devs, [](Attribute a) { return !a; }))
      return {};
    return ArrayAttr::get(op->getContext(), devs);
  }
  for (Value s : op->getOperands())
    if (Attribute d = deviceOf(s, depth + 1))
      return d;
  return {};
}
/// INDEX/SHRINK, possibly under a CAST (UPat.or_casted()).
bool isIndexLike(Value v) {
  if (is(v, {"CAST"}))
    v = v.getDefiningOp()->getOperand(0);
  return is(v, {"INDEX", "SHRINK"});
}

//===----------------------------------------------------------------------===//
// spec_shared
//===----------------------------------------------------------------------===//

const Rule kShared[] = {
    {"spec_shared.sink", [](Operation *op) {
       return is(op, {"SINK"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.noop", [](Operation *op) {
       return is(op, {"NOOP"}) ? Verdict::accept() : Verdict::none();
     }},
    // CONST, STACK and the ALU dtype rules are op invariants (verifiers).
    {"spec_shared.const", [](Operation *op) {
       return is(op, {"CONST"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.stack", [](Operation *op) {
       return is(op, {"STACK"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.alu", [](Operation *op) {
       if (!isALU(op))
         return Verdict::none();
       // The op verifier lets a float transcendental of another dtype
       // through for spec_tensor; outside it operands match the result.
       if (is(op, {"SIN", "LOG2", "EXP2", "SQRT", "RECIPROCAL"})) {
         Value x = op->getOperand(0);
         bool ok = getElementTypeOrSelf(x.getType()) == getElementTypeOrSelf(op->getResult(0).getType()) ||
                   isWeakType(x.getType()) || isInvalidValue(x);
         return Verdict::ok(ok, "operand #0 must have the result dtype or be weak");
       }
       return Verdict::accept();
     }},
    {"spec_shared.cast", [](Operation *op) {
       return is(op, {"CAST", "BITCAST"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.range", [](Operation *op) {
       return is(op, {"RANGE"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.index", [](Operation *op) {
       return is(op, {"INDEX"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.end", [](Operation *op) {
       if (!is(op, {"END"}))
         return Verdict::none();
       auto ranges = op->getOperands().drop_front();
       if (llvm::all_of(ranges, [](Value r) { return is(r, {"RANGE"}); }))
         return Verdict::accept();
       // END(body, RANGE(void), cond:bool): a loop back-edge.
       if (ranges.size() == 2 && is(ranges[0], {"RANGE"}) &&
           isVoidType(ranges[0].getType()) && isBoolType(ranges[1].getType()))
         return Verdict::accept();
       return Verdict::none();
     }},
    {"spec_shared.param", [](Operation *op) {
       return is(op, {"PARAM"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.buffer", [](Operation *op) {
       if (!is(op, {"BUFFER"}) || !hasShapeSrc(op))
         return Verdict::none();
       auto as = paramArg(op).getAddrspace();
       return Verdict::ok(as == AddrSpace::Reg || as == AddrSpace::Local,
                          "a BUFFER here must be REG or LOCAL scratch");
     }},
    {"spec_shared.group", [](Operation *op) {
       if (!is(op, {"GROUP"}))
         return Verdict::none();
       bool ok = llvm::all_of(op->getOperands(), [](Value v) {
         return is(v, {"GROUP", "STORE", "NOOP", "INS", "END"});
       });
       return ok ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.after", [](Operation *op) {
       if (!is(op, {"AFTER"}))
         return Verdict::none();
       Value src = op->getOperand(0);
       if (!(isMovement(src) ||
             is(src, {"PARAM", "BUFFER", "CONTIGUOUS", "INDEX", "AFTER",
                      "UNSHARD", "BITCAST", "INS"})))
         return Verdict::none();
       return Verdict::ok(matchesDType(src, getElementTypeOrSelf(op->getResult(0).getType())),
                          "operand #0 dtype differs from the AFTER's");
     }},
    {"spec_shared.custom", [](Operation *op) {
       return is(op, {"CUSTOM", "CUSTOMI"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.call", [](Operation *op) {
       if (!is(op, {"CALL"}) || isVoidType(op->getOperand(0).getType()))
         return Verdict::none();
       return Verdict::ok(dtypeOf(op->getOperand(0)) == DType::UInt64,
                          "operand #0 (function address) must be uint64");
     }},
    {"spec_shared.barrier", [](Operation *op) {
       return is(op, {"BARRIER"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.ins", [](Operation *op) {
       return is(op, {"INS"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.load", [](Operation *op) {
       if (!is(op, {"LOAD"}) || !isIndexLike(op->getOperand(0)))
         return Verdict::none();
       return Verdict::accept(); // validate_index: CHECK_OOB=0
     }},
    {"spec_shared.store", [](Operation *op) {
       if (!is(op, {"STORE"}))
         return Verdict::none();
       if (isIndexLike(op->getOperand(0)))
         return Verdict::accept();
       // Tensor graph: STORE(target, value) into any target.
       return op->getNumOperands() == 2 ? Verdict::accept() : Verdict::none();
     }},
    {"spec_shared.wmma", [](Operation *op) {
       return is(op, {"WMMA"}) ? Verdict::accept() : Verdict::none();
     }},
};

/// MSELECT(x): x is multi-device and the index is in range.
Verdict checkMSelect(Operation *op) {
  auto m = dyn_cast<tgt::MSelectOp>(op);
  if (!m)
    return Verdict::none();
  auto devs = dyn_cast_or_null<ArrayAttr>(deviceOf(m.getSrc()));
  return Verdict::ok(devs && m.getIndex() < devs.size(),
                     "the source must be multi-device with more than "
                     "`index` devices");
}

/// MSTACK: every source on one device, or all the same deviceless value.
Verdict checkMStack(Operation *op) {
  auto m = dyn_cast<tgt::MStackOp>(op);
  if (!m)
    return Verdict::none();
  bool allStr = llvm::all_of(m.getSrcs(), [](Value s) {
    return isa_and_nonnull<StringAttr>(deviceOf(s));
  });
  bool sameDeviceless = llvm::all_equal(m.getSrcs()) && !deviceOf(m.getSrcs()[0]);
  return Verdict::ok(allStr || sameDeviceless,
                     "sources must each live on one device");
}

//===----------------------------------------------------------------------===//
// spec_tensor
//===----------------------------------------------------------------------===//

const Rule kTensor[] = {
    {"spec_tensor.transcendental", [](Operation *op) {
       if (!is(op, {"SIN", "LOG2", "EXP2", "SQRT", "RECIPROCAL"}))
         return Verdict::none();
       auto dt = dtypeOf(op);
       return Verdict::ok((dt && isFloat(*dt)) || isInvalidValue(op->getOperand(0)),
                          "result must be a float dtype");
     }},
    {"spec_tensor.buffer_global", [](Operation *op) {
       if (!is(op, {"BUFFER"}) || !hasShapeSrc(op) ||
           paramArg(op).getAddrspace() != AddrSpace::Global)
         return Verdict::none();
       Value shape = op->getOperand(0);
       bool weak = isVoidType(shape.getType()) ||
                   dtypeOf(shape) == DType::WeakInt || isInvalidValue(shape);
       if (!weak)
         return Verdict::reject("shape operand must be weakint");
       return Verdict::ok(isDeviceAttr(paramArg(op).getDevice()),
                          "a GLOBAL BUFFER needs a device (string or tuple)");
     }},
    {"spec_tensor.buffer_variable", [](Operation *op) {
       if (!is(op, {"BUFFER"}) || !hasShapeSrc(op) || !isVariable(op))
         return Verdict::none();
       return Verdict::ok(!paramArg(op).getDevice(),
                          "a Variable BUFFER has no device");
     }},
    {"spec_tensor.custom_function", [](Operation *op) {
       return is(op, {"CUSTOM_FUNCTION"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.call", [](Operation *op) {
       if (!is(op, {"CALL"}) || !isVoidType(op->getResult(0).getType()))
         return Verdict::none();
       Value body = op->getOperand(0);
       return is(body, {"SINK", "LINEAR", "PROGRAM", "COPY", "CUSTOM_FUNCTION"})
                  ? Verdict::accept()
                  : Verdict::none();
     }},
    {"spec_tensor.tuple", [](Operation *op) {
       return is(op, {"TUPLE", "GETTUPLE"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.special", [](Operation *op) {
       if (!is(op, {"SPECIAL"}) || dtypeOf(op->getOperand(0)) != DType::WeakInt)
         return Verdict::none();
       return Verdict::accept();
     }},
    {"spec_tensor.reshape_expand", [](Operation *op) {
       return is(op, {"RESHAPE", "EXPAND"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.pad_shrink", [](Operation *op) {
       if (!is(op, {"PAD", "SHRINK"}))
         return Verdict::none();
       return Verdict::ok(getValueInfo(op->getOperand(1).getType()).shape ==
                              getValueInfo(op->getOperand(2).getType()).shape,
                          "offsets and sizes must have the same shape");
     }},
    {"spec_tensor.permute_flip", [](Operation *op) {
       return is(op, {"PERMUTE", "FLIP"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.reduce", [](Operation *op) {
       return is(op, {"REDUCE"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.copy", [](Operation *op) {
       return is(op, {"COPY", "ALLREDUCE"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.unshard", [](Operation *op) {
       return is(op, {"UNSHARD"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.mselect", checkMSelect},
    {"spec_tensor.mstack", checkMStack},
    {"spec_tensor.contiguous", [](Operation *op) {
       if (!is(op, {"DETACH", "CONTIGUOUS", "CONTIGUOUS_BACKWARD"}) ||
           op->getAttr("arg"))
         return Verdict::none();
       return Verdict::accept();
     }},
    {"spec_tensor.stage", [](Operation *op) {
       return is(op, {"STAGE"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_tensor.program", [](Operation *op) {
       if (is(op, {"LINEAR", "SOURCE", "BINARY"}))
         return Verdict::accept();
       if (!is(op, {"PROGRAM"}))
         return Verdict::none();
       static const StringRef order[] = {"SINK", "LINEAR", "SOURCE", "BINARY"};
       auto srcs = op->getOperands();
       if (srcs.size() > 4)
         return Verdict::none();
       for (auto [i, s] : llvm::enumerate(srcs))
         if (uop(s) != order[i])
           return Verdict::none();
       return Verdict::accept();
     }},
};

//===----------------------------------------------------------------------===//
// spec_program
//===----------------------------------------------------------------------===//

const Rule kProgram[] = {
    {"spec_program.weak_const", [](Operation *op) {
       auto c = dyn_cast<ConstOp>(op);
       if (!c || !isWeakType(c.getType()))
         return Verdict::none();
       // dtypes.from_py: int -> weakint, float -> weakfloat.
       bool ok = isa<FloatAttr>(c.getValue())
                     ? dtypeOf(op) == DType::WeakFloat
                     : (isa<IntegerAttr>(c.getValue()) &&
                        !isa<BoolAttr>(c.getValue()) &&
                        dtypeOf(op) == DType::WeakInt);
       return Verdict::ok(ok, "weak CONST dtype must be from_py(value)");
     }},
    {"spec_program.no_weak", [](Operation *op) {
       return isWeakType(op->getResult(0).getType())
                  ? Verdict::reject("weak dtypes are not allowed in programs "
                                    "(only the CONST inside a CAST)")
                  : Verdict::none();
     }},
    {"spec_program.shrink_view", [](Operation *op) {
       if (!is(op, {"SHRINK"}) || !is(op->getOperand(0), {"PARAM", "BUFFER", "AFTER"}))
         return Verdict::none();
       Value size = op->getOperand(2);
       if (is(size, {"CAST"}))
         size = size.getDefiningOp()->getOperand(0);
       return is(size, {"CONST"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_program.no_movement", [](Operation *op) {
       return isMovement(op) ? Verdict::reject("movement ops are not allowed "
                                               "in programs")
                             : Verdict::none();
     }},
    {"spec_program.buffer", [](Operation *op) {
       if (!is(op, {"BUFFER"}))
         return Verdict::none();
       auto as = paramArg(op).getAddrspace();
       return Verdict::ok(as == AddrSpace::Reg || as == AddrSpace::Local,
                          "a BUFFER in a program must be REG or LOCAL");
     }},
    {"spec_program.no_invalid", [](Operation *op) {
       auto c = dyn_cast<ConstOp>(op);
       return c && isa<InvalidAttr>(c.getValue())
                  ? Verdict::reject("Invalid is not allowed in programs")
                  : Verdict::none();
     }},
    {"spec_program.if", [](Operation *op) {
       if (!is(op, {"IF"}) || !is(op->getOperand(1), {"CAST", "INDEX", "SHRINK"}))
         return Verdict::none();
       return Verdict::accept();
     }},
    {"spec_program.endif", [](Operation *op) {
       return is(op, {"ENDIF"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_program.special", [](Operation *op) {
       if (!is(op, {"SPECIAL"}) || dtypeOf(op->getOperand(0)) != DType::Int32)
         return Verdict::none();
       return Verdict::accept();
     }},
};

//===----------------------------------------------------------------------===//
// spec_hcq, spec_full extras, spec_kernel_graph
//===----------------------------------------------------------------------===//

bool isStorageOrAfter(Value v) {
  if (is(v, {"AFTER"}))
    v = v.getDefiningOp()->getOperand(0);
  return is(v, {"BUFFER", "PARAM"});
}

const Rule kHCQ[] = {
    {"spec_hcq.getaddr", [](Operation *op) {
       if (!is(op, {"GETADDR"}) || !isStorageOrAfter(op->getOperand(0)))
         return Verdict::none();
       return Verdict::accept(); // device form is an op invariant
     }},
    {"spec_hcq.program", [](Operation *op) {
       if (!is(op, {"PROGRAM"}) || op->getNumOperands() != 1 ||
           !isStorageOrAfter(op->getOperand(0)))
         return Verdict::none();
       return Verdict::accept();
     }},
};

const Rule kFullExtras[] = {
    {"spec_full.end", [](Operation *op) {
       return is(op, {"END"}) && op->getNumOperands() >= 2 ? Verdict::accept()
                                                           : Verdict::none();
     }},
    {"spec_full.after", [](Operation *op) {
       return is(op, {"AFTER"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_full.load_store", [](Operation *op) {
       return is(op, {"LOAD", "STORE"}) ? Verdict::accept() : Verdict::none();
     }},
};

const Rule kKernelGraph[] = {
    {"spec_kernel_graph.sink", [](Operation *op) {
       return is(op, {"SINK"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_kernel_graph.bind", [](Operation *op) {
       if (!is(op, {"STORE"}) || op->getNumOperands() != 2 ||
           !is(op->getOperand(0), {"BUFFER"}) || !is(op->getOperand(1), {"CONST"}))
         return Verdict::none();
       return Verdict::ok(isVariable(op->getOperand(0).getDefiningOp()),
                          "only a Variable BUFFER may be bound by a STORE");
     }},
    {"spec_kernel_graph.const", [](Operation *op) {
       return is(op, {"CONST"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_kernel_graph.stack", [](Operation *op) {
       if (!is(op, {"STACK"}))
         return Verdict::none();
       bool ok = llvm::all_of(op->getOperands(), [](Value v) {
         return is(v, {"CONST", "PARAM"}) || isVariable(v.getDefiningOp()) ||
                (is(v, {"AFTER"}) && isVariable(v.getDefiningOp()->getOperand(0).getDefiningOp()));
       });
       return ok ? Verdict::accept() : Verdict::none();
     }},
    {"spec_kernel_graph.param", [](Operation *op) {
       return is(op, {"PARAM"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_kernel_graph.buffer", [](Operation *op) {
       if (!is(op, {"BUFFER"}))
         return Verdict::none();
       auto as = paramArg(op).getAddrspace();
       return Verdict::ok(as == AddrSpace::Global || as == AddrSpace::ALU,
                          "kernel-graph BUFFERs are GLOBAL storage or ALU "
                          "variables");
     }},
    {"spec_kernel_graph.reshape_bitcast", [](Operation *op) {
       return is(op, {"RESHAPE", "BITCAST"}) ? Verdict::accept() : Verdict::none();
     }},
    {"spec_kernel_graph.mstack", checkMStack},
    {"spec_kernel_graph.mselect", checkMSelect},
    {"spec_kernel_graph.call", [](Operation *op) {
       if (!is(op, {"CALL"}) ||
           !is(op->getOperand(0), {"SINK", "LINEAR", "PROGRAM", "CUSTOM_FUNCTION"}))
         return Verdict::none();
       return Verdict::accept();
     }},
    {"spec_kernel_graph.after", [](Operation *op) {
       if (!is(op, {"AFTER"}))
         return Verdict::none();
       Value src = op->getOperand(0);
       if (!(isMovement(src) || is(src, {"PARAM", "AFTER", "BUFFER", "MSTACK",
                                         "MSELECT", "BITCAST", "RESHAPE"})))
         return Verdict::none();
       return Verdict::ok(matchesDType(src, getElementTypeOrSelf(op->getResult(0).getType())),
                          "operand #0 dtype differs from the AFTER's");
     }},
};

using RuleList = SmallVector<ArrayRef<Rule>, 8>;

std::optional<RuleList> getSpec(StringRef phase) {
  ArrayRef<Rule> shared = kShared, tensor = kTensor, program = kProgram,
                 hcq = kHCQ, extras = kFullExtras, kg = kKernelGraph;
  if (phase == "shared")
    return RuleList{shared};
  if (phase == "tensor")
    return RuleList{tensor, shared};
  if (phase == "program")
    return RuleList{program, shared};
  if (phase == "hcq")
    return RuleList{hcq, shared};
  if (phase == "kernel_graph")
    return RuleList{kg};
  if (phase == "full")
    return RuleList{extras, tensor, shared, program, shared, hcq, shared};
  return std::nullopt;
}

/// Graph nodes are the UOps; queue vocabulary (hcq.device, hcq.exec, ...)
/// and upstream ops are not part of a tinygrad graph.
bool isGraphUOp(Operation *op) {
  StringRef name = uop(op);
  return !name.empty() && name != "WAIT";
}

struct VerifySpecPass
    : public mlir::tinygrad::impl::VerifySpecBase<VerifySpecPass> {
  using VerifySpecBase::VerifySpecBase;

  void runOnOperation() override {
    auto spec = getSpec(phase);
    if (!spec) {
      getOperation()->emitError()
          << "unknown spec phase '" << phase
          << "' (expected shared, tensor, program, hcq, kernel_graph or full)";
      return signalPassFailure();
    }
    // spec_kernel_graph is checked as tinygrad checks it, with
    // enter_calls=False: a kernel's body (a CALL's first operand) is not part
    // of the kernel graph, unless the graph also reaches a node outside it.
    llvm::DenseSet<Operation *> graphOps;
    bool skipBodies = phase == "kernel_graph";
    if (skipBodies) {
      SmallVector<Operation *> stack;
      getOperation()->walk([&](Operation *op) {
        if (isGraphUOp(op) && op->use_empty())
          stack.push_back(op);
      });
      while (!stack.empty()) {
        Operation *op = stack.pop_back_val();
        if (!graphOps.insert(op).second)
          continue;
        bool isCall = uop(op) == "CALL";
        for (auto [i, v] : llvm::enumerate(op->getOperands()))
          if (Operation *def = v.getDefiningOp(); def && !(isCall && i == 0))
            stack.push_back(def);
      }
    }
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (!isGraphUOp(op) || (skipBodies && !graphOps.contains(op)))
        return;
      for (ArrayRef<Rule> rules : *spec) {
        for (const Rule &rule : rules) {
          Verdict v = rule.check(op);
          if (v.kind == Verdict::Accept)
            return;
          if (v.kind == Verdict::Reject) {
            op->emitError() << "spec_" << phase << ": " << uop(op)
                            << " violates rule '" << rule.name << "': " << v.why;
            failed = true;
            return;
          }
        }
      }
      op->emitError() << "spec_" << phase << ": no rule accepts " << uop(op)
                      << " with operands ("
                      << llvm::interleaved(llvm::map_range(
                             op->getOperands(),
                             [](Value v) { return uop(v).empty() ? StringRef("?") : uop(v); }))
                      << ") in this phase";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
