//===- HCQScheduleTest.cpp - tg-schedule-to-hcq and its runtime mapping ---===//
//
// The dependency tracking of buildHCQSchedule (tinygrad's DepsTracker and
// HCQGraph._resolve_deps) on small step lists, read back as a trace of the
// queue commands; then the function run on the CPU device, directly and as
// a replayed capture with patched variables.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/HCQHostFunction.h"
#include "tinygrad/Execution/HCQRuntime.h"
#include "tinygrad/Execution/ScheduleToHCQ.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;

namespace {

struct Fixture : ::testing::Test {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;

  Fixture() {
    ctx.loadDialect<hcq::HCQDialect, func::FuncDialect, arith::ArithDialect>();
    ctx.getDiagEngine().registerHandler([this](Diagnostic &d) {
      diagnostics += d.str();
      return success();
    });
  }

  FailureOr<func::FuncOp> build(const HCQScheduleInput &in) {
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
    auto fn = buildHCQSchedule(b, UnknownLoc::get(&ctx), "schedule", in);
    if (succeeded(fn))
      EXPECT_TRUE(succeeded(verify(*module)));
    return fn;
  }

  /// The queue commands, one line each: "q<queue> <op> [s<signal> <value>]"
  /// with queues and signals numbered in creation order.
  std::vector<std::string> trace(func::FuncOp fn) {
    llvm::DenseMap<Value, int> queues, signals;
    std::vector<std::string> out;
    auto value = [](Value v) {
      return std::to_string(v.getDefiningOp<arith::ConstantIntOp>().value());
    };
    for (Operation &op : fn.getBody().front()) {
      if (auto q = dyn_cast<hcq::QueueOp>(op))
        queues[q] = queues.size();
      else if (auto s = dyn_cast<hcq::NewSignalOp>(op))
        signals[s] = signals.size();
      else if (auto w = dyn_cast<hcq::WaitOp>(op))
        out.push_back("q" + std::to_string(queues[w.getQueue()]) + " wait s" +
                      std::to_string(signals[w.getSignal()]) + " " + value(w.getValue()));
      else if (auto s = dyn_cast<hcq::SignalOp>(op))
        out.push_back("q" + std::to_string(queues[s.getQueue()]) + " signal s" +
                      std::to_string(signals[s.getSignal()]) + " " + value(s.getValue()));
      else if (auto x = dyn_cast<hcq::ExecOp>(op))
        out.push_back("q" + std::to_string(queues[x.getQueue()]) + " exec");
      else if (auto c = dyn_cast<hcq::CopyOp>(op))
        out.push_back("q" + std::to_string(queues[c.getQueue()]) + " copy");
      else if (auto h = dyn_cast<hcq::HostWaitOp>(op))
        out.push_back("host wait s" + std::to_string(signals[h.getSignal()]) + " " + value(h.getValue()));
    }
    return out;
  }
};

using Trace = std::vector<std::string>;

HCQStep exec(std::vector<unsigned> buffers, std::vector<unsigned> written) {
  HCQStep s;
  s.kind = HCQStep::Exec;
  for (unsigned b : buffers)
    s.args.push_back({HCQExecArg::Buffer, b});
  s.written = std::move(written);
  return s;
}
HCQStep copy(unsigned dst, unsigned src, int64_t bytes = 16) {
  HCQStep s;
  s.kind = HCQStep::Copy;
  s.dst = dst;
  s.src = src;
  s.bytes = bytes;
  return s;
}
/// n buffers of 16 bytes, each its own allocation.
HCQScheduleInput input(unsigned n) {
  HCQScheduleInput in;
  in.devices = {"CPU"};
  for (unsigned i = 0; i < n; ++i)
    in.buffers.push_back({0, i, 0, 16});
  in.programs = {{"k", 0}};
  return in;
}

// A queue runs in order: a kernel reading what the one before it wrote on
// the same queue needs no wait; only the end signals, for the host.
TEST_F(Fixture, SameQueueNeedsNoWait) {
  HCQScheduleInput in = input(3);
  in.steps = {exec({0, 1}, {0}), exec({2, 0}, {0})};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn), (Trace{"q0 exec", "q0 exec", "q0 signal s0 3", "host wait s0 3"}));
}

