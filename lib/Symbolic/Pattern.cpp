//===- Pattern.cpp - UPat construction, compilation and matching ----------===//
#include "tinygrad/Symbolic/Pattern.h"

#include "Rules/PyOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace mlir::tinygrad::sym::pat {

llvm::StringRef getNameString(Name n) {
  static const char *const table[] = {
      "",
#define TG_PATTERN_NAME(n) #n,
#include "tinygrad/Symbolic/PatternNames.def"
  };
  return unsigned(n) < kNumNames ? table[unsigned(n)] : "";
}

llvm::SmallVector<Op, 4> OpSet::ops() const {
  llvm::SmallVector<Op, 4> r;
  for (unsigned i = 0; i < kNumOps; ++i)
    if (contains(Op(i)))
      r.push_back(Op(i));
  return r;
}

static OpSet opsWhere(bool (*pred)(Op)) {
  OpSet s;
  for (unsigned i = 0; i < kNumOps; ++i)
    if (pred(Op(i)))
      s.insert(Op(i));
  return s;
}
OpSet unaryOps() { static OpSet s = opsWhere(isUnary); return s; }
OpSet binaryOps() { static OpSet s = opsWhere(isBinary); return s; }
OpSet ternaryOps() { static OpSet s = opsWhere(isTernary); return s; }
OpSet aluOps() { static OpSet s = opsWhere(isALU); return s; }
OpSet comparisonOps() { static OpSet s = opsWhere(isComparison); return s; }
OpSet commutativeOps() { static OpSet s = opsWhere(isCommutative); return s; }
OpSet associativeOps() { static OpSet s = opsWhere(isAssociative); return s; }
OpSet idempotentOps() { static OpSet s = opsWhere(isIdempotent); return s; }
OpSet movementOps() { static OpSet s = opsWhere(isMovement); return s; }
OpSet irreducibleOps() { static OpSet s = opsWhere(isIrreducible); return s; }

DTypeSet uintDTypes() { return {DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64}; }
DTypeSet sintDTypes() { return {DType::Int8, DType::Int16, DType::Int32, DType::Int64}; }
DTypeSet intDTypes() { return uintDTypes() | sintDTypes(); }
DTypeSet floatDTypes() {
  return {DType::FP8E4M3, DType::FP8E5M2, DType::FP8E4M3FNUZ, DType::FP8E5M2FNUZ,
          DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};
}
DTypeSet weakDTypes() { return {DType::WeakInt, DType::WeakFloat}; }

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Pat Pat::named(Name n) const { Pat p = *this; p.name = n; return p; }
Pat Pat::dtype(DTypeSet d) const { Pat p = *this; p.dtypes = d; return p; }
Pat Pat::allowAnyLen() const { Pat p = *this; p.anyLen = true; return p; }
Pat Pat::withArg(const Scalar &v) const { Pat p = *this; p.arg = v; return p; }
Pat Pat::withArgIf(ArgPred pred) const { Pat p = *this; p.argPred = pred; return p; }
Pat Pat::tag(std::initializer_list<const char *> ts) const {
  Pat p = *this;
  for (const char *t : ts)
    p.tags.emplace_back(t);
  return p;
}
Pat Pat::earlyReject(OpSet o) const { Pat p = *this; p.customEarlyReject = o; return p; }

Pat up(OpSet ops, std::vector<Pat> src, Name n, DTypeSet dt) {
  Pat p;
  p.ops = ops;
  p.dtypes = dt;
  p.name = n;
  p.srcKind = Pat::Src::Tuple;
  p.src = std::move(src);
  return p;
}
Pat upList(OpSet ops, std::vector<Pat> src, Name n, DTypeSet dt) {
  Pat p = up(ops, std::move(src), n, dt);
  // tinygrad collapses a list of identical patterns to one order.
  if (llvm::all_of(p.src, [&](const Pat &s) { return s == p.src[0]; }))
    return p;
  p.srcKind = Pat::Src::List;
  return p;
}
Pat upRepeat(OpSet ops, Pat each, Name n, DTypeSet dt) {
  Pat p = up(ops, {std::move(each)}, n, dt);
  p.srcKind = Pat::Src::Repeat;
  return p;
}
Pat op(OpSet ops, Name n, DTypeSet dt) {
  Pat p;
  p.ops = ops;
  p.name = n;
  p.dtypes = dt;
  return p;
}
Pat var(Name n, DTypeSet dt) { return op(OpSet(), n, dt); }
Pat cvar(Name n, DTypeSet dt) { return op(Op::CONST, n, dt); }
Pat cscalar(const Scalar &v, DTypeSet dt, Name n) { return cvar(n, dt).withArg(v); }
Pat cnum(int64_t v, DTypeSet dt) { return cscalar(Scalar::fromInt(v), dt); }
Pat cfloat(double v, DTypeSet dt) { return cscalar(Scalar::fromFloat(v), dt); }
Pat cbool(bool v) { return cscalar(Scalar::fromBool(v), DType::Bool); }
Pat cinvalid(Name n) { return cscalar(Scalar::invalid(), {}, n); }
Pat any(std::vector<Pat> alts) {
  Pat p;
  p.srcKind = Pat::Src::Alternatives;
  p.src = std::move(alts);
  return p;
}

