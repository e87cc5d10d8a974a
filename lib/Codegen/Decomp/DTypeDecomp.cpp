//===- DTypeDecomp.cpp - tinygrad's emulation of unsupported float dtypes -===//
//
// tinygrad/codegen/decomp/dtype.py (pm_dtype_decomps, pm_float_decomp): a
// float dtype the renderer lacks lives in memory as its bits (uint8 for the
// fp8s) and computes at a supported float (half on the CPU, whose Clang
// renderer has half but no fp8). Loads widen the bits with f2f, stores
// narrow them with f2f after f2f_clamp's saturation, casts to the emulated
// dtype clamp, and everything else computes at the wider dtype: the same
// integer recipes tinygrad renders, so values agree bit for bit (denormals
// of the narrow dtype are zero, as in tinygrad).
//
// tinygrad marks the rewritten storage with `tag=fr`; here the pass state
// holds the storage nodes instead (interned nodes keep their identity).
// Our kernel ASTs read a buffer by using its INDEX as a value; tinygrad's
// pm_add_loads makes those reads LOAD(INDEX) before the decompositions, so
// "add loads" does that for the emulated dtype first.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Decompositions.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::decomp {
using sym::Context;
using sym::Op;
using sym::UOpRef;
using namespace sym::pat;
namespace n = sym::pat::names;

