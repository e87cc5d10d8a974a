//===- TransposeLaneGathers.cpp - transposed tile stores in registers -----===//
//
// A 3x3 convolution's tile of 4 pixels by 16 channels (by 4 rows) lives in
// 16 zmm registers, a register per pixel, while the output is contiguous
// along the pixels: each store of 4 pixels of one channel reads lane c of 4
// registers, `shufflevector <256 x float> %acc, poison, <c, 16+c, 32+c,
// 48+c>`. Instruction selection lowers each of those 64 gathers on its own,
// with permutes out of the 256-lane vector and spills. In ResNet-18's four
// 28x28 convolutions (the kernels whose tiles are stored so) they were
// about half of instruction selection (one kernel, gathers cut out of its
// IR) and a fifth of the instructions (1433 -> 1175, no spills left). The
// same data is a 4x4 transpose within each 128-bit lane of the 4 registers
// (two rounds of unpacks, 8 shuffles for the group), after which each
// gather is one 128-bit piece of a register. Each shuffle here reads
// register-aligned pieces or whole registers, so selection sees only legal
// types. Pure data movement: every gather reads the lanes it read before
// (intermediate lanes may carry a source lane's poison, as the source did).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/TransposeLaneGathers.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>
#include <vector>

namespace mlir::tinygrad::cpu {
namespace {

/// One gather: `inst` reads lane `lane` of each register of its group.
struct Gather {
  llvm::ShuffleVectorInst *inst;
  unsigned lane;
};

/// The group of a gather: its block, source vector and registers, in order.
using GroupKey = std::tuple<llvm::BasicBlock *, llvm::Value *, std::vector<unsigned>>;

/// The mask that picks, within each of the `w / k` 128-bit chunks (of `k`
/// lanes) of two `w`-lane registers, the lanes `pattern` names: (from the
/// right register?, lane within the chunk), the same for every chunk. The
/// unpacks and 64-bit moves a transpose is made of.
llvm::SmallVector<int, 16> chunkMask(unsigned w, unsigned k, llvm::ArrayRef<std::pair<bool, unsigned>> pattern) {
  llvm::SmallVector<int, 16> mask;
  for (unsigned q = 0; q < w / k; ++q)
    for (auto [right, at] : pattern)
      mask.push_back((right ? w : 0) + q * k + at);
  return mask;
}

/// The transposed registers of a group: `out[r]` holds, in 128-bit chunk q,
/// lane q*k + r of each of the k registers `regs`, in order.
llvm::SmallVector<llvm::Value *, 4> transpose(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> regs, unsigned w,
                                             unsigned k) {
  if (k == 2) // 64-bit lanes: one unpack each way
    return {b.CreateShuffleVector(regs[0], regs[1], chunkMask(w, 2, {{false, 0}, {true, 0}})),
            b.CreateShuffleVector(regs[0], regs[1], chunkMask(w, 2, {{false, 1}, {true, 1}}))};
  // 32-bit lanes: unpack pairs of registers, then pairs of 64-bit halves
  auto lo = chunkMask(w, 4, {{false, 0}, {true, 0}, {false, 1}, {true, 1}});
  auto hi = chunkMask(w, 4, {{false, 2}, {true, 2}, {false, 3}, {true, 3}});
  llvm::Value *t0 = b.CreateShuffleVector(regs[0], regs[1], lo), *t1 = b.CreateShuffleVector(regs[0], regs[1], hi);
  llvm::Value *t2 = b.CreateShuffleVector(regs[2], regs[3], lo), *t3 = b.CreateShuffleVector(regs[2], regs[3], hi);
  auto even = chunkMask(w, 4, {{false, 0}, {false, 1}, {true, 0}, {true, 1}});
  auto odd = chunkMask(w, 4, {{false, 2}, {false, 3}, {true, 2}, {true, 3}});
  return {b.CreateShuffleVector(t0, t2, even), b.CreateShuffleVector(t0, t2, odd), b.CreateShuffleVector(t1, t3, even),
          b.CreateShuffleVector(t1, t3, odd)};
}

} // namespace

bool transposeLaneGathers(llvm::Function &f, unsigned registerBits) {
  if (registerBits < 128 || registerBits % 128 != 0) // no vector registers, or not of 128-bit pieces
    return false;
  std::map<GroupKey, llvm::SmallVector<Gather, 16>> groups;
  for (llvm::BasicBlock &bb : f)
    for (llvm::Instruction &i : bb) {
      auto *sv = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i);
      if (!sv || !llvm::isa<llvm::PoisonValue, llvm::UndefValue>(sv->getOperand(1)))
        continue;
      auto *src = llvm::dyn_cast<llvm::FixedVectorType>(sv->getOperand(0)->getType());
      unsigned eltBits = src ? src->getScalarSizeInBits() : 0;
      if (eltBits != 32 && eltBits != 64)
        continue;
      unsigned w = registerBits / eltBits, k = 128 / eltBits;
      llvm::ArrayRef<int> mask = sv->getShuffleMask();
      if (src->getNumElements() <= w || src->getNumElements() % w != 0 || mask.size() != k || mask[0] < 0)
        continue;
      unsigned lane = (unsigned)mask[0] % w;
      std::vector<unsigned> regs;
      bool ok = true;
      for (int m : mask) {
        ok = ok && m >= 0 && (unsigned)m % w == lane && llvm::find(regs, (unsigned)m / w) == regs.end();
        if (!ok)
          break;
        regs.push_back((unsigned)m / w);
      }
      if (ok)
        groups[{&bb, sv->getOperand(0), regs}].push_back({sv, lane});
    }
  bool changed = false;
  for (auto &[key, gathers] : groups) {
    if (gathers.size() < 2) // a transpose costs more than one gather
      continue;
    auto &[bb, src, regs] = key;
    unsigned eltBits = src->getType()->getScalarSizeInBits();
    unsigned w = registerBits / eltBits, k = 128 / eltBits;
    // Before the group's first gather (the source dominates every one).
    llvm::IRBuilder<> b(gathers.front().inst);
    llvm::SmallVector<llvm::Value *, 4> pieces;
    for (unsigned r : regs) {
      llvm::SmallVector<int, 16> m;
      for (unsigned l = 0; l < w; ++l)
        m.push_back(r * w + l);
      pieces.push_back(b.CreateShuffleVector(src, m));
    }
    llvm::SmallVector<llvm::Value *, 4> rows = transpose(b, pieces, w, k);
    for (auto [sv, lane] : gathers) {
      llvm::SmallVector<int, 4> m;
      for (unsigned j = 0; j < k; ++j)
        m.push_back(lane / k * k + j);
      llvm::IRBuilder<> at(sv);
      llvm::Value *v = at.CreateShuffleVector(rows[lane % k], m);
      sv->replaceAllUsesWith(v);
      v->takeName(sv);
      sv->eraseFromParent();
    }
    // the transposed registers no gather of the group reads
    for (llvm::Value *v : rows)
      llvm::RecursivelyDeleteTriviallyDeadInstructions(v);
    changed = true;
  }
  return changed;
}

} // namespace mlir::tinygrad::cpu