Pat alu(Op o, std::vector<Pat> srcs) {
  DTypeSet dt = o == Op::CMPLT || o == Op::CMPNE ? DTypeSet(DType::Bool) : srcs.back().dtypes;
  return isCommutative(o) ? upList(o, std::move(srcs), Name::None, dt)
                          : up(o, std::move(srcs), Name::None, dt);
}
Pat Pat::alu(Op o, std::vector<Pat> rest) const {
  rest.insert(rest.begin(), *this);
  return pat::alu(o, std::move(rest));
}
Pat Pat::f(OpSet o, Name n) const { return up(o, {*this}, n); }
Pat Pat::cast(DTypeSet d, Name n) const {
  if (!d.empty() && dtypes.bits == d.bits && __builtin_popcount(d.bits) == 1)
    return *this;
  return up(Op::CAST, {*this}, n, d);
}
Pat Pat::bitcast(DTypeSet d, Name n) const { return up(Op::BITCAST, {*this}, n, d); }
Pat Pat::orCasted(Name n) const {
  return any({n == Name::None ? *this : named(n), up(Op::CAST, {*this}, n)});
}
Pat Pat::orAfter(Name n) const {
  return any({n == Name::None ? *this : named(n), up(Op::AFTER, {*this}, n).allowAnyLen()});
}
Pat Pat::where(Pat t, Pat fl) const { return pat::alu(Op::WHERE, {*this, std::move(t), std::move(fl)}); }
Pat Pat::ne(Pat o) const { return pat::alu(Op::CMPNE, {*this, std::move(o)}); }
// x.cast(dtypes.bool).ne(True): the True is UPat.cvar(arg=True), any dtype.
Pat Pat::logicalNot() const { return cast(DType::Bool).ne(cscalar(Scalar::fromBool(true))); }
Pat Pat::broadcast(Name n) const { return upRepeat(Op::STACK, *this, n, dtypes); }
Pat Pat::index(std::vector<Pat> idx, Name n) const {
  idx.insert(idx.begin(), *this);
  return up(Op::INDEX, std::move(idx), n);
}
Pat Pat::load(std::vector<Pat> rest, Name n) const {
  rest.insert(rest.begin(), *this);
  return up(Op::LOAD, std::move(rest), n);
}
Pat Pat::store(std::vector<Pat> rest, Name n) const {
  rest.insert(rest.begin(), *this);
  return up(Op::STORE, std::move(rest), n);
}
Pat Pat::after(std::vector<Pat> rest, Name n) const {
  rest.insert(rest.begin(), *this);
  return up(Op::AFTER, std::move(rest), n, dtypes);
}
Pat Pat::end(std::vector<Pat> rest, Name n) const {
  rest.insert(rest.begin(), *this);
  return up(Op::END, std::move(rest), n);
}

