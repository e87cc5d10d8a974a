//===- CAPITest.cpp - the C API's success and error paths ----------------===//
#include "TestInputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern "C" int tgc_c_api_smoke(const char *json, size_t size);

namespace {
using tgctest::lastError;
using tgctest::readInput;

struct Context {
  Context() { EXPECT_EQ(tgc_context_create(&ctx), TGC_OK); }
  ~Context() { tgc_context_destroy(ctx); }
  tgc_context *ctx = nullptr;
};

tgc_module *importFile(tgc_context *ctx, const char *name) {
  std::string text = readInput(name);
  tgc_module *m = nullptr;
  EXPECT_EQ(tgc_module_import_json(ctx, text.data(), text.size(), name, "ast", &m), TGC_OK) << lastError();
  return m;
}

tgc_module *parse(tgc_context *ctx, const std::string &text) {
  tgc_module *m = nullptr;
  EXPECT_EQ(tgc_module_parse_mlir(ctx, text.data(), text.size(), "test.mlir", &m), TGC_OK) << lastError();
  return m;
}

std::string print(tgc_module *m) {
  char *text = nullptr;
  EXPECT_EQ(tgc_module_print(m, 0, &text), TGC_OK) << lastError();
  std::string s = text ? text : "";
  tgc_string_free(text);
  return s;
}

// (a*2 + a*3), which tg-symbolic folds to a*5.
const std::string kSymbolic = readInput("symbolic.mlir");

TEST(CAPI, VersionAndStatusNames) {
  EXPECT_EQ(tgc_api_version(), (uint32_t)TGC_API_VERSION);
  EXPECT_STREQ(tgc_status_string(TGC_OK), "TGC_OK");
  EXPECT_STREQ(tgc_status_string(TGC_COMPILE_FAILED), "TGC_COMPILE_FAILED");
  EXPECT_STREQ(tgc_status_string((tgc_status)99), "TGC_UNKNOWN");
  tgc_string_free(nullptr);
}

TEST(CAPI, NullArgumentsAreErrors) {
  EXPECT_EQ(tgc_context_create(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("out_context is NULL"), std::string::npos);
  EXPECT_EQ(tgc_context_destroy(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_module_destroy(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_kernel_destroy(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_module_run_pipeline(nullptr, "cse", nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_compile_kernel_cpu(nullptr, nullptr, nullptr), TGC_INVALID_ARGUMENT);
  Context c;
  tgc_module *m = nullptr;
  EXPECT_EQ(tgc_module_import_json(c.ctx, nullptr, 5, nullptr, nullptr, &m), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(tgc_module_parse_mlir(c.ctx, "", 0, nullptr, nullptr), TGC_INVALID_ARGUMENT);
}

TEST(CAPI, BadJSONIsAParseErrorWithALocation) {
  Context c;
  tgc_module *m = nullptr;
  const char *bad = "{\"nodes\": [{\"id\": 0, \"op\": \"NOT_AN_OP\", \"dtype\": \"int32\", \"src\": []}], \"root\": 0}";
  EXPECT_EQ(tgc_module_import_json(c.ctx, bad, strlen(bad), "bad.json", nullptr, &m), TGC_PARSE_ERROR);
  EXPECT_EQ(m, nullptr);
  std::string err = lastError();
  EXPECT_NE(err.find("NOT_AN_OP"), std::string::npos) << err;
  EXPECT_NE(err.find("error:"), std::string::npos) << err;
  const char *notJSON = "{\"nodes\": [";
  EXPECT_EQ(tgc_module_import_json(c.ctx, notJSON, strlen(notJSON), "trunc.json", nullptr, &m), TGC_PARSE_ERROR);
  EXPECT_NE(lastError().find("trunc.json"), std::string::npos) << lastError();
}

TEST(CAPI, BadMLIRParseAndVerifyErrors) {
  Context c;
  tgc_module *m = nullptr;
  const char *junk = "%0 = tg.nonsense()";
  EXPECT_EQ(tgc_module_parse_mlir(c.ctx, junk, strlen(junk), "junk.mlir", &m), TGC_PARSE_ERROR);
  EXPECT_NE(lastError().find("junk.mlir:1:"), std::string::npos) << lastError();
  // Well-formed, but tinygrad's spec (the op's verifier) rejects an int CONST of dtype float.
  const char *mixed = "%0 = tg.const 1 : si32\n\n%1 = tg.const 1 : f32\n";
  EXPECT_EQ(tgc_module_parse_mlir(c.ctx, mixed, strlen(mixed), "mixed.mlir", &m), TGC_VERIFY_ERROR)
      << lastError();
  EXPECT_NE(lastError().find("mixed.mlir:3:"), std::string::npos) << lastError();
  EXPECT_EQ(m, nullptr);
}

struct PassLog {
  std::vector<std::string> passes;
  std::string lastIR;
};
void logPass(const char *pass, const char *ir, size_t size, void *user) {
  auto *log = static_cast<PassLog *>(user);
  log->passes.push_back(pass);
  log->lastIR.assign(ir, size);
  EXPECT_EQ(ir[size], '\0');
}

TEST(CAPI, RunPipelineWithPerPassIR) {
  Context c;
  tgc_module *m = parse(c.ctx, kSymbolic);
  ASSERT_TRUE(m);
  PassLog log;
  tgc_pass_options opts = TGC_PASS_OPTIONS_DEFAULT;
  opts.after_pass = logPass;
  opts.user_data = &log;
  ASSERT_EQ(tgc_module_run_pipeline(m, "tg-symbolic,cse", &opts), TGC_OK) << lastError();
  ASSERT_EQ(log.passes, (std::vector<std::string>{"tg-symbolic", "cse"}));
  std::string ir = print(m);
  EXPECT_EQ(ir, log.lastIR);
  EXPECT_NE(ir.find("tg.const 5"), std::string::npos) << ir; // a*2+a*3 -> a*5
  // The anchored form does the same.
  EXPECT_EQ(tgc_module_run_pipeline(m, "builtin.module(canonicalize)", nullptr), TGC_OK) << lastError();
  tgc_module_destroy(m);
}

TEST(CAPI, PipelineErrors) {
  Context c;
  tgc_module *m = parse(c.ctx, kSymbolic);
  ASSERT_TRUE(m);
  EXPECT_EQ(tgc_module_run_pipeline(m, "no-such-pass", nullptr), TGC_PARSE_ERROR);
  EXPECT_NE(lastError().find("no-such-pass"), std::string::npos) << lastError();
  tgc_pass_options opts = TGC_PASS_OPTIONS_DEFAULT;
  opts.api_version = 0;
  EXPECT_EQ(tgc_module_run_pipeline(m, "cse", &opts), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("api_version"), std::string::npos);
  // The spec pass rejects a scalar graph in the kernel-graph phase: located
  // diagnostics, without MLIR's "see current operation" dump of the op.
  EXPECT_EQ(tgc_module_run_pipeline(m, "tg-verify-spec{phase=kernel_graph}", nullptr), TGC_PASS_FAILED);
  EXPECT_NE(lastError().find("test.mlir:5:6: error: spec_kernel_graph: no rule accepts MUL"), std::string::npos)
      << lastError();
  EXPECT_EQ(lastError().find("see current operation"), std::string::npos) << lastError();
  tgc_module_destroy(m);
}

TEST(CAPI, JSONRoundTrip) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  char *json = nullptr;
  ASSERT_EQ(tgc_module_export_json(m, &json), TGC_OK) << lastError();
  tgc_module *back = nullptr;
  ASSERT_EQ(tgc_module_import_json(c.ctx, json, strlen(json), "exported", nullptr, &back), TGC_OK)
      << lastError();
  EXPECT_EQ(print(m), print(back));
  tgc_string_free(json);
  tgc_module_destroy(back);
  tgc_module_destroy(m);
}

// Scheduling a tensor program is the `tg-schedule` pipeline: the tensor graph
// tinygrad hands its scheduler (corpus program ew_mul_bcast_col) becomes one
// kernel CALL over the program's buffers in a LINEAR.
TEST(CAPI, ScheduleATensorProgram) {
  Context c;
  std::string graph = readInput("tensor_mul_bcast.json");
  tgc_module *m = nullptr;
  ASSERT_EQ(tgc_module_import_json(c.ctx, graph.data(), graph.size(), "tensor_mul_bcast.json", nullptr, &m),
            TGC_OK)
      << lastError();
  ASSERT_EQ(tgc_module_run_pipeline(m, "tg-schedule", nullptr), TGC_OK) << lastError();
  std::string ir = print(m);
  EXPECT_NE(ir.find("hcq.linear"), std::string::npos) << ir;
  size_t calls = 0;
  for (size_t at = ir.find("tg.call "); at != std::string::npos; at = ir.find("tg.call ", at + 1))
    ++calls;
  EXPECT_EQ(calls, 1u) << ir;
  tgc_module_destroy(m);
}

TEST(CAPI, CompileAndRunKernelWithAVariable) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  PassLog log;
  tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
  opts.keep_mlir = 1;
  opts.after_pass = logPass;
  opts.user_data = &log;
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel_cpu(m, &opts, &k), TGC_OK) << lastError();
  ASSERT_FALSE(log.passes.empty());
  EXPECT_EQ(log.passes.front(), "tg-lower-kernel");
  EXPECT_NE(log.lastIR.find("llvm.func"), std::string::npos);

  tgc_kernel_info info = {};
  EXPECT_EQ(tgc_kernel_get_info(k, &info), TGC_INVALID_ARGUMENT); // api_version unset
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_kernel_get_info(k, &info), TGC_OK) << lastError();
  EXPECT_STREQ(info.name, "test"); // the AST's KernelInfo name
  ASSERT_EQ(info.num_globals, 2u);
  EXPECT_EQ(info.globals[0], 0);
  EXPECT_EQ(info.globals[1], 1);
  EXPECT_EQ(info.global_elements[0], 8);
  ASSERT_EQ(info.num_outs, 1u);
  EXPECT_EQ(info.outs[0], 0);
  ASSERT_EQ(info.num_ins, 1u);
  EXPECT_EQ(info.ins[0], 1);
  ASSERT_EQ(info.num_vars, 1u);
  EXPECT_STREQ(info.vars[0], "k");
  EXPECT_STREQ(info.var_dtypes[0], "int32"); // a weakint in int32's bounds: tinygrad's `const int`
  EXPECT_EQ(info.core_id_arg, -1);
  EXPECT_EQ(info.global_size[0], 1);
  EXPECT_STREQ(info.global_size_expr[0], "1");
  EXPECT_STREQ(info.local_size_expr[2], "1");
  // tinygrad's Estimates of the kernel as compiled: 8 adds, 8 floats in and
  // out, each buffer's 32 bytes once
  EXPECT_EQ(info.ops, 8);
  EXPECT_EQ(info.lds, 64);
  EXPECT_EQ(info.mem, 64);
  EXPECT_STREQ(info.ops_expr, "8");

  const char *text = nullptr;
  size_t size = 0;
  // the compiled program in tinygrad's linear form, and the same Estimates
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_UOPS, &text, &size), TGC_OK);
  std::string uops(text, size);
  EXPECT_NE(uops.find("\"estimates\":{\"lds\":64,\"mem\":64,\"ops\":8}"), std::string::npos) << uops;
  EXPECT_NE(uops.find("\"op\":\"LINEAR\""), std::string::npos);
  EXPECT_NE(uops.find("\"op\":\"STORE\""), std::string::npos);
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_MLIR, &text, &size), TGC_OK);
  EXPECT_NE(std::string(text, size).find("func.func @test"), std::string::npos);
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_ASM, &text, &size), TGC_OK);
  EXPECT_EQ(size, 0u); // not kept
  // Where the CPU compile's time went, under the names tinygrad-mlir's
  // profiles and the bench read (codegen: AST to LLVM dialect; then LLVM's
  // optimizer and its object emission).
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_PHASES, &text, &size), TGC_OK);
  std::string phases(text, size);
  for (const char *phase : {"\"codegen\":", "\"llvm_opt\":", "\"llvm_emit\":"})
    EXPECT_NE(phases.find(phase), std::string::npos) << phase << " in " << phases;
  EXPECT_EQ(tgc_kernel_text(k, (tgc_text_kind)7, &text, &size), TGC_INVALID_ARGUMENT);
  const void *obj = nullptr;
  ASSERT_EQ(tgc_kernel_object(k, &obj, &size), TGC_OK);
  ASSERT_GT(size, 4u);
  EXPECT_EQ(std::memcmp(obj, "\x7f" "ELF", 4), 0);

  tgrt_device *dev = nullptr;
  ASSERT_EQ(tgrt_device_open("CPU", nullptr, &dev), TGRT_OK);
  tgrt_program *prog = nullptr;
  ASSERT_EQ(tgc_kernel_load(k, dev, &prog), TGC_OK) << lastError();
  tgrt_buffer *out = nullptr, *in = nullptr;
  ASSERT_EQ(tgrt_buffer_alloc(dev, 8 * sizeof(float), &out), TGRT_OK);
  ASSERT_EQ(tgrt_buffer_alloc(dev, 8 * sizeof(float), &in), TGRT_OK);
  float vals[8] = {0, 1, 2, 3, 4, 5, 6, 7.5f};
  ASSERT_EQ(tgrt_buffer_copy_in(in, 0, vals, sizeof vals), TGRT_OK);
  tgrt_buffer *bufs[2] = {out, in};
  int64_t kval = 3;
  EXPECT_EQ(tgc_kernel_launch(k, prog, bufs, 1, &kval, 1), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("takes 2 buffers, got 1"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_kernel_launch(k, prog, bufs, 2, &kval, 0), TGC_INVALID_ARGUMENT);
  tgrt_buffer *small = nullptr;
  ASSERT_EQ(tgrt_buffer_alloc(dev, 4, &small), TGRT_OK);
  tgrt_buffer *tooSmall[2] = {small, in};
  EXPECT_EQ(tgc_kernel_launch(k, prog, tooSmall, 2, &kval, 1), TGC_INVALID_ARGUMENT);
  ASSERT_EQ(tgc_kernel_launch(k, prog, bufs, 2, &kval, 1), TGC_OK) << lastError();
  float got[8];
  ASSERT_EQ(tgrt_buffer_copy_out(out, 0, got, sizeof got), TGRT_OK);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(got[i], vals[i] + 3) << i;

  tgrt_buffer_free(small);
  tgrt_buffer_free(in);
  tgrt_buffer_free(out);
  tgrt_program_free(prog);
  tgrt_device_close(dev);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// "cuda:sm_<N>:ptx" stops the CUDA route at the PTX text (no toolkit
// needed: the kernel calls no libdevice math); TGC_TEXT_PHASES says where
// the time went, without a cubin link. An emit kind another target lacks,
// or one no target has, is a compile error naming it.
TEST(CAPI, CompileForCudaEmitsPTXWhenAsked) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  tgc_kernel *k = nullptr;
  EXPECT_EQ(tgc_compile_kernel(m, "cuda:sm_90:sass", nullptr, &k), TGC_COMPILE_FAILED);
  EXPECT_NE(lastError().find("unknown emit kind 'sass' for cuda:sm_90"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_compile_kernel(m, "amd:gfx942:ptx", nullptr, &k), TGC_COMPILE_FAILED);
  EXPECT_NE(lastError().find("unknown emit kind 'ptx' for amd:gfx942"), std::string::npos) << lastError();
  ASSERT_EQ(tgc_compile_kernel(m, "cuda:sm_90:ptx", nullptr, &k), TGC_OK) << lastError();
  uint32_t format = 0;
  ASSERT_EQ(tgc_kernel_format(k, &format), TGC_OK);
  EXPECT_EQ(format, (uint32_t)TGRT_FORMAT_PTX);
  const void *bin = nullptr;
  size_t size = 0;
  ASSERT_EQ(tgc_kernel_object(k, &bin, &size), TGC_OK);
  std::string ptx(static_cast<const char *>(bin), size);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".entry test("), std::string::npos) << ptx;
  const char *text = nullptr;
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_PHASES, &text, &size), TGC_OK);
  std::string phases(text, size);
  for (const char *phase : {"\"codegen\":", "\"lower\":", "\"translate\":", "\"optimize\":", "\"llvm_codegen\":"})
    EXPECT_NE(phases.find(phase), std::string::npos) << phase << " in " << phases;
  EXPECT_EQ(phases.find("link_binary"), std::string::npos) << phases;
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// after_pass sees every target's pipeline, not only the CPU's: a Vulkan
// compile reports its passes from the kernel's lowering to the SPIR-V
// dialect, and the last IR it shows is that module.
TEST(CAPI, AfterPassSeesTheGPUPipeline) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  PassLog log;
  tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
  opts.after_pass = logPass;
  opts.user_data = &log;
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel(m, "vulkan", &opts, &k), TGC_OK) << lastError();
  ASSERT_FALSE(log.passes.empty());
  EXPECT_EQ(log.passes.front(), "tg-lower-kernel");
  EXPECT_NE(std::find_if(log.passes.begin(), log.passes.end(),
                         [](const std::string &p) { return p.find("spirv") != std::string::npos; }),
            log.passes.end());
  EXPECT_NE(log.lastIR.find("spirv.module"), std::string::npos) << log.lastIR;
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// A GPU kernel's Estimates count every launched thread, as tinygrad's
// from_uops multiplies by each SPECIAL's size: the same 8 adds and 64 bytes
// as the CPU kernel (per thread they were a quarter: setitem's 100 ints
// were 16 bytes, test_setitem_schedule on DEV=VULKAN).
TEST(CAPI, GPUEstimatesCountEveryThread) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel(m, "vulkan", nullptr, &k), TGC_OK) << lastError();
  tgc_kernel_info info = {};
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_kernel_get_info(k, &info), TGC_OK) << lastError();
  EXPECT_EQ(info.ops, 8);
  EXPECT_EQ(info.lds, 64);
  EXPECT_EQ(info.mem, 64);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

