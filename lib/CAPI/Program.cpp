//===- Program.cpp - tensor programs: schedule, compile, run --------------===//
#include "Internal.h"

#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Target/TinygradJSON.h"

using namespace mlir;

namespace {

tgc_status nullArgs(const char *fn, const char *what) {
  return tgc::fail(TGC_INVALID_ARGUMENT, std::string(fn) + ": " + what + " must not be NULL");
}

tgc_status fromError(tgc_status code, const char *fn, llvm::Error err) {
  return tgc::fail(code, std::string(fn) + ": " + llvm::toString(std::move(err)));
}

tgc_status statusOf(tinygrad::exec::Stage stage) {
  switch (stage) {
  case tinygrad::exec::Stage::Schedule: return TGC_PASS_FAILED;
  case tinygrad::exec::Stage::Compile: return TGC_COMPILE_FAILED;
  case tinygrad::exec::Stage::Runtime: return TGC_RUNTIME_ERROR;
  }
  return TGC_INTERNAL;
}

} // namespace

extern "C" {

tgc_status tgc_program_create(tgc_module *module, const tgc_program_options *options,
                              tgc_program **out_program) {
  return tgc_program_create_for_target(module, "cpu", options, out_program);
}

tgc_status tgc_program_create_for_target(tgc_module *module, const char *target,
                                         const tgc_program_options *options, tgc_program **out_program) {
  return tgc::apiCall("tgc_program_create", [&] {
    if (!module || !target || !out_program)
      return nullArgs("tgc_program_create", "module, target and out_program");
    std::string why;
    std::optional<tinygrad::TargetDescription> t = tinygrad::TargetDescription::parse(target, &why);
    if (!t)
      return tgc::fail(TGC_COMPILE_FAILED, "tgc_program_create: " + why);
    tgc_program_options o = TGC_PROGRAM_OPTIONS_DEFAULT;
    if (options) {
      if (options->api_version != TGC_API_VERSION)
        return tgc::badVersion("tgc_program_create", options->api_version);
      o = *options;
    }
    std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
    MLIRContext &mctx = module->ctx->mlir;
    tgc::DiagnosticCapture diags(mctx);
    Value root = tinygrad::getTinygradRoot(*module->module);
    if (!root)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_program_create: the module is empty (no SINK)");

    auto p = std::make_unique<tgc_program>();
    p->ctx = module->ctx;
    p->sym = std::make_unique<tinygrad::sym::Context>(&mctx);
    tinygrad::sym::UOpRef tensor = tinygrad::sym::Importer(*p->sym).import(root);
    if (!tensor)
      return diags.fail(TGC_PARSE_ERROR, "tgc_program_create: the module is not a tinygrad tensor graph");

    tinygrad::exec::ProgramOptions popts;
    popts.target = t->isGPU() ? *t : tinygrad::TargetDescription::host(o.max_threads);
    if (o.after_pass)
      popts.kernel.afterPass = tgc::moduleIRCallback(o.after_pass, o.user_data);
    if (o.progress)
      popts.progress = [fn = o.progress, user = o.user_data](llvm::StringRef stage, uint64_t done,
                                                              uint64_t total) {
        std::string s = stage.str();
        fn(s.c_str(), done, total, user);
      };
    popts.compile = [impl = p->ctx.get()](Value kernel, const tinygrad::TargetDescription &target,
                                          const tinygrad::CompileOptions &kopts) {
      std::lock_guard<std::mutex> backEnd(tgc::compileMutex());
      return impl->compiler.compile(kernel, target, kopts);
    };
    tinygrad::exec::Stage stage = tinygrad::exec::Stage::Schedule;
    auto prog = tinygrad::exec::TensorProgram::create(*p->sym, tensor, popts, &stage);
    if (!prog)
      return diags.fail(statusOf(stage), "tgc_program_create: " + llvm::toString(prog.takeError()));
    p->program = std::move(*prog);
    for (const tinygrad::exec::BufferInfo &b : p->program->buffers())
      p->bufferElements.push_back(b.elements);
    *out_program = p.release();
    return TGC_OK;
  });
}

tgc_status tgc_program_destroy(tgc_program *program) {
  return tgc::apiCall("tgc_program_destroy", [&] {
    if (!program)
      return nullArgs("tgc_program_destroy", "program");
    std::shared_ptr<TgcContextImpl> ctx = program->ctx;
    {
      std::lock_guard<std::recursive_mutex> lock(ctx->mutex);
      delete program; // its interned UOps belong to the context's MLIR types
    }
    return TGC_OK;
  });
}

tgc_status tgc_program_get_info(const tgc_program *program, tgc_program_info *out_info) {
  return tgc::apiCall("tgc_program_get_info", [&] {
    if (!program || !out_info)
      return nullArgs("tgc_program_get_info", "program and out_info");
    if (out_info->api_version != TGC_API_VERSION)
      return tgc::badVersion("tgc_program_get_info", out_info->api_version);
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    const tinygrad::exec::TensorProgram &p = *program->program;
    tgc_program_info info = {};
    info.api_version = TGC_API_VERSION;
    info.num_buffers = p.buffers().size();
    info.num_outputs = p.outputs().size();
    info.num_kernels = p.numKernels();
    info.num_copies = p.numCopies();
    info.schedule_ms = p.scheduleMs();
    info.compile_ms = p.compileMs();
    info.run_ms = p.runMs();
    *out_info = info;
    return TGC_OK;
  });
}

tgc_status tgc_program_buffer_info(const tgc_program *program, size_t index, tgc_tensor_info *out_info) {
  return tgc::apiCall("tgc_program_buffer_info", [&] {
    if (!program || !out_info)
      return nullArgs("tgc_program_buffer_info", "program and out_info");
    if (out_info->api_version != TGC_API_VERSION)
      return tgc::badVersion("tgc_program_buffer_info", out_info->api_version);
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    auto bufs = program->program->buffers();
    if (index >= bufs.size())
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_program_buffer_info: buffer " + std::to_string(index) +
                                                 " of " + std::to_string(bufs.size()));
    const tinygrad::exec::BufferInfo &b = bufs[index];
    tgc_tensor_info info = {};
    info.api_version = TGC_API_VERSION;
    info.slot = b.slot;
    info.dtype = b.dtype.c_str();
    info.device = b.device.c_str();
    info.shape = &program->bufferElements[index];
    info.ndim = 1;
    info.bytes = static_cast<size_t>(b.bytes);
    *out_info = info;
    return TGC_OK;
  });
}