Pat operator+(Pat a, Pat b) { return alu(Op::ADD, {std::move(a), std::move(b)}); }
Pat operator*(Pat a, Pat b) { return alu(Op::MUL, {std::move(a), std::move(b)}); }
Pat operator^(Pat a, Pat b) { return alu(Op::XOR, {std::move(a), std::move(b)}); }
Pat operator|(Pat a, Pat b) { return alu(Op::OR, {std::move(a), std::move(b)}); }
Pat operator&(Pat a, Pat b) { return alu(Op::AND, {std::move(a), std::move(b)}); }
Pat operator<<(Pat a, Pat b) { return alu(Op::SHL, {std::move(a), std::move(b)}); }
Pat operator>>(Pat a, Pat b) { return alu(Op::SHR, {std::move(a), std::move(b)}); }
Pat operator<(Pat a, Pat b) { return alu(Op::CMPLT, {std::move(a), std::move(b)}); }
Pat fdiv(Pat a, Pat b) { return alu(Op::FLOORDIV, {std::move(a), std::move(b)}); }
Pat mod(Pat a, Pat b) { return alu(Op::FLOORMOD, {std::move(a), std::move(b)}); }
Pat maximum(Pat a, Pat b) { return alu(Op::MAX, {std::move(a), std::move(b)}); }
// A Python int on the right of a UPat operator is `UPat.cvar(arg=v)`.
Pat operator+(Pat a, int64_t v) { return std::move(a) + cnum(v); }
Pat operator*(Pat a, int64_t v) { return std::move(a) * cnum(v); }
Pat operator^(Pat a, int64_t v) { return std::move(a) ^ cnum(v); }
Pat operator|(Pat a, int64_t v) { return std::move(a) | cnum(v); }
Pat operator&(Pat a, int64_t v) { return std::move(a) & cnum(v); }
Pat operator<<(Pat a, int64_t v) { return std::move(a) << cnum(v); }
Pat operator>>(Pat a, int64_t v) { return std::move(a) >> cnum(v); }
Pat operator<(Pat a, int64_t v) { return std::move(a) < cnum(v); }
Pat operator<(int64_t v, Pat a) { return cnum(v) < std::move(a); }
Pat fdiv(Pat a, int64_t v) { return fdiv(std::move(a), cnum(v)); }
Pat mod(Pat a, int64_t v) { return mod(std::move(a), cnum(v)); }
Pat operator-(Pat a) { return std::move(a) * cnum(-1); }
Pat operator*(int64_t v, Pat a) { return cnum(v) * std::move(a); }
Pat operator+(int64_t v, Pat a) { return cnum(v) + std::move(a); }
Pat reciprocal(Pat a) { return alu(Op::RECIPROCAL, {std::move(a)}); }
Pat operator/(Pat a, Pat b) { return std::move(a) * reciprocal(std::move(b)); }

bool Pat::operator==(const Pat &o) const {
  return ops == o.ops && dtypes.bits == o.dtypes.bits && name == o.name &&
         srcKind == o.srcKind && anyLen == o.anyLen && arg.has_value() == o.arg.has_value() &&
         (!arg || *arg == *o.arg) && argPred == o.argPred && tags == o.tags && src == o.src;
}

std::string Pat::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (srcKind == Src::Alternatives) {
    os << "UPat.any(";
    llvm::interleaveComma(src, os, [&](const Pat &p) { os << p.str(); });
    os << ")";
    return s;
  }
  os << "UPat(";
  llvm::SmallVector<std::string, 4> parts;
  auto ol = ops.ops();
  if (!ol.empty()) {
    std::string o = ol.size() == 1 ? "Ops." + getOpName(ol[0]).str() : "{";
    if (ol.size() > 1) {
      for (size_t i = 0; i < ol.size(); ++i)
        o += (i ? ", Ops." : "Ops.") + getOpName(ol[i]).str();
      o += "}";
    }
    parts.push_back(o);
  }
  if (!dtypes.empty()) {
    std::string d = "dtype={";
    bool first = true;
    for (unsigned i = 0; i < kNumDTypes; ++i)
      if (dtypes.contains(DType(i))) {
        d += (first ? "" : ", ") + getInfo(DType(i)).name.str();
        first = false;
      }
    parts.push_back(d + "}");
  }
  if (srcKind != Src::Any) {
    std::string o = srcKind == Src::List ? "src=[" : srcKind == Src::Repeat ? "src=" : "src=(";
    for (size_t i = 0; i < src.size(); ++i)
      o += (i ? ", " : "") + src[i].str();
    o += srcKind == Src::List ? "]" : srcKind == Src::Repeat ? "" : src.size() == 1 ? ",)" : ")";
    parts.push_back(o);
  }
  if (arg)
    parts.push_back("arg=" + formatBound(*arg));
  if (argPred)
    parts.push_back("arg=<predicate>");
  if (name != Name::None)
    parts.push_back("name=\"" + getNameString(name).str() + "\"");
  if (anyLen)
    parts.push_back("allow_any_len=True");
  for (const std::string &t : tags)
    parts.push_back("tag=\"" + t + "\"");
  llvm::interleaveComma(parts, os);
  os << ")";
  return s;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

