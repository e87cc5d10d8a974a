//===- Rewrite.h - tinygrad's graph_rewrite on the interned graph -*- C++ -*-===//
#ifndef TINYGRAD_SYMBOLIC_REWRITE_H
#define TINYGRAD_SYMBOLIC_REWRITE_H

#include "tinygrad/Symbolic/Pattern.h"
#include "tinygrad/Symbolic/UOp.h"
#include <memory>
#include <string>
#include <functional>
#include <vector>

namespace mlir::tinygrad::sym {

/// tinygrad's PatternMatcher: rules indexed by the ops their pattern can
/// match, tried in list order; `a + b` concatenates (a's rules first).
class PatternMatcher {
public:
  PatternMatcher() = default;
  PatternMatcher(std::vector<pat::Rule> rules) { add(std::move(rules)); }
  PatternMatcher(std::initializer_list<pat::Rule> rules) {
    add(std::vector<pat::Rule>(rules));
  }
  void add(std::vector<pat::Rule> rules);
  PatternMatcher &operator+=(const PatternMatcher &o);
  PatternMatcher operator+(const PatternMatcher &o) const {
    PatternMatcher r = *this;
    r += o;
    return r;
  }
  /// First rule result that is not null and not `x` itself. `user` is the
  /// pass state handed to builders as Match::user (tinygrad's ctx).
  UOpRef rewrite(Context &ctx, UOpRef x, void *user = nullptr) const;
  size_t size() const { return all.size(); }
  /// Rule names in priority order (for tests and docs).
  std::vector<std::string> ruleNames() const;
  /// The patterns of the declarative rules, in priority order.
  std::vector<std::pair<const char *, const pat::Pat *>> patterns() const;

private:
  struct Entry {
    const char *name;
    std::vector<Op> ops; ///< indexed under
    std::shared_ptr<const pat::Rule> rule;
    std::shared_ptr<const pat::Program> prog;
  };
  std::vector<Entry> all;
  std::vector<std::vector<unsigned>> byOp = std::vector<std::vector<unsigned>>(kNumOps);
  void index(unsigned idx, const std::vector<Op> &ops);
};

/// tinygrad's default graph_rewrite: children first, and every rewrite
/// result is rewritten again until no rule applies (a fixed point per
/// node), memoized over the DAG. Reports a rule cycle in ctx.errors and
/// returns null instead of looping.
UOpRef graphRewrite(Context &ctx, UOpRef root, const PatternMatcher &pm,
                    void *user = nullptr);
/// `bottom_up=True`: the matcher fires before the children are visited.
UOpRef graphRewriteBottomUp(Context &ctx, UOpRef root, const PatternMatcher &pm,
                            void *user = nullptr);
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
/// pm_commit_weak for literals and float expressions: a weak CONST source of
/// a concrete Binary or Ternary node (or STORE value) becomes a CONST of that
/// width, a weakfloat expression source a CAST to it, which pm_cast_weak's
/// weakfloat rule (included) pushes into the expression (weakint
/// expressions are left to the emitter's index dtypes).
const PatternMatcher &commitWeak();
/// The rule of pm_simplify_add_image that applies without images:
/// float.cast(half).cast(float) -> float.
const PatternMatcher &simplifyAddImageCasts();
const PatternMatcher &symCastWeak();
/// `sym + pm_move_where_on_load` (tinygrad's valid/index simplification).
const PatternMatcher &symMoveWhereOnLoad();
/// `sym + pm_move_where_on_load + indexing_simplify` (image index tests).
const PatternMatcher &symMoveWhereOnLoadIndexing();
/// tinygrad's xpow: `base ** exponent` through exp2/log2 with its sign and
/// integer-exponent rules (the rule `sym` applies to POW).
UOpRef powToExp2Log2(Context &ctx, UOpRef base, UOpRef exponent);
/// `x.simplify()` = graph_rewrite(x, symbolic).
UOpRef simplify(Context &ctx, UOpRef x);

} // namespace mlir::tinygrad::sym

#endif
