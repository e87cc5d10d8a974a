//===- Kernel.cpp - compiling a kernel AST for a target, launching it -----===//
#include "Internal.h"

#include "tinygrad/Execution/LoadKernel.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

std::mutex &tgc::compileMutex() {
  static std::mutex m;
  return m;
}

std::function<void(llvm::StringRef, ModuleOp)> tgc::moduleIRCallback(tgc_ir_callback fn, void *user) {
  return [fn, user](llvm::StringRef pass, ModuleOp m) {
    std::string ir, name = pass.str();
    llvm::raw_string_ostream os(ir);
    m.print(os);
    fn(name.c_str(), ir.c_str(), ir.size(), user);
  };
}

tgc_status tgc::kernelRoot(tgc_module *module, DiagnosticCapture &diags, const char *function, Value &root) {
  if (failed(tinygrad::verifyKernelAST(*module->module)))
    return diags.fail(TGC_VERIFY_ERROR, "the module is not a kernel AST tinygrad's spec accepts");
  root = tinygrad::getTinygradRoot(*module->module);
  if (!root)
    return tgc::fail(TGC_INVALID_ARGUMENT, std::string(function) + ": the module is empty (no SINK)");
  return TGC_OK;
}

tgc_status tgc::badVersion(const char *fn, uint32_t got) {
  return tgc::fail(TGC_INVALID_ARGUMENT, std::string(fn) + ": api_version is " + std::to_string(got) +
                                             ", expected " + std::to_string(TGC_API_VERSION));
}

/// *options (when given) in o, checked.
static tgc_status readOptions(const char *fn, const tgc_cpu_options *options, tgc_cpu_options &o) {
  if (!options)
    return TGC_OK;
  if (options->api_version != TGC_API_VERSION)
    return tgc::badVersion(fn, options->api_version);
  o = *options;
  return TGC_OK;
}

/// The names and dtypes tgc_kernel_info points at, then the handle.
/// What every kernel compile does first: the options (defaults where NULL),
/// the module's context held, its diagnostics captured, the kernel's root;
/// then `compile(root, options, diags)`.
template <typename Compile>
static tgc_status withKernelRoot(const char *fn, tgc_module *module, const tgc_cpu_options *options,
                                 Compile &&compile) {
  tgc_cpu_options o = TGC_CPU_OPTIONS_DEFAULT;
  if (tgc_status st = readOptions(fn, options, o))
    return st;
  std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
  tgc::DiagnosticCapture diags(module->ctx->mlir);
  Value root;
  if (tgc_status st = tgc::kernelRoot(module, diags, fn, root); st != TGC_OK)
    return st;
  return compile(root, o, diags);
}

tgc_kernel *tgc::kernelHandle(tinygrad::CompiledKernel k, const tinygrad::TargetDescription &t) {
  auto out = std::make_unique<tgc_kernel>();
  out->kernel = std::move(k);
  out->format = static_cast<uint32_t>(out->kernel.format);
  out->phases = out->kernel.phases.json();
  for (int i = 0; i < 3; ++i) {
    if (t.isGPU()) {
      const tinygrad::codegen::ExportedSint &g = out->kernel.uops.globalSize[i];
      out->globalSize[i] = g.value.value_or(-1);
      out->globalSizeExpr[i] = g.expr;
      out->localSize[i] = out->kernel.signature.localSize[i];
    } else {
      // The CPU's launch: core_id over the thread split's cores.
      out->globalSize[i] = i == 0 ? out->kernel.signature.threads : 1;
      out->globalSizeExpr[i] = std::to_string(out->globalSize[i]);
    }
    out->localSizeExpr[i] = std::to_string(out->localSize[i]);
  }
  for (const std::string &v : out->kernel.signature.vars)
    out->varNames.push_back(v.c_str());
  for (mlir::tinygrad::DType dt : out->kernel.signature.varDTypes)
    out->varDTypes.push_back(mlir::tinygrad::getName(dt).data());
  return out.release();
}

std::pair<llvm::StringRef, llvm::StringRef> tgc::splitEmitKind(llvm::StringRef target) {
  if (target.count(':') != 2)
    return {target, ""};
  return target.rsplit(':');
}