// A kernel reading a copy's destination waits for the copy queue, which
// signals that step's value (step index + 1); the end joins nothing more.
TEST_F(Fixture, ReadAfterCopyWaits) {
  HCQScheduleInput in = input(3);
  in.steps = {copy(1, 0), exec({2, 1}, {0})};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn), (Trace{"q0 copy", "q0 signal s0 1", "q1 wait s0 1", "q1 exec", "q1 signal s1 3",
                               "host wait s1 3"}));
}

// Write after read: a kernel overwriting what a copy reads waits for the
// copy, and the copy waits for the kernel that wrote its source.
TEST_F(Fixture, WriteAfterReadWaits) {
  HCQScheduleInput in = input(2);
  in.steps = {exec({0}, {0}), copy(1, 0), exec({0}, {0})};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn), (Trace{"q0 exec", "q0 signal s0 1", "q1 wait s0 1", "q1 copy", "q1 signal s1 2",
                               "q0 wait s1 2", "q0 exec", "q0 signal s0 4", "host wait s0 4"}));
}

// DepsTracker keys on byte ranges: disjoint views of one allocation do not
// depend on each other, overlapping ones do.
TEST_F(Fixture, ByteRangesOfOneAllocation) {
  HCQScheduleInput in = input(0);
  in.buffers = {{0, 0, 0, 16}, {0, 0, 16, 32}, {0, 0, 8, 24}, {0, 1, 0, 16}};
  in.steps = {exec({0}, {0}), copy(3, 1)};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  // The copy reads [16, 32): no wait for the kernel that wrote [0, 16).
  EXPECT_EQ(trace(*fn)[1], "q1 copy");
  in.steps = {exec({0}, {0}), copy(3, 2)};
  fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn)[2], "q1 wait s0 1"); // [8, 24) overlaps [0, 16)
}

// Of several dependencies on one queue only the latest is waited for, and
// a wait an earlier one of the same queue covers is dropped.
TEST_F(Fixture, OnlyTheLatestDependencyPerQueue) {
  HCQScheduleInput in = input(5);
  in.steps = {copy(1, 0), copy(3, 2), exec({4, 1, 3}, {0}), exec({4, 1}, {0})};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn), (Trace{"q0 copy", "q0 copy", "q0 signal s0 2", "q1 wait s0 2", "q1 exec", "q1 exec",
                               "q1 signal s1 5", "host wait s1 5"}));
}

// A copy queue whose last copy nothing waited for is joined at the end.
TEST_F(Fixture, ComputeJoinsTheCopyQueueAtTheEnd) {
  HCQScheduleInput in = input(4);
  in.steps = {exec({0}, {0}), copy(2, 3)};
  auto fn = build(in);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_EQ(trace(*fn), (Trace{"q0 exec", "q1 copy", "q1 signal s1 2", "q0 wait s1 2", "q0 signal s0 3",
                               "host wait s0 3"}));
}

TEST_F(Fixture, BadStepsAreLocatedErrors) {
  HCQScheduleInput in = input(1);
  in.steps = {exec({0}, {0})};
  in.steps[0].program = 3;
  EXPECT_TRUE(failed(build(in)));
  EXPECT_NE(diagnostics.find("tg-schedule-to-hcq: step 0 launches program 3 of 1"), std::string::npos)
      << diagnostics;
  diagnostics.clear();
  in.steps = {copy(0, 7)};
  EXPECT_TRUE(failed(build(in)));
  EXPECT_NE(diagnostics.find("copy step 0 names a buffer"), std::string::npos) << diagnostics;
}