/// The binary of var_add.json compiled for `target` in `ctx`.
std::string compiledFor(tgc_context *ctx, const char *target) {
  tgc_module *m = importFile(ctx, "var_add.json");
  tgc_kernel *k = nullptr;
  EXPECT_EQ(tgc_compile_kernel(m, target, nullptr, &k), TGC_OK) << target << ": " << lastError();
  std::string bytes;
  const void *bin = nullptr;
  size_t size = 0;
  if (k && tgc_kernel_object(k, &bin, &size) == TGC_OK)
    bytes.assign(static_cast<const char *>(bin), size);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
  return bytes;
}

// A context keeps one lowering pipeline per GPU target (GPUCompiler): GPU
// targets compiled in turn in one context, each target again after the
// others, give the bytes a fresh context gives for that target.
TEST(CAPI, GPUTargetsInTurnShareAContext) {
  Context shared;
  for (const char *target : {"cuda:sm_90:ptx", "vulkan", "amd:gfx942", "cuda:sm_80:ptx", "vulkan", "cuda:sm_90:ptx",
                             "amd:gfx942"}) {
    Context fresh;
    std::string got = compiledFor(shared.ctx, target), want = compiledFor(fresh.ctx, target);
    EXPECT_FALSE(want.empty()) << target;
    EXPECT_EQ(got, want) << target;
  }
}

