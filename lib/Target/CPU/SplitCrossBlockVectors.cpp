//===- SplitCrossBlockVectors.cpp - register-sized values between blocks --===//
//
// A tile of 7 pixels by a register of 16 channels accumulates in a
// `<112 x float>` carried around its loop. Instruction selection works one
// block at a time and must give a value that leaves its block a register
// class: for a vector of a power-of-two number of registers it splits it into
// registers, for 7 (or 3, 5, 6, ...) it widens and then scalarizes it, so the
// loop's phi became 112 floats assembled lane by lane through the stack
// every iteration (84 vinsertps beside 21 FMAs in ResNet-18's pooled 512
// channel conv). Inside a block the same vector is legalized into its
// registers. So, after LLVM's pipeline, each such value that crosses blocks
// is carried as its registers: a phi becomes one phi per register, fed by
// register-aligned shufflevectors in each predecessor and reassembled in its
// block; any other value is cut into its registers where it is defined and
// reassembled in each later block that reads it. Instruction selection
// folds the register-aligned shuffles away; no value changes.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/SplitCrossBlockVectors.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tinygrad::cpu {
namespace {

using Pieces = llvm::SmallVector<llvm::Value *, 8>;

/// The register type `t` splits into and how many, or null where `t` is no
/// whole number of registers or a power of two of them (already legal).
std::pair<llvm::FixedVectorType *, unsigned> registersOf(llvm::Type *t, unsigned registerBits) {
  auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  if (!vt || registerBits == 0)
    return {nullptr, 0};
  unsigned eltBits = vt->getElementType()->getPrimitiveSizeInBits().getFixedValue();
  // Masks (i1 lanes) are a register class of their own.
  if (eltBits < 8 || registerBits % eltBits != 0)
    return {nullptr, 0};
  unsigned lanes = registerBits / eltBits, n = vt->getNumElements();
  if (n % lanes != 0 || n / lanes < 2 || llvm::isPowerOf2_32(n / lanes))
    return {nullptr, 0};
  return {llvm::FixedVectorType::get(vt->getElementType(), lanes), n / lanes};
}

Pieces cut(llvm::IRBuilder<> &b, llvm::Value *v, unsigned lanes, unsigned count) {
  Pieces out;
  for (unsigned j = 0; j < count; ++j) {
    llvm::SmallVector<int, 16> mask;
    for (unsigned l = 0; l < lanes; ++l)
      mask.push_back(j * lanes + l);
    out.push_back(b.CreateShuffleVector(v, mask));
  }
  return out;
}

/// Concatenates `pieces` pairwise (a shorter right half padded with poison
/// lanes, which the result never reads).
llvm::Value *join(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> pieces) {
  llvm::SmallVector<std::pair<llvm::Value *, unsigned>, 8> level;
  for (llvm::Value *p : pieces)
    level.push_back({p, llvm::cast<llvm::FixedVectorType>(p->getType())->getNumElements()});
  while (level.size() > 1) {
    llvm::SmallVector<std::pair<llvm::Value *, unsigned>, 8> next;
    for (unsigned i = 0; i + 1 < level.size(); i += 2) {
      auto [a, na] = level[i];
      auto [c, nc] = level[i + 1];
      llvm::Value *right = c;
      unsigned width = llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements();
      if (llvm::cast<llvm::FixedVectorType>(c->getType())->getNumElements() != width) {
        llvm::SmallVector<int, 32> pad;
        for (unsigned l = 0; l < width; ++l)
          pad.push_back(l < nc ? (int)l : -1);
        right = b.CreateShuffleVector(c, pad);
      }
      llvm::SmallVector<int, 64> mask;
      for (unsigned l = 0; l < na; ++l)
        mask.push_back(l);
      for (unsigned l = 0; l < nc; ++l)
        mask.push_back(width + l);
      next.push_back({b.CreateShuffleVector(a, right, mask), na + nc});
    }
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  return level.front().first;
}

bool usedInOtherBlock(llvm::Instruction &i) {
  return llvm::any_of(i.users(), [&](llvm::User *u) {
    auto *ui = llvm::cast<llvm::Instruction>(u);
    return ui->getParent() != i.getParent() || llvm::isa<llvm::PHINode>(ui);
  });
}

} // namespace

bool splitCrossBlockVectors(llvm::Function &f, unsigned registerBits) {
  bool changed = false;
  // Phis first: each becomes one phi per register.
  llvm::SmallVector<llvm::PHINode *, 8> phis;
  for (llvm::BasicBlock &bb : f)
    for (llvm::PHINode &p : bb.phis())
      if (registersOf(p.getType(), registerBits).first)
        phis.push_back(&p);
  for (llvm::PHINode *p : phis) {
    auto [piece, count] = registersOf(p->getType(), registerBits);
    unsigned lanes = piece->getNumElements();
    Pieces parts;
    for (unsigned j = 0; j < count; ++j)
      parts.push_back(llvm::PHINode::Create(piece, p->getNumIncomingValues(), p->getName() + ".r" + llvm::Twine(j),
                                            p->getIterator()));
    llvm::DenseMap<llvm::BasicBlock *, Pieces> fromBlock;
    for (unsigned i = 0, e = p->getNumIncomingValues(); i < e; ++i) {
      llvm::BasicBlock *pred = p->getIncomingBlock(i);
      auto it = fromBlock.find(pred);
      if (it == fromBlock.end()) {
        llvm::IRBuilder<> b(pred->getTerminator());
        it = fromBlock.insert({pred, cut(b, p->getIncomingValue(i), lanes, count)}).first;
      }
      for (unsigned j = 0; j < count; ++j)
        llvm::cast<llvm::PHINode>(parts[j])->addIncoming(it->second[j], pred);
    }
    llvm::IRBuilder<> b(p->getParent(), p->getParent()->getFirstInsertionPt());
    llvm::Value *whole = join(b, parts);
    p->replaceAllUsesWith(whole);
    whole->takeName(p);
    p->eraseFromParent();
    changed = true;
  }
  // Then every other value a later block reads (the phis' reassembled
  // values and their predecessors' inputs included).
  llvm::SmallVector<llvm::Instruction *, 16> values;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb)
      if (!llvm::isa<llvm::PHINode>(i) && registersOf(i.getType(), registerBits).first && usedInOtherBlock(i))
        values.push_back(&i);
  for (llvm::Instruction *v : values) {
    auto [piece, count] = registersOf(v->getType(), registerBits);
    llvm::IRBuilder<> b(v->getParent(), std::next(v->getIterator()));
    Pieces parts = cut(b, v, piece->getNumElements(), count);
    llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> joined;
    for (llvm::Use &u : llvm::make_early_inc_range(v->uses())) {
      auto *user = llvm::cast<llvm::Instruction>(u.getUser());
      llvm::BasicBlock *bb = user->getParent();
      // A phi of another type cannot read it; a same-block reader keeps it.
      if (bb == v->getParent() || llvm::isa<llvm::PHINode>(user))
        continue;
      llvm::Value *&w = joined[bb];
      if (!w) {
        llvm::IRBuilder<> jb(bb, bb->getFirstInsertionPt());
        w = join(jb, parts);
      }
      u.set(w);
    }
    changed = true;
  }
  return changed;
}

} // namespace mlir::tinygrad::cpu