namespace {
struct Compiler {
  Program &prog;
  unsigned emit(const Pat &p, unsigned at) {
    Program::Node &n = prog.nodes[at];
    n.ops = p.ops;
    n.dtypes = p.dtypes.bits;
    n.name = p.name;
    n.srcKind = p.srcKind;
    n.anyLen = p.anyLen;
    n.argKind = p.arg ? 1 : p.argPred ? 2 : 0;
    n.extra = n.tagIdx = 0xffff;
    if (p.arg) {
      n.extra = prog.args.size();
      prog.args.push_back(*p.arg);
    } else if (p.argPred) {
      n.extra = prog.argPreds.size();
      prog.argPreds.push_back(p.argPred);
    }
    if (!p.tags.empty()) {
      n.tagIdx = prog.tags.size();
      prog.tags.push_back(p.tags);
    }
    // The matcher keeps a source order on the stack.
    if ((p.srcKind == Pat::Src::Tuple || p.srcKind == Pat::Src::List) && p.src.size() > 16)
      llvm::report_fatal_error("pattern has more than 16 sources: " + llvm::Twine(p.str()));
    n.nsrc = p.src.size();
    n.flat = (p.srcKind == Pat::Src::Tuple ||
              (p.srcKind == Pat::Src::List && p.src.size() == 2)) &&
             llvm::all_of(p.src, [](const Pat &s) { return s.srcKind == Pat::Src::Any; });
    unsigned first = prog.nodes.size();
    n.firstSrc = first;
    // `n` is invalidated by the resize below.
    prog.nodes.resize(first + p.src.size());
    for (size_t i = 0; i < p.src.size(); ++i)
      emit(p.src[i], first + i);
    return at;
  }
};

OpSet earlyRejectOf(const Pat &p) {
  if (p.customEarlyReject)
    return *p.customEarlyReject;
  OpSet r;
  if (p.srcKind == Pat::Src::Any || p.srcKind == Pat::Src::Alternatives)
    return r;
  for (const Pat &s : p.src)
    if (s.ops.size() == 1 && s.srcKind != Pat::Src::Alternatives)
      r = r | s.ops;
  return r;
}
Program::Quick quickOf(const Pat &p) {
  Program::Quick q;
  if (p.srcKind == Pat::Src::Alternatives)
    return q;
  q.dtypes = p.dtypes.bits;
  if (p.srcKind != Pat::Src::Tuple && p.srcKind != Pat::Src::List)
    return q;
  q.nsrc = p.src.size();
  q.countKind = p.anyLen ? 2 : 1;
  if (p.srcKind == Pat::Src::List && p.src.size() != 2)
    return q; // longer lists: only the count is checked
  q.commutedPair = p.srcKind == Pat::Src::List;
  for (unsigned i = 0; i < 2 && i < p.src.size(); ++i) {
    const Pat &s = p.src[i];
    if (s.srcKind == Pat::Src::Alternatives)
      continue; // an alternative may match any op
    q.src[i] = s.ops;
    q.srcDTypes[i] = s.dtypes.bits;
  }
  return q;
}
} // namespace

