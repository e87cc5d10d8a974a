//===- ROCDLTarget.cpp - AMDGCN from the ROCDL dialect, in-process --------===//
//
// gpu-lowering.md §3's traps, handled here: no ROCm install directory is
// needed (MLIR's ROCDL target insists on $ROCM/amdgcn/bitcode even when no
// library is used): ocml/ockl are linked only when the kernel calls them,
// from Debian's rocm-device-libs (LLVM 15 bitcode, which LLVM 22 reads), and
// a missing library is then an error naming the directory. The oclc control
// constants those libraries read (ISA version, wave size, denormals, IEEE
// sqrt) are defined in the module, as clang does, instead of linking one
// oclc_*.bc per setting: Debian's set has no file for gfx942 or gfx1100.
// The code object version is the #rocdl.target's abi (a module flag the
// AMDGPU backend reads), 500 by default in tg-gpu-to-rocdl.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"

#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

/// What the serialization reads from the gpu.module's #rocdl.target.
struct AmdTarget {
  gpu::GPUModuleOp module;
  ROCDL::ROCDLTargetAttr attr;
  unsigned abi = 500;
  unsigned isaVersion = 0; ///< gfx90a -> 9010, gfx942 -> 9402, gfx1100 -> 11000
  bool wave64 = true;
  std::string features;
};

FailureOr<AmdTarget> readTarget(ModuleOp module) {
  FailureOr<gpu::GPUModuleOp> gm = gpu_codegen::findGPUModule(module);
  if (failed(gm))
    return failure();
  AmdTarget t;
  t.module = *gm;
  if (ArrayAttr targets = gm->getTargetsAttr())
    for (Attribute a : targets)
      if ((t.attr = dyn_cast<ROCDL::ROCDLTargetAttr>(a)))
        break;
  if (!t.attr)
    return emitError(gm->getLoc(), "the gpu.module has no #rocdl.target (run tg-gpu-to-rocdl first)");
  StringRef chip = t.attr.getChip();
  // gfx<major><minor><stepping>: the last two are hex digits.
  unsigned major = 0, minor = 0, stepping = 0;
  StringRef digits = chip.drop_front(3);
  if (!chip.starts_with("gfx") || digits.size() < 3 || digits.drop_back(2).getAsInteger(10, major) ||
      digits.take_back(2).take_front(1).getAsInteger(16, minor) ||
      digits.take_back(1).getAsInteger(16, stepping))
    return emitError(gm->getLoc(), "the #rocdl.target chip '") << chip << "' is not gfx<N>";
  t.isaVersion = major * 1000 + minor * 100 + stepping;
  if (t.attr.getAbi().getAsInteger(10, t.abi) || (t.abi != 400 && t.abi != 500 && t.abi != 600))
    return emitError(gm->getLoc(), "the #rocdl.target abi '") << t.attr.getAbi() << "' is not 400, 500 or 600";
  // CDNA (gfx9) runs only 64-wide waves; RDNA (gfx10+) runs 32 by default
  // and 64 when asked (the feature LLVM takes for it).
  t.wave64 = t.attr.hasWave64() || major < 10;
  if (!t.attr.hasWave64() && major < 10)
    return emitError(gm->getLoc(), "") << chip << " runs only 64-wide waves (wave64 must be set)";
  t.features = t.attr.getFeatures().str();
  if (major >= 10 && t.wave64)
    t.features += std::string(t.features.empty() ? "" : ",") + "+wavefrontsize64";
  return t;
}

std::string deviceLibs(const rocdl_target::Options &options) {
  if (!options.deviceLibs.empty())
    return options.deviceLibs;
  if (const char *v = std::getenv("TG_ROCM_DEVICE_LIBS"); v && *v)
    return v;
  for (const char *dir : {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"})
    if (llvm::sys::fs::exists(llvm::Twine(dir) + "/ocml.bc"))
      return dir;
  return "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
}

/// The oclc_* constants ocml/ockl read, with HIP's defaults (IEEE sqrt, no
/// denormal flushing, no finite-only or unsafe math) unless the target's
/// flags say otherwise.
void defineControlConstants(llvm::Module &m, const AmdTarget &t) {
  auto define = [&](StringRef name, llvm::Type *type, uint64_t value) {
    if (m.getNamedGlobal(name) && !m.getNamedGlobal(name)->isDeclaration())
      return;
    auto *g = new llvm::GlobalVariable(m, type, /*isConstant=*/true, llvm::GlobalValue::LinkOnceODRLinkage,
                                       llvm::ConstantInt::get(type, value), name, nullptr,
                                       llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/4);
    g->setVisibility(llvm::GlobalValue::ProtectedVisibility);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Local);
  };
  llvm::Type *i8 = llvm::Type::getInt8Ty(m.getContext()), *i32 = llvm::Type::getInt32Ty(m.getContext());
  define("__oclc_finite_only_opt", i8, t.attr.hasFiniteOnly() || t.attr.hasFastMath());
  define("__oclc_unsafe_math_opt", i8, t.attr.hasUnsafeMath() || t.attr.hasFastMath());
  define("__oclc_daz_opt", i8, t.attr.hasDaz() || t.attr.hasFastMath());
  define("__oclc_correctly_rounded_sqrt32", i8, t.attr.hasCorrectSqrt());
  define("__oclc_wavefrontsize64", i8, t.wave64);
  define("__oclc_ISA_version", i32, t.isaVersion);
  define("__oclc_ABI_version", i32, t.abi);
}

/// LLVM 22's AMDGPU instruction selection cannot select a vector fpext from
/// half of 5, 6 or 7 lanes whose lanes are then read one by one: its widened
/// legalization leaves an f32 `Constant<-1>` node ("Cannot select", an abort
/// of the process; random-kernels --variables seed 2288 #78, a 5-wide upcast
/// of half values added in f32; `llc -mcpu=gfx942` on the two-line reduction).
/// NVPTX selects them. So an fpext of half lanes of a count that is not a
/// power of two is split into its lanes here, after the optimizer and before
/// code generation (AMDGPU's legalization splits such vectors into lanes
/// anyway).
void splitOddHalfExtends(llvm::Function &f) {
  llvm::SmallVector<llvm::FPExtInst *> odd;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (auto *e = llvm::dyn_cast<llvm::FPExtInst>(&i))
      if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(e->getSrcTy());
          vt && vt->getElementType()->isHalfTy() && !llvm::isPowerOf2_32(vt->getNumElements()))
        odd.push_back(e);
  for (llvm::FPExtInst *e : odd) {
    llvm::IRBuilder<> b(e);
    auto *to = llvm::cast<llvm::FixedVectorType>(e->getDestTy());
    llvm::Value *v = llvm::PoisonValue::get(to);
    for (unsigned lane = 0; lane < to->getNumElements(); ++lane)
      v = b.CreateInsertElement(
          v, b.CreateFPExt(b.CreateExtractElement(e->getOperand(0), lane), to->getElementType()), lane);
    e->replaceAllUsesWith(v);
    e->eraseFromParent();
  }
}

