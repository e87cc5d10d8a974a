//===- CPUTarget.cpp - llvm dialect to an optimized host object ------------===//
#include "tinygrad/Target/CPU/CPUTarget.h"
#include "tinygrad/Target/CPU/SplitCrossBlockVectors.h"
#include "tinygrad/Target/CPU/TransposeLaneGathers.h"
#include "tinygrad/Target/CPU/X86MaskExtracts.h"
#include "tinygrad/Target/CPU/X86TruncatingConverts.h"
#include "tinygrad/Target/GuardedLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Scalar/LoopInstSimplify.h"
#include "llvm/Transforms/Scalar/LoopSimplifyCFG.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include <chrono>
#include <mutex>

using namespace mlir;

namespace mlir::tinygrad::cpu {

std::string hostCPUDescription() {
  return llvm::sys::getHostCPUName().str();
}

/// Sets one of LLVM's command-line options for the whole process, as if
/// given, unless the embedder set it itself (LLVM's code generator has no
/// per-target-machine switch for these; the process's own settings win).
/// True where this call set it (the embedder had not).
static bool setLLVMOptionUnlessGiven(llvm::StringRef name, llvm::StringRef value) {
  auto &opts = llvm::cl::getRegisteredOptions();
  auto it = opts.find(name);
  if (it == opts.end())
    return false;
  // Some readers check the option only when it occurred (the machine
  // scheduler else asks the subtarget): record it as given.
  llvm::cl::Option *o = it->second;
  if (o->getNumOccurrences() != 0)
    return false;
  (void)o->addOccurrence(0, name, value);
  return true;
}

/// The options this target set at its first compile (those the embedder had
/// not set), with their values. In-process lld (an AMD kernel's HSACO link,
/// HsacoLinker.cpp) resets every LLVM option of the process to its default
/// (lld::lldMain calls cl::ResetAllOptionOccurrences), which turned the
/// EVEX workaround below back off for every later CPU compile of that
/// process: each compile sets again those of ours that were reset. (An
/// embedder's own settings lld resets are the embedder's to set again.)
static std::mutex ourOptionsMutex;
static llvm::SmallVector<std::pair<llvm::StringRef, llvm::StringRef>, 2> ourOptions;
static void setOurLLVMOption(llvm::StringRef name, llvm::StringRef value) {
  std::lock_guard<std::mutex> lock(ourOptionsMutex);
  if (setLLVMOptionUnlessGiven(name, value))
    ourOptions.push_back({name, value});
}
static void restoreOurLLVMOptions() {
  std::lock_guard<std::mutex> lock(ourOptionsMutex);
  for (auto [name, value] : ourOptions)
    (void)setLLVMOptionUnlessGiven(name, value);
}

/// LLVM 22's EVEX compression folds `vpmovb2m k, x` + `kmov r, k` into
/// `vpmovmskb r, x` and drops the mask even when a later instruction still
/// reads it (a kshift of the same mask for the next lane): the pre-RA
/// machine scheduler puts the kmov first, and that lane reads a stale k
/// register (random-kernels: an int8 matmul's floor division by 3 took the
/// wrong fix-up in one lane of three; test/Target/CPU/evex-mask-lanes.test).
/// Without that scheduler the selection order keeps the kshift first.
/// Measured on bench/kernels (realistic): run times and compile times
/// within this host's noise. Where a lane of the mask is read and the mask
/// has another use, no order is safe: X86MaskExtracts.cpp.
static void avoidEvexMaskMiscompile() { setOurLLVMOption("enable-misched", "false"); }

/// Instruction selection's store merging compares every store of a block
/// with every other store on the same chain: quadratic, and our kernels
/// store an upcast tile whose lanes are strided in the output (a
/// convolution's weight gradient in the mnist training step: 128 scalar
/// stores 64 floats apart) in one block. It was 27-62 ms of such a
/// kernel's 63-96 ms instruction selection and merged nothing: the emitter
/// already writes a contiguous run as one vector store. Off, the asm of the
/// bench kernels and of the 123 kernels of the bench models is byte for
/// byte the same, and of the 210 test/Codegen and test/Conversion inputs
/// (both opts) two differ: a fill's tail keeps four 16-byte stores where
/// one 64-byte store was (test/Target/CPU/no-store-merging.test) and one
/// convolution's spill slots are ordered differently.
static void avoidQuadraticStoreMerging() { setOurLLVMOption("combiner-store-merging", "false"); }

/// x86's float -> bfloat16 converts (vcvtneps2bf16: AVX512-BF16, AVX-NE-
/// CONVERT) flush subnormal results to zero. With them, instruction
/// selection holds a bfloat16 value live across blocks in an f32 register
/// and rounds it back with one at its store: a bfloat16 add into assigned
/// slices stored +-0 at its gated stores where tinygrad's value is the
/// subnormal (random-kernels seed 1946 #7, 19 of 23040 values on a Zen 4).
/// Off, every rounding is the integer round-to-nearest-even the emitter
/// writes (ExpandBF16), which the AST means.
static constexpr llvm::StringLiteral kFlushingBF16Converts[] = {"avx512bf16", "avxneconvert"};
static bool isFlushingBF16Convert(llvm::StringRef feature) {
  return llvm::is_contained(kFlushingBF16Converts, feature);
}

/// The host's target machine, one per thread: LLVM's TargetMachine caches
/// subtargets and the passes built on it without locks, so kernels compiled
/// on several threads at once (BEAM's concurrent candidates) each need
/// their own (two sharing one crashed in LICM). The process-wide part
/// (targets registered, the host's CPU and features) is computed once.
static llvm::TargetMachine *hostTargetMachine(std::string &error) {
  static std::once_flag once;
  static const llvm::Target *target = nullptr;
  static std::string initError, cpu, featureString;
  static llvm::Triple triple;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    avoidEvexMaskMiscompile();
    avoidQuadraticStoreMerging();
    triple = llvm::Triple(llvm::sys::getProcessTriple());
    std::string err;
    target = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!target) {
      initError = err;
      return;
    }
    llvm::SubtargetFeatures features;
    for (auto &f : llvm::sys::getHostCPUFeatures())
      if (!isFlushingBF16Convert(f.first()))
        features.AddFeature(f.first(), f.second);
    for (llvm::StringRef f : kFlushingBF16Converts)
      features.AddFeature(f, false);
    cpu = llvm::sys::getHostCPUName().str();
    featureString = features.getString();
  });
  error = initError;
  if (!target)
    return nullptr;
  restoreOurLLVMOptions();
  thread_local std::unique_ptr<llvm::TargetMachine> tm;
  if (!tm) {
    llvm::TargetOptions opts;
    tm.reset(target->createTargetMachine(triple, cpu, featureString, opts, llvm::Reloc::PIC_, llvm::CodeModel::Small,
                                         llvm::CodeGenOptLevel::Aggressive));
    if (!tm)
      error = "cannot create a target machine for " + triple.str();
  }
  return tm.get();
}