Program Program::compile(const Pat &p) {
  if (p.src.size() > 0xfff0)
    llvm::report_fatal_error("pattern too large");
  Program prog;
  prog.nodes.resize(1);
  Compiler{prog}.emit(p, 0);
  prog.required = earlyRejectOf(p);
  prog.quick = quickOf(p);
  return prog;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

namespace {
/// UPat arg equality is Python's `!=`: 0 == 0.0 == False.
bool pyEq(const Scalar &want, const Scalar &have) { return rules::py::eq(want, have); }

llvm::StringRef tagOf(UOpRef u) {
  if (!u->arg.attrs)
    return {};
  if (auto s = dyn_cast_or_null<StringAttr>(u->arg.attrs.get("tg.tag")))
    return s.getValue();
  return {};
}

struct Matcher {
  const Program &prog;
  Bindings &binds;

  /// The checks of one node that need no bindings.
  bool fits(const Program::Node &n, UOpRef u) const {
    if (!n.ops.empty() && !n.ops.contains(u->op))
      return false;
    if (n.dtypes && !(n.dtypes >> unsigned(u->dtype) & 1))
      return false;
    if (n.argKind == 1 && (u->op != Op::CONST || !pyEq(prog.args[n.extra], u->val())))
      return false;
    if (n.argKind == 2 && !prog.argPreds[n.extra](u))
      return false;
    if (n.tagIdx != 0xffff) {
      llvm::StringRef t = tagOf(u);
      if (!llvm::is_contained(prog.tags[n.tagIdx], t.str()))
        return false;
    }
    return true;
  }

  /// Sources of a flat node in one order: leaf checks and bindings, undone
  /// by restoring the binding mask when the order fails.
  bool flatOrder(const Program::Node &n, UOpRef u, bool swapped,
                 llvm::function_ref<bool()> k) {
    uint64_t saved[2] = {binds.mask[0], binds.mask[1]};
    for (unsigned i = 0; i < n.nsrc; ++i) {
      const Program::Node &c = prog.nodes[n.firstSrc + (swapped ? 1 - i : i)];
      UOpRef s = u->src[i];
      bool ok = fits(c, s);
      if (ok && c.name != Name::None) {
        if (binds.has(c.name))
          ok = binds.slot[unsigned(c.name)] == s;
        else
          binds.bind(c.name, s);
      }
      if (!ok) {
        binds.mask[0] = saved[0];
        binds.mask[1] = saved[1];
        return false;
      }
    }
    if (k())
      return true;
    binds.mask[0] = saved[0];
    binds.mask[1] = saved[1];
    return false;
  }

  bool node(unsigned ni, UOpRef u, llvm::function_ref<bool()> k) {
    const Program::Node &n = prog.nodes[ni];
    if (n.srcKind == Pat::Src::Alternatives) {
      for (unsigned i = 0; i < n.nsrc; ++i)
        if (node(n.firstSrc + i, u, k))
          return true;
      return false;
    }
    if (!fits(n, u))
      return false;
    switch (n.srcKind) {
    case Pat::Src::Tuple:
    case Pat::Src::List:
      if (n.anyLen ? u->src.size() < n.nsrc : u->src.size() != n.nsrc)
        return false;
      break;
    default:
      break;
    }
    bool bound = false;
    if (n.name != Name::None) {
      if (binds.has(n.name)) {
        if (binds.slot[unsigned(n.name)] != u)
          return false;
      } else {
        binds.bind(n.name, u);
        bound = true;
      }
    }
    bool res = false;
    if (n.flat) {
      res = flatOrder(n, u, false, k) ||
            (n.srcKind == Pat::Src::List && flatOrder(n, u, true, k));
      if (bound)
        binds.unbind(n.name);
      return res;
    }
    switch (n.srcKind) {
    case Pat::Src::Any:
      res = k();
      break;
    case Pat::Src::Repeat:
      res = repeat(n.firstSrc, u, 0, k);
      break;
    case Pat::Src::Tuple: {
      unsigned order[16];
      for (unsigned i = 0; i < n.nsrc; ++i)
        order[i] = i;
      res = seq(n, order, u, 0, k);
      break;
    }
    case Pat::Src::List: {
      unsigned order[16];
      for (unsigned i = 0; i < n.nsrc; ++i)
        order[i] = i;
      do {
        if ((res = seq(n, order, u, 0, k)))
          break;
      } while (std::next_permutation(order, order + n.nsrc));
      break;
    }
    case Pat::Src::Alternatives:
      llvm_unreachable("handled above");
    }
    if (bound)
      binds.unbind(n.name);
    return res;
  }

  bool seq(const Program::Node &n, const unsigned *order, UOpRef u, unsigned i,
           llvm::function_ref<bool()> k) {
    if (i == n.nsrc)
      return k();
    return node(n.firstSrc + order[i], u->src[i],
                [&] { return seq(n, order, u, i + 1, k); });
  }
  bool repeat(unsigned child, UOpRef u, unsigned i, llvm::function_ref<bool()> k) {
    if (i == u->src.size())
      return k();
    return node(child, u->src[i], [&] { return repeat(child, u, i + 1, k); });
  }
};
} // namespace

bool Program::match(UOpRef u, Bindings &binds, llvm::function_ref<bool()> k) const {
  return Matcher{*this, binds}.node(0, u, k);
}

} // namespace mlir::tinygrad::sym::pat
