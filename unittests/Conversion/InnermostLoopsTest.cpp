//===- InnermostLoopsTest.cpp - which kernels LLVM's loop vectorizer widens ===//
//
// innermostLoopsWalkContiguousScalars decides whether a large CPU kernel is
// scalarized and given O2 (KernelEmitter.cpp): every innermost loop loads
// and stores scalars only, none an accumulator, and one access walks its
// buffer one element per iteration. Each case below is a loop nest of the
// shape the emitter builds, written by hand.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// `body` inside `for %i in 0..1024` inside `for %r in 0..64`; %a and %b are
/// 65536-element buffers, %row = %r * 1024.
bool decide(const std::string &body) {
  DialectRegistry reg;
  reg.insert<func::FuncDialect, scf::SCFDialect, arith::ArithDialect, memref::MemRefDialect,
             vector::VectorDialect>();
  MLIRContext ctx(reg);
  std::string text = R"(
func.func @k(%a: memref<65536xf32>, %b: memref<65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %acc = memref.alloca() : memref<f32>
  scf.for %r = %c0 to %c64 step %c1 {
    %row = arith.muli %r, %c1024 : index
    scf.for %i = %c0 to %c1024 step %c1 {
)" + body + R"(
    }
  }
  return
})";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
  EXPECT_TRUE(m) << text;
  if (!m)
    return false;
  func::FuncOp fn = *m->getOps<func::FuncOp>().begin();
  return tinygrad::kernel_emitter::innermostLoopsWalkContiguousScalars(fn);
}

TEST(InnermostLoops, ScalarsAlongTheLoopWiden) {
  // a[row + i] = b[row + i] * 2, through i32 casts as the emitter writes them
  EXPECT_TRUE(decide(R"(
      %i32 = arith.index_cast %i : index to i32
      %r32 = arith.index_cast %row : index to i32
      %s = arith.addi %r32, %i32 : i32
      %x = arith.index_cast %s : i32 to index
      %v = memref.load %b[%x] : memref<65536xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%x] : memref<65536xf32>)"));
}

TEST(InnermostLoops, OneContiguousAccessSuffices) {
  // a lane across rows: b[i * 64 + r] strided, a[row + i] contiguous
  EXPECT_TRUE(decide(R"(
      %t = arith.muli %i, %c64 : index
      %y = arith.addi %t, %r : index
      %v = memref.load %b[%y] : memref<65536xf32>
      %x = arith.addi %row, %i : index
      memref.store %v, %a[%x] : memref<65536xf32>)"));
}

TEST(InnermostLoops, OnlyStridedAccessesDoNot) {
  // every access steps 2 (i + i) or 64 elements: nothing for the vectorizer
  EXPECT_FALSE(decide(R"(
      %d = arith.addi %i, %i : index
      %v = memref.load %b[%d] : memref<65536xf32>
      %t = arith.muli %i, %c64 : index
      memref.store %v, %a[%t] : memref<65536xf32>)"));
}

TEST(InnermostLoops, OurVectorsStay) {
  EXPECT_FALSE(decide(R"(
      %x = arith.addi %row, %i : index
      %v = vector.load %b[%x] : memref<65536xf32>, vector<4xf32>
      vector.store %v, %a[%x] : memref<65536xf32>, vector<4xf32>)"));
}

TEST(InnermostLoops, AnAccumulatorStays) {
  // a reduction through a stack slot: LLVM may not reassociate it
  EXPECT_FALSE(decide(R"(
      %x = arith.addi %row, %i : index
      %v = memref.load %b[%x] : memref<65536xf32>
      %s = memref.load %acc[] : memref<f32>
      %w = arith.addf %s, %v : f32
      memref.store %w, %acc[] : memref<f32>)"));
}

TEST(InnermostLoops, AnIndexOfUnknownStepIsNotContiguous) {
  // i * i: no constant step; the other access is loop-invariant
  EXPECT_FALSE(decide(R"(
      %q = arith.muli %i, %i : index
      %v = memref.load %b[%q] : memref<65536xf32>
      memref.store %v, %a[%row] : memref<65536xf32>)"));
}

} // namespace
