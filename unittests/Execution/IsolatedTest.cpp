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
#include <sys/wait.h>
#include <unistd.h>

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

using mlir::tinygrad::exec::IsolatedWorker;

TEST(IsolatedWorker, KeepsItsStateAcrossCalls) {
  int calls = 0; // the child's copy counts
  IsolatedWorker w([&](const std::string &req) -> llvm::Expected<std::string> {
    return req + std::to_string(++calls);
  });
  for (int i = 1; i <= 3; ++i) {
    llvm::Expected<std::string> r = w.call("call ", 10);
    ASSERT_TRUE((bool)r) << llvm::toString(r.takeError());
    EXPECT_EQ(*r, "call " + std::to_string(i));
  }
  EXPECT_EQ(w.starts(), 1u);
  EXPECT_EQ(calls, 0); // this process's copy never ran
}

TEST(IsolatedWorker, AFaultOrATimeoutCostsThatCallAndAFreshChild) {
  int calls = 0;
  IsolatedWorker w([&](const std::string &req) -> llvm::Expected<std::string> {
    ++calls;
    if (req == "fault")
      std::raise(SIGSEGV);
    if (req == "hang")
      while (true)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return std::to_string(calls);
  });
  ASSERT_EQ(llvm::cantFail(w.call("a", 10)), "1");
  ASSERT_EQ(llvm::cantFail(w.call("b", 10)), "2");
  EXPECT_NE(errorOf(w.call("fault", 10)).find("killed by signal 11"), std::string::npos);
  EXPECT_EQ(llvm::cantFail(w.call("c", 10)), "1"); // a fresh child, forked from this process
  EXPECT_NE(errorOf(w.call("hang", 0.3)).find("timed out"), std::string::npos);
  EXPECT_EQ(llvm::cantFail(w.call("d", 10)), "1");
  EXPECT_EQ(w.starts(), 3u);
}

TEST(IsolatedWorker, TheBoundAfterANoticeCountsFromIt) {
  // BEAM's timing child says notice() once its object is loaded; from then
  // the call has afterNoticeS at most, whatever is left of timeoutS. The
  // times are far apart (1.5 s and 3 s of work against a 1 s bound), so
  // only a stall of a second could change an outcome.
  IsolatedWorker w([](const std::string &req) -> llvm::Expected<std::string> {
    if (req == "slow setup") { // 1.5 s before the notice, then the answer
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      IsolatedWorker::notice();
      return std::string("done");
    }
    IsolatedWorker::notice(); // "slow work": 3 s after the notice
    std::this_thread::sleep_for(std::chrono::seconds(3));
    return std::string("late");
  });
  // before the notice only timeoutS bounds it
  EXPECT_EQ(llvm::cantFail(w.call("slow setup", 60, 1.0)), "done");
  // after it, 1 s: killed long before the 3 s answer (60 s was the bound)
  EXPECT_NE(errorOf(w.call("slow work", 60, 1.0)).find("timed out"), std::string::npos);
  EXPECT_EQ(llvm::cantFail(w.call("slow setup", 60, 1.0)), "done"); // the next call: a fresh child
  EXPECT_EQ(w.starts(), 2u);
  // notice() outside a worker's child writes nothing anywhere
  IsolatedWorker::notice();
}

TEST(IsolatedWorker, EachNoticeBoundsTheRestOfTheCallAnew) {
  // Two notices, bounds of 1 s then 3 s: 0.5 s between them and 1.5 s
  // after the second answers (the first bound alone would have cut it at
  // 1 s); no bound goes past timeoutS (1.2 s here against 5 s bounds).
  IsolatedWorker w([](const std::string &) -> llvm::Expected<std::string> {
    IsolatedWorker::notice();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    IsolatedWorker::notice();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    return std::string("done");
  });
  EXPECT_EQ(llvm::cantFail(w.call("stages", 60, {1.0, 3.0})), "done");
  EXPECT_NE(errorOf(w.call("stages", 1.2, {5.0, 5.0})).find("timed out"), std::string::npos);
  EXPECT_EQ(w.starts(), 1u); // both calls were the first child's (the next call forks anew)
}

TEST(IsolatedWorker, AChildKilledBetweenCallsCostsTheNextCallOnly) {
  // The child dies while idle (as under the OOM killer): the next request's
  // write hits a closed pipe. The SIGPIPE that raises must not reach this
  // process (its default action would end the test binary here), the call
  // is an error, and the call after it has a fresh child.
  IsolatedWorker w([](const std::string &) -> llvm::Expected<std::string> { return std::to_string(::getpid()); });
  struct sigaction dfl{}, saved{};
  dfl.sa_handler = SIG_DFL;
  ASSERT_EQ(::sigaction(SIGPIPE, &dfl, &saved), 0); // as in a C++ tool (Python ignores SIGPIPE)
  pid_t child = std::stoi(llvm::cantFail(w.call("pid", 10)));
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child); // dead and reaped before the next write
  std::string e = errorOf(w.call("after", 10));
  EXPECT_NE(e.find("without a result"), std::string::npos) << e;
  EXPECT_NE(std::stoi(llvm::cantFail(w.call("again", 10))), child);
  EXPECT_EQ(w.starts(), 2u);
  ::sigaction(SIGPIPE, &saved, nullptr);
}

} // namespace