extern "C" {

tgc_status tgc_compile_kernel_cpu(tgc_module *module, const tgc_cpu_options *options,
                                  tgc_kernel **out_kernel) {
  return tgc_compile_kernel(module, "cpu", options, out_kernel);
}

tgc_status tgc_compile_kernel(tgc_module *module, const char *target, const tgc_cpu_options *options,
                              tgc_kernel **out_kernel) {
  return tgc::apiCall("tgc_compile_kernel", [&] {
    if (!module || !target || !out_kernel)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_compile_kernel: module, target and out_kernel must not be NULL");
    std::string why;
    auto [name, emit] = tgc::splitEmitKind(target);
    std::optional<tinygrad::TargetDescription> t = tinygrad::TargetDescription::parse(name, &why);
    if (!t)
      return tgc::fail(TGC_COMPILE_FAILED, "tgc_compile_kernel: " + why);
    if (!emit.empty() && !(t->kind == tinygrad::TargetKind::CUDA && (emit == "ptx" || emit == "cubin")))
      return tgc::fail(TGC_COMPILE_FAILED, "tgc_compile_kernel: unknown emit kind '" + emit.str() + "' for " +
                                               t->name + " (cuda:sm_<N>:ptx or :cubin)");
    return withKernelRoot("tgc_compile_kernel", module, options, [&](Value root, const tgc_cpu_options &o,
                                                                      tgc::DiagnosticCapture &diags) {
      if (!t->isGPU())
        *t = tinygrad::TargetDescription::host(o.max_threads);
      tinygrad::CompileOptions opts;
      opts.keepMLIR = o.keep_mlir != 0;
      opts.keepDeviceIR = o.keep_llvm_ir != 0;
      opts.keepAsm = o.keep_asm != 0;
      opts.ptx = emit == "ptx";
      if (o.after_pass)
        opts.afterPass = tgc::moduleIRCallback(o.after_pass, o.user_data);
      FailureOr<tinygrad::CompiledKernel> k;
      {
        // The GPU back ends (NVPTX, AMDGPU, SPIR-V) compile one kernel at a
        // time per process. The host's is per thread (its target machine
        // and object pipeline are thread_local, as BEAM's concurrent
        // compiles rely on): CPU kernels of different contexts compile in
        // parallel, which the tinygrad plugin's compile threads use.
        std::unique_lock<std::mutex> backEnd(tgc::compileMutex(), std::defer_lock);
        if (t->isGPU())
          backEnd.lock();
        k = module->ctx->compiler.compile(root, *t, opts);
      }
      if (failed(k))
        return diags.fail(TGC_COMPILE_FAILED, "cannot compile the kernel for " + t->name);
      *out_kernel = tgc::kernelHandle(std::move(*k), *t);
      return TGC_OK;
    });
  });
}

tgc_status tgc_kernel_format(const tgc_kernel *kernel, uint32_t *out_format) {
  return tgc::apiCall("tgc_kernel_format", [&] {
    if (!kernel || !out_format)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_format: kernel and out_format must not be NULL");
    *out_format = kernel->format;
    return TGC_OK;
  });
}

tgc_status tgc_kernel_destroy(tgc_kernel *kernel) {
  return tgc::apiCall("tgc_kernel_destroy", [&] {
    if (!kernel)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_destroy: kernel is NULL");
    delete kernel;
    return TGC_OK;
  });
}

tgc_status tgc_kernel_get_info(const tgc_kernel *kernel, tgc_kernel_info *out_info) {
  return tgc::apiCall("tgc_kernel_get_info", [&] {
    if (!kernel || !out_info)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_get_info: kernel and out_info must not be NULL");
    if (out_info->api_version != TGC_API_VERSION)
      return tgc::badVersion("tgc_kernel_get_info", out_info->api_version);
    const tinygrad::KernelSignature &s = kernel->kernel.signature;
    tgc_kernel_info info = {};
    info.api_version = TGC_API_VERSION;
    info.name = s.name.c_str();
    for (int i = 0; i < 3; ++i) {
      info.global_size[i] = kernel->globalSize[i];
      info.local_size[i] = kernel->localSize[i];
      info.global_size_expr[i] = kernel->globalSizeExpr[i].c_str();
      info.local_size_expr[i] = kernel->localSizeExpr[i].c_str();
    }
    info.globals = s.globals.data();
    info.num_globals = s.globals.size();
    info.global_elements = s.bufferElems.data();
    info.outs = s.outs.data();
    info.num_outs = s.outs.size();
    info.ins = s.ins.data();
    info.num_ins = s.ins.size();
    info.vars = kernel->varNames.data();
    info.var_dtypes = kernel->varDTypes.data();
    info.num_vars = kernel->varNames.size();
    info.core_id_arg = static_cast<int32_t>(s.coreIdArg);
    info.codegen_ms = kernel->kernel.codegenMs;
    info.llvm_ms = kernel->kernel.backendMs;
    const tinygrad::codegen::ProgramUOps &u = kernel->kernel.uops;
    info.ops = u.ops.value.value_or(-1);
    info.lds = u.lds.value.value_or(-1);
    info.mem = u.mem.value.value_or(-1);
    info.ops_expr = u.ops.expr.c_str();
    info.lds_expr = u.lds.expr.c_str();
    info.mem_expr = u.mem.expr.c_str();
    *out_info = info;
    return TGC_OK;
  });
}

tgc_status tgc_kernel_object(const tgc_kernel *kernel, const void **out_data, size_t *out_size) {
  return tgc::apiCall("tgc_kernel_object", [&] {
    if (!kernel || !out_data || !out_size)
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_kernel_object: kernel, out_data and out_size must not be NULL");
    *out_data = kernel->kernel.binary.data();
    *out_size = kernel->kernel.binary.size();
    return TGC_OK;
  });
}

tgc_status tgc_kernel_text(const tgc_kernel *kernel, tgc_text_kind kind, const char **out_text,
                           size_t *out_size) {
  return tgc::apiCall("tgc_kernel_text", [&] {
    if (!kernel || !out_text || !out_size)
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_kernel_text: kernel, out_text and out_size must not be NULL");
    int k;
    std::memcpy(&k, &kind, sizeof k); // C may pass any int for an enum
    const std::string *s = k == TGC_TEXT_MLIR      ? &kernel->kernel.mlir
                           : k == TGC_TEXT_LLVM_IR ? &kernel->kernel.deviceIR
                           : k == TGC_TEXT_ASM     ? &kernel->kernel.assembly
                           : k == TGC_TEXT_UOPS    ? &kernel->kernel.uops.json
                           : k == TGC_TEXT_PHASES  ? &kernel->phases
                                                   : nullptr;
    if (!s)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_text: unknown text kind " + std::to_string(k));
    *out_text = s->c_str();
    *out_size = s->size();
    return TGC_OK;
  });
}

tgc_status tgc_kernel_load(const tgc_kernel *kernel, tgrt_device *device, tgrt_program **out_program) {
  return tgc::apiCall("tgc_kernel_load", [&] {
    if (!kernel || !device || !out_program)
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_kernel_load: kernel, device and out_program must not be NULL");
    tgrt_program *p = nullptr;
    std::array<int64_t, 3> local = {kernel->localSize[0], kernel->localSize[1], kernel->localSize[2]};
    tgrt_status st = tinygrad::exec::loadKernel(device, kernel->format, kernel->kernel.binary,
                                                kernel->kernel.signature, local, &p);
    if (st != TGRT_OK)
      return tgc::fail(TGC_RUNTIME_ERROR, std::string("tgc_kernel_load: ") + tgrt_last_error());
    *out_program = p;
    return TGC_OK;
  });
}

tgc_status tgc_kernel_launch(const tgc_kernel *kernel, tgrt_program *program,
                             tgrt_buffer *const *buffers, size_t num_buffers,
                             const int64_t *var_values, size_t num_var_values) {
  return tgc::apiCall("tgc_kernel_launch", [&] {
    if (!kernel || !program || (!buffers && num_buffers) || (!var_values && num_var_values))
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_kernel_launch: kernel, program, buffers and var_values must not be NULL");
    if (kernel->format != TGRT_FORMAT_ELF)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_launch: a GPU kernel is dispatched with "
                                             "tgrt_program_dispatch (global_size from tgc_kernel_info)");
    const tinygrad::KernelSignature &s = kernel->kernel.signature;
    if (num_buffers != s.globals.size())
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_launch: the kernel takes " +
                                                 std::to_string(s.globals.size()) + " buffers, got " +
                                                 std::to_string(num_buffers));
    if (num_var_values != s.vars.size())
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_launch: the kernel takes " +
                                                 std::to_string(s.vars.size()) + " variables, got " +
                                                 std::to_string(num_var_values));
    std::vector<tgrt_arg> args;
    for (size_t i = 0; i < num_buffers; ++i) {
      if (!buffers[i])
        return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_launch: buffers[" + std::to_string(i) + "] is NULL");
      size_t bytes = 0;
      if (tgrt_buffer_size(buffers[i], &bytes) != TGRT_OK)
        return tgc::fail(TGC_RUNTIME_ERROR, std::string("tgc_kernel_launch: ") + tgrt_last_error());
      // Every dtype is at least a byte: a buffer smaller than its element
      // count is certainly too small.
      if (bytes < static_cast<size_t>(s.bufferElems[i]))
        return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_kernel_launch: buffers[" + std::to_string(i) +
                                                   "] has " + std::to_string(bytes) + " bytes, slot " +
                                                   std::to_string(s.globals[i]) + " needs " +
                                                   std::to_string(s.bufferElems[i]) + " elements");
      args.push_back(tgrt_arg_buffer(buffers[i]));
    }
    for (size_t j = 0; j < num_var_values; ++j)
      args.push_back(tgrt_arg_int(static_cast<int64_t>(args.size()) == s.coreIdArg ? 0 : var_values[j]));
    uint32_t threads = s.coreIdArg >= 0 ? static_cast<uint32_t>(s.threads) : 1;
    if (tgrt_program_launch(program, args.data(), static_cast<uint32_t>(args.size()),
                            static_cast<int32_t>(s.coreIdArg), threads) != TGRT_OK)
      return tgc::fail(TGC_RUNTIME_ERROR, std::string("tgc_kernel_launch: ") + tgrt_last_error());
    return TGC_OK;
  });
}

} // extern "C"
