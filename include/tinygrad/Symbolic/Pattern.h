//===- Pattern.h - tinygrad's UPat as a declarative pattern language -*- C++ -*-===//
//
// A rule is one entry of a list, as in tinygrad: a pattern (data) and what to
// build from its bindings. The pattern reads like tinygrad's UPat:
//
//   {"x*1 -> x",   var(x) * 1,               to(x)},
//   {"x//x -> 1",  fdiv(var(x), var(x)),     [](Match &m) { return m.ctx.constLike(m[x], 1); }},
//   {"(x^y)^y",    (var(x) ^ var(y)) ^ var(y), to(x)},
//
// Semantics are tinygrad's (../shared/reference/tinygrad-rewrite.md §1): op
// and dtype sets, Python-equality args, a repeated name must bind the
// identical (interned) node, a src tuple matches one order, a src list every
// permutation in itertools order, a single src pattern repeats over any
// number of sources, `anyLen` matches a prefix, `any(...)` tries
// alternatives in order, tags match the node's tag. Bindings are enumerated
// depth first in tinygrad's order and the first non-null result wins.
//
// Patterns are compiled once, when a PatternMatcher is built, into flat
// tables (Program) that the matcher walks; tinygrad's early_reject becomes a
// bitmask test against the ops of the node's sources.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SYMBOLIC_PATTERN_H
#define TINYGRAD_SYMBOLIC_PATTERN_H

#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace mlir::tinygrad::sym::pat {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// `None` is 0, so a braced default (`var({}, dtype)`) binds nothing.
enum class Name : uint8_t {
  None = 0,
#define TG_PATTERN_NAME(n) n,
#include "tinygrad/Symbolic/PatternNames.def"
  NumNames
};
constexpr unsigned kNumNames = static_cast<unsigned>(Name::NumNames);
llvm::StringRef getNameString(Name n);

/// The names as plain identifiers, for `using namespace pat::names;`.
namespace names {
#define TG_PATTERN_NAME(n) constexpr Name n = Name::n;
#include "tinygrad/Symbolic/PatternNames.def"
} // namespace names

//===----------------------------------------------------------------------===//
// Op and dtype sets
//===----------------------------------------------------------------------===//

struct OpSet {
  uint64_t w[2] = {0, 0};
  OpSet() = default;
  OpSet(Op op) { insert(op); }
  OpSet(std::initializer_list<Op> ops) {
    for (Op o : ops)
      insert(o);
  }
  void insert(Op o) { w[unsigned(o) >> 6] |= 1ull << (unsigned(o) & 63); }
  bool contains(Op o) const { return w[unsigned(o) >> 6] >> (unsigned(o) & 63) & 1; }
  bool empty() const { return !w[0] && !w[1]; }
  unsigned size() const { return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]); }
  /// Whether every op of this set is also in `o`.
  bool subsetOf(const OpSet &o) const { return !(w[0] & ~o.w[0]) && !(w[1] & ~o.w[1]); }
  OpSet operator|(const OpSet &o) const {
    OpSet r = *this;
    r.w[0] |= o.w[0];
    r.w[1] |= o.w[1];
    return r;
  }
  bool operator==(const OpSet &o) const { return w[0] == o.w[0] && w[1] == o.w[1]; }
  /// The ops in enum order.
  llvm::SmallVector<Op, 4> ops() const;
};

/// GroupOp sets.
OpSet unaryOps();
OpSet binaryOps();
OpSet ternaryOps();
OpSet aluOps();
OpSet comparisonOps();
OpSet commutativeOps();
OpSet associativeOps();
OpSet idempotentOps();
OpSet movementOps();
OpSet irreducibleOps();

struct DTypeSet {
  uint32_t bits = 0;
  DTypeSet() = default;
  DTypeSet(DType d) : bits(1u << unsigned(d)) {}
  DTypeSet(std::initializer_list<DType> ds) {
    for (DType d : ds)
      bits |= 1u << unsigned(d);
  }
  bool contains(DType d) const { return bits >> unsigned(d) & 1; }
  bool empty() const { return !bits; }
  DTypeSet operator|(DTypeSet o) const {
    DTypeSet r;
    r.bits = bits | o.bits;
    return r;
  }
};
static_assert(kNumDTypes <= 32, "DTypeSet is a 32-bit mask");

/// tinygrad's dtype groups, exactly as dtypes.* spells them (weak kinds
/// are only in `weaks`).
DTypeSet uintDTypes();  ///< dtypes.uints
DTypeSet sintDTypes();  ///< dtypes.sints
DTypeSet intDTypes();   ///< dtypes.ints
DTypeSet floatDTypes(); ///< dtypes.floats
DTypeSet weakDTypes();  ///< dtypes.weaks

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A predicate on a node's arg where Python equality on a constant is not
/// enough (REDUCE's op, RANGE's axis type, ...).
using ArgPred = bool (*)(UOpRef);

/// One UPat. Value type; the builder methods return modified copies.
class Pat {
public:
  enum class Src : uint8_t { Any, Tuple, List, Repeat, Alternatives };

