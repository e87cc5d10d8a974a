//===- OrderedRewrite.cpp - graph_rewrite in tinygrad's visiting order ----===//
#include "tinygrad/Schedule/OrderedRewrite.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using sym::Op;
using sym::UOpRef;

namespace {
struct Frame {
  UOpRef n;
  int stage;
  UOpRef nn;
};
constexpr size_t kStackLimit = 250000; // tinygrad's REWRITE_STACK_LIMIT
constexpr unsigned kFixedPointLimit = 1000;

bool isOpaqueCallBody(Op op) {
  return op == Op::SINK || op == Op::PROGRAM || op == Op::LINEAR || op == Op::COPY ||
         op == Op::CUSTOM_FUNCTION;
}
} // namespace

UOpRef sched::orderedRewrite(sym::Context &ctx, UOpRef root,
                             const sym::PatternMatcher &pm, void *user,
                             bool bottomUp, bool enterCalls) {
  llvm::DenseMap<UOpRef, UOpRef> replace;
  llvm::DenseSet<UOpRef> onStack{root};
  llvm::DenseMap<UOpRef, llvm::SmallVector<Frame, 2>> waitlist;
  std::vector<Frame> stack{{root, 0, root}};
  auto release = [&](UOpRef n) {
    auto it = waitlist.find(n);
    if (it == waitlist.end())
      return;
    llvm::SmallVector<Frame, 2> frames = std::move(it->second);
    waitlist.erase(it);
    stack.insert(stack.end(), frames.begin(), frames.end());
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
    if (f.stage == 0) {
      UOpRef nn = f.n;
      if (bottomUp) {
        llvm::DenseSet<UOpRef> seen;
        for (UOpRef t = f.n; t; t = pm.rewrite(ctx, t, user)) {
          if (!seen.insert(t).second || seen.size() > kFixedPointLimit) {
            ctx.errors.push_back("infinite loop in fixed_point_rewrite");
            return nullptr;
          }
          nn = t;
        }
      }
      stack.push_back({f.n, 1, nn});
      if (!enterCalls && !nn->src.empty() &&
          (nn->op == Op::FUNCTION || (nn->op == Op::CALL && isOpaqueCallBody(nn->src[0]->op))))
        replace[nn->src[0]] = nn->src[0];
      for (UOpRef s : llvm::reverse(nn->src)) {
        if (!onStack.insert(s).second)
          continue;
        stack.push_back({s, 0, s});
      }
    } else if (f.stage == 1) {
      llvm::SmallVector<UOpRef, 4> tmp;
      bool ready = true;
      for (UOpRef s : f.nn->src) {
        auto it = replace.find(s);
        if (it == replace.end()) {
          waitlist[s].push_back(f);
          ready = false;
          break;
        }
        tmp.push_back(it->second);
      }
      if (!ready)
        continue;
      UOpRef r;
      if (llvm::equal(tmp, f.nn->src)) {
        r = bottomUp ? nullptr : pm.rewrite(ctx, f.nn, user);
        if (!r) {
          replace[f.n] = f.nn;
          release(f.n);
          continue;
        }
      } else {
        r = ctx.replaceSrc(f.nn, tmp);
      }
      stack.push_back({f.n, 2, r});
      stack.push_back({r, 0, r});
    } else {
      auto it = replace.find(f.nn);
      if (it == replace.end()) {
        waitlist[f.nn].push_back(f);
      } else {
        replace[f.n] = it->second;
        release(f.n);
      }
    }
  }
  auto it = replace.find(root);
  if (it == replace.end()) {
    ctx.errors.push_back("graph_rewrite did not resolve its root");
    return nullptr;
  }
  return it->second;
}
