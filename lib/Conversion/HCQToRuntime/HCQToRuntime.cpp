//===- HCQToRuntime.cpp - hcq ops as runtime calls in LLVM ----------------===//
//
// A direct rewrite rather than a dialect conversion: a schedule is one
// block of ops whose operands are arguments, constants or results of
// earlier ops, so each op becomes its call in order and values map 1:1.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/HCQToRuntime.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_CONVERTHCQTORUNTIME
#include "tinygrad/Conversion/HCQPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

bool isHCQType(Type t) {
  return isa<hcq::DeviceType, hcq::BufferType, hcq::ExecutableType, hcq::QueueType, hcq::SignalType>(t);
}

bool usesHCQ(func::FuncOp fn) {
  if (llvm::any_of(fn.getArgumentTypes(), isHCQType))
    return true;
  bool found = false;
  fn.walk([&](Operation *op) {
    if (isa<hcq::HCQDialect>(op->getDialect()))
      found = true;
  });
  return found;
}

class Lowering {
  ModuleOp module;
  OpBuilder b;
  Type ptr, i32, i64, voidTy;

public:
  explicit Lowering(ModuleOp module)
      : module(module), b(module.getContext()), ptr(LLVM::LLVMPointerType::get(module.getContext())),
        i32(b.getI32Type()), i64(b.getI64Type()), voidTy(LLVM::LLVMVoidType::get(module.getContext())) {}