  OpSet ops;             ///< empty: any op
  DTypeSet dtypes;       ///< empty: any dtype
  Name name = Name::None;
  Src srcKind = Src::Any;
  bool anyLen = false;   ///< allow_any_len: the sources are a prefix
  std::optional<Scalar> arg; ///< CONST value, compared with Python equality
  ArgPred argPred = nullptr;
  std::vector<std::string> tags; ///< empty: any tag
  std::vector<Pat> src;
  /// Ops of single-op source patterns (tinygrad's early_reject) when set
  /// explicitly (custom_early_reject).
  std::optional<OpSet> customEarlyReject;

  Pat() = default;

  Pat named(Name n) const;
  Pat dtype(DTypeSet d) const;
  Pat allowAnyLen() const;
  Pat withArg(const Scalar &v) const;
  Pat withArgIf(ArgPred p) const;
  Pat tag(std::initializer_list<const char *> ts) const;
  Pat earlyReject(OpSet ops) const;

  // UOp-style sugar (tinygrad's UPat methods of the same names).
  Pat f(OpSet op, Name n = Name::None) const;
  Pat cast(DTypeSet d = {}, Name n = Name::None) const;
  Pat bitcast(DTypeSet d = {}, Name n = Name::None) const;
  Pat orCasted(Name n = Name::None) const;
  Pat orAfter(Name n = Name::None) const;
  Pat where(Pat t, Pat f) const;
  Pat ne(Pat o) const;
  Pat logicalNot() const;
  Pat broadcast(Name n = Name::None) const;
  Pat index(std::vector<Pat> idx, Name n = Name::None) const;
  Pat load(std::vector<Pat> rest = {}, Name n = Name::None) const;
  Pat store(std::vector<Pat> rest, Name n = Name::None) const;
  Pat after(std::vector<Pat> rest = {}, Name n = Name::None) const;
  Pat end(std::vector<Pat> rest = {}, Name n = Name::None) const;
  Pat alu(Op op, std::vector<Pat> rest) const;

  /// A tinygrad-like rendering, for diagnostics and docs.
  std::string str() const;
  bool operator==(const Pat &o) const;
};

/// UPat(op, dtype, src=tuple, name=...).
Pat up(OpSet ops, std::vector<Pat> src = {}, Name n = Name::None, DTypeSet dt = {});
/// UPat(op, src=list): every permutation of the sources.
Pat upList(OpSet ops, std::vector<Pat> src, Name n = Name::None, DTypeSet dt = {});
/// UPat(op, src=UPat): the pattern repeated over any number of sources.
Pat upRepeat(OpSet ops, Pat each, Name n = Name::None, DTypeSet dt = {});
/// UPat(op) / UPat(op, name=...): sources not inspected.
Pat op(OpSet ops, Name n = Name::None, DTypeSet dt = {});
/// UPat.var(name, dtype): any op.
Pat var(Name n = Name::None, DTypeSet dt = {});
/// UPat.cvar(name, dtype): any CONST.
Pat cvar(Name n = Name::None, DTypeSet dt = {});
/// UPat.const(dtype, v) / UPat.cvar(arg=v): a CONST equal to v (Python ==).
Pat cnum(int64_t v, DTypeSet dt = {});
Pat cfloat(double v, DTypeSet dt = {});
Pat cbool(bool v);
Pat cscalar(const Scalar &v, DTypeSet dt = {}, Name n = Name::None);
/// A CONST holding Invalid (tinygrad's invalid_pat).
Pat cinvalid(Name n = Name::None);
/// UPat.any(alternatives...).
Pat any(std::vector<Pat> alts);

/// UPat.alu and Python operator sugar: commutative ops take a src list, the
/// dtype is bool for CMPLT/CMPNE, else the last source's dtype constraint;
/// an integer operand is `UPat.cvar(arg=v)`.
Pat alu(Op op, std::vector<Pat> srcs);
Pat operator+(Pat a, Pat b);
Pat operator*(Pat a, Pat b);
Pat operator^(Pat a, Pat b);
Pat operator|(Pat a, Pat b);
Pat operator&(Pat a, Pat b);
Pat operator<<(Pat a, Pat b);
Pat operator>>(Pat a, Pat b);
Pat operator<(Pat a, Pat b);
Pat fdiv(Pat a, Pat b); ///< `a // b` (FLOORDIV)
Pat mod(Pat a, Pat b);  ///< `a % b` (FLOORMOD)
Pat maximum(Pat a, Pat b);
Pat operator+(Pat a, int64_t v);
Pat operator*(Pat a, int64_t v);
Pat operator^(Pat a, int64_t v);
Pat operator|(Pat a, int64_t v);
Pat operator&(Pat a, int64_t v);
Pat operator<<(Pat a, int64_t v);
Pat operator>>(Pat a, int64_t v);
Pat operator<(Pat a, int64_t v);
Pat operator<(int64_t v, Pat a);
Pat fdiv(Pat a, int64_t v);
Pat mod(Pat a, int64_t v);
Pat operator*(int64_t v, Pat a);
Pat operator+(int64_t v, Pat a);
/// `a / b` on float UPats is `a * b.reciprocal()`, as tinygrad spells it.
Pat operator/(Pat a, Pat b);
Pat reciprocal(Pat a);
/// `-x` on a UPat is `x * -1`.
Pat operator-(Pat a);

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Name -> node for one match. Which names are bound is a bitmask, so a
/// fresh set costs two stores rather than clearing every slot.
struct Bindings {
  /// Only slots whose bit is set in `mask` are meaningful; leaving the rest
  /// uninitialized saves a memset per matched node.
  UOpRef slot[kNumNames];
  uint64_t mask[2] = {0, 0};
  Bindings() {} // user-provided: `slot` stays uninitialized
  bool has(Name n) const { return mask[unsigned(n) >> 6] >> (unsigned(n) & 63) & 1; }
  UOpRef get(Name n) const { return has(n) ? slot[unsigned(n)] : nullptr; }
  void bind(Name n, UOpRef u) {
    slot[unsigned(n)] = u;
    mask[unsigned(n) >> 6] |= 1ull << (unsigned(n) & 63);
  }
  void unbind(Name n) { mask[unsigned(n) >> 6] &= ~(1ull << (unsigned(n) & 63)); }
};
static_assert(kNumNames <= 128, "Bindings::mask holds 128 names");

