//===- BeamTimingTest.cpp - a BEAM candidate's timing child: the cut-off ---===//
//
// exec::timeInChild, as BEAM times a CPU candidate: a candidate still
// running past count x the early stop (+ the load allowance), or whose
// first run goes past the early stop (+ slack), is killed and
// ranked inf, as tinygrad's BEAM_DEV_TIMEOUT does; a fault, or a run past
// the search's own limit without an early stop, is that candidate's error.
// The "kernel" here is a handler that hangs for good, faults or answers at
// once, so every outcome is fixed whatever the machine's load: no
// assertion depends on how long anything took.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/BeamKernel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <csignal>
#include <thread>

using mlir::tinygrad::exec::IsolatedWorker;
using mlir::tinygrad::exec::timeInChild;

namespace {

IsolatedWorker candidateChild() {
  return IsolatedWorker([](const std::string &req) -> llvm::Expected<std::string> {
    if (req == "hang")
      while (true)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (req == "fault")
      std::raise(SIGSEGV);
    using std::chrono::milliseconds;
    if (req == "slow first run") { // loaded, then a first run of 2 s
      IsolatedWorker::notice();
      std::this_thread::sleep_for(milliseconds(2000));
      return std::string("2 ");
    }
    if (req == "slow other runs") { // loaded, a quick first run, then 1.5 s of runs
      IsolatedWorker::notice();
      IsolatedWorker::notice();
      std::this_thread::sleep_for(milliseconds(1500));
      return std::string("0.01 0.75 0.75 ");
    }
    return std::string("1.5e-03 1.25e-03 2e-03 ");
  });
}

std::string errorOf(llvm::Expected<std::vector<double>> r) {
  if (r) {
    ADD_FAILURE() << "expected an error, got " << r->size() << " times";
    return "";
  }
  return llvm::toString(r.takeError());
}

TEST(BeamTiming, TheRunTimesComeBack) {
  IsolatedWorker w = candidateChild();
  llvm::Expected<std::vector<double>> t = timeInChild(w, "run", 0.01, 3, 10);
  ASSERT_TRUE((bool)t) << llvm::toString(t.takeError());
  EXPECT_EQ(*t, (std::vector<double>{1.5e-3, 1.25e-3, 2e-3}));
}

TEST(BeamTiming, ACandidatePastCountTimesTheEarlyStopIsKilledAndRankedInf) {
  // 3 runs x 10 ms + the load allowance: killed at 0.13 s, far under the
  // search's 10 s limit; its time is inf, not an error.
  IsolatedWorker w = candidateChild();
  llvm::Expected<std::vector<double>> t = timeInChild(w, "hang", 0.01, 3, 10);
  ASSERT_TRUE((bool)t) << llvm::toString(t.takeError());
  ASSERT_EQ(t->size(), 3u);
  for (double x : *t)
    EXPECT_TRUE(std::isinf(x) && x > 0) << x;
  // the next candidate has a fresh child
  llvm::Expected<std::vector<double>> next = timeInChild(w, "run", 0.01, 3, 10);
  ASSERT_TRUE((bool)next) << llvm::toString(next.takeError());
  EXPECT_EQ(next->size(), 3u);
  EXPECT_EQ(w.starts(), 2u);
}

TEST(BeamTiming, AFirstRunPastTheEarlyStopIsKilledThere) {
  // A first run slower than the early stop (1 s) ends the candidate
  // whatever the other runs would take: the 2 s run is killed at 1 s and
  // the slack, not let run to 3 x 1 s.
  IsolatedWorker w = candidateChild();
  llvm::Expected<std::vector<double>> t = timeInChild(w, "slow first run", 1.0, 3, 60);
  ASSERT_TRUE((bool)t) << llvm::toString(t.takeError());
  ASSERT_EQ(t->size(), 3u);
  EXPECT_TRUE(std::isinf((*t)[0])) << (*t)[0];
}

TEST(BeamTiming, TheOtherRunsHaveTheirOwnBound) {
  // Once the first run is in under the early stop, the other two get 2 x
  // 1 s from then: 1.5 s of them is not cut off by the first run's bound.
  IsolatedWorker w = candidateChild();
  llvm::Expected<std::vector<double>> t = timeInChild(w, "slow other runs", 1.0, 3, 60);
  ASSERT_TRUE((bool)t) << llvm::toString(t.takeError());
  EXPECT_EQ(*t, (std::vector<double>{0.01, 0.75, 0.75}));
  EXPECT_EQ(w.starts(), 1u);
}

TEST(BeamTiming, WithoutAnEarlyStopTheSearchsLimitIsAnError) {
  // No early stop (the first candidate of tinygrad's search): the bound is
  // the search's run limit, and a run past it fails the candidate.
  IsolatedWorker w = candidateChild();
  std::string e = errorOf(timeInChild(w, "hang", std::numeric_limits<double>::infinity(), 3, 0.2));
  EXPECT_NE(e.find("timed out"), std::string::npos) << e;
}

TEST(BeamTiming, ACutOffPastTheSearchsLimitIsTheLimitAndAnError) {
  // count x early stop + allowance (3.1 s) is past the run limit (0.2 s):
  // the limit applies, and running past it is an error, not inf.
  IsolatedWorker w = candidateChild();
  std::string e = errorOf(timeInChild(w, "hang", 1.0, 3, 0.2));
  EXPECT_NE(e.find("timed out"), std::string::npos) << e;
}

TEST(BeamTiming, AFaultIsAnErrorNotInf) {
  IsolatedWorker w = candidateChild();
  std::string e = errorOf(timeInChild(w, "fault", 0.01, 3, 10));
  EXPECT_NE(e.find("killed by signal 11"), std::string::npos) << e;
}

} // namespace
