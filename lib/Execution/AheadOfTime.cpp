//===- AheadOfTime.cpp - a tensor program as an object and a C header -----===//
#include "tinygrad/Execution/AheadOfTime.h"
#include "ExecError.h"

#include "tinygrad/Conversion/HCQToRuntime.h"
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Target/CPU/CPUTarget.h"
#include "tinygrad-rt/hcq.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;

namespace {

bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) { return isalnum((unsigned char)c) || c == '_'; });
}

/// `{a, b, c}` of a list (a zero when empty: C has no empty initializers).
template <typename T, typename F> std::string initializer(const std::vector<T> &v, F fmt) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "{";
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? ", " : "") << fmt(v[i]);
  if (v.empty())
    os << "0";
  os << "}";
  return s;
}

/// One exec argument that is a bound variable: what a changed variable
/// patches in the recorded graph (tgrt_graph_update_arg), as tinygrad's
/// HCQGraph patches var_vals instead of recording again.
struct VarPatch {
  unsigned exec, arg, var;
};

/// The schedule's variable arguments, with the exec index the captured graph
/// gives each (tgrt_graph_create over the submitted queues in submission
/// order, each queue's execs in recording order; tgrt_hcq_state_capture).
/// Launch dims and copy sizes are constants in hcq, so arguments are all a
/// variable can change.
std::vector<VarPatch> varPatches(func::FuncOp schedule, unsigned &numExecs) {
  llvm::DenseMap<Value, unsigned> varIndex;
  unsigned vars = 0;
  for (BlockArgument a : schedule.getArguments())
    if (a.getType().isInteger(64))
      varIndex[a] = vars++;
  llvm::DenseMap<Value, std::vector<hcq::ExecOp>> execsOf;
  std::vector<Value> submitted;
  schedule.walk([&](Operation *op) {
    if (auto x = dyn_cast<hcq::ExecOp>(op))
      execsOf[x.getQueue()].push_back(x);
    else if (auto s = dyn_cast<hcq::SubmitOp>(op))
      submitted.push_back(s.getQueue());
  });
  std::vector<VarPatch> patches;
  numExecs = 0;
  for (Value q : submitted)
    for (hcq::ExecOp x : execsOf.lookup(q)) {
      for (auto [i, a] : llvm::enumerate(x.getArgs()))
        if (auto it = varIndex.find(a); it != varIndex.end())
          patches.push_back({numExecs, static_cast<unsigned>(i), it->second});
      ++numExecs;
    }
  return patches;
}

