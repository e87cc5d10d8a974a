//===- UOp.cpp - interned UOp graph and tinygrad's construction API -------===//
#include "tinygrad/Symbolic/UOp.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Support/PyInt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include <array>
#include <cstring>
#include <map>

namespace mlir::tinygrad::sym {

using I = __int128;

//===----------------------------------------------------------------------===//
// Node accessors
//===----------------------------------------------------------------------===//

std::optional<I> UOp::intVal() const {
  if (op == Op::CONST && arg.value.isInt())
    return arg.value.i;
  return std::nullopt;
}

static Scalar scalarFromAttr(Attribute a) {
  // BoolAttr is an IntegerAttr too: test it first.
  if (auto b = dyn_cast_or_null<BoolAttr>(a))
    return Scalar::fromBool(b.getValue());
  // Bounds of weak ints and uint64 need more than 64 bits.
  if (auto i = dyn_cast_or_null<IntegerAttr>(a)) {
    auto s = tg::getScalar(i);
    return s ? *s : Scalar::invalid();
  }
  if (auto f = dyn_cast_or_null<FloatAttr>(a))
    return Scalar::fromFloat(f.getValueAsDouble());
  return Scalar::invalid();
}

const ParamInfo &UOp::param() const {
  if (!cachedParam)
    cachedParam = decodeParam();
  return *cachedParam;
}

ParamInfo UOp::decodeParam() const {
  ParamInfo info;
  if (!arg.attrs)
    return info;
  auto p = dyn_cast_or_null<tg::ParamAttr>(arg.attrs.get("arg"));
  if (!p)
    return info;
  info.slot = p.getSlot();
  if (auto vmm = p.getVminVmax()) {
    if (vmm.size() == 2) {
      Scalar lo = scalarFromAttr(vmm[0]), hi = scalarFromAttr(vmm[1]);
      if (!lo.isInvalid() && !hi.isInvalid())
        info.vminVmax = std::make_pair(lo, hi);
    }
  }
  info.multipleOf = p.getMultipleOf();
  if (auto n = p.getName())
    info.name = n.getValue();
  info.isALU = p.getAddrspace() == tg::AddrSpace::ALU;
  return info;
}

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

/// Cheap 64-bit mixing (splitmix64 finalizer): interning is on the hot
/// path of every rewrite.
static inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

static uint64_t hashScalar(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Int:
    return mix((uint64_t)s.i, (uint64_t)(s.i >> 64));
  case Scalar::Float: {
    if (std::isnan(s.f))
      return 0x7ff8; // every nan is the same constant
    uint64_t bits;
    std::memcpy(&bits, &s.f, 8);
    return mix(1, bits);
  }
  case Scalar::Bool:
    return 2 + s.b;
  case Scalar::Invalid:
    return 4;
  }
  return 0;
}

UOpRef Context::get(Op op, Type type, llvm::ArrayRef<UOpRef> src, Arg arg) {
  uint64_t h = mix(static_cast<unsigned>(op),
                   (uint64_t)(uintptr_t)type.getAsOpaquePointer());
  for (UOpRef s : src)
    h = mix(h, (uint64_t)(uintptr_t)s);
  h = mix(h, op == Op::CONST ? hashScalar(arg.value)
                             : (uint64_t)(uintptr_t)arg.attrs.getAsOpaquePointer());
  auto &bucket = table[h];
  for (UOp *u : bucket)
    if (u->op == op && u->type == type && u->src == src && u->arg == arg)
      return u;
  auto *u = new (alloc.Allocate<UOp>()) UOp();
  u->op = op;
  u->type = type;
  auto dt = tg::getDType(type);
  u->dtype = dt ? *dt : DType::Void;
  UOpRef *srcs = alloc.Allocate<UOpRef>(src.size());
  std::copy(src.begin(), src.end(), srcs);
  u->src = llvm::ArrayRef<UOpRef>(srcs, src.size());
  u->arg = arg;
  u->context = this;
  bucket.push_back(u);
  ++numCreated;
  return u;
}

//===----------------------------------------------------------------------===//
// Construction API
//===----------------------------------------------------------------------===//

Type Context::typeFor(DType dt) const {
  Type &t = dtypeTypes[static_cast<unsigned>(dt)];
  if (!t)
    t = tg::getTypeForDType(mlir, dt);
  return t;
}

