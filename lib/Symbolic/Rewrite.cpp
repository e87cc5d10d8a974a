//===- Rewrite.cpp - tinygrad's graph_rewrite drivers ---------------------===//
#include "tinygrad/Symbolic/Rewrite.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;

void PatternMatcher::index(unsigned idx, const std::vector<Op> &ops) {
  for (Op op : ops)
    byOp[static_cast<unsigned>(op)].push_back(idx);
}

void PatternMatcher::add(std::vector<pat::Rule> rules) {
  for (pat::Rule &r : rules) {
    if (r.pat.ops.empty())
      llvm::report_fatal_error(llvm::Twine("rule '") + r.name +
                               "': a rule's pattern must name its op(s)");
    auto rule = std::make_shared<const pat::Rule>(std::move(r));
    auto prog = std::make_shared<const pat::Program>(pat::Program::compile(rule->pat));
    auto ops = rule->pat.ops.ops();
    all.push_back({rule->name, std::vector<Op>(ops.begin(), ops.end()), rule, prog});
    index(all.size() - 1, all.back().ops);
  }
}

PatternMatcher &PatternMatcher::operator+=(const PatternMatcher &o) {
  for (const Entry &e : o.all) {
    all.push_back(e);
    index(all.size() - 1, e.ops);
  }
  return *this;
}

std::vector<std::string> PatternMatcher::ruleNames() const {
  std::vector<std::string> r;
  for (const Entry &e : all)
    r.push_back(e.name);
  return r;
}

std::vector<std::pair<const char *, const pat::Pat *>> PatternMatcher::patterns() const {
  std::vector<std::pair<const char *, const pat::Pat *>> r;
  for (const Entry &e : all)
    if (e.rule)
      r.push_back({e.name, &e.rule->pat});
  return r;
}

UOpRef PatternMatcher::rewrite(Context &ctx, UOpRef x, void *user) const {
  const auto &entries = byOp[static_cast<unsigned>(x->op)];
  if (entries.empty())
    return nullptr;
  // tinygrad's early_reject: the ops among x's sources, once per node.
  pat::OpSet srcOps;
  for (UOpRef s : x->src)
    srcOps.insert(s->op);
  // One binding array for every rule: the matcher unbinds as it backtracks,
  // so it is all-null again after each attempt (zeroing it per rule was a
  // measurable cost).
  pat::Match m{ctx, user, x, pat::Bindings()};
  for (unsigned idx : entries) {
    const Entry &e = all[idx];
    if (!e.prog->required.subsetOf(srcOps) || !e.prog->mayMatch(x))
      continue;
    UOpRef r = nullptr;
    const pat::Rule &rule = *e.rule;
    e.prog->match(x, m.binds, [&] {
      r = rule.fn ? rule.fn(m) : m[rule.result];
      return r != nullptr;
    });
    if (r && r != x)
      return r;
  }
  return nullptr;
}

namespace {
/// Bounds runaway rule sets: tinygrad's REWRITE_STACK_LIMIT.
constexpr size_t kStackLimit = 250000;

struct Frame {
  enum Stage : uint8_t { Enter, Rebuild, Forward } stage;
  UOpRef n;
  UOpRef r;
};
} // namespace