namespace {
/// The host's object-file code generator, built once per thread (with its
/// target machine): addPassesToEmitFile (constructing and scheduling some
/// 120 passes) took a fifth of a small kernel's back-end time. The legacy
/// pass manager runs module after module (its machine module info and
/// streamer reset at each module's end, as `llc -run-twice` relies on); the
/// stream writes into `buf`, emptied before each run. One module at a time.
struct ObjectPipeline {
  std::mutex mutex;
  llvm::SmallString<0> buf;
  llvm::raw_svector_ostream os{buf};
  llvm::legacy::PassManager pm;
  bool ready = false;
};
/// This thread's pipeline, built on first use (and again after an abort
/// inside one, which is let go: GuardedLLVM.h).
std::unique_ptr<ObjectPipeline> &objectPipeline(llvm::TargetMachine *tm) {
  thread_local std::unique_ptr<ObjectPipeline> p;
  if (!p) {
    p = std::make_unique<ObjectPipeline>();
    p->ready = !tm->addPassesToEmitFile(p->pm, p->os, nullptr, llvm::CodeGenFileType::ObjectFile);
  }
  return p;
}
} // namespace

/// The host's features, and no gathers or scatters from LLVM's vectorizers:
/// widening a scalarized small kernel's strided lanes into AVX-512 gathers
/// made it 2-4x slower than the vector loads of tinygrad's C (where_leaky,
/// layernorm's last kernel, red_sum_axis1_keepdim on Zen 4); our own
/// vectors never gather.
static std::string features(llvm::TargetMachine *tm) {
  std::string f = tm->getTargetFeatureString().str();
  return f + (f.empty() ? "" : ",") + "+prefer-no-gather,+prefer-no-scatter";
}