namespace {

/// The pass state: tinygrad's ctx=(fr, to) plus the nodes it would tag.
struct FloatDecomp {
  DType fr, to;
  llvm::DenseSet<UOpRef> storage;
  bool tagged(UOpRef x) const { return storage.contains(x); }
};

/// tinygrad's f2f_dt: the unsigned integer of the float's width.
DType bitsDType(DType f) {
  switch (getInfo(f).bitsize) {
  case 8: return DType::UInt8;
  case 16: return DType::UInt16;
  case 32: return DType::UInt32;
  default: return DType::UInt64;
  }
}
int exponentBias(DType d) { return (1 << (finfo(d)->exponent - 1)) - (isFNUZ(d) ? 0 : 1); }

/// `x` at another element dtype, shape and address space kept.
Type retyped(Context &c, Type t, DType dt) {
  tg::ValueInfo info = tg::getValueInfo(t);
  return tg::makeValueType(c.typeFor(dt), info.shape, info.addrspace);
}

/// LOAD(idx) of type `t` (the op's operand segments: idx, no alt, no gate).
UOpRef loadOf(Context &c, Type t, UOpRef idx) {
  MLIRContext *mc = c.getMLIRContext();
  auto seg = DenseI32ArrayAttr::get(mc, {1, 0, 0});
  auto attrs = DictionaryAttr::get(mc, {NamedAttribute(StringAttr::get(mc, "operandSegmentSizes"), seg)});
  return c.get(Op::LOAD, t, {idx}, sym::Arg{{}, attrs});
}

/// UOp arithmetic as tinygrad's f2f writes it: Python ints become constants
/// of the other operand's dtype (wrapped to it, as tinygrad's const does).
struct B {
  Context &c;
  UOpRef k(UOpRef like, __int128 v) {
    if (isUnsigned(like->dtype) || isBool(like->dtype)) {
      unsigned bits = getInfo(like->dtype).bitsize;
      v &= (__int128(1) << bits) - 1;
    }
    return c.cnst(isFloat(like->dtype) ? Scalar::fromFloat(double(v)) : Scalar::fromInt(v), like->dtype);
  }
  UOpRef op(Op o, UOpRef a, UOpRef b) {
    if (a->dtype != b->dtype && b->dtype == DType::Bool)
      b = cast(b, a->dtype);
    return c.alu(o, {a, b});
  }
  UOpRef band(UOpRef a, __int128 v) { return op(Op::AND, a, k(a, v)); }
  UOpRef bor(UOpRef a, UOpRef b) { return op(Op::OR, a, b); }
  UOpRef add(UOpRef a, __int128 v) { return op(Op::ADD, a, k(a, v)); }
  UOpRef eq(UOpRef a, __int128 v) { return op(Op::CMPEQ, a, k(a, v)); }
  UOpRef ne(UOpRef a, __int128 v) { return op(Op::CMPNE, a, k(a, v)); }
  UOpRef lt(UOpRef a, __int128 v) { return op(Op::CMPLT, a, k(a, v)); }
  /// tinygrad's shr/shl: x // 2**y, x * 2**y.
  UOpRef shr(UOpRef x, unsigned y) { return op(Op::FLOORDIV, x, k(x, __int128(1) << y)); }
  UOpRef shl(UOpRef x, unsigned y) { return op(Op::MUL, x, k(x, __int128(1) << y)); }
  UOpRef where(UOpRef cnd, UOpRef t, UOpRef f) { return c.alu(Op::WHERE, {cnd, t, f}); }
  /// where() with a Python int as the true branch.
  UOpRef whereK(UOpRef cnd, __int128 t, UOpRef f) { return where(cnd, k(f, t), f); }
  UOpRef cast(UOpRef x, DType dt) { return x->dtype == dt ? x : c.cast(x, dt); }
  UOpRef bitcast(UOpRef x, DType dt) {
    if (x->dtype == dt)
      return x;
    MLIRContext *mc = c.getMLIRContext();
    auto attrs = DictionaryAttr::get(
        mc, {NamedAttribute(StringAttr::get(mc, "dtype"), TypeAttr::get(c.typeFor(dt)))});
    return c.get(Op::BITCAST, retyped(c, x->type, dt), {x}, sym::Arg{{}, attrs});
  }
};

/// tinygrad's rne: v >> s rounded to nearest even.
UOpRef rne(B &b, UOpRef v, unsigned s) {
  UOpRef sticky = b.cast(b.ne(b.band(v, (__int128(1) << (s - 1)) - 1), 0), v->dtype);
  UOpRef odd = b.band(b.shr(v, s), 1);
  return b.op(Op::ADD, b.shr(v, s), b.op(Op::AND, b.band(b.shr(v, s - 1), 1), b.bor(sticky, odd)));
}

/// tinygrad's f2f_clamp: saturate to the narrow dtype's largest finite
/// value (fp8s) or infinity; NaN passes through.
UOpRef f2fClamp(B &b, UOpRef val, DType dt, bool sat = true) {
  FInfo fi = *finfo(dt);
  int maxExp, maxMan;
  if (isFNUZ(dt))
    maxExp = (1 << fi.exponent) - 1, maxMan = (1 << fi.mantissa) - 1;
  else if (dt == DType::FP8E4M3)
    maxExp = (1 << fi.exponent) - 1, maxMan = (1 << fi.mantissa) - 2;
  else
    maxExp = (1 << fi.exponent) - 2, maxMan = (1 << fi.mantissa) - 1;
  double mxv = std::ldexp(1.0 + double(maxMan) / (1 << fi.mantissa), maxExp - exponentBias(dt));
  double satv = isFP8(dt) && sat ? mxv : INFINITY;
  auto f = [&](double v) { return b.c.cnst(Scalar::fromFloat(v), val->dtype); };
  UOpRef inner = b.where(b.c.alu(Op::CMPLT, {f(mxv), val}), f(satv), val);
  inner = b.where(b.c.alu(Op::CMPLT, {val, f(-mxv)}), f(-satv), inner);
  return b.where(b.c.alu(Op::CMPNE, {val, val}), val, inner);
}

/// tinygrad's f2f: the bits `v` (f2f_dt of fr) of an fr value as a `to`
/// value. Widening gives a `to`-typed node, narrowing the bits of `to`.
UOpRef f2f(B &b, UOpRef v, DType fr, DType to, bool sat = true) {
  unsigned fs = getInfo(fr).bitsize, ts = getInfo(to).bitsize;
  int fb = exponentBias(fr), tb = exponentBias(to);
  FInfo ff = *finfo(fr), tf = *finfo(to);
  unsigned fe = ff.exponent, fm = ff.mantissa, te = tf.exponent, tm = tf.mantissa;
  DType toBits = bitsDType(to);
  if (fe <= te && fm < tm) {
    UOpRef sign = b.shl(b.cast(b.band(v, __int128(1) << (fs - 1)), toBits), ts - fs);
    UOpRef nosign = b.cast(b.band(v, (__int128(1) << (fs - 1)) - 1), toBits);
    UOpRef exp = b.shr(nosign, fm);
    UOpRef norm = b.add(b.shl(nosign, tm - fm), __int128(tb - fb) * (1 << tm));
    UOpRef nan = b.bor(b.shl(nosign, tm - fm), b.k(nosign, ((__int128(1) << te) - 1) << tm));
    if (isFNUZ(fr)) {
      UOpRef fnuzNan = b.op(Op::AND, b.ne(sign, 0), b.eq(nosign, 0));
      __int128 qnan = (((__int128(1) << te) - 1) << tm) | (__int128(1) << (tm - 1));
      // the fnuz bias can exceed the target's: exponents below the target's
      // normal range flush like denormals
      UOpRef flushed = b.whereK(b.lt(exp, std::max(fb - tb, 0) + 1), 0, norm);
      return b.bitcast(b.where(fnuzNan, b.k(sign, qnan), b.bor(sign, flushed)), to);
    }
    // fp8e4m3 has only one nan
    UOpRef isNan = fr == DType::FP8E4M3 ? b.eq(nosign, (__int128(1) << (fm + fe)) - 1)
                                        : b.eq(exp, (__int128(1) << fe) - 1);
    return b.bitcast(b.bor(sign, b.whereK(b.eq(exp, 0), 0, b.where(isNan, nan, norm))), to);
  }
  if (fe >= te && fm > tm) {
    DType frBits = bitsDType(fr);
    v = b.bitcast(f2fClamp(b, b.bitcast(v, fr), to, sat), frBits);
    UOpRef sign = b.band(b.shr(v, fs - ts), __int128(1) << (ts - 1));
    UOpRef nosign = b.band(v, (__int128(1) << (fs - 1)) - 1);
    UOpRef norm = b.cast(b.add(rne(b, nosign, fm - tm), -__int128(fb - tb) * (1 << tm)), toBits);
    UOpRef expField = b.band(b.shr(v, fm), (__int128(1) << fe) - 1);
    UOpRef underflow = b.lt(expField, 1 + fb - tb);
    UOpRef nanMantissa = to == DType::FP8E4M3 ? b.k(nosign, (__int128(1) << tm) - 1)
                                              : b.band(b.shr(nosign, fm - tm), (__int128(1) << tm) - 1);
    UOpRef nan = b.cast(b.bor(b.bor(sign, nanMantissa), b.k(sign, ((__int128(1) << te) - 1) << tm)), toBits);
    UOpRef isNan = b.eq(expField, (__int128(1) << fe) - 1);
    if (isFNUZ(to))
      return b.where(isNan, b.k(norm, __int128(1) << (ts - 1)),
                     b.whereK(underflow, 0, b.bor(b.cast(sign, toBits), norm)));
    return b.where(isNan, nan, b.bor(b.cast(sign, toBits), b.whereK(underflow, 0, norm)));
  }
  return nullptr;
}

FloatDecomp &st(Match &m) { return m.state<FloatDecomp>(); }
const sym::PatternMatcher &floatDecompPatterns();

/// The storage of an emulated buffer: `x` rewritten by this pass on its own
/// (tinygrad's nested graph_rewrite of the INDEX/LOAD address).
UOpRef storageOf(Match &m, UOpRef x) {
  return sym::graphRewriteBottomUp(m.ctx, x, floatDecompPatterns(), m.user);
}

/// tinygrad's f2f_load for one element.
UOpRef f2fLoad(Match &m, UOpRef x) {
  // add loads makes ungated scalar loads: the only ones this port handles
  if (x->src.size() != 1 || isa<RankedTensorType>(x->type))
    return nullptr;
  FloatDecomp &s = st(m);
  UOpRef idx = storageOf(m, x->src[0]);
  if (!idx)
    return nullptr;
  UOpRef ld = loadOf(m.ctx, retyped(m.ctx, x->type, bitsDType(s.fr)), idx);
  B b{m.ctx};
  return f2f(b, ld, s.fr, s.to);
}

/// The ops tinygrad's catch-all rule rebuilds at the emulating dtype.
OpSet computeOps() {
  OpSet s;
  for (unsigned i = 0; i < sym::kNumOps; ++i) {
    Op o = Op(i);
    if (o != Op::PARAM && o != Op::BUFFER && o != Op::CAST && o != Op::BITCAST && o != Op::CONST)
      s.insert(o);
  }
  return s;
}

const sym::PatternMatcher &floatDecompPatterns() {
  static const DTypeSet kFloats = floatDTypes();
  static const sym::PatternMatcher pm = std::vector<Rule>{
      {"Defines: storage as bits", op({Op::PARAM, Op::BUFFER}, n::x),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef x = m[n::x];
         if (x->dtype != s.fr)
           return nullptr;
         DType bits = bitsDType(s.fr);
         sym::Arg arg = x->arg;
         if (auto p = arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(arg.attrs.get("arg")) : tg::ParamAttr()) {
           auto np = tg::ParamAttr::get(m.ctx.getMLIRContext(), p.getSlot(), m.ctx.typeFor(bits),
                                        p.getVminVmax(), p.getMultipleOf(), p.getName(), p.getAddrspace(),
                                        p.getAxis(), p.getDevice(), p.getIsVolatile(), p.getSize());
           NamedAttrList attrs(arg.attrs);
           attrs.set("arg", np);
           arg.attrs = attrs.getDictionary(m.ctx.getMLIRContext());
         }
         UOpRef r = m.ctx.get(x->op, retyped(m.ctx, x->type, bits), x->src, arg);
         s.storage.insert(r);
         return r;
       }},
      {"INDEX/SHRINK of the storage", op({Op::INDEX, Op::SHRINK}, n::x),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef x = m[n::x];
         if (x->dtype != s.fr || x->src.empty() ||
             (x->op == Op::INDEX && (x->src[0]->op == Op::LOAD || x->src[0]->op == Op::STACK)))
           return nullptr;
         UOpRef buf = storageOf(m, x->src[0]);
         if (!buf)
           return nullptr;
         llvm::SmallVector<UOpRef, 3> src{buf};
         src.append(x->src.begin() + 1, x->src.end());
         UOpRef r = m.ctx.get(x->op, retyped(m.ctx, x->type, bitsDType(s.fr)), src, x->arg);
         s.storage.insert(r);
         return r;
       }},
      {"f2f_load", op(Op::LOAD, n::x, kFloats),
       [](Match &m) { return m[n::x]->dtype == st(m).fr ? f2fLoad(m, m[n::x]) : nullptr; }},
      {"bitcasted load should just replace load", up(Op::BITCAST, {op(Op::LOAD, n::ld)}, n::x),
       [](Match &m) -> UOpRef {
         UOpRef ld = m[n::ld], bc = m[n::x];
         if (ld->dtype != st(m).fr || ld->src.size() != 1)
           return nullptr;
         UOpRef idx = storageOf(m, ld->src[0]);
         if (!idx)
           return nullptr;
         B b{m.ctx};
         return b.bitcast(loadOf(m.ctx, retyped(m.ctx, ld->type, bitsDType(st(m).fr)), idx), bc->dtype);
       }},
      {"bitcast from", up(Op::BITCAST, {var(n::x, kFloats)}, n::b),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef x = m[n::x], bc = m[n::b];
         if (x->dtype != s.to || getInfo(bc->dtype).bitsize != getInfo(s.fr).bitsize)
           return nullptr;
         B b{m.ctx};
         UOpRef bits = f2f(b, b.bitcast(x, bitsDType(s.to)), s.to, s.fr);
         return bits->dtype == bc->dtype ? bits : m.ctx.get(Op::BITCAST, bc->type, {bits}, bc->arg);
       }},
      {"bitcast to", up(Op::BITCAST, {var(n::x)}, n::b),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         if (m[n::b]->dtype != s.fr)
           return nullptr;
         B b{m.ctx};
         return f2f(b, b.bitcast(m[n::x], bitsDType(s.fr)), s.fr, s.to);
       }},
      {"cast to the emulated dtype clamps", up(Op::CAST, {var(n::val)}, n::x, kFloats),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         if (m[n::x]->dtype != s.fr)
           return nullptr;
         B b{m.ctx};
         return f2fClamp(b, b.cast(m[n::val], s.to), s.fr);
       }},
      // a CONST has no srcs to cast, it restates its value at the emulating dtype
      {"CONST at the emulating dtype", op(Op::CONST, n::x, kFloats),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef x = m[n::x];
         return x->dtype == s.fr ? m.ctx.cnst(x->val(), s.to) : nullptr;
       }},
      {"compute at the emulating dtype", op(computeOps(), n::x, kFloats),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef x = m[n::x];
         if (x->dtype != s.fr)
           return nullptr;
         B b{m.ctx};
         llvm::SmallVector<UOpRef, 3> src;
         for (UOpRef y : x->src)
           src.push_back(y->dtype == s.fr ? b.cast(y, s.to) : y);
         if (sym::isALU(x->op))
           return m.ctx.alu(x->op, src);
         return m.ctx.get(x->op, retyped(m.ctx, x->type, s.to), src, x->arg);
       }},
      {"store of a bitcast to the emulated dtype",
       up(Op::STORE, {var(n::idx), up(Op::BITCAST, {var(n::x)}, n::val, kFloats)}, n::root),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef val = m[n::val], idx = m[n::idx];
         if (val->dtype != s.fr || !s.tagged(idx))
           return nullptr;
         B b{m.ctx};
         return m.ctx.get(Op::STORE, m[n::root]->type, {idx, b.bitcast(m[n::x], bitsDType(s.fr))},
                          m[n::root]->arg);
       }},
      {"f2f_store", up(Op::STORE, {var(n::idx), var(n::val, kFloats)}, n::root),
       [](Match &m) -> UOpRef {
         FloatDecomp &s = st(m);
         UOpRef idx = m[n::idx], val = m[n::val];
         UOpRef addr = idx->op == Op::CAST && !idx->src.empty() ? idx->src[0] : idx;
         if (val->dtype != s.to || !s.tagged(addr) || isa<RankedTensorType>(val->type))
           return nullptr;
         B b{m.ctx};
         UOpRef bits = f2f(b, b.bitcast(val, bitsDType(s.to)), s.to, s.fr);
         return m.ctx.get(Op::STORE, m[n::root]->type, {idx, bits}, m[n::root]->arg);
       }},
  };
  return pm;
}

