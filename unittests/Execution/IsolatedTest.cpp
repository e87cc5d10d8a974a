//===- IsolatedTest.cpp - runIsolated: results, faults, time limits -------===//
//
// What BEAM search relies on to time a candidate: a fault or a run past the
// limit is that call's error, and the process calling goes on.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/Isolated.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

using mlir::tinygrad::exec::runIsolated;

namespace {

std::string errorOf(llvm::Expected<std::string> r) {
  if (r) {
    ADD_FAILURE() << "expected an error, got '" << *r << "'";
    return "";
  }
  return llvm::toString(r.takeError());
}

TEST(Isolated, TheResultComesBack) {
  llvm::Expected<std::string> r = runIsolated([]() -> llvm::Expected<std::string> { return std::string("1.5e-3 2e-3"); }, 10);
  ASSERT_TRUE((bool)r) << llvm::toString(r.takeError());
  EXPECT_EQ(*r, "1.5e-3 2e-3");
}

TEST(Isolated, TheChildsErrorComesBack) {
  std::string e = errorOf(runIsolated(
      []() -> llvm::Expected<std::string> {
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "launch: bad argument");
      },
      10));
  EXPECT_EQ(e, "launch: bad argument");
}

TEST(Isolated, AFaultIsAnError) {
  std::string e = errorOf(runIsolated(
      []() -> llvm::Expected<std::string> {
        std::raise(SIGSEGV);
        return std::string("unreachable");
      },
      10));
  EXPECT_NE(e.find("killed by signal 11"), std::string::npos) << e;
}

TEST(Isolated, AnAbortIsAnError) {
  std::string e = errorOf(runIsolated(
      []() -> llvm::Expected<std::string> {
        std::abort();
      },
      10));
  EXPECT_NE(e.find("killed by signal 6"), std::string::npos) << e;
}

TEST(Isolated, ARunPastTheLimitIsKilled) {
  auto t0 = std::chrono::steady_clock::now();
  std::string e = errorOf(runIsolated(
      []() -> llvm::Expected<std::string> {
        while (true)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      },
      0.3));
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(e.find("timed out"), std::string::npos) << e;
  EXPECT_LT(s, 5.0);
}

TEST(Isolated, TheCallerGoesOnAfterFailures) {
  for (int i = 0; i < 3; ++i)
    (void)errorOf(runIsolated([]() -> llvm::Expected<std::string> { std::abort(); }, 10));
  llvm::Expected<std::string> r = runIsolated([]() -> llvm::Expected<std::string> { return std::string("ok"); }, 10);
  ASSERT_TRUE((bool)r);
  EXPECT_EQ(*r, "ok");
}

} // namespace