FailureOr<std::string> emit(ModuleOp module, const rocdl_target::Options &options, llvm::CodeGenFileType type) {
  FailureOr<AmdTarget> t = readTarget(module);
  if (failed(t))
    return failure();
  Location loc = t->module.getLoc();
  gpu_codegen::Context ctx;
  std::unique_ptr<llvm::Module> m;
  {
    PhaseTimes::Scope phase(options.phases, "translate");
    m = gpu_codegen::translate(t->module, ctx);
  }
  if (!m)
    return failure();
  auto tm = [&] {
    PhaseTimes::Scope phase(options.phases, "target_machine");
    return gpu_codegen::getTargetMachine(loc, t->attr.getTriple(), t->attr.getChip(), t->features,
                                         t->attr.getO());
  }();
  if (failed(tm))
    return failure();
  m->setTargetTriple((*tm)->getTargetTriple());
  m->setDataLayout((*tm)->createDataLayout());
  m->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", t->abi);
  bool ocml = gpu_codegen::needsLibrary(*m, "__ocml_"), ockl = gpu_codegen::needsLibrary(*m, "__ockl_");
  if (ocml || ockl) {
    PhaseTimes::Scope phase(options.phases, "link_library");
    std::string dir = deviceLibs(options);
    defineControlConstants(*m, *t);
    for (auto [needed, file] : {std::pair{ocml, "ocml.bc"}, {ockl, "ockl.bc"}}) {
      if (!needed)
        continue;
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, file);
      if (!llvm::sys::fs::exists(path))
        return emitError(loc) << "the kernel calls ROCm device-library functions ("
                              << (ocml ? "__ocml_*" : "__ockl_*") << ") but there is no " << path
                              << " (install rocm-device-libs, or set TG_ROCM_DEVICE_LIBS / --rocm-device-libs)";
      if (failed(gpu_codegen::linkLibrary(loc, ctx, *m, path)))
        return failure();
    }
    // The libraries' functions were built for no chip: compile them for ours.
    for (llvm::Function &f : *m)
      if (!f.isDeclaration()) {
        f.addFnAttr("target-cpu", t->attr.getChip());
        if (!t->features.empty())
          f.addFnAttr("target-features", t->features);
      }
  }
  {
    PhaseTimes::Scope phase(options.phases, "optimize");
    if (!gpu_codegen::optimize(*m, **tm, t->attr.getO()))
      return emitError(loc) << "LLVM's optimizer aborted on this kernel (an LLVM bug; its message is on stderr)";
  }
  if (failed(gpu_codegen::checkAllCallsDefined(loc, *m)))
    return failure();
  for (llvm::Function &f : *m)
    if (!f.isDeclaration())
      splitOddHalfExtends(f);
  PhaseTimes::Scope phase(options.phases, "llvm_codegen");
  return gpu_codegen::emit(loc, ctx, *m, **tm, type);
}

} // namespace

FailureOr<std::string> rocdl_target::emitAssembly(ModuleOp module, const Options &options) {
  return emit(module, options, llvm::CodeGenFileType::AssemblyFile);
}

FailureOr<std::string> rocdl_target::emitObject(ModuleOp module, const Options &options) {
  return emit(module, options, llvm::CodeGenFileType::ObjectFile);
}

FailureOr<std::string> rocdl_target::emitHsaco(ModuleOp module, const Options &options) {
  FailureOr<AmdTarget> t = readTarget(module);
  if (failed(t))
    return failure();
  FailureOr<std::string> object = emitObject(module, options);
  if (failed(object))
    return failure();
  PhaseTimes::Scope phase(options.phases, "link_binary");
  return linkHsaco(t->module.getLoc(), *object, t->attr.getChip(), t->abi, options);
}
