//===- bench-gpu-serialize.cpp - gpu.module -> PTX / cubin / HSACO, timed -===//
//
//   bench-gpu-serialize [--reps N] [--json FILE] TARGET... -- KERNEL.mlir...
//
// TARGET is a target string (cuda:sm_90, amd:gfx942). Each kernel file holds
// one gpu.module in upstream dialects (test/Target/GPU/Inputs); for each
// target and kernel the in-process route runs `reps` times in one warm
// context: the conversion pipeline (tg-gpu-to-nvvm / tg-gpu-to-rocdl, from
// the target description), then the serialization (PTX, then cubin through
// nvJitLink; AMDGCN object, then HSACO through lld). Prints the median per
// step and kernel, and the medians over kernels; --json writes
// `ptx_compile_ms_median`, `cubin_compile_ms_median` and
// `hsaco_compile_ms_median` (conversion included; from a gpu.module, not
// yet from a kernel AST: the emitter comes first in the full route).
// A benchmark, never a test: run it on a quiet machine.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/NVVM/NVVMTarget.h"
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Wall-clock and process CPU milliseconds: on a loaded machine (CI, the
/// shared build hosts) the CPU time is the steadier figure of the two.
struct Clock {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  double wallMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall).count();
  }
  double cpuMs() const { return 1000.0 * double(std::clock() - cpu) / CLOCKS_PER_SEC; }
};

} // namespace

int main(int argc, char **argv) {
  int reps = 7;
  std::string jsonPath;
  std::vector<std::string> targets, kernels;
  bool files = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc)
      reps = std::max(1, atoi(argv[++i]));
    else if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (a == "--")
      files = true;
    else
      (files ? kernels : targets).push_back(a);
  }
  if (targets.empty() || kernels.empty()) {
    llvm::errs() << "usage: bench-gpu-serialize [--reps N] [--json FILE] TARGET... -- KERNEL.mlir...\n";
    return 2;
  }
  DialectRegistry registry;
  registerGPUConversionDependencies(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // step name -> per-kernel medians, over every target of that kind
  std::map<std::string, std::vector<double>> perStep;
  for (const std::string &name : targets) {
    std::string error;
    std::optional<TargetDescription> target = TargetDescription::parse(name, &error);
    if (!target || (target->kind != TargetKind::CUDA && target->kind != TargetKind::AMD)) {
      llvm::errs() << "bench-gpu-serialize: " << (target ? name + " is not an NVIDIA or AMD target" : error) << "\n";
      return 2;
    }
    bool cuda = target->kind == TargetKind::CUDA;
    PassManager pm(&ctx, "builtin.module");
    if (cuda)
      buildGPUToNVVMPipeline(pm, GPUToNVVMOptions::forTarget(*target));
    else
      buildGPUToROCDLPipeline(pm, GPUToROCDLOptions::forTarget(*target));
    for (const std::string &file : kernels) {
      OwningOpRef<ModuleOp> source = parseSourceFile<ModuleOp>(file, &ctx);
      if (!source)
        return 1;
      // Each step's time includes the ones before it (gpu.module -> PTX
      // includes the conversion), as the compile of a kernel would.
      std::vector<double> convert, text, binary, textCpu, binaryCpu;
      for (int r = 0; r < reps; ++r) {
        OwningOpRef<ModuleOp> m = source->clone();
        Clock start;
        if (failed(pm.run(*m)))
          return 1;
        convert.push_back(start.wallMs());
        FailureOr<std::string> asmOut = cuda ? nvvm_target::emitPTX(*m) : rocdl_target::emitObject(*m);
        if (failed(asmOut))
          return 1;
        text.push_back(start.wallMs());
        textCpu.push_back(start.cpuMs());
        FailureOr<std::string> bin =
            cuda ? nvvm_target::linkCubin(m->getLoc(), *asmOut, target->arch)
                 : rocdl_target::linkHsaco(m->getLoc(), *asmOut, target->arch, 500);
        if (failed(bin))
          return 1;
        binary.push_back(start.wallMs());
        binaryCpu.push_back(start.cpuMs());
      }
      llvm::outs() << llvm::format("%-12s %-12s convert %6.2f  %s %6.2f (cpu %6.2f)  %s %6.2f (cpu %6.2f) ms\n",
                                   name.c_str(), file.substr(file.rfind('/') + 1).c_str(), median(convert),
                                   cuda ? "ptx   " : "object", median(text), median(textCpu),
                                   cuda ? "cubin" : "hsaco", median(binary), median(binaryCpu));
      std::string first = cuda ? "ptx_compile" : "amdgcn_object", second = cuda ? "cubin_compile" : "hsaco_compile";
      perStep[first + "_ms_median"].push_back(median(text));
      perStep[first + "_cpu_ms_median"].push_back(median(textCpu));
      perStep[second + "_ms_median"].push_back(median(binary));
      perStep[second + "_cpu_ms_median"].push_back(median(binaryCpu));
    }
  }
  llvm::json::Object summary;
  for (auto &[step, values] : perStep) {
    llvm::outs() << step << " " << llvm::format("%.2f", median(values)) << " (median over " << values.size()
                 << " target x kernel medians of " << reps << " runs)\n";
    summary[step] = median(values);
  }
  if (!jsonPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(jsonPath, ec);
    if (ec) {
      llvm::errs() << "cannot write " << jsonPath << ": " << ec.message() << "\n";
      return 1;
    }
    os << llvm::json::Value(std::move(summary)) << "\n";
  }
  return 0;
}