/// The bindings of one match, handed to a rule's builder.
struct Match {
  Context &ctx;
  /// The pass's state (tinygrad's `ctx=` argument); null for symbolic rules.
  void *user = nullptr;
  /// The node being rewritten.
  UOpRef root = nullptr;
  Bindings binds;

  UOpRef operator[](Name n) const { return binds.get(n); }
  template <typename T> T &state() const { return *static_cast<T *>(user); }
};

/// What a rule builds: a new node, or null when it declines (tinygrad's
/// lambda returning None).
using Builder = UOpRef (*)(Match &);

/// The rule's result is one of its bindings (`x + 0 -> x`): no C++ needed.
struct To {
  Name name;
};
inline To to(Name n) { return {n}; }

struct Rule {
  const char *name;
  Pat pat;
  Builder fn = nullptr;
  Name result = Name::None;

  Rule(const char *name, Pat pat, Builder fn) : name(name), pat(std::move(pat)), fn(fn) {}
  Rule(const char *name, Pat pat, To t) : name(name), pat(std::move(pat)), result(t.name) {}
};

//===----------------------------------------------------------------------===//
// Compiled patterns
//===----------------------------------------------------------------------===//

/// A pattern flattened into one array; a node's sources are contiguous.
struct Program {
  struct Node {
    OpSet ops;
    uint32_t dtypes;
    Name name;
    Pat::Src srcKind;
    bool anyLen;
    /// A tuple, or a two-source list, whose sources are all leaves (no
    /// sources of their own, no alternatives): matched without recursion.
    bool flat;
    uint8_t argKind; ///< 0 none, 1 CONST value (Python ==), 2 predicate
    uint16_t nsrc;
    uint16_t firstSrc;
    uint16_t extra; ///< index into args/argPreds/tags, or 0xffff
    uint16_t tagIdx;
  };
  std::vector<Node> nodes;
  std::vector<Scalar> args;
  std::vector<ArgPred> argPreds;
  std::vector<std::vector<std::string>> tags;
  /// The ops a node's sources must include (early_reject).
  OpSet required;

  static Program compile(const Pat &p);
  /// A necessary condition for `match`, as bit tests on the node and its
  /// first two sources (op, dtype, source count): most rules indexed under a
  /// node's op fail here, before the backtracking matcher is entered.
  struct Quick {
    uint32_t dtypes = 0;      ///< root dtype mask (0: any)
    uint16_t nsrc = 0;        ///< required source count, when checked
    uint8_t countKind = 0;    ///< 0 unchecked, 1 exact, 2 at least
    bool commutedPair = false; ///< a 2-source list: either order
    OpSet src[2];             ///< empty: any op
    uint32_t srcDTypes[2] = {0, 0};
  } quick;
  bool mayMatch(UOpRef u) const {
    if (quick.dtypes && !(quick.dtypes >> unsigned(u->dtype) & 1))
      return false;
    if (quick.countKind == 1 ? u->src.size() != quick.nsrc
                             : quick.countKind == 2 && u->src.size() < quick.nsrc)
      return false;
    auto fits = [&](unsigned i, UOpRef s) {
      return (quick.src[i].empty() || quick.src[i].contains(s->op)) &&
             (!quick.srcDTypes[i] || (quick.srcDTypes[i] >> unsigned(s->dtype) & 1));
    };
    unsigned n = std::min<unsigned>(quick.countKind ? quick.nsrc : 0, 2);
    if (n == 0)
      return true;
    if (n == 1)
      return fits(0, u->src[0]);
    if (fits(0, u->src[0]) && fits(1, u->src[1]))
      return true;
    return quick.commutedPair && fits(1, u->src[0]) && fits(0, u->src[1]);
  }
  /// Enumerates the bindings of the pattern on `u` in tinygrad's order and
  /// calls `k` on each until it returns true.
  bool match(UOpRef u, Bindings &binds, llvm::function_ref<bool()> k) const;
};

} // namespace mlir::tinygrad::sym::pat

#endif