/// leastUpperDType of a pair, from a table: alu() asks for it on every
/// mixed weak/strong operation. The table is filled whole on first use (a
/// function-local static's initialization is thread-safe): BEAM compiles
/// candidates on several threads at once, and an entry filled lazily there
/// was a data race (a reader could see the entry set before its value).
static std::optional<DType> lub2(DType a, DType b) {
  using Row = std::array<std::optional<DType>, kNumDTypes>;
  static const std::array<Row, kNumDTypes> table = [] {
    std::array<Row, kNumDTypes> t;
    for (unsigned i = 0; i < kNumDTypes; ++i)
      for (unsigned j = 0; j < kNumDTypes; ++j)
        t[i][j] = leastUpperDType({static_cast<DType>(i), static_cast<DType>(j)});
    return t;
  }();
  return table[static_cast<unsigned>(a)][static_cast<unsigned>(b)];
}

UOpRef Context::cnst(const Scalar &v, DType dt) {
  Scalar value = v;
  if (v.isInvalid()) {
    dt = DType::Bool;
  } else if (auto c = castScalar(v, dt)) {
    value = *c; // dtype.const(b)
  }
  return get(Op::CONST, typeFor(dt), {}, Arg{value, {}});
}

UOpRef Context::constLike(UOpRef x, const Scalar &v) { return cnst(v, x->dtype); }

UOpRef Context::ufix(UOpRef x, I c) {
  // A Python int becomes a weak CONST; promotion with x picks x's dtype.
  // Float operands get a weakfloat literal, as UOp.const(float) would.
  if (isFloat(x->dtype))
    return cnst(Scalar::fromFloat(static_cast<double>(c)), DType::WeakFloat);
  return constInt(c, DType::WeakInt);
}

static llvm::SmallVector<int64_t> shapeOf(Type t) {
  if (auto r = dyn_cast<RankedTensorType>(t))
    return llvm::SmallVector<int64_t>(r.getShape());
  return {};
}

UOpRef Context::alu(Op op, llvm::ArrayRef<UOpRef> srcs) {
  DType dt;
  if (isComparison(op)) {
    dt = DType::Bool;
  } else if (op == Op::EXP2 || op == Op::LOG2 || op == Op::SIN ||
             op == Op::SQRT || op == Op::RECIPROCAL) {
    auto f = leastUpperFloat(srcs[0]->dtype);
    dt = srcs[0]->isInvalid() ? DType::Bool : f ? *f : srcs[0]->dtype;
  } else if (isUnary(op) || op == Op::SHL || op == Op::SHR) {
    dt = srcs[0]->dtype;
  } else {
    llvm::ArrayRef<UOpRef> promo = op == Op::WHERE ? srcs.drop_front() : srcs;
    if (promo.size() == 2) {
      DType a = promo[0]->dtype, b = promo[1]->dtype;
      auto lub = a == b ? std::optional<DType>(a) : lub2(a, b);
      dt = lub ? *lub : a;
    } else {
      llvm::SmallVector<DType, 3> dts;
      for (UOpRef s : promo)
        dts.push_back(s->dtype);
      if (llvm::all_equal(dts)) {
        dt = dts[0];
      } else {
        auto lub = leastUpperDType(dts);
        dt = lub ? *lub : dts[0];
      }
    }
  }
  // Scalars (the common case in index math) skip shape broadcasting.
  if (llvm::none_of(srcs, [](UOpRef s) { return isa<RankedTensorType>(s->type); }))
    return get(op, typeFor(dt), srcs);
  llvm::SmallVector<int64_t> shape;
  for (UOpRef s : srcs) {
    auto b = tg::broadcastShapes(shape, shapeOf(s->type));
    if (b)
      shape = *b;
  }
  return get(op, tg::makeValueType(typeFor(dt), shape), srcs);
}

UOpRef Context::cast(UOpRef x, DType dt) {
  // the dialect's inference: the source's shape and memory addrspace
  tg::ValueInfo info = tg::getValueInfo(x->type);
  Type t = tg::makeValueType(typeFor(dt), shapeOf(x->type), info.isVoid ? std::nullopt : info.addrspace);
  auto attrs = DictionaryAttr::get(
      mlir, {NamedAttribute(StringAttr::get(mlir, "dtype"), TypeAttr::get(typeFor(dt)))});
  return get(Op::CAST, t, {x}, Arg{Scalar(), attrs});
}

UOpRef Context::stack(llvm::ArrayRef<UOpRef> srcs) {
  if (srcs.empty())
    return get(Op::STACK, typeFor(DType::Void), {});
  llvm::SmallVector<DType> dts;
  for (UOpRef s : srcs)
    dts.push_back(s->dtype);
  auto lub = llvm::all_equal(dts) ? std::optional(dts[0]) : leastUpperDType(dts);
  llvm::SmallVector<int64_t> shape{(int64_t)srcs.size()};
  shape.append(shapeOf(srcs[0]->type));
  return get(Op::STACK, tg::makeValueType(typeFor(lub ? *lub : dts[0]), shape),
             srcs);
}