// The same kernel for Vulkan: SPIR-V, its interface in tgc_kernel_info,
// loaded and dispatched on the runtime's Vulkan device (lavapipe), where
// one is; an unknown target is a compile error naming the known ones.
TEST(CAPI, CompileForVulkanAndDispatch) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_add.json");
  ASSERT_TRUE(m);
  tgc_kernel *k = nullptr;
  EXPECT_EQ(tgc_compile_kernel(m, "metal", nullptr, &k), TGC_COMPILE_FAILED);
  EXPECT_NE(lastError().find("known: cpu, vulkan"), std::string::npos) << lastError();
  ASSERT_EQ(tgc_compile_kernel(m, "vulkan", nullptr, &k), TGC_OK) << lastError();
  uint32_t format = 0;
  ASSERT_EQ(tgc_kernel_format(k, &format), TGC_OK);
  EXPECT_EQ(format, (uint32_t)TGRT_FORMAT_SPIRV);
  const void *bin = nullptr;
  size_t size = 0;
  ASSERT_EQ(tgc_kernel_object(k, &bin, &size), TGC_OK);
  ASSERT_GE(size, 4u);
  EXPECT_EQ(*static_cast<const uint32_t *>(bin), 0x07230203u); // SPIR-V magic
  tgc_kernel_info info = {};
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_kernel_get_info(k, &info), TGC_OK) << lastError();
  EXPECT_STREQ(info.name, "test");
  ASSERT_EQ(info.num_vars, 1u);
  EXPECT_STREQ(info.var_dtypes[0], "int32");
  int64_t threads = info.local_size[0] * info.local_size[1] * info.local_size[2];
  int64_t groups = info.global_size[0] * info.global_size[1] * info.global_size[2];
  EXPECT_GE(groups * threads, 1);
  const char *text = nullptr;
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_UOPS, &text, &size), TGC_OK);
  EXPECT_NE(std::string(text, size).find("\"local_size\""), std::string::npos);

  tgrt_device *dev = nullptr;
  if (tgrt_device_open("VULKAN", nullptr, &dev) == TGRT_OK) {
    tgrt_program *prog = nullptr;
    ASSERT_EQ(tgc_kernel_load(k, dev, &prog), TGC_OK) << lastError();
    tgrt_buffer *out = nullptr, *in = nullptr;
    ASSERT_EQ(tgrt_buffer_alloc(dev, 8 * sizeof(float), &out), TGRT_OK);
    ASSERT_EQ(tgrt_buffer_alloc(dev, 8 * sizeof(float), &in), TGRT_OK);
    float vals[8] = {0, 1, 2, 3, 4, 5, 6, 7.5f};
    ASSERT_EQ(tgrt_buffer_copy_in(in, 0, vals, sizeof vals), TGRT_OK);
    tgrt_buffer *bufs[2] = {out, in};
    int64_t kval = 3;
    EXPECT_EQ(tgc_kernel_launch(k, prog, bufs, 2, &kval, 1), TGC_INVALID_ARGUMENT);
    tgrt_arg args[3] = {tgrt_arg_buffer(out), tgrt_arg_buffer(in), tgrt_arg_int(kval)};
    tgrt_dispatch d{};
    d.api_version = TGRT_API_VERSION;
    d.core_id_arg_index = -1;
    for (int i = 0; i < 3; ++i) {
      ASSERT_GE(info.global_size[i], 1) << info.global_size_expr[i];
      d.global_size[i] = (uint32_t)info.global_size[i];
      d.local_size[i] = (uint32_t)info.local_size[i];
    }
    ASSERT_EQ(tgrt_program_dispatch(prog, args, 3, &d), TGRT_OK) << tgrt_last_error();
    float got[8];
    ASSERT_EQ(tgrt_buffer_copy_out(out, 0, got, sizeof got), TGRT_OK);
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(got[i], vals[i] + 3) << i;
    tgrt_buffer_free(in);
    tgrt_buffer_free(out);
    tgrt_program_free(prog);
    tgrt_device_close(dev);
  }
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// A 64-bit variable keeps its width through the kernel ABI, the C API and
// the runtime: tinygrad's C declares `const long b` and passes a 64-bit slot
// (issue 22: read as an i32 argument, 2^35 arrived as 0).
TEST(CAPI, Int64VariableKeepsItsWidth) {
  Context c;
  tgc_module *m = importFile(c.ctx, "var_long.json");
  ASSERT_TRUE(m);
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel_cpu(m, nullptr, &k), TGC_OK) << lastError();
  tgc_kernel_info info = {};
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_kernel_get_info(k, &info), TGC_OK) << lastError();
  ASSERT_EQ(info.num_vars, 1u);
  EXPECT_STREQ(info.vars[0], "b");
  EXPECT_STREQ(info.var_dtypes[0], "int64");
  tgrt_device *dev = nullptr;
  ASSERT_EQ(tgrt_device_open("CPU", nullptr, &dev), TGRT_OK);
  tgrt_program *prog = nullptr;
  ASSERT_EQ(tgc_kernel_load(k, dev, &prog), TGC_OK) << lastError();
  tgrt_buffer *out = nullptr;
  ASSERT_EQ(tgrt_buffer_alloc(dev, sizeof(int64_t), &out), TGRT_OK);
  for (int64_t v : {int64_t(1) << 35, (int64_t(1) << 40) - 3, int64_t(5)}) {
    ASSERT_EQ(tgc_kernel_launch(k, prog, &out, 1, &v, 1), TGC_OK) << lastError();
    int64_t got = 0;
    ASSERT_EQ(tgrt_buffer_copy_out(out, 0, &got, sizeof got), TGRT_OK);
    EXPECT_EQ(got, v);
  }
  tgrt_buffer_free(out);
  tgrt_program_free(prog);
  tgrt_device_close(dev);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// The non-temporal store's two paths: an aligned output (streamed past the