tgc_status tgc_program_output_info(const tgc_program *program, size_t index, tgc_tensor_info *out_info) {
  return tgc::apiCall("tgc_program_output_info", [&] {
    if (!program || !out_info)
      return nullArgs("tgc_program_output_info", "program and out_info");
    if (out_info->api_version != TGC_API_VERSION)
      return tgc::badVersion("tgc_program_output_info", out_info->api_version);
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    auto outs = program->program->outputs();
    if (index >= outs.size())
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_program_output_info: output " + std::to_string(index) +
                                                 " of " + std::to_string(outs.size()));
    const tinygrad::exec::OutputInfo &o = outs[index];
    tgc_tensor_info info = {};
    info.api_version = TGC_API_VERSION;
    info.slot = -1;
    info.dtype = o.dtype.c_str();
    info.device = "";
    info.shape = o.shape.data();
    info.ndim = o.shape.size();
    info.bytes = static_cast<size_t>(o.bytes);
    *out_info = info;
    return TGC_OK;
  });
}

tgc_status tgc_program_set_buffer(tgc_program *program, size_t index, const void *data, size_t size) {
  return tgc::apiCall("tgc_program_set_buffer", [&] {
    if (!program || (!data && size))
      return nullArgs("tgc_program_set_buffer", "program and data");
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    if (auto err = program->program->setBuffer(index, data, size))
      return fromError(TGC_INVALID_ARGUMENT, "tgc_program_set_buffer", std::move(err));
    return TGC_OK;
  });
}

tgc_status tgc_program_run(tgc_program *program) {
  return tgc::apiCall("tgc_program_run", [&] {
    if (!program)
      return nullArgs("tgc_program_run", "program");
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    if (auto err = program->program->run())
      return fromError(TGC_RUNTIME_ERROR, "tgc_program_run", std::move(err));
    return TGC_OK;
  });
}

tgc_status tgc_program_read_output(tgc_program *program, size_t index, void *dst, size_t size) {
  return tgc::apiCall("tgc_program_read_output", [&] {
    if (!program || (!dst && size))
      return nullArgs("tgc_program_read_output", "program and dst");
    std::lock_guard<std::recursive_mutex> lock(program->ctx->mutex);
    auto outs = program->program->outputs();
    if (index >= outs.size())
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_program_read_output: output " + std::to_string(index) +
                                                 " of " + std::to_string(outs.size()));
    if (size != static_cast<size_t>(outs[index].bytes))
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_program_read_output: output " + std::to_string(index) +
                                                 " has " + std::to_string(outs[index].bytes) + " bytes, got " +
                                                 std::to_string(size));
    auto bytes = program->program->readOutput(index);
    if (!bytes)
      return fromError(TGC_RUNTIME_ERROR, "tgc_program_read_output", bytes.takeError());
    if (size)
      std::memcpy(dst, bytes->data(), size);
    return TGC_OK;
  });
}

} // extern "C"