/// What a large kernel needs from LLVM's middle end: its loops, vectors
/// and unrolling are the emitter's (the opts chose them), so what is left
/// is the accumulators' stack slots to registers (SROA), the index math
/// (CSE, InstCombine, GVN), hoisting (LICM) and the streaming stores'
/// alignment test out of their loops (unswitching). O3's other passes
/// found nothing to do here but took their time: against O3 without
/// unrolling, the realistic bench kernels compiled 31% faster and ran 6%
/// faster (geomean of two alternating runs on Zen 4, every output equal
/// within the bench's check). Unrolled again by LLVM (O3 as it is), they
/// ran 3% slower and compiled 20% longer still.
static llvm::FunctionPassManager keptLoopsPipeline() {
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  fpm.addPass(llvm::InstCombinePass());
  fpm.addPass(llvm::SimplifyCFGPass());
  llvm::LoopPassManager lpm;
  lpm.addPass(llvm::LoopInstSimplifyPass());
  lpm.addPass(llvm::LoopSimplifyCFGPass());
  lpm.addPass(llvm::LICMPass(llvm::LICMOptions()));
  lpm.addPass(llvm::SimpleLoopUnswitchPass(/*NonTrivial=*/true));
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm), /*UseMemorySSA=*/true));
  fpm.addPass(llvm::GVNPass());
  fpm.addPass(llvm::InstCombinePass());
  fpm.addPass(llvm::SimplifyCFGPass());
  return fpm;
}

/// x86 has no vector integer division: instruction selection splits a
/// vector one into 64-bit lanes late, where nothing narrows them. Split
/// before LLVM's pipeline, each lane is a scalar divide that LLVM narrows
/// to 32 bits where its operands fit or are guarded to (u32s divided as
/// u64, as xsin once did: `divl`
/// only, no `divq`; Zen's 32-bit divide is the faster one).
static void splitVectorDivisions(llvm::Function &f) {
  llvm::SmallVector<llvm::BinaryOperator *> divs;
  for (llvm::Instruction &i : llvm::instructions(f))
    if (i.isIntDivRem() && isa<llvm::FixedVectorType>(i.getType()) && !isa<llvm::Constant>(i.getOperand(1)))
      divs.push_back(cast<llvm::BinaryOperator>(&i));
  for (llvm::BinaryOperator *d : divs) {
    llvm::IRBuilder<> ib(d);
    auto *vt = cast<llvm::FixedVectorType>(d->getType());
    llvm::Value *out = llvm::PoisonValue::get(vt);
    for (unsigned l = 0; l < vt->getNumElements(); ++l) {
      llvm::Value *q = ib.CreateBinOp(d->getOpcode(), ib.CreateExtractElement(d->getOperand(0), l),
                                      ib.CreateExtractElement(d->getOperand(1), l));
      out = ib.CreateInsertElement(out, q, l);
    }
    d->replaceAllUsesWith(out);
    d->eraseFromParent();
  }
}