// caches) and a view 4 bytes in (the plain store), both exact; and what the
// back end makes of a large kernel.
TEST(CAPI, StreamedStoresAtAnyAlignment) {
  // 128 MB of buffers against a 32 MB last-level cache, whatever this host's.
  setenv("TG_LAST_CACHE_BYTES", "33554432", 1);
  Context c;
  tgc_module *m = parse(c.ctx, readInput("stream_double.mlir"));
  ASSERT_TRUE(m);
  tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
  opts.keep_mlir = 1;
  opts.keep_llvm_ir = 1;
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel_cpu(m, &opts, &k), TGC_OK) << lastError();
  unsetenv("TG_LAST_CACHE_BYTES");
  const char *text = nullptr;
  size_t size = 0;
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_MLIR, &text, &size), TGC_OK);
  EXPECT_NE(std::string(text, size).find("nontemporal = true"), std::string::npos);
  // The optimized LLVM IR of this large kernel (tg-keep-loops, the lean
  // middle end): the alignment test unswitched into two loops, neither
  // unrolled again, so one non-temporal and one plain 8-float store; and
  // LLVM's vectorizers told not to gather.
  ASSERT_EQ(tgc_kernel_text(k, TGC_TEXT_LLVM_IR, &text, &size), TGC_OK);
  std::string ir(text, size);
  auto count = [&](const std::string &what) {
    size_t n = 0;
    for (size_t at = ir.find(what); at != std::string::npos; at = ir.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("store <8 x float>"), 2u) << ir;
  EXPECT_EQ(count("!nontemporal"), 1u) << ir;
  // The kernel's end orders those stores before its completion signal: on
  // x86 an SFENCE (a locked instruction is not documented to) before the
  // fence.
  EXPECT_EQ(count("fence seq_cst"), 1u) << ir;
#if defined(__x86_64__) || defined(__i386__)
  EXPECT_EQ(count("call void @llvm.x86.sse.sfence()"), 1u) << ir;
#endif
  EXPECT_NE(ir.find("+prefer-no-gather"), std::string::npos);

  constexpr size_t n = size_t(1) << 24;
  tgrt_device *dev = nullptr;
  ASSERT_EQ(tgrt_device_open("CPU", nullptr, &dev), TGRT_OK);
  tgrt_program *prog = nullptr;
  ASSERT_EQ(tgc_kernel_load(k, dev, &prog), TGC_OK) << lastError();
  tgrt_buffer *in = nullptr, *whole = nullptr, *shifted = nullptr;
  ASSERT_EQ(tgrt_buffer_alloc(dev, n * sizeof(float), &in), TGRT_OK);
  ASSERT_EQ(tgrt_buffer_alloc(dev, (n + 16) * sizeof(float), &whole), TGRT_OK);
  ASSERT_EQ(tgrt_buffer_view(whole, sizeof(float), n * sizeof(float), &shifted), TGRT_OK);
  std::vector<float> vals(n);
  for (size_t i = 0; i < n; ++i)
    vals[i] = (float)(i % 1000) - 500.5f;
  ASSERT_EQ(tgrt_buffer_copy_in(in, 0, vals.data(), n * sizeof(float)), TGRT_OK);
  void *base = nullptr;
  ASSERT_EQ(tgrt_buffer_host_pointer(whole, &base), TGRT_OK);
  ASSERT_EQ((uintptr_t)base % 64, 0u); // the runtime aligns its allocations
  for (tgrt_buffer *out : {whole, shifted}) {
    tgrt_buffer *bufs[2] = {out, in};
    ASSERT_EQ(tgc_kernel_launch(k, prog, bufs, 2, nullptr, 0), TGC_OK) << lastError();
    std::vector<float> got(n);
    ASSERT_EQ(tgrt_buffer_copy_out(out, 0, got.data(), n * sizeof(float)), TGRT_OK);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      bad += got[i] != 2 * vals[i];
    EXPECT_EQ(bad, 0u) << (out == whole ? "aligned" : "shifted");
  }
  tgrt_buffer_free(shifted);
  tgrt_buffer_free(whole);
  tgrt_buffer_free(in);
  tgrt_program_free(prog);
  tgrt_device_close(dev);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
}