// functools.reduce picks the operator once, from the first element.
UOpRef Context::usum(llvm::ArrayRef<UOpRef> xs) {
  bool isOr = xs[0]->dtype == DType::Bool;
  UOpRef r = xs[0];
  for (UOpRef x : xs.drop_front())
    r = isOr ? orOp(r, x) : add(r, x);
  return r;
}

UOpRef Context::uprod(llvm::ArrayRef<UOpRef> xs) {
  bool isAnd = xs[0]->dtype == DType::Bool;
  UOpRef r = xs[0];
  for (UOpRef x : xs.drop_front())
    r = isAnd ? andOp(r, x) : mul(r, x);
  return r;
}

UOpRef Context::variable(llvm::StringRef name, I lo, I hi, DType dt) {
  // i64 bounds when they fit (the usual spelling), else 128-bit ones.
  auto bound = [&](I v) -> Attribute {
    if (v >= INT64_MIN && v <= INT64_MAX)
      return IntegerAttr::get(IntegerType::get(mlir, 64), (int64_t)v);
    return tg::getScalarAttr(mlir, Scalar::fromInt(v));
  };
  auto vmm = ArrayAttr::get(mlir, {bound(lo), bound(hi)});
  auto p = tg::ParamAttr::get(mlir, -1, typeFor(dt), vmm, int64_t(1),
                              StringAttr::get(mlir, name), tg::AddrSpace::ALU,
                              std::nullopt, Attribute(), false, std::nullopt);
  auto attrs = DictionaryAttr::get(
      mlir, {NamedAttribute(StringAttr::get(mlir, "arg"), p)});
  UOpRef shape = stack({});
  return get(Op::PARAM, typeFor(dt), {shape}, Arg{Scalar(), attrs});
}

UOpRef Context::replaceSrc(UOpRef x, llvm::ArrayRef<UOpRef> src) {
  if (llvm::equal(x->src, src))
    return x;
  UOpRef r = nullptr;
  if (isALU(x->op))
    r = alu(x->op, src);
  else if (x->op == Op::CAST)
    r = cast(src[0], x->dtype);
  else if (x->op == Op::STACK)
    r = stack(src);
  if (r) {
    // tinygrad's replace(src=...) keeps the tag (the only extra attribute an
    // ALU/CAST/STACK node carries); the scheduler's realize tags rely on it.
    if (x->arg.attrs && r->arg.attrs != x->arg.attrs)
      r = get(r->op, r->type, r->src, x->arg);
    return r;
  }
  // The shape and addrspace tinygrad derives from the sources (the
  // scheduler's rewrites that turn shaped sources into scalars, or a
  // realized value into a buffer, depend on it; DerivedType.cpp).
  if (Type t = derivedType(x, src))
    return get(x->op, t, src, x->arg);
  return get(x->op, x->type, src, x->arg);
}

//===----------------------------------------------------------------------===//
// Symbolic helpers
//===----------------------------------------------------------------------===//

void Context::splitUOp(UOpRef x, Op sep, llvm::SmallVectorImpl<UOpRef> &out) const {
  if (x->op == sep) {
    for (UOpRef s : x->src)
      splitUOp(s, sep, out);
  } else {
    out.push_back(x);
  }
}

std::pair<UOpRef, I> Context::popConst(UOpRef x, Op op) {
  if (x->op == op && x->src.size() == 2 && x->src[1]->intVal())
    return {x->src[0], *x->src[1]->intVal()};
  return {x, op == Op::MUL ? 1 : 0};
}

I Context::constFactor(UOpRef x) const {
  if (x->op == Op::CONST)
    return x->intVal() ? *x->intVal() : 1;
  if (x->op == Op::STACK) {
    I g = 0;
    for (UOpRef s : x->src)
      g = pyint::gcd(g, constFactor(s));
    return g;
  }
  if (x->op == Op::ADD)
    return pyint::gcd(constFactor(x->src[0]), constFactor(x->src[1]));
  if (x->op == Op::MUL) {
    if (auto v = x->src[0]->intVal())
      return *v;
    if (auto v = x->src[1]->intVal())
      return *v;
    return 1;
  }
  if (x->op == Op::PARAM || x->op == Op::BUFFER)
    if (auto m = x->param().multipleOf)
      return *m;
  return 1;
}