// ---- on the runtime's CPU device ----------------------------------------

struct Runtime : Fixture {
  tgrt_device *dev = nullptr;
  tgrt_program *affine = nullptr;
  tgrt_buffer *in = nullptr, *work = nullptr, *out = nullptr;
  static constexpr int kN = 64;

  void SetUp() override {
    ASSERT_EQ(tgrt_device_open("CPU", nullptr, &dev), TGRT_OK) << tgrt_last_error();
    std::ifstream f(TGRT_TEST_KERNEL_DIR "/conformance.o", std::ios::binary);
    std::string obj((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(obj.empty());
    ASSERT_EQ(tgrt_program_load(dev, obj.data(), obj.size(), "cts_affine", &affine), TGRT_OK) << tgrt_last_error();
    for (tgrt_buffer **b : {&in, &work, &out})
      ASSERT_EQ(tgrt_buffer_alloc(dev, kN * 4, b), TGRT_OK) << tgrt_last_error();
  }
  void TearDown() override {
    for (tgrt_buffer *b : {in, work, out})
      if (b)
        tgrt_buffer_free(b);
    if (affine)
      tgrt_program_free(affine);
    if (dev)
      tgrt_device_close(dev);
  }

  /// copy in -> work; work = work * 3 + k on 4 threads; copy work -> out.
  /// Variables: n, k, nthreads.
  FailureOr<func::FuncOp> affineSchedule() {
    HCQScheduleInput s;
    s.devices = {"CPU"};
    s.buffers = {{0, 0, 0, kN * 4}, {0, 1, 0, kN * 4}, {0, 2, 0, kN * 4}};
    s.programs = {{"cts_affine", 0}};
    s.vars = {"n", "k", "nthreads"};
    HCQStep x;
    x.args = {{HCQExecArg::Buffer, 1}, {HCQExecArg::Var, 0}, {HCQExecArg::Var, 1}, {HCQExecArg::Var, 2},
              {HCQExecArg::CoreId, 0}};
    x.written = {0};
    x.global[0] = 4;
    s.steps = {copy(1, 0, kN * 4), x, copy(2, 1, kN * 4)};
    return build(s);
  }
  HCQBindings bindings(int64_t k) { return {{dev}, {in, work, out}, {affine}, {kN, k, 4}}; }

  void fill(unsigned seed) {
    std::vector<uint32_t> v(kN);
    for (int i = 0; i < kN; ++i)
      v[i] = seed * 1000 + i;
    ASSERT_EQ(tgrt_buffer_copy_in(in, 0, v.data(), kN * 4), TGRT_OK);
  }
  void expectOut(unsigned seed, int64_t k) {
    std::vector<uint32_t> v(kN);
    ASSERT_EQ(tgrt_buffer_copy_out(out, 0, v.data(), kN * 4), TGRT_OK);
    for (int i = 0; i < kN; ++i)
      ASSERT_EQ(v[i], (seed * 1000 + i) * 3u + static_cast<uint32_t>(k)) << "element " << i;
  }
};

TEST_F(Runtime, RunsEachOpAsItsRuntimeCall) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  fill(1);
  llvm::Error err = runHCQ(*fn, bindings(5));
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  expectOut(1, 5);
}

// The capture replays across both engines with fresh signal values per
// launch (a stale value would let a copy overtake the kernel), and a
// patched variable reaches the kernel without recording again.
TEST_F(Runtime, ReplaysWithPatchedVariables) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  auto replay = HCQReplay::capture(*fn, bindings(0));
  ASSERT_TRUE(!!replay) << llvm::toString(replay.takeError());
  for (unsigned launch = 0; launch < 50; ++launch) {
    fill(launch);
    int64_t k = launch * 7;
    llvm::Error err = (*replay)->setVar(1, k);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    err = (*replay)->launch();
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    expectOut(launch, k);
  }
  EXPECT_EQ((*replay)->launches(), 50u);
  llvm::Error err = (*replay)->setVar(3, 1);
  ASSERT_TRUE(!!err);
  EXPECT_EQ(llvm::toString(std::move(err)), "variable 3 of 3");
}