// The back end's code generator is built once and runs kernel after
// kernel: a kernel compiled again after another gives the same object.
TEST(CAPI, ObjectsDoNotDependOnEarlierKernels) {
  Context c;
  auto object = [&](const char *input) {
    tgc_module *m = importFile(c.ctx, input);
    tgc_kernel *k = nullptr;
    EXPECT_EQ(tgc_compile_kernel_cpu(m, nullptr, &k), TGC_OK) << lastError();
    const void *data = nullptr;
    size_t size = 0;
    EXPECT_EQ(tgc_kernel_object(k, &data, &size), TGC_OK);
    std::string bytes((const char *)data, size);
    tgc_kernel_destroy(k);
    tgc_module_destroy(m);
    return bytes;
  };
  std::string first = object("var_add.json");
  std::string other = object("sum_all.json");
  EXPECT_NE(first, other);
  EXPECT_EQ(object("var_add.json"), first);
  EXPECT_EQ(object("sum_all.json"), other);
}

TEST(CAPI, CompileRejectsWhatIsNotAKernel) {
  Context c;
  tgc_module *m = parse(c.ctx, kSymbolic);
  ASSERT_TRUE(m);
  tgc_kernel *k = nullptr;
  tgc_status s = tgc_compile_kernel_cpu(m, nullptr, &k);
  EXPECT_TRUE(s == TGC_VERIFY_ERROR || s == TGC_COMPILE_FAILED) << tgc_status_string(s);
  EXPECT_EQ(k, nullptr);
  EXPECT_FALSE(lastError().empty());
  tgc_module_destroy(m);
  tgc_module *empty = parse(c.ctx, "");
  ASSERT_TRUE(empty);
  EXPECT_NE(tgc_compile_kernel_cpu(empty, nullptr, &k), TGC_OK);
  EXPECT_FALSE(lastError().empty());
  tgc_module_destroy(empty);
}

