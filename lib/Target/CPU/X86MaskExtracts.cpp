//===- X86MaskExtracts.cpp - lanes of a compare as scalar compares --------===//
//
// LLVM 22's EVEX compression (x86-compress-evex) folds
//
//   vpmovd2m %xmm0, %k0      ; the sign bits of a vector, as a mask
//   kmovd    %k0, %r10d      ; the mask in a general register
//
// into `vmovmskps %xmm0, %r10d` and drops the definition of %k0, also when
// a later instruction still reads %k0: that instruction reads whatever the
// register held before. vpmov*2m is how instruction selection tests sign
// bits (`icmp slt <N x iK> %v, zeroinitializer`, a floor modulo's fix-up)
// and truncates to i1; the kmov comes from reading one lane of the mask as
// a scalar (`extractelement`). A gated gather's per-lane index fix-ups read
// lanes of such a mask and insert into it (random-kernels --assign
// --in-place seed 3011 #23: one lane's index got the +126 of another lane,
// read past the buffer; `x86-mask-extracts.ll`). The same fold behind the
// stale mask that `enable-misched=false` avoids (CPUTarget.cpp) when the
// scheduler puts the kmov first; here no order is safe.
//
// So no lane is read out of a mask that has other uses: the lane is
// computed on its own, a scalar compare of the operands' lanes (a scalar
// truncation), which instruction selection gives general registers and
// flags. Masks whose lanes are all read this way lose their extracts; the
// vector compare stays for its other uses.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/X86MaskExtracts.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

namespace mlir::tinygrad::cpu {

bool scalarizeMaskExtracts(llvm::Function &f) {
  llvm::SmallVector<llvm::ExtractElementInst *> extracts;
  for (llvm::Instruction &i : llvm::instructions(f)) {
    auto *e = llvm::dyn_cast<llvm::ExtractElementInst>(&i);
    if (!e || !e->getType()->isIntegerTy(1))
      continue;
    llvm::Value *mask = e->getVectorOperand();
    if ((llvm::isa<llvm::CmpInst>(mask) || llvm::isa<llvm::TruncInst>(mask)) && mask->hasNUsesOrMore(2))
      extracts.push_back(e);
  }
  for (llvm::ExtractElementInst *e : extracts) {
    auto *mask = llvm::cast<llvm::Instruction>(e->getVectorOperand());
    llvm::IRBuilder<> b(e);
    auto lane = [&](llvm::Value *v) { return b.CreateExtractElement(v, e->getIndexOperand()); };
    llvm::Value *scalar;
    if (auto *cmp = llvm::dyn_cast<llvm::CmpInst>(mask))
      scalar = b.CreateCmp(cmp->getPredicate(), lane(cmp->getOperand(0)), lane(cmp->getOperand(1)));
    else
      scalar = b.CreateTrunc(lane(mask->getOperand(0)), e->getType());
    if (auto *si = llvm::dyn_cast<llvm::Instruction>(scalar))
      si->copyIRFlags(mask); // fcmp's fast-math flags, trunc's nuw/nsw
    e->replaceAllUsesWith(scalar);
    e->eraseFromParent();
  }
  return !extracts.empty();
}

} // namespace mlir::tinygrad::cpu