/// x86's non-temporal stores are weakly ordered: only SFENCE or MFENCE
/// orders them before later stores. The emitter ends a streaming kernel
/// with a seq_cst fence, which LLVM lowers to `lock or` where MFENCE is
/// slower, and neither vendor's manual says a locked instruction drains the
/// write-combining buffers those stores wait in (llvm-project#64521), so
/// the core's completion signal could be seen before its output. An SFENCE
/// before each such fence orders them on every x86.
static void fenceStreamedStores(llvm::Function &f, const llvm::Triple &triple) {
  if (!triple.isX86())
    return;
  bool streamed = false;
  llvm::SmallVector<llvm::FenceInst *> fences;
  for (llvm::Instruction &i : llvm::instructions(f)) {
    if (auto *st = dyn_cast<llvm::StoreInst>(&i); st && st->getMetadata(llvm::LLVMContext::MD_nontemporal))
      streamed = true;
    if (auto *fence = dyn_cast<llvm::FenceInst>(&i))
      fences.push_back(fence);
  }
  if (!streamed)
    return;
  for (llvm::FenceInst *fence : fences) {
    llvm::IRBuilder<> ib(fence);
    ib.CreateIntrinsic(ib.getVoidTy(), llvm::Intrinsic::x86_sse_sfence, llvm::ArrayRef<llvm::Value *>{});
  }
}