TEST(CAPI, HandlesOutliveTheirContextHandle) {
  tgc_context *ctx = nullptr;
  ASSERT_EQ(tgc_context_create(&ctx), TGC_OK);
  tgc_module *m = importFile(ctx, "sum_all.json");
  ASSERT_TRUE(m);
  ASSERT_EQ(tgc_context_destroy(ctx), TGC_OK);
  tgc_kernel *k = nullptr;
  ASSERT_EQ(tgc_compile_kernel_cpu(m, nullptr, &k), TGC_OK) << lastError();
  ASSERT_EQ(tgc_module_destroy(m), TGC_OK);
  tgc_kernel_info info = {};
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_kernel_get_info(k, &info), TGC_OK);
  EXPECT_EQ(info.num_globals, 2u);
  tgc_kernel_destroy(k);
}

// One context per thread, compiling at the same time; plus one context
// shared by two threads (its lock serializes them).
TEST(CAPI, ContextsOnSeveralThreads) {
  std::string text = readInput("sum_all.json");
  auto compileIn = [&](tgc_context *ctx, int *ok) {
    for (int i = 0; i < 3; ++i) {
      tgc_module *m = nullptr;
      tgc_kernel *k = nullptr;
      if (tgc_module_import_json(ctx, text.data(), text.size(), nullptr, "ast", &m) == TGC_OK &&
          tgc_compile_kernel_cpu(m, nullptr, &k) == TGC_OK)
        ++*ok;
      if (k)
        tgc_kernel_destroy(k);
      if (m)
        tgc_module_destroy(m);
    }
  };
  tgc_context *own[2] = {nullptr, nullptr}, *shared = nullptr;
  ASSERT_EQ(tgc_context_create(&own[0]), TGC_OK);
  ASSERT_EQ(tgc_context_create(&own[1]), TGC_OK);
  ASSERT_EQ(tgc_context_create(&shared), TGC_OK);
  int ok[4] = {0, 0, 0, 0};
  std::thread t0(compileIn, own[0], &ok[0]), t1(compileIn, own[1], &ok[1]), t2(compileIn, shared, &ok[2]),
      t3(compileIn, shared, &ok[3]);
  t0.join();
  t1.join();
  t2.join();
  t3.join();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(ok[i], 3) << i;
  tgc_context_destroy(own[0]);
  tgc_context_destroy(own[1]);
  tgc_context_destroy(shared);
}