std::string quoted(llvm::StringRef s) {
  std::string out = "\"";
  for (char c : s)
    out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string tensorTable(const std::vector<AOTProgram::Tensor> &ts) {
  return initializer(ts, [](const AOTProgram::Tensor &t) {
    std::string shape;
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(t.shape[i]);
    return "{" + std::to_string(t.storage) + "u, " + std::to_string(t.offset) + "u, " + std::to_string(t.bytes) +
           "u, " + quoted(t.dtype) + ", " + quoted("(" + shape + ")") + ", " + quoted(t.device) + "}";
  });
}

/// The header: declarations of the object's symbols, the program's tables,
/// and create/run/destroy as static inline functions over runtime.h/hcq.h.
std::string header(const AOTProgram &p, llvm::StringRef n, const std::vector<VarPatch> &patches,
                   unsigned numExecs) {
  std::string s;
  llvm::raw_string_ostream os(s);
  std::string guard = n.upper() + "_TINYGRAD_AOT_H";
  size_t numObjects = 1 + p.buffers.size() + p.kernels.size();
  auto u = [](auto x) { return std::to_string(x) + "u"; };
  os << "/* " << n << ".h: a tinygrad tensor program compiled ahead of time by tinygrad-run --emit=aot\n"
     << " * (" << p.source << ").\n"
     << " * Link " << n << ".o with libTinygradRuntime; nothing else is needed at run time:\n"
     << " *   " << n << "_program p; " << n << "_create(device, &p); copy the inputs in (" << n << "_inputs),\n"
     << " *   " << n << "_run(&p); copy the outputs out (" << n << "_outputs); " << n << "_destroy(&p).\n"
     << " * " << n << "_create records the schedule once as a graph (tgrt_graph); each " << n << "_run replays it.\n"
     << " * The inputs live in the program's own storage, so new inputs need no patch; changed `vars`\n"
     << " * patch the kernel arguments they feed (" << n << "_var_patches) in the recorded graph. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"tinygrad-rt/hcq.h\"\n\n#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* In " << n << ".o: the schedule (devices, buffers, programs in `objects`; variables in `vars`)\n"
     << " * and each kernel's ELF object. */\n"
     << "void " << n << "_schedule(tgrt_hcq_state *state, void *const *objects, const int64_t *vars);\n";
  for (size_t i = 0; i < p.kernels.size(); ++i)
    os << "extern const unsigned char " << n << "_kernel_" << i << "[" << p.kernels[i].size() << "];\n";
  os << "\nenum {\n"
     << "  " << n << "_NUM_STORAGE = " << p.storageBytes.size() << ",\n"
     << "  " << n << "_NUM_BUFFERS = " << p.buffers.size() << ",\n"
     << "  " << n << "_NUM_PROGRAMS = " << p.kernels.size() << ",\n"
     << "  " << n << "_NUM_VARS = " << p.vars.size() << ",\n"
     << "  " << n << "_NUM_INPUTS = " << p.inputs.size() << ",\n"
     << "  " << n << "_NUM_OUTPUTS = " << p.outputs.size() << ",\n"
     << "  " << n << "_NUM_EXECS = " << numExecs << ",\n"
     << "  " << n << "_NUM_VAR_PATCHES = " << patches.size() << "\n};\n\n"
     << "/* {exec, argument, variable}: the recorded graph's exec `exec` takes vars[variable] as its\n"
     << " * integer argument `argument` (tgrt_graph_update_arg). */\n"
     << "static const unsigned " << n << "_var_patches[][3] = "
     << initializer(patches,
                    [&](const VarPatch &v) {
                      return "{" + std::to_string(v.exec) + "u, " + std::to_string(v.arg) + "u, " +
                             std::to_string(v.var) + "u}";
                    })
     << ";\n\n"
     << "/* A tensor the caller fills or reads: `bytes` dense row-major bytes at `offset` in storage[storage].\n"
     << " * Inputs are the tensor graph's device buffers in slot order: those realized before the program\n"
     << " * (its inputs) first, then those it creates (clone and assign targets; tinygrad's RNG state on\n"
     << " * PYTHON, which Tensor.manual_seed fills). Outputs are the realized tensors. */\n"
     << "typedef struct " << n << "_tensor {\n  unsigned storage;\n  size_t offset, bytes;\n"
     << "  const char *dtype, *shape, *device;\n} " << n << "_tensor;\n"
     << "static const " << n << "_tensor " << n << "_inputs[] = " << tensorTable(p.inputs) << ";\n"
     << "static const " << n << "_tensor " << n << "_outputs[] = " << tensorTable(p.outputs) << ";\n\n"
     << "typedef struct " << n << "_program {\n"
     << "  tgrt_device *device;\n"
     << "  tgrt_buffer *storage[" << std::max<size_t>(1, p.storageBytes.size()) << "];\n"
     << "  tgrt_buffer *buffers[" << std::max<size_t>(1, p.buffers.size()) << "];\n"
     << "  tgrt_program *programs[" << std::max<size_t>(1, p.kernels.size()) << "];\n"
     << "  void *objects[" << numObjects << "];\n"
     << "  int64_t vars[" << std::max<size_t>(1, p.vars.size()) << "]; /* "
     << (p.vars.empty() ? std::string("none") : llvm::join(p.vars, ", ")) << " */\n"
     << "  /* The recorded schedule, the values of `vars` its arguments hold (recorded or patched\n"
     << "   * since), and the signal a launch raises to `launches`. */\n"
     << "  tgrt_graph *graph;\n"
     << "  int64_t recorded_vars[" << std::max<size_t>(1, p.vars.size()) << "];\n"
     << "  tgrt_signal *done;\n"
     << "  uint64_t launches;\n"
     << "  unsigned recordings; /* how often the schedule was recorded */\n"
     << "  char message[256]; /* the failing call, for " << n << "_run's *message */\n"
     << "} " << n << "_program;\n\n";
  os << "/* Records the schedule with the current `vars` into p->graph (compiled hcq ops on a capture\n"
     << " * state: queues recorded, not submitted), checking that it has the execs the patch table\n"
     << " * counts. */\n"
     << "static inline tgrt_status " << n << "_record(" << n << "_program *p) {\n"
     << "  tgrt_hcq_state *state = NULL;\n  tgrt_graph *graph = NULL;\n  const char *message = NULL;\n"
     << "  tgrt_status s = tgrt_hcq_state_create(1, TGRT_WAIT_INFINITE, &state);\n"
     << "  if (s != TGRT_OK) return s;\n"
     << "  " << n << "_schedule(state, p->objects, p->vars);\n"
     << "  s = tgrt_hcq_state_status(state, &message);\n"
     << "  if (s == TGRT_OK && (s = tgrt_hcq_state_capture(state, &graph)) != TGRT_OK) message = tgrt_last_error();\n"
     << "  if (s == TGRT_OK) {\n"
     << "    uint32_t execs = 0;\n"
     << "    if ((s = tgrt_graph_exec_count(graph, &execs)) == TGRT_OK && execs != " << n << "_NUM_EXECS) {\n"
     << "      s = TGRT_INTERNAL;\n"
     << "      message = \"" << n << "_record: the recorded graph's exec count differs from the patch table's\";\n"
     << "    }\n"
     << "    if (s != TGRT_OK) tgrt_graph_destroy(graph);\n"
     << "  }\n"
     << "  if (s != TGRT_OK) strncpy(p->message, message ? message : \"\", sizeof p->message - 1);\n"
     << "  tgrt_hcq_state_destroy(state);\n"
     << "  if (s != TGRT_OK) return s;\n"
     << "  if (p->graph) tgrt_graph_destroy(p->graph);\n"
     << "  p->graph = graph;\n"
     << "  memcpy(p->recorded_vars, p->vars, sizeof p->vars);\n"
     << "  p->recordings += 1;\n"
     << "  return TGRT_OK;\n}\n\n";
  os << "/* Allocates the program's memory and loads its kernels on `device` (a CPU device). */\n"
     << "static inline tgrt_status " << n << "_create(tgrt_device *device, " << n << "_program *p) {\n"
     << "  static const size_t storage_bytes[] = " << initializer(p.storageBytes, u) << ";\n"
     << "  static const unsigned buffer_storage[] = "
     << initializer(p.buffers, [&](const HCQBuffer &b) { return u(b.storage); }) << ";\n"
     << "  static const size_t buffer_begin[] = "
     << initializer(p.buffers, [&](const HCQBuffer &b) { return u(b.begin); }) << ";\n"
     << "  static const size_t buffer_end[] = "
     << initializer(p.buffers, [&](const HCQBuffer &b) { return u(b.end); }) << ";\n"
     << "  static const char *const entries[] = "
     << initializer(p.entries, [](const std::string &e) { return quoted(e); }) << ";\n"
     << "  static const int64_t vars[] = "
     << initializer(p.varValues, [](int64_t v) { return "INT64_C(" + std::to_string(v) + ")"; }) << ";\n";
  std::vector<size_t> ids(p.kernels.size());
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = i;
  os << "  const unsigned char *const kernels[] = "
     << initializer(ids, [&](size_t i) { return n.str() + "_kernel_" + std::to_string(i); }) << ";\n"
     << "  static const size_t kernel_bytes[] = "
     << initializer(p.kernels, [&](const std::string &k) { return u(k.size()); }) << ";\n"
     << "  tgrt_status s = TGRT_OK;\n  unsigned i;\n"
     << "  memset(p, 0, sizeof *p);\n  p->device = device;\n"
     << "  for (i = 0; s == TGRT_OK && i < " << n << "_NUM_STORAGE; ++i)\n"
     << "    s = tgrt_buffer_alloc(device, storage_bytes[i], &p->storage[i]);\n"
     << "  for (i = 0; s == TGRT_OK && i < " << n << "_NUM_BUFFERS; ++i)\n"
     << "    s = tgrt_buffer_view(p->storage[buffer_storage[i]], buffer_begin[i], buffer_end[i] - buffer_begin[i],\n"
     << "                         &p->buffers[i]);\n"
     << "  for (i = 0; s == TGRT_OK && i < " << n << "_NUM_PROGRAMS; ++i)\n"
     << "    s = tgrt_program_load(device, kernels[i], kernel_bytes[i], entries[i], &p->programs[i]);\n"
     << "  p->objects[0] = device;\n"
     << "  for (i = 0; i < " << n << "_NUM_BUFFERS; ++i) p->objects[1 + i] = p->buffers[i];\n"
     << "  for (i = 0; i < " << n << "_NUM_PROGRAMS; ++i) p->objects[1 + " << n
     << "_NUM_BUFFERS + i] = p->programs[i];\n"
     << "  for (i = 0; i < " << n << "_NUM_VARS; ++i) p->vars[i] = vars[i];\n"
     << "  (void)buffer_storage; (void)buffer_begin; (void)buffer_end; (void)entries; (void)kernels;\n"
     << "  (void)kernel_bytes; (void)vars; (void)storage_bytes;\n"
     << "  if (s == TGRT_OK) s = tgrt_signal_create(device, 0, &p->done);\n"
     << "  if (s == TGRT_OK) s = " << n << "_record(p);\n"
     << "  return s;\n}\n\n";
  os << "/* Replays the recorded schedule once and waits for it (at most `timeout_ms`); p->vars changed\n"
     << " * since the last launch are patched into the kernel arguments they feed first. On failure\n"
     << " * *message (may be NULL) names the failing runtime call. */\n"
     << "static inline tgrt_status " << n << "_run(" << n
     << "_program *p, uint64_t timeout_ms, const char **message) {\n"
     << "  tgrt_status s = TGRT_OK;\n"
     << "  p->message[0] = 0;\n"
     << "  unsigned i;\n"
     << "  for (i = 0; s == TGRT_OK && i < " << n << "_NUM_VAR_PATCHES; ++i) {\n"
     << "    const unsigned *v = " << n << "_var_patches[i];\n"
     << "    if (p->vars[v[2]] != p->recorded_vars[v[2]])\n"
     << "      s = tgrt_graph_update_arg(p->graph, v[0], v[1], p->vars[v[2]]);\n"
     << "  }\n"
     << "  if (s == TGRT_OK) memcpy(p->recorded_vars, p->vars, sizeof p->vars);\n"
     << "  if (s == TGRT_OK && (s = tgrt_graph_launch(p->graph, p->done, p->launches + 1)) == TGRT_OK) {\n"
     << "    p->launches += 1;\n"
     << "    s = tgrt_signal_wait(p->done, p->launches, timeout_ms);\n"
     << "  }\n"
     << "  if (s != TGRT_OK && !p->message[0]) strncpy(p->message, tgrt_last_error(), sizeof p->message - 1);\n"
     << "  if (message) *message = p->message;\n"
     << "  return s;\n}\n\n";
  os << "/* Releases what " << n << "_create made (not the device). */\n"
     << "static inline void " << n << "_destroy(" << n << "_program *p) {\n  unsigned i;\n"
     << "  if (p->graph) tgrt_graph_destroy(p->graph);\n"
     << "  if (p->done) tgrt_signal_destroy(p->done);\n"
     << "  for (i = 0; i < " << n << "_NUM_PROGRAMS; ++i) if (p->programs[i]) tgrt_program_free(p->programs[i]);\n"
     << "  for (i = 0; i < " << n << "_NUM_BUFFERS; ++i) if (p->buffers[i]) tgrt_buffer_free(p->buffers[i]);\n"
     << "  for (i = 0; i < " << n << "_NUM_STORAGE; ++i) if (p->storage[i]) tgrt_buffer_free(p->storage[i]);\n"
     << "  memset(p, 0, sizeof *p);\n}\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return s;
}

} // namespace