/// tinygrad's pm_add_loads (maybe_load) for the emulated dtype's memory: an
/// INDEX read as a value becomes LOAD(INDEX), so the rules above see reads.
/// Store addresses (a STORE's first source, possibly a CAST of the INDEX)
/// are the one use that is no read; they are collected up front.
struct AddLoads {
  DType fr;
  llvm::DenseSet<UOpRef> addresses;
};

UOpRef maybeLoad(Context &c, UOpRef u, DType fr) {
  if (u->op != Op::INDEX || u->dtype != fr)
    return u;
  return loadOf(c, c.typeFor(fr), u);
}

const sym::PatternMatcher &addLoadsPatterns() {
  static const sym::PatternMatcher pm = std::vector<Rule>{
      {"add loads", op(aluOps() | OpSet{Op::CAST, Op::BITCAST, Op::REDUCE, Op::WMMA, Op::STACK}, n::x),
       [](Match &m) -> UOpRef {
         AddLoads &s = m.state<AddLoads>();
         UOpRef x = m[n::x];
         if (s.addresses.contains(x))
           return nullptr;
         llvm::SmallVector<UOpRef, 3> src;
         for (UOpRef y : x->src)
           src.push_back(maybeLoad(m.ctx, y, s.fr));
         return llvm::equal(src, x->src) ? nullptr : m.ctx.replaceSrc(x, src);
       }},
      {"add loads (stored value)", up(Op::STORE, {var(n::idx), var(n::val)}, n::x).allowAnyLen(),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x], v = maybeLoad(m.ctx, m[n::val], m.state<AddLoads>().fr);
         if (v == m[n::val])
           return nullptr;
         llvm::SmallVector<UOpRef, 3> src(x->src.begin(), x->src.end());
         src[1] = v;
         return m.ctx.get(Op::STORE, x->type, src, x->arg);
       }},
  };
  return pm;
}

} // namespace