// CPU compiles in two contexts run at the same time (the tinygrad plugin's
// compile threads rely on it): each compile, at its first after_pass
// callback, waits for the other to reach its own. Serialized compiles
// would never meet; the wait is bounded so that failure is a failed
// expectation, not a hang. Both objects equal a compile of the same kernel
// without the callback.
TEST(CAPI, CPUCompilesOfTwoContextsOverlap) {
  struct Meeting {
    std::mutex m;
    std::condition_variable cv;
    int arrived = 0;
    bool met[2] = {false, false};
  } meeting;
  struct Side {
    Meeting *meeting;
    int index;
    bool waited = false;
  };
  auto atPass = [](const char *, const char *, size_t, void *user) {
    Side *side = static_cast<Side *>(user);
    if (side->waited)
      return;
    side->waited = true;
    Meeting &mt = *side->meeting;
    std::unique_lock<std::mutex> lock(mt.m);
    ++mt.arrived;
    mt.cv.notify_all();
    mt.met[side->index] = mt.cv.wait_for(lock, std::chrono::seconds(60), [&] { return mt.arrived == 2; });
  };
  std::string text = readInput("sum_all.json");
  auto compileIn = [&](tgc_context *ctx, Side *side, std::string *object) {
    tgc_module *m = nullptr;
    tgc_kernel *k = nullptr;
    tgc_cpu_options opts = TGC_CPU_OPTIONS_DEFAULT;
    if (side) {
      opts.after_pass = atPass;
      opts.user_data = side;
    }
    if (tgc_module_import_json(ctx, text.data(), text.size(), nullptr, "ast", &m) == TGC_OK &&
        tgc_compile_kernel_cpu(m, &opts, &k) == TGC_OK) {
      const void *data = nullptr;
      size_t size = 0;
      if (tgc_kernel_object(k, &data, &size) == TGC_OK)
        object->assign((const char *)data, size);
    }
    if (k)
      tgc_kernel_destroy(k);
    if (m)
      tgc_module_destroy(m);
  };
  Context a, b, plain;
  std::string objects[2], reference;
  Side sides[2] = {{&meeting, 0}, {&meeting, 1}};
  std::thread t0(compileIn, a.ctx, &sides[0], &objects[0]), t1(compileIn, b.ctx, &sides[1], &objects[1]);
  t0.join();
  t1.join();
  EXPECT_TRUE(meeting.met[0] && meeting.met[1]) << "the two compiles never ran at the same time";
  compileIn(plain.ctx, nullptr, &reference);
  ASSERT_FALSE(reference.empty()) << lastError();
  EXPECT_EQ(objects[0], reference);
  EXPECT_EQ(objects[1], reference);
}

TEST(CAPI, CallableFromC99) {
  std::string text = readInput("sum_all.json");
  EXPECT_EQ(tgc_c_api_smoke(text.data(), text.size()), 0) << lastError();
}

} // namespace
