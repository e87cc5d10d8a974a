//===- Rewrite.h - tinygrad's graph_rewrite on the interned graph -*- C++ -*-===//
#ifndef TINYGRAD_SYMBOLIC_REWRITE_H
#define TINYGRAD_SYMBOLIC_REWRITE_H

#include "tinygrad/Symbolic/UOp.h"
#include <functional>
#include <vector>

namespace mlir::tinygrad::sym {

/// A rule: returns the replacement, or nullptr when it does not apply. The
/// rule list of a PatternMatcher is indexed by the ops it can match, and
/// rules are tried in registration order (tinygrad's semantics).
using RuleFn = UOpRef (*)(Context &, UOpRef);

struct Rule {
  const char *name;
  std::vector<Op> ops; ///< ops indexed under; empty = every op
  RuleFn fn;
};

class PatternMatcher {
public:
  PatternMatcher() = default;
  explicit PatternMatcher(std::vector<Rule> rules) { add(std::move(rules)); }
  void add(std::vector<Rule> rules);
  PatternMatcher &operator+=(const PatternMatcher &o);
  /// First rule result that is not null and not `x` itself.
  UOpRef rewrite(Context &ctx, UOpRef x) const;
  size_t size() const { return all.size(); }

private:
  std::vector<Rule> all;
  std::vector<std::vector<unsigned>> byOp = std::vector<std::vector<unsigned>>(kNumOps);
};

/// tinygrad's default graph_rewrite: children first, and every rewrite
/// result is rewritten again until no rule applies (a fixed point per
/// node), memoized over the DAG. Reports a rule cycle in ctx.errors and
/// returns null instead of looping.
UOpRef graphRewrite(Context &ctx, UOpRef root, const PatternMatcher &pm);
/// `bottom_up=True`: the matcher fires before the children are visited.
UOpRef graphRewriteBottomUp(Context &ctx, UOpRef root, const PatternMatcher &pm);
/// `x.substitute(map)`.
UOpRef substitute(Context &ctx, UOpRef root,
                  const llvm::DenseMap<UOpRef, UOpRef> &map);

/// The rule sets (tinygrad names). Built once, on first use.
const PatternMatcher &symbolicSimple();
const PatternMatcher &symbolic();
/// tinygrad's `sym` (symbolic + simplify_valid + cleanups).
const PatternMatcher &symMatcher();
const PatternMatcher &commutative();
const PatternMatcher &simplifyValid();
/// pm_cast_weak, and `sym + pm_cast_weak` (what tinygrad's symbolic tests run).
const PatternMatcher &castWeak();
const PatternMatcher &symCastWeak();
/// `sym + pm_move_where_on_load` (tinygrad's valid/index simplification).
const PatternMatcher &symMoveWhereOnLoad();
/// `sym + pm_move_where_on_load + indexing_simplify` (image index tests).
const PatternMatcher &symMoveWhereOnLoadIndexing();
/// `x.simplify()` = graph_rewrite(x, symbolic).
UOpRef simplify(Context &ctx, UOpRef x);

} // namespace mlir::tinygrad::sym

#endif
