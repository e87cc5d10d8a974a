//===- OpTableTest.cpp - every tinygrad Ops member has a registered op ----===//
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/InitAllDialects.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;

TEST(OpTable, EveryOpsMemberIsARegisteredOp) {
  DialectRegistry registry;
  tinygrad::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  for (const tinygrad::UOpName &n : tinygrad::getUOpNames())
    EXPECT_TRUE(RegisteredOperationName::lookup(n.mlir, &ctx).has_value())
        << n.tinygrad.str() << " -> " << n.mlir.str() << " is not registered";
}

TEST(OpTable, IsABijectionOverTheEnum) {
  std::set<std::string> tg, ml;
  for (const tinygrad::UOpName &n : tinygrad::getUOpNames()) {
    EXPECT_TRUE(tg.insert(n.tinygrad.str()).second) << n.tinygrad.str();
    EXPECT_TRUE(ml.insert(n.mlir.str()).second) << n.mlir.str();
    EXPECT_EQ(tinygrad::getMLIROpName(n.tinygrad).str(), n.mlir.str());
    EXPECT_EQ(tinygrad::getTinygradOpName(n.mlir).str(), n.tinygrad.str());
  }
  // tinygrad a9069c17 has 80 members; REWRITE_ERROR, PYLITERAL and FUNCTION
  // have no op on purpose (docs/OpIndex.md).
  EXPECT_EQ(tg.size(), 77u);
  EXPECT_TRUE(tinygrad::getMLIROpName("PYLITERAL").empty());
}