  /// The declaration of tgrt_hcq_<name>, added once.
  LLVM::LLVMFuncOp declare(StringRef name, Type result, ArrayRef<Type> params) {
    std::string symbol = ("tgrt_hcq_" + name).str();
    if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol))
      return f;
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(module.getBody());
    return LLVM::LLVMFuncOp::create(b, module.getLoc(), symbol, LLVM::LLVMFunctionType::get(result, params));
  }

  LogicalResult convert(func::FuncOp fn) {
    if (!fn.getBody().hasOneBlock())
      return fn.emitError("convert-hcq-to-runtime: a schedule is one block");
    if (fn.getNumResults())
      return fn.emitError("convert-hcq-to-runtime: a schedule returns nothing");
    Location loc = fn.getLoc();
    b.setInsertionPoint(fn);
    auto host = LLVM::LLVMFuncOp::create(b, loc, fn.getName(),
                                         LLVM::LLVMFunctionType::get(voidTy, {ptr, ptr, ptr}));
    Block *entry = host.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value state = entry->getArgument(0), objects = entry->getArgument(1), vars = entry->getArgument(2);

    IRMapping map;
    int32_t object = 0, var = 0;
    for (BlockArgument a : fn.getArguments()) {
      Type t = a.getType();
      if (isHCQType(t)) {
        Value at = LLVM::GEPOp::create(b, loc, ptr, ptr, objects, ArrayRef<LLVM::GEPArg>{object++});
        map.map(a, LLVM::LoadOp::create(b, loc, ptr, at));
      } else if (t == i64) {
        Value at = LLVM::GEPOp::create(b, loc, ptr, i64, vars, ArrayRef<LLVM::GEPArg>{var++});
        map.map(a, LLVM::LoadOp::create(b, loc, i64, at));
      } else {
        return fn.emitError("convert-hcq-to-runtime: argument ")
               << a.getArgNumber() << " is " << t << ", not an hcq object or an i64 variable";
      }
    }
    auto constant = [&](Type t, int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
    };
    auto call = [&](StringRef name, Type result, ArrayRef<Value> args) -> Value {
      SmallVector<Type> params;
      for (Value v : args)
        params.push_back(v.getType());
      auto op = LLVM::CallOp::create(b, loc, declare(name, result, params), args);
      return result == voidTy ? Value() : op.getResult();
    };
    auto get = [&](Value v) { return map.lookup(v); };
    auto int64 = [&](Operation *op, Value v) -> FailureOr<Value> {
      if (v.getType() != i64) {
        op->emitError("convert-hcq-to-runtime: an integer operand is ") << v.getType() << ", not i64";
        return failure();
      }
      return get(v);
    };

    for (Operation &o : fn.getBody().front()) {
      Operation *op = &o;
      LogicalResult r =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case([&](arith::ConstantIntOp c) {
                map.map(c.getResult(), constant(c.getType(), c.value()));
                return success();
              })
              .Case([&](func::ReturnOp) {
                LLVM::ReturnOp::create(b, loc, ValueRange{});
                return success();
              })
              .Case([&](hcq::QueueOp q) {
                map.map(q.getResult(), call("queue", ptr,
                                            {state, get(q.getDevice()),
                                             constant(i32, q.getKind() == hcq::QueueKind::Copy ? 1 : 0)}));
                return success();
              })
              .Case([&](hcq::NewSignalOp s) {
                map.map(s.getResult(), call("new_signal", ptr,
                                            {state, get(s.getDevice()), constant(i64, s.getValue())}));
                return success();
              })
              .Case([&](hcq::ExecOp x) { return lowerExec(x, state, map, constant, call); })
              .Case([&](hcq::CopyOp c) {
                call("copy", voidTy,
                     {state, get(c.getQueue()), get(c.getDst()), get(c.getSrc()),
                      constant(i64, static_cast<int64_t>(c.getSize()))});
                return success();
              })
              .Case([&](hcq::WaitOp w) -> LogicalResult {
                auto v = int64(op, w.getValue());
                if (failed(v))
                  return failure();
                call("wait", voidTy, {state, get(w.getQueue()), get(w.getSignal()), *v});
                return success();
              })
              .Case([&](hcq::SignalOp s) -> LogicalResult {
                auto v = int64(op, s.getValue());
                if (failed(v))
                  return failure();
                call("signal", voidTy, {state, get(s.getQueue()), get(s.getSignal()), *v});
                return success();
              })
              .Case([&](hcq::TimestampOp t) {
                call("timestamp", voidTy, {state, get(t.getQueue()), get(t.getSignal())});
                return success();
              })
              .Case([&](hcq::MemoryBarrierOp m) {
                call("memory_barrier", voidTy, {state, get(m.getQueue())});
                return success();
              })
              .Case([&](hcq::SubmitOp s) {
                call("submit", voidTy, {state, get(s.getQueue()), get(s.getDevice())});
                return success();
              })
              .Case([&](hcq::HostWaitOp h) -> LogicalResult {
                auto v = int64(op, h.getValue());
                if (failed(v))
                  return failure();
                call("host_wait", voidTy, {state, get(h.getSignal()), *v});
                return success();
              })
              .Default([&](Operation *) {
                return op->emitError("convert-hcq-to-runtime: '")
                       << op->getName() << "' has no runtime call (a schedule takes its devices, buffers "
                       << "and programs as arguments)";
              });
      if (failed(r)) {
        host.erase();
        return failure();
      }
    }
    fn.erase();
    return success();
  }

  /// The arguments as (kind, value) pairs and the six dims go to the stack.
  template <typename Constant, typename Call>
  LogicalResult lowerExec(hcq::ExecOp x, Value state, IRMapping &map, Constant constant, Call call) {
    Location loc = x.getLoc();
    size_t n = x.getArgs().size();
    Value args = LLVM::AllocaOp::create(b, loc, ptr, i64, constant(i64, std::max<size_t>(1, 2 * n)));
    for (auto [i, a] : llvm::enumerate(x.getArgs())) {
      Value kind, value = map.lookup(a);
      if (isa<hcq::BufferType>(a.getType())) {
        kind = constant(i64, 1); // TGRT_ARG_BUFFER
        value = LLVM::PtrToIntOp::create(b, loc, i64, value);
      } else if (a.getType() == i64) {
        kind = constant(i64, 0); // TGRT_ARG_INT
      } else {
        return x.emitError("convert-hcq-to-runtime: argument ")
               << i << " is " << a.getType() << ", not a buffer or an i64";
      }
      int32_t first = static_cast<int32_t>(2 * i);
      for (auto [slot, v] : {std::pair<int32_t, Value>{first, kind}, {first + 1, value}}) {
        Value at = LLVM::GEPOp::create(b, loc, ptr, i64, args, ArrayRef<LLVM::GEPArg>{slot});
        LLVM::StoreOp::create(b, loc, v, at);
      }
    }
    Value dims = LLVM::AllocaOp::create(b, loc, ptr, i64, constant(i64, 6));
    auto g = x.getGlobalSize(), l = x.getLocalSize();
    for (int32_t d = 0; d < 6; ++d) {
      auto sizes = d < 3 ? g : l;
      int64_t v = d % 3 < (int32_t)sizes.size() ? sizes[d % 3] : 1;
      Value at = LLVM::GEPOp::create(b, loc, ptr, i64, dims, ArrayRef<LLVM::GEPArg>{d});
      LLVM::StoreOp::create(b, loc, constant(i64, v), at);
    }
    int64_t coreId = -1;
    if (auto c = x->getAttrOfType<IntegerAttr>("core_id_arg"))
      coreId = c.getInt();
    call("exec", voidTy,
         {state, map.lookup(x.getQueue()), map.lookup(x.getProgram()), args, constant(i32, static_cast<int64_t>(n)), dims,
          constant(i32, coreId)});
    return success();
  }
};

struct ConvertHCQToRuntimePass : mlir::tinygrad::impl::ConvertHCQToRuntimeBase<ConvertHCQToRuntimePass> {
  void runOnOperation() override {
    if (failed(convertHCQToRuntime(getOperation())))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::tinygrad::convertHCQToRuntime(ModuleOp module) {
  SmallVector<func::FuncOp> schedules;
  for (auto fn : module.getOps<func::FuncOp>())
    if (usesHCQ(fn))
      schedules.push_back(fn);
  Lowering lowering(module);
  for (func::FuncOp fn : schedules)
    if (failed(lowering.convert(fn)))
      return failure();
  return success();
}