UOpRef Context::divides(UOpRef x, I v) {
  if (v == 1)
    return x;
  if (v == 0)
    return nullptr;
  if (x->op == Op::CONST) {
    auto c = x->intVal();
    if (!c)
      return nullptr;
    return pyint::floorMod(*c, v) == 0 ? constLike(x, pyint::floorDiv(*c, v)) : nullptr;
  }
  if (x->op == Op::STACK) {
    llvm::SmallVector<UOpRef> srcs;
    for (UOpRef s : x->src) {
      UOpRef d = divides(s, v);
      if (!d)
        return nullptr;
      srcs.push_back(d);
    }
    return stack(srcs);
  }
  if (x->op == Op::ADD) {
    UOpRef d0 = divides(x->src[0], v);
    UOpRef d1 = d0 ? divides(x->src[1], v) : nullptr;
    return d1 ? add(d0, d1) : nullptr;
  }
  if (x->op == Op::MUL) {
    if (UOpRef d0 = divides(x->src[0], v))
      return mul(d0, x->src[1]);
    if (UOpRef d1 = divides(x->src[1], v))
      return mul(x->src[0], d1);
    return nullptr;
  }
  if (x->op == Op::PARAM || x->op == Op::BUFFER)
    if (auto m = x->param().multipleOf)
      return pyint::floorMod(*m, v) == 0 ? floordiv(x, v) : nullptr;
  return nullptr;
}

/// collections.Counter over split_uop(MUL), in first-seen order.
using Counter = std::vector<std::pair<UOpRef, long>>;
static Counter counter(const Context &ctx, UOpRef x) {
  llvm::SmallVector<UOpRef> parts;
  ctx.splitUOp(x, Op::MUL, parts);
  Counter c;
  for (UOpRef p : parts) {
    auto it = std::find_if(c.begin(), c.end(), [&](auto &e) { return e.first == p; });
    if (it == c.end())
      c.push_back({p, 1});
    else
      ++it->second;
  }
  return c;
}

UOpRef Context::divideExact(UOpRef x, UOpRef v) {
  if (x == v)
    return constLike(x, 1);
  if (v->op == Op::CONST) {
    auto c = v->intVal();
    return c ? divides(x, *c) : nullptr;
  }
  if (x->op == Op::ADD) {
    UOpRef s0 = divideExact(x->src[0], v);
    UOpRef s1 = s0 ? divideExact(x->src[1], v) : nullptr;
    return s1 ? add(s0, s1) : nullptr;
  }
  if (x->op == Op::MUL) {
    auto [fac, c] = popConst(x, Op::MUL);
    auto [divFac, divC] = popConst(v, Op::MUL);
    if (divC == 0 || pyint::floorMod(c, divC) != 0)
      return nullptr;
    Counter have = counter(*this, fac), sub = counter(*this, divFac);
    for (auto &[u, n] : sub) {
      UOpRef key = u;
      auto it = std::find_if(have.begin(), have.end(), [&](auto &e) { return e.first == key; });
      if (it == have.end())
        return nullptr;
      it->second -= n;
      if (it->second < 0)
        return nullptr;
    }
    // math.prod(elements, start=const): const first, then factors in order.
    UOpRef r = constLike(x, pyint::floorDiv(c, divC));
    for (auto &[u, n] : have)
      for (long k = 0; k < n; ++k)
        r = mul(r, u);
    return r;
  }
  return nullptr;
}

UOpRef Context::gcd(llvm::ArrayRef<UOpRef> xs) {
  llvm::SmallVector<UOpRef> terms;
  I g = 0;
  for (UOpRef u : xs) {
    I f = constFactor(u);
    UOpRef t = divides(u, f);
    if (!t)
      return nullptr;
    terms.push_back(t);
    g = pyint::gcd(g, f);
  }
  // Counter intersection (&) keeps min counts, in the first counter's order.
  Counter common = counter(*this, terms[0]);
  for (UOpRef t : llvm::ArrayRef<UOpRef>(terms).drop_front()) {
    Counter other = counter(*this, t);
    for (auto &[u, n] : common) {
      UOpRef key = u;
      auto it = std::find_if(other.begin(), other.end(), [&](auto &e) { return e.first == key; });
      n = it == other.end() ? 0 : std::min(n, it->second);
    }
  }
  UOpRef r = nullptr;
  for (auto &[u, n] : common)
    for (long k = 0; k < n; ++k)
      r = r ? mul(r, u) : u;
  UOpRef c = constLike(terms[0], g);
  return r ? mul(r, c) : c;
}

//===----------------------------------------------------------------------===//
// tuplize ordering
//===----------------------------------------------------------------------===//

