//===- X86TruncatingConverts.cpp - guarded float->int to x86's cvtt* -------===//
//
// The emitter's float -> signed conversion is defined for every input: the
// in-range value truncated, else INT_MIN (EmitCasts.cpp; docs/Design.md),
// because LLVM's fptosi is poison outside the target's range. After LLVM's
// pipeline that guard reads
//
//   select (and (fcmp oge v, -2^(w-1)), (fcmp olt v, 2^(w-1))), (fptosi v), INT_MIN
//
// (or its inverse, `select (or ult, uge), INT_MIN, fptosi`), and instruction
// selection gives it two compares, a mask and a blend beside the convert.
// x86's truncating converts (cvttps2dq, cvttss2si, ...) return that very
// value, INT_MIN ("integer indefinite"), for NaN and out-of-range inputs, so
// on x86 the whole guard is one instruction: the target's intrinsic, whose
// result LLVM defines for every input. Measured: softmax's exp kernel
// (xexp2's rintk) 15-20% faster, tinygrad's C's speed.
//
// Runs after the optimization pipeline, where the loop and SLP vectorizers
// have chosen the vector widths (an intrinsic before them would keep them
// from vectorizing the scalar conversion).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/X86TruncatingConverts.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

#include <cmath>

namespace mlir::tinygrad::cpu {

using namespace llvm::PatternMatch;

namespace {

/// The x86 instructions at hand for one conversion.
struct X86Converts {
  bool avx = false, avx512f = false;

  /// cvtt* of `v` (a float or double scalar, or a vector of floats) to
  /// `to` (i32 or i64; for vectors i32), or null where no instruction fits.
  llvm::Value *truncate(llvm::IRBuilder<> &ib, llvm::Value *v, llvm::Type *to) const {
    llvm::Type *from = v->getType();
    unsigned w = to->getScalarSizeInBits();
    if (!from->isVectorTy()) {
      bool f32 = from->isFloatTy();
      if (!(f32 || from->isDoubleTy()) || (w != 32 && w != 64))
        return nullptr;
      llvm::Intrinsic::ID id = f32 ? (w == 32 ? llvm::Intrinsic::x86_sse_cvttss2si : llvm::Intrinsic::x86_sse_cvttss2si64)
                                   : (w == 32 ? llvm::Intrinsic::x86_sse2_cvttsd2si : llvm::Intrinsic::x86_sse2_cvttsd2si64);
      auto *xmm = llvm::FixedVectorType::get(from, f32 ? 4 : 2);
      llvm::Value *lane0 = ib.CreateInsertElement(llvm::PoisonValue::get(xmm), v, uint64_t(0));
      return ib.CreateIntrinsic(to, id, {lane0});
    }
    auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(from);
    if (!vt || !vt->getElementType()->isFloatTy() || w != 32)
      return nullptr;
    unsigned n = vt->getNumElements();
    unsigned chunk = avx512f && n % 16 == 0 ? 16 : avx && n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : 0;
    if (!chunk)
      return nullptr;
    auto *part = llvm::FixedVectorType::get(ib.getInt32Ty(), chunk);
    llvm::SmallVector<llvm::Value *> parts;
    for (unsigned at = 0; at < n; at += chunk) {
      llvm::Value *in = chunk == n ? v : ib.CreateShuffleVector(v, llvm::createSequentialMask(at, chunk, 0));
      if (chunk == 16) // all lanes (mask -1), the current rounding mode (4)
        parts.push_back(ib.CreateIntrinsic(part, llvm::Intrinsic::x86_avx512_mask_cvttps2dq_512,
                                           {in, llvm::Constant::getNullValue(part), ib.getInt16(0xffff), ib.getInt32(4)}));
      else
        parts.push_back(ib.CreateIntrinsic(
            part, chunk == 8 ? llvm::Intrinsic::x86_avx_cvtt_ps2dq_256 : llvm::Intrinsic::x86_sse2_cvttps2dq, {in}));
    }
    return parts.size() == 1 ? parts.front() : llvm::concatenateVectors(ib, parts);
  }
};

/// The value converted when `sel` is the guard around `fptosi v`, else null.
llvm::Value *guardedConversion(llvm::SelectInst *sel, llvm::FPToSIInst *&cvt) {
  unsigned w = sel->getType()->getScalarSizeInBits();
  if (w != 32 && w != 64)
    return nullptr;
  llvm::Value *v = nullptr;
  auto inRange = [&](llvm::Value *c, bool inverted) {
    const llvm::APFloat *lo, *hi;
    bool ok = inverted ? match(c, m_c_LogicalOr(m_SpecificFCmp(llvm::FCmpInst::FCMP_ULT, m_Specific(v), m_APFloat(lo)),
                                                m_SpecificFCmp(llvm::FCmpInst::FCMP_UGE, m_Specific(v), m_APFloat(hi))))
                       : match(c, m_c_LogicalAnd(m_SpecificFCmp(llvm::FCmpInst::FCMP_OGE, m_Specific(v), m_APFloat(lo)),
                                                 m_SpecificFCmp(llvm::FCmpInst::FCMP_OLT, m_Specific(v), m_APFloat(hi))));
    return ok && lo->isExactlyValue(-std::ldexp(1.0, int(w) - 1)) && hi->isExactlyValue(std::ldexp(1.0, int(w) - 1));
  };
  llvm::Value *t = sel->getTrueValue(), *f = sel->getFalseValue();
  bool inverted = match(t, m_SpecificInt(llvm::APInt::getSignedMinValue(w)));
  llvm::Value *converted = inverted ? f : t;
  if (!match(inverted ? t : f, m_SpecificInt(llvm::APInt::getSignedMinValue(w))) ||
      !match(converted, m_FPToSI(m_Value(v))) || !inRange(sel->getCondition(), inverted))
    return nullptr;
  cvt = llvm::cast<llvm::FPToSIInst>(converted);
  return v;
}

} // namespace

void useX86TruncatingConverts(llvm::Function &f, llvm::StringRef features) {
  llvm::SmallVector<llvm::StringRef> list;
  features.split(list, ',');
  auto has = [&](llvm::StringRef feature) { return llvm::is_contained(list, feature); };
  X86Converts x86{has("+avx"), has("+avx512f")};
  llvm::SmallVector<llvm::SelectInst *> selects;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(&i))
      selects.push_back(sel);
  for (llvm::SelectInst *sel : selects) {
    llvm::FPToSIInst *cvt = nullptr;
    llvm::Value *v = guardedConversion(sel, cvt);
    if (!v)
      continue;
    llvm::IRBuilder<> ib(sel);
    llvm::Value *r = x86.truncate(ib, v, sel->getType());
    if (!r)
      continue;
    llvm::Value *cond = sel->getCondition();
    sel->replaceAllUsesWith(r);
    sel->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(cond);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(cvt);
  }
}

} // namespace mlir::tinygrad::cpu