// The same schedule compiled to host code (convert-hcq-to-runtime, JIT):
// one native call records, submits and waits.
TEST_F(Runtime, CompiledHostFunctionRuns) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  auto host = HCQHostFunction::compile(*fn);
  ASSERT_TRUE(!!host) << llvm::toString(host.takeError());
  EXPECT_NE((*host)->llvmDialect().find("llvm.call @tgrt_hcq_exec"), std::string::npos);
  for (unsigned run = 0; run < 3; ++run) {
    fill(run);
    llvm::Error err = (*host)->run(bindings(run + 11));
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    expectOut(run, run + 11);
  }
}

// The compiled function's capture replays like the interpreter's.
TEST_F(Runtime, CompiledCaptureReplays) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  auto host = HCQHostFunction::compile(*fn);
  ASSERT_TRUE(!!host) << llvm::toString(host.takeError());
  auto replay = HCQReplay::capture(**host, *fn, bindings(0));
  ASSERT_TRUE(!!replay) << llvm::toString(replay.takeError());
  for (unsigned launch = 0; launch < 20; ++launch) {
    fill(launch);
    llvm::Error err = (*replay)->setVar(1, launch + 3);
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    err = (*replay)->launch();
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
    expectOut(launch, launch + 3);
  }
}

// A runtime call that fails stops the compiled function's later calls and
// is reported with the op that failed.
TEST_F(Runtime, CompiledHostFunctionReportsTheFailingOp) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  auto host = HCQHostFunction::compile(*fn);
  ASSERT_TRUE(!!host) << llvm::toString(host.takeError());
  tgrt_buffer *small = nullptr;
  ASSERT_EQ(tgrt_buffer_alloc(dev, 16, &small), TGRT_OK);
  HCQBindings b = bindings(0);
  b.buffers[2] = small; // the last copy's destination is too small
  llvm::Error err = (*host)->run(b);
  ASSERT_TRUE(!!err);
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("@schedule: hcq.copy: "), std::string::npos) << message;
  tgrt_buffer_free(small);
  b.vars.pop_back();
  err = (*host)->run(b);
  ASSERT_TRUE(!!err);
  EXPECT_EQ(llvm::toString(std::move(err)), "@schedule takes 8 arguments, 7 bound");
}

// A LINEAR with no calls (a program whose outputs are views of its
// inputs) schedules to no queue at all; its capture replays as nothing.
TEST_F(Runtime, AnEmptyScheduleReplaysAsNothing) {
  HCQScheduleInput s;
  s.devices = {"CPU"};
  auto fn = build(s);
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  EXPECT_TRUE(trace(*fn).empty());
  HCQBindings b{{dev}, {}, {}, {}};
  auto host = HCQHostFunction::compile(*fn);
  ASSERT_TRUE(!!host) << llvm::toString(host.takeError());
  for (bool compiled : {false, true}) {
    auto replay = compiled ? HCQReplay::capture(**host, *fn, b) : HCQReplay::capture(*fn, b);
    ASSERT_TRUE(!!replay) << llvm::toString(replay.takeError());
    llvm::Error err = (*replay)->launch();
    ASSERT_FALSE(err) << llvm::toString(std::move(err));
  }
}

TEST_F(Runtime, UnboundArgumentsAreErrors) {
  auto fn = affineSchedule();
  ASSERT_TRUE(succeeded(fn)) << diagnostics;
  HCQBindings b = bindings(0);
  b.vars.pop_back();
  llvm::Error err = runHCQ(*fn, b);
  ASSERT_TRUE(!!err);
  EXPECT_NE(llvm::toString(std::move(err)).find("takes 8 arguments, 7 bound"), std::string::npos);
}

} // namespace
