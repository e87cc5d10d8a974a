//===- EmitCalls.cpp - CALLs of a function address, known CUSTOM statements -===//
//
// What hand-written kernels ask of the CPU beyond loads, stores and ALU:
//
//  * CALL(address, args...): a call through a function pointer the kernel
//    loads from a buffer (tinygrad's C renders `((ret(*)(T...))addr)(args)`),
//    an INDEX argument passed as the element's address. It lowers to an
//    indirect `llvm.call`.
//  * CUSTOM: a line of C. We compile no C, so the statements tinygrad itself
//    emits for its CPU target are recognised by their text and lowered to
//    the upstream op that does what that C does; any other text is a
//    diagnostic naming it. Today the one such statement is the atomic
//    scatter-add of nn's embedding backward,
//    `__atomic_fetch_add({0}, {1}, __ATOMIC_RELAXED);`, recognised with the
//    rest of GCC's __atomic_fetch_<op> family: memref.atomic_rmw.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

namespace mlir::tinygrad::kernel_emitter {

/// The C type a CALL passes or returns a value of: 32- and 64-bit ints and
/// floats (narrower ones need ABI extension attributes; weak dtypes have
/// no C type yet).
static Type callValueType(MLIRContext *ctx, DType dt) {
  switch (dt) {
  case DType::Int32: case DType::UInt32: case DType::Int64: case DType::UInt64:
  case DType::Float32: case DType::Float64:
    return scalarType(ctx, dt);
  default:
    return {};
  }
}

Value Emitter::pointerAt(OpBuilder &ob, Value buf, Value elem, DType dt) {
  MLIRContext *ctx = ob.getContext();
  ctx->getOrLoadDialect<LLVM::LLVMDialect>();
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(ob, loc, buf);
  Value bytes = arith::MulIOp::create(ob, loc, elem, arith::ConstantIndexOp::create(ob, loc, storageBytes(dt)));
  Value addr = arith::AddIOp::create(ob, loc, base, bytes);
  Value i64 = arith::IndexCastOp::create(ob, loc, ob.getI64Type(), addr);
  return LLVM::IntToPtrOp::create(ob, loc, LLVM::LLVMPointerType::get(ctx), i64);
}

FailureOr<Value> Emitter::buildCall(UOpRef u, std::optional<unsigned> depth) {
  MLIRContext *ctx = b.getContext();
  ctx->getOrLoadDialect<LLVM::LLVMDialect>();
  if (u->src.empty() || (u->src[0]->dtype != DType::UInt64 && u->src[0]->dtype != DType::Int64)) {
    fail(u, "a CALL inside a kernel calls a function address, a uint64");
    return failure();
  }
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type ret = u->dtype == DType::Void ? LLVM::LLVMVoidType::get(ctx) : callValueType(ctx, u->dtype);
  if (!ret) {
    fail(u, Twine("a CALL returning ") + getName(u->dtype) + " (only 32/64-bit ints and floats, or void)");
    return failure();
  }
  Value fn = emit(u->src[0]);
  if (!fn)
    return failure();
  SmallVector<Value> args;
  SmallVector<Type> types;
  SmallVector<UOpRef> pointers;
  for (UOpRef x : u->src.drop_front()) {
    // An INDEX argument is the element's address (tinygrad loads nothing
    // for a CALL's sources: `(int*)(data1+0)`).
    if (x->op == K::INDEX) {
      pointers.push_back(x);
      args.push_back({});
      types.push_back(ptr);
      continue;
    }
    Type t = callValueType(ctx, x->dtype);
    if (!t) {
      fail(u, Twine("a CALL argument of dtype ") + getName(x->dtype) +
                  " (only 32/64-bit ints and floats, and addresses)");
      return failure();
    }
    Value v = emit(x);
    if (!v)
      return failure();
    args.push_back(v);
    types.push_back(t);
  }
  unsigned d = depth ? *depth : scopes.size() - 1;
  for (auto [i, x] : llvm::enumerate(u->src.drop_front()))
    if (!args[i]) {
      Address a;
      if (failed(address(x, {}, a)))
        return failure();
      if (a.gate || !a.laneGates.empty()) {
        fail(x, "a gated INDEX has no address to pass");
        return failure();
      }
      if (depth)
        setInsertionAt(d);
      else
        b.setInsertionPoint(scopes[d].tail);
      args[i] = pointerAt(b, a.buf, a.linear ? a.base : a.idx, a.dt);
    }
  if (depth)
    setInsertionAt(d);
  else
    b.setInsertionPoint(scopes[d].tail);
  Value callee = LLVM::IntToPtrOp::create(b, loc, ptr, fn);
  SmallVector<Value> operands{callee};
  operands.append(args.begin(), args.end());
  auto call = LLVM::CallOp::create(b, loc, LLVM::LLVMFunctionType::get(ret, types), operands);
  return u->dtype == DType::Void ? Value() : call.getResult();
}

Value Emitter::emitCall(UOpRef u) {
  int depth = depthOf(u);
  if (depth < 0)
    return {};
  FailureOr<Value> r = buildCall(u, (unsigned)depth);
  if (failed(r))
    return {};
  if (!*r)
    return fail(u, "a void CALL has no value");
  return *r;
}

LogicalResult Emitter::emitCallEffect(UOpRef u) {
  if (u->dtype != DType::Void) // its value is unused: the call still runs
    return emitL(u) ? success() : failure();
  // Where the effects around it are: the innermost open loop.
  return buildCall(u, std::nullopt);
}

namespace {
/// GCC's `__atomic_fetch_<op>(ptr, val, order)` with the memref.atomic_rmw
/// kind for signed ints, unsigned ints and floats (none: not valid C for
/// that type), and whether the value is negated first (`sub` as an add).
struct AtomicForm {
  const char *op;
  arith::AtomicRMWKind sint, uint;
  std::optional<arith::AtomicRMWKind> flt;
  bool negate;
};
using AK = arith::AtomicRMWKind;
const AtomicForm kAtomicForms[] = {
    {"add", AK::addi, AK::addi, AK::addf, false}, {"sub", AK::addi, AK::addi, AK::addf, true},
    {"and", AK::andi, AK::andi, std::nullopt, false}, {"or", AK::ori, AK::ori, std::nullopt, false},
    {"xor", AK::xori, AK::xori, std::nullopt, false}, {"max", AK::maxs, AK::maxu, std::nullopt, false},
    {"min", AK::mins, AK::minu, std::nullopt, false},
};

/// The atomic form `fmt` spells, if it is exactly
/// `__atomic_fetch_<op>({0}, {1}, __ATOMIC_<order>);` (spaces aside) with an
/// order memref.atomic_rmw's acq_rel satisfies (all but SEQ_CST).
const AtomicForm *parseAtomic(StringRef fmt) {
  std::string s;
  for (char c : fmt)
    if (!isspace((unsigned char)c))
      s += c;
  StringRef r(s);
  if (!r.consume_front("__atomic_fetch_"))
    return nullptr;
  for (const AtomicForm &f : kAtomicForms) {
    StringRef t = r;
    if (!t.consume_front(f.op) || !t.consume_front("({0},{1},__ATOMIC_") || !t.consume_back(");"))
      continue;
    if (t == "RELAXED" || t == "CONSUME" || t == "ACQUIRE" || t == "RELEASE" || t == "ACQ_REL")
      return &f;
  }
  return nullptr;
}
} // namespace

LogicalResult Emitter::emitCustom(UOpRef u) {
  auto fmt = u->arg.attrs ? dyn_cast_or_null<StringAttr>(u->arg.attrs.get("fmt")) : StringAttr();
  const AtomicForm *form = fmt ? parseAtomic(fmt.getValue()) : nullptr;
  if (!form || u->src.size() != 2) {
    fail(u, "unsupported inline code '" + (fmt ? fmt.getValue().str() : std::string("?")) +
                "': the CPU target compiles no C; the CUSTOM statements it knows are tinygrad's "
                "__atomic_fetch_<add|sub|and|or|xor|max|min>({0}, {1}, __ATOMIC_<order>); "
                "(order not SEQ_CST)");
    return failure();
  }
  unsigned depth = scopes.size() - 1;
  SmallVector<UOpRef, 2> shape = laneShape(u);
  UOpRef val = u->src[1];
  Value v = emitL(val);
  if (!v)
    return failure();
  Address a;
  if (failed(address(u->src[0], shape, a)))
    return failure();
  DType dt = a.dt;
  std::optional<AK> kind = isFloat(dt) ? form->flt : isUnsigned(dt) ? form->uint : form->sint;
  if (dt == DType::Bool || isHalfLike(dt) || !kind || !isa<IntegerType, FloatType>(memoryType(b.getContext(), dt))) {
    fail(u, Twine("__atomic_fetch_") + form->op + " on a buffer of " + getName(dt));
    return failure();
  }
  b.setInsertionPoint(scopes[depth].tail);
  Value x = convertCompute(broadcastTo(v, laneShape(val), shape), val->dtype, dt);
  if (!x) {
    fail(u, Twine("no conversion from ") + getName(val->dtype) + " to " + getName(dt));
    return failure();
  }
  if (form->negate)
    x = isFloat(dt) ? arith::NegFOp::create(b, loc, x).getResult()
                    : arith::SubIOp::create(b, loc, zeroLike(x), x).getResult();
  Value gate = a.gate ? broadcastTo(a.gate, a.gateShape, shape) : Value();
  // Lane by lane, in lane order, each gated lane behind its own branch.
  for (unsigned l = 0; l < a.lanes; ++l) {
    int8_t known = l < a.laneGates.size() ? a.laneGates[l] : -1;
    if (a.gate && known == 0)
      continue;
    auto rmw = [&](OpBuilder &ob) {
      Value xl = isa<VectorType>(x.getType()) ? pickLanes(ob, x, {(int64_t)l}) : x;
      memref::AtomicRMWOp::create(ob, loc, *kind, xl, a.buf, ValueRange{laneAddress(ob, a, l)});
    };
    if (!a.gate || known == 1) {
      rmw(b);
      continue;
    }
    Value g = isa<VectorType>(gate.getType()) ? pickLanes(b, gate, {(int64_t)l}) : gate;
    auto ifOp = scf::IfOp::create(b, loc, g, /*withElse=*/false);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    rmw(tb);
  }
  return success();
}

} // namespace mlir::tinygrad::kernel_emitter