/// -1/0/1 comparison of two args of the same op, as Python compares them;
/// 0 when equal.
static int compareArgs(const UOp &a, const UOp &b) {
  if (a.op == Op::CONST) {
    if (a.val().isInvalid() || b.val().isInvalid())
      return a.val().isInvalid() == b.val().isInvalid() ? 0 : (a.val().isInvalid() ? 1 : -1);
    return compareScalar(a.val(), b.val());
  }
  if (a.arg.attrs == b.arg.attrs)
    return 0;
  if (a.op == Op::PARAM || a.op == Op::BUFFER) {
    ParamInfo p = a.param(), q = b.param();
    if (p.slot != q.slot)
      return p.slot < q.slot ? -1 : 1;
    if (a.dtype != b.dtype)
      return dtypeLess(a.dtype, b.dtype) ? -1 : 1;
    if (p.vminVmax && q.vminVmax) {
      if (int c = compareScalar(p.vminVmax->first, q.vminVmax->first))
        return c;
      if (int c = compareScalar(p.vminVmax->second, q.vminVmax->second))
        return c;
    }
    if (p.multipleOf && q.multipleOf && *p.multipleOf != *q.multipleOf)
      return *p.multipleOf < *q.multipleOf ? -1 : 1;
    if (int c = p.name.compare(q.name))
      return c;
    return 0;
  }
  if (a.op == Op::RANGE) {
    auto ia = dyn_cast_or_null<DenseI64ArrayAttr>(a.arg.attrs.get("ids"));
    auto ib = dyn_cast_or_null<DenseI64ArrayAttr>(b.arg.attrs.get("ids"));
    if (ia && ib) {
      auto x = ia.asArrayRef(), y = ib.asArrayRef();
      if (x != y)
        return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end()) ? -1 : 1;
    }
    auto ta = dyn_cast_or_null<tg::AxisTypeAttr>(a.arg.attrs.get("axis_type"));
    auto tb = dyn_cast_or_null<tg::AxisTypeAttr>(b.arg.attrs.get("axis_type"));
    if (ta && tb && ta.getValue() != tb.getValue())
      return ta.getValue() < tb.getValue() ? -1 : 1;
    return 0;
  }
  if (a.op == Op::SPECIAL) {
    auto na = dyn_cast_or_null<StringAttr>(a.arg.attrs.get("name"));
    auto nb = dyn_cast_or_null<StringAttr>(b.arg.attrs.get("name"));
    if (na && nb)
      return na.getValue().compare(nb.getValue());
  }
  if (a.op == Op::CAST || a.op == Op::BITCAST)
    return a.dtype == b.dtype ? 0 : dtypeLess(a.dtype, b.dtype) ? -1 : 1;
  return 0;
}

static int compareTuplize(UOpRef a, UOpRef b) {
  if (a == b)
    return 0;
  if (a->op != b->op)
    return a->op < b->op ? -1 : 1;
  if (int c = compareArgs(*a, *b))
    return c;
  if (a->dtype != b->dtype)
    return dtypeLess(a->dtype, b->dtype) ? -1 : 1;
  size_t n = std::min(a->src.size(), b->src.size());
  for (size_t i = 0; i < n; ++i)
    if (int c = compareTuplize(a->src[i], b->src[i]))
      return c;
  if (a->src.size() != b->src.size())
    return a->src.size() < b->src.size() ? -1 : 1;
  return 0;
}

bool Context::tuplizeLess(UOpRef a, UOpRef b) const {
  return compareTuplize(a, b) < 0;
}

//===----------------------------------------------------------------------===//
// Backward slices
//===----------------------------------------------------------------------===//

template <typename Fn>
static bool anyInSlice(UOpRef x, Fn pred) {
  llvm::SmallVector<UOpRef, 16> stack{x};
  llvm::SmallPtrSet<UOpRef, 16> seen;
  while (!stack.empty()) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (pred(u))
      return true;
    for (UOpRef s : u->src)
      stack.push_back(s);
  }
  return false;
}

bool Context::inBackwardSlice(UOpRef needle, UOpRef x) const {
  return anyInSlice(x, [&](UOpRef u) { return u == needle; });
}

bool Context::opInBackwardSlice(UOpRef x, std::initializer_list<Op> ops) const {
  return anyInSlice(x, [&](UOpRef u) {
    return std::find(ops.begin(), ops.end(), u->op) != ops.end();
  });
}

size_t Context::backwardSliceSize(UOpRef x) const {
  size_t n = 0;
  anyInSlice(x, [&](UOpRef) { ++n; return false; });
  return n - 1; // tinygrad's backward_slice excludes the node itself
}

} // namespace mlir::tinygrad::sym
