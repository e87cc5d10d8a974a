//===- Rules.h - rule families and matching helpers -------------*- C++ -*-===//
//
// Each rule family lives in the file named after its tinygrad counterpart
// (symbolic_simple, symbolic, div_and_mod_symbolic, simplify_valid). A rule
// is a plain function (Context&, node) -> replacement or null; these helpers
// keep the matching code close to tinygrad's UPat spelling. Results that
// tinygrad builds with Python operators go through `py::` (PyOps.h).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SYMBOLIC_RULES_RULES_H
#define TINYGRAD_LIB_SYMBOLIC_RULES_RULES_H

#include "PyOps.h"
#include "tinygrad/Support/PyInt.h"
#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::sym::rules {

using I = __int128;
// Rule files write patterns unqualified: `var(n::x) + 0`, `up(Op::CAST, ...)`.
using namespace pat;
namespace n = pat::names;

std::vector<pat::Rule> dataInvalidRules();      ///< pm_data_invalid
std::vector<pat::Rule> symbolicSimpleRules();   ///< symbolic_simple (phase 1)
std::vector<pat::Rule> mopCleanupRules();       ///< mop_cleanup
std::vector<pat::Rule> commutativeRules();      ///< commutative
std::vector<pat::Rule> symbolicRules();         ///< symbolic (phase 2)
std::vector<pat::Rule> divAndModRules();        ///< div_and_mod_symbolic
std::vector<pat::Rule> simplifyValidRules();    ///< pm_simplify_valid
std::vector<pat::Rule> symRules();              ///< the extra rules of `sym`
std::vector<pat::Rule> cleanUpGroupSinkRules(); ///< pm_clean_up_group_sink
std::vector<pat::Rule> moveWhereOnLoadRules();  ///< pm_move_where_on_load
std::vector<pat::Rule> castWeakRules();   ///< pm_cast_weak
std::vector<pat::Rule> commitWeakRules(); ///< pm_commit_weak: weak CONST and weakfloat sources
std::vector<pat::Rule> castWeakFloatRules(); ///< pm_cast_weak on weakfloat expressions
std::vector<pat::Rule> indexingSimplifyRules(); ///< indexing_simplify (codegen/late/coalesce.py)
std::vector<pat::Rule> simplifyAddImageCastRules(); ///< pm_simplify_add_image's cast rule (coalesce.py)
std::vector<pat::Rule> dropAndClausesRules();  ///< pm_drop_and_clauses

/// parse_valid: a clause `X <= c` (isUpper) or `X >= c`; nullopt otherwise.
struct ParsedValid {
  UOpRef expr;
  bool isUpper;
  __int128 c;
};
std::optional<ParsedValid> parseValid(UOpRef v);
/// uop_given_valid: `uop` simplified under the assumption that `valid` holds.
UOpRef uopGivenValid(Context &ctx, UOpRef valid, UOpRef uop, bool trySimplex = true);

//===----------------------------------------------------------------------===//
// Matching helpers
//===----------------------------------------------------------------------===//

/// UPat.cvar: any CONST. `c` receives it.
inline bool isCVar(UOpRef u) { return u->op == Op::CONST; }
/// An int CONST with value `v` (UPat.const(v)); Python equality, so a
/// float 0.0 or False also equals 0.
inline bool isConstVal(UOpRef u, I v) {
  if (u->op != Op::CONST)
    return false;
  const Scalar &s = u->val();
  if (s.isInt())
    return s.i == v;
  if (s.isBool())
    return (s.b ? 1 : 0) == v;
  if (s.isFloat())
    return s.f == static_cast<double>(v);
  return false;
}
/// The int value of a CONST (bools count as 0/1, as in Python).
inline std::optional<I> cint(UOpRef u) {
  if (u->op != Op::CONST)
    return std::nullopt;
  if (u->val().isInt())
    return u->val().i;
  if (u->val().isBool())
    return u->val().b ? 1 : 0;
  return std::nullopt;
}
/// Binary op `op` with sources (a, b).
inline bool bin(UOpRef u, Op op, UOpRef &a, UOpRef &b) {
  if (u->op != op || u->src.size() != 2)
    return false;
  a = u->src[0];
  b = u->src[1];
  return true;
}
/// invalid_gate: `cond.where(x, Invalid)`.
inline bool invalidGate(UOpRef u, UOpRef &cond, UOpRef &x, UOpRef &i) {
  if (u->op != Op::WHERE || u->src.size() != 3 || !u->src[2]->isInvalid())
    return false;
  cond = u->src[0];
  x = u->src[1];
  i = u->src[2];
  return true;
}
inline bool isWeakInt(UOpRef u) { return u->dtype == DType::WeakInt; }
inline bool isIndexInt(UOpRef u) { return isInt(u->dtype); }

/// Python's `//`, `%` and math.gcd on ints.
using pyint::floorDiv;
using pyint::floorMod;
using pyint::gcd;

} // namespace mlir::tinygrad::sym::rules

#endif