FailureOr<ObjectOutput> emitObject(ModuleOp module, bool wantIR, bool wantAsm) {
  std::string err;
  llvm::TargetMachine *tm = hostTargetMachine(err);
  if (!tm)
    return module.emitError("CPU target: ") << err;
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  llvm::LLVMContext llvmCtx;
  // Nothing reads value names, and LLVM's passes keep naming what they
  // create: the Scalarizer names every lane (".i0", ".i1", ...), which was
  // a seventh of a scalarized 225-lane kernel's compile.
  llvmCtx.setDiscardValueNames(true);
  // The module in LLVM IR, each function marked for the host.
  auto translate = [&]() -> std::unique_ptr<llvm::Module> {
    std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llvmCtx);
    if (!llvmModule)
      return nullptr;
    llvmModule->setDataLayout(tm->createDataLayout());
    llvmModule->setTargetTriple(tm->getTargetTriple());
    for (llvm::Function &f : *llvmModule) {
      if (f.isDeclaration())
        continue;
      f.addFnAttr("target-cpu", tm->getTargetCPU());
      f.addFnAttr("target-features", features(tm));
      f.addFnAttr(llvm::Attribute::NoUnwind);
      splitVectorDivisions(f);
      fenceStreamedStores(f, tm->getTargetTriple());
      // The emitter's wide vectors are split into registers of the preferred
      // width (and the vectorizers size theirs by it); LLVM defaults AVX-512
      // hosts to 256 bits (a clock-throttling hedge for old Intel parts). Our
      // tiles are sized for 512-bit registers, so ask for them where the host
      // has them.
      if (llvm::StringRef(tm->getTargetFeatureString()).contains("+avx512f"))
        f.addFnAttr("prefer-vector-width", "512");
    }
    return llvmModule;
  };
  std::unique_ptr<llvm::Module> llvmModule = translate();
  if (!llvmModule)
    return module.emitError("CPU target: translation to LLVM IR failed");

  auto optStart = std::chrono::steady_clock::now();
  // False when LLVM aborted inside the pipeline (GuardedLLVM.h): its
  // analysis managers, on the heap, are then let go rather than destroyed.
  auto optimize = [&](llvm::Module &m, bool vectorize) {
    struct Analyses {
      llvm::LoopAnalysisManager lam;
      llvm::FunctionAnalysisManager fam;
      llvm::CGSCCAnalysisManager cgam;
      llvm::ModuleAnalysisManager mam;
    };
    auto am = std::make_unique<Analyses>();
    auto &[lam, fam, cgam, mam] = *am;
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = vectorize;
    pto.SLPVectorization = vectorize;
    llvm::PassBuilder pb(tm, pto);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    auto marked = [&](const char *attr) {
      return llvm::any_of(m, [&](llvm::Function &f) { return f.hasFnAttribute(attr); });
    };
    if (marked(kScalarizeAttr)) {
      llvm::ScalarizerPassOptions so;
      so.ScalarizeLoadStore = true;
      llvm::FunctionPassManager fpm;
      fpm.addPass(llvm::ScalarizerPass(so));
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
      // A scalarized small kernel is left to LLVM as tinygrad leaves its C
      // to clang -O2: O3's unroll thresholds fully unroll its nests (a
      // 8x8x8 matmul into 512 scalar products the SLP vectorizer then
      // gathers), twice as slow as O2 keeping the outer loop and 4-7x
      // longer to compile.
      mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2));
    } else if (marked(kKeepLoopsAttr)) {
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(keptLoopsPipeline()));
    } else {
      mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
    }
    if (runGuardedLLVM([&] { mpm.run(m, mam); }))
      return true;
    (void)am.release();
    return false;
  };
  const char *aborted = "CPU target: LLVM aborted on this kernel (an LLVM bug; its message is on stderr)";
  if (!optimize(*llvmModule, /*vectorize=*/true))
    return module.emitError(aborted);
  // LLVM 22's VectorCombine can leave invalid IR after the SLP vectorizer
  // (a shufflevector of <16 x i8> and <16 x i32> lanes in a scalarized
  // kernel, random-kernels --assign --edges seed 1946), which instruction
  // selection then crashed on. Such a module is translated again and
  // optimized without the vectorizers; one still broken is an error.
  if (llvm::verifyModule(*llvmModule)) {
    llvmModule = translate();
    if (!llvmModule)
      return module.emitError("CPU target: translation to LLVM IR failed");
    if (!optimize(*llvmModule, /*vectorize=*/false))
      return module.emitError(aborted);
    std::string why;
    llvm::raw_string_ostream os(why);
    if (llvm::verifyModule(*llvmModule, &os))
      return module.emitError("CPU target: LLVM's optimizer produced invalid IR: ") << why;
  }
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    if (tm->getTargetTriple().isX86())
      useX86TruncatingConverts(f, tm->getTargetFeatureString());
    // Instruction selection's register width (the function's features
    // included), the unit a value between blocks is carried in.
    unsigned registerBits =
        tm->getTargetTransformInfo(f).getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedValue();
    splitCrossBlockVectors(f, registerBits);
    // A tile's stores across its registers, as transposes of those registers.
    transposeLaneGathers(f, registerBits);
    // Last: no lane of a shared mask read from a k register (an LLVM 22
    // miscompile under AVX-512).
    if (tm->getTargetTriple().isX86() && llvm::StringRef(tm->getTargetFeatureString()).contains("+avx512f"))
      scalarizeMaskExtracts(f);
  }

  ObjectOutput out;
  auto emitStart = std::chrono::steady_clock::now();
  out.optMs = std::chrono::duration<double, std::milli>(emitStart - optStart).count();
  if (wantIR) {
    llvm::raw_string_ostream os(out.llvmIR);
    llvmModule->print(os, nullptr);
  }
  if (wantAsm) {
    llvm::SmallString<4096> buf;
    llvm::raw_svector_ostream os(buf);
    auto pm = std::make_unique<llvm::legacy::PassManager>();
    if (tm->addPassesToEmitFile(*pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
      return module.emitError("CPU target: cannot emit assembly");
    if (!runGuardedLLVM([&] { pm->run(*llvmModule); })) {
      (void)pm.release(); // mid-run: let go, not destroyed
      return module.emitError(aborted);
    }
    out.assembly.assign(buf.begin(), buf.end());
  }
  {
    std::unique_ptr<ObjectPipeline> &slot = objectPipeline(tm);
    ObjectPipeline &obj = *slot;
    std::lock_guard<std::mutex> lock(obj.mutex);
    if (!obj.ready)
      return module.emitError("CPU target: cannot emit an object file");
    obj.buf.clear();
    if (!runGuardedLLVM([&] { obj.pm.run(*llvmModule); })) {
      (void)slot.release(); // mid-run: let go (its mutex unlocked by `lock`), the next kernel builds anew
      return module.emitError(aborted);
    }
    out.object.assign(obj.buf.begin(), obj.buf.end());
  }
  out.emitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - emitStart).count();
  return out;
}

} // namespace mlir::tinygrad::cpu