static UOpRef runRewrite(Context &ctx, UOpRef root, const PatternMatcher &pm,
                         bool preOrder, void *user) {
  // tinygrad's unified_rewrite: a node already on the stack is not pushed
  // again (so the visit order, which stateful rules such as the kernel
  // split's slot and range numbering observe, is tinygrad's), and a rebuild
  // whose source is not done yet waits on it.
  // Inline storage: most graphs are a few dozen nodes, so no heap traffic.
  llvm::SmallDenseMap<UOpRef, UOpRef, 64> replace;
  llvm::SmallDenseSet<UOpRef, 64> onStack{root};
  llvm::SmallDenseMap<UOpRef, llvm::SmallVector<Frame, 1>, 8> waitlist;
  // rewritten, waiting for the result to be linked back: a revisit is a cycle
  llvm::SmallDenseSet<UOpRef, 32> active;
  llvm::SmallVector<Frame, 64> stack{{Frame::Enter, root, nullptr}};
  auto done = [&](UOpRef n, UOpRef r) {
    replace[n] = r;
    active.erase(n);
    if (auto it = waitlist.find(n); it != waitlist.end()) {
      auto frames = std::move(it->second);
      waitlist.erase(it);
      stack.append(frames.begin(), frames.end());
    }
  };
  while (!stack.empty()) {
    if (stack.size() > kStackLimit) {
      ctx.errors.push_back("infinite loop in graph_rewrite (stack too big)");
      return nullptr;
    }
    Frame f = stack.back();
    stack.pop_back();
    if (replace.count(f.n))
      continue;
    switch (f.stage) {
    case Frame::Enter: {
      UOpRef nn = f.n;
      if (preOrder) {
        // bottom_up=True: fire before the children, to a fixed point.
        for (unsigned steps = 0; UOpRef r = pm.rewrite(ctx, nn, user); ++steps) {
          if (steps > 1000) {
            ctx.errors.push_back("infinite loop in fixed_point_rewrite");
            return nullptr;
          }
          nn = r;
        }
      }
      stack.push_back({Frame::Rebuild, f.n, nn});
      for (UOpRef s : llvm::reverse(nn->src))
        if (onStack.insert(s).second)
          stack.push_back({Frame::Enter, s, nullptr});
      break;
    }
    case Frame::Rebuild: {
      UOpRef nn = f.r;
      llvm::SmallVector<UOpRef, 4> newSrc;
      bool changed = false, ready = true;
      for (UOpRef s : nn->src) {
        auto it = replace.find(s);
        if (it == replace.end()) {
          waitlist[s].push_back(f);
          ready = false;
          break;
        }
        changed |= it->second != s;
        newSrc.push_back(it->second);
      }
      if (!ready)
        break;
      UOpRef r;
      if (!changed) {
        r = preOrder ? nullptr : pm.rewrite(ctx, nn, user);
        if (!r) {
          done(f.n, nn);
          break;
        }
      } else {
        r = ctx.replaceSrc(nn, newSrc);
      }
      if (r == f.n) { // rebuilt into itself: done
        done(f.n, r);
        break;
      }
      if (!active.insert(f.n).second || active.count(r)) {
        ctx.errors.push_back("rule cycle in graph_rewrite at " + getOpName(f.n->op).str());
        return nullptr;
      }
      stack.push_back({Frame::Forward, f.n, r});
      stack.push_back({Frame::Enter, r, nullptr});
      break;
    }
    case Frame::Forward: {
      auto it = replace.find(f.r);
      if (it == replace.end()) {
        waitlist[f.r].push_back(f);
        break;
      }
      done(f.n, it->second);
      break;
    }
    }
  }
  return replace.lookup(root);
}

UOpRef sym::graphRewrite(Context &ctx, UOpRef root, const PatternMatcher &pm,
                         void *user) {
  return runRewrite(ctx, root, pm, /*preOrder=*/false, user);
}

UOpRef sym::graphRewriteBottomUp(Context &ctx, UOpRef root,
                                 const PatternMatcher &pm, void *user) {
  return runRewrite(ctx, root, pm, /*preOrder=*/true, user);
}

UOpRef sym::substitute(Context &ctx, UOpRef root,
                       const llvm::DenseMap<UOpRef, UOpRef> &map) {
  llvm::DenseMap<UOpRef, UOpRef> memo;
  std::function<UOpRef(UOpRef)> go = [&](UOpRef n) -> UOpRef {
    if (auto it = memo.find(n); it != memo.end())
      return it->second;
    UOpRef x = n;
    for (unsigned steps = 0; steps < 64; ++steps) {
      auto it = map.find(x);
      if (it == map.end() || it->second == x)
        break;
      x = it->second;
    }
    llvm::SmallVector<UOpRef, 4> src;
    for (UOpRef s : x->src)
      src.push_back(go(s));
    UOpRef r = ctx.replaceSrc(x, src);
    memo[n] = r;
    return r;
  };
  return go(root);
}

UOpRef sym::simplify(Context &ctx, UOpRef x) {
  UOpRef r = graphRewrite(ctx, x, symbolic());
  return r ? r : x;
}