llvm::Expected<AOTFiles> exec::emitAheadOfTime(const AOTProgram &p, llvm::StringRef name) {
  if (!isIdentifier(name))
    return error("the ahead-of-time name '" + name + "' is not a C identifier");
  if (!p.schedule)
    return error("no schedule to write ahead of time");
  if (p.kernels.size() != p.entries.size())
    return error("kernel objects and entries differ in number");
  func::FuncOp schedule = p.schedule;
  unsigned numExecs = 0;
  std::vector<VarPatch> patches = varPatches(schedule, numExecs);
  MLIRContext *ctx = schedule.getContext();
  ctx->loadDialect<LLVM::LLVMDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(schedule.getLoc());
  auto fn = cast<func::FuncOp>(schedule->clone());
  fn.setName((name + "_schedule").str());
  module->getBody()->push_back(fn);
  if (failed(convertHCQToRuntime(*module)) || failed(verify(*module)))
    return error("the schedule does not convert to runtime calls (convert-hcq-to-runtime)");
  // Each kernel's object as a constant byte array, loaded at run time by
  // tgrt_program_load as tinygrad's CPU runner loads it.
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  for (auto [i, obj] : llvm::enumerate(p.kernels)) {
    if (obj.empty())
      return error("kernel " + llvm::Twine(i) + " has no object");
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), obj.size());
    b.create<LLVM::GlobalOp>(module->getLoc(), type, /*isConstant=*/true, LLVM::Linkage::External,
                             (name + "_kernel_" + llvm::Twine(i)).str(), b.getStringAttr(obj),
                             /*alignment=*/16);
  }
  auto out = cpu::emitObject(*module);
  if (failed(out))
    return error("the schedule's object was not emitted");
  return AOTFiles{std::move(out->object), header(p, name, patches, numExecs)};
}