bool emulatedOnCPU(DType dt) { return isFP8(dt); }

UOpRef dtypeDecompositions(Context &ctx, UOpRef sink) {
  // pm_dtype_decomps: the dtypes present, emulated in tinygrad's dtype order
  llvm::SmallVector<DType, 4> present;
  llvm::DenseSet<UOpRef> seen;
  llvm::SmallVector<UOpRef, 64> work{sink};
  while (!work.empty()) {
    UOpRef u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (emulatedOnCPU(u->dtype) && !llvm::is_contained(present, u->dtype))
      present.push_back(u->dtype);
    work.append(u->src.begin(), u->src.end());
  }
  llvm::sort(present, dtypeLess);
  AddLoads loads{DType::Void, {}};
  for (UOpRef u : seen)
    if (u->op == Op::STORE && !u->src.empty())
      loads.addresses.insert(u->src[0]);
  for (DType fr : present) {
    // the CPU renders half, so the fp8s compute at half
    FloatDecomp state{fr, DType::Float16, {}};
    loads.fr = fr;
    sink = sym::graphRewrite(ctx, sink, addLoadsPatterns(), &loads);
    if (sink)
      sink = sym::graphRewriteBottomUp(ctx, sink, floatDecompPatterns(), &state);
    if (!sink)
      return nullptr;
  }
  return sink;
}

} // namespace mlir::tinygrad::decomp
