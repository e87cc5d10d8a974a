//===- EmitGPU.cpp - a kernel as a gpu.func in the target's forms ----------===//
//
// On a target with workgroups (TargetDescription::hasLocal) the kernel is
// one `gpu.func ... kernel` in a `gpu.module`, in the forms the target's
// upstream conversion lowers (docs/Design.md, "Targets";
// shared/reference/gpu-lowering.md measured them):
// * entry ABI: Vulkan bindings (a `memref<?xT>` storage buffer per buffer at
//   (set 0, binding i), then one `memref<?xi32>` word pack at binding
//   num_buffers: the scalars, then each buffer's byte offset inside its
//   binding, tgrt_program_desc) with `spirv.entry_point_abi` always giving
//   the workgroup size; or kernel parameters (CUDA, AMD: a memref per
//   buffer, then each scalar) with `known_block_size`;
// * SPECIAL gidx/lidx: gpu.block_id / gpu.thread_id (dims x, y, z);
// * workgroup memory: memref.alloc in the Workgroup storage class (SPIR-V)
//   or `#gpu.address_space<workgroup>` (made attributions by
//   tg-gpu-workgroup-attributions for NVVM/ROCDL); accumulators and REG
//   buffers: memref.alloca in the Function storage class / private space,
//   one scalar per lane (SPIR-V has no vectors wider than 4 in memory);
// * the SPIR-V target environment: the capabilities and extensions the
//   types used need (f16 never without Float16 and 16-bit storage: without
//   them MLIR's conversion miscompiles f16 buffers silently).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace mlir::tinygrad::kernel_emitter {

/// The launch dimension a SPECIAL's name ends in ("gidx0" -> 0), or -1.
static int specialDim(UOpRef u, StringRef &prefix) {
  auto name = u->arg.attrs ? dyn_cast_or_null<StringAttr>(u->arg.attrs.get("name")) : StringAttr();
  if (!name || name.getValue().empty())
    return -1;
  StringRef n = name.getValue();
  prefix = n.drop_back();
  char d = n.back();
  return d >= '0' && d <= '2' ? d - '0' : -1;
}

LogicalResult Emitter::buildGPUEntry(StringRef name, ArrayRef<UOpRef> topo, ArrayRef<UOpRef> bufs,
                                     ArrayRef<Type> bufTypes, ArrayRef<UOpRef> vars, KernelSignature &sig) {
  MLIRContext *ctx = module.getContext();
  // Loaded already where this runs as tg-lower-kernel (dependent dialects);
  // the library emits before any pass runs.
  ctx->getOrLoadDialect<gpu::GPUDialect>();
  ctx->getOrLoadDialect<spirv::SPIRVDialect>();
  bool vulkan = target.abi == EntryABI::VulkanBindings;
  if (vulkan) {
    privateSpace = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Function);
    workgroupSpace = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Workgroup);
  } else {
    privateSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Private);
    workgroupSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  }
  sig.gpu = true;
  // The launch: SPECIAL sizes by name. Thread counts must be constants.
  for (UOpRef u : topo) {
    if (u->op != K::SPECIAL)
      continue;
    StringRef prefix;
    int d = specialDim(u, prefix);
    if (d < 0 || (prefix != "gidx" && prefix != "lidx" && prefix != "idx")) {
      mlir::emitError(loc, "a SPECIAL names no launch dimension (gidx<d>, lidx<d> or idx<d>)");
      return failure();
    }
    if (prefix == "lidx") {
      auto n = u->src[0]->intVal();
      if (!n || *n < 1) {
        mlir::emitError(loc, "the threads of workgroup dimension ") << d << " are not a constant";
        return failure();
      }
      sig.localSize[d] = (int64_t)*n;
    } else {
      sig.globalSize[d] = u->src[0];
    }
  }
  int64_t threads = sig.localSize[0] * sig.localSize[1] * sig.localSize[2];
  for (int d = 0; d < 3; ++d)
    if (target.localMax[d] && sig.localSize[d] > target.localMax[d]) {
      mlir::emitError(loc) << "the kernel needs " << sig.localSize[d] << " threads in workgroup dimension " << d
                           << ", more than " << target.name << " allows (" << target.localMax[d] << ")";
      return failure();
    }
  if (target.localProdMax && threads > target.localProdMax) {
    mlir::emitError(loc) << "the kernel needs " << threads << " threads per workgroup, more than " << target.name
                         << " allows (" << target.localProdMax << ")";
    return failure();
  }
  // Memory dtypes the target lacks are an error, never emulated silently
  // (a weak dtype's memory is the dtype it computes in).
  for (UOpRef u : topo)
    if ((u->op == K::PARAM || u->op == K::BUFFER) && !u->param().isALU && u->dtype != DType::Void &&
        !target.has(storedDType(u->dtype))) {
      mlir::emitError(loc) << "a buffer of " << getName(u->dtype) << ", a dtype " << target.name
                           << " does not have";
      return failure();
    }

  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
  b.setInsertionPointToEnd(module.getBody());
  auto gm = gpu::GPUModuleOp::create(b, loc, (name + "_module").str());
  b.setInsertionPointToStart(gm.getBody());
  SmallVector<Type> argTypes;
  for (Type t : bufTypes) {
    auto mt = cast<MemRefType>(t);
    // Vulkan: a runtime array (its length is the binding's).
    argTypes.push_back(vulkan ? MemRefType::get({ShapedType::kDynamic}, mt.getElementType()) : t);
  }
  SmallVector<unsigned> varWords;
  if (vulkan) {
    for (size_t i = 0; i < vars.size(); ++i) {
      varWords.push_back(sig.scalarWords);
      sig.scalarWords += getInfo(sig.varDTypes[i]).bitsize == 64 ? 2 : 1;
    }
    argTypes.push_back(MemRefType::get({ShapedType::kDynamic}, b.getI32Type()));
  } else {
    for (DType d : sig.varDTypes)
      argTypes.push_back(getInfo(d).bitsize == 64 ? b.getI64Type() : b.getI32Type());
  }
  auto gf = gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  gf->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn = gf;
  if (vulkan) {
    for (unsigned i = 0; i < argTypes.size(); ++i)
      gf.setArgAttr(i, spirv::getInterfaceVarABIAttrName(),
                    spirv::getInterfaceVarABIAttr(0, i, std::nullopt, ctx));
    gf->setAttr(spirv::getEntryPointABIAttrName(),
                spirv::getEntryPointABIAttr(ctx, {(int32_t)sig.localSize[0], (int32_t)sig.localSize[1],
                                                  (int32_t)sig.localSize[2]}));
  } else {
    gf.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
        {(int32_t)sig.localSize[0], (int32_t)sig.localSize[1], (int32_t)sig.localSize[2]}));
  }
  entry = &gf.getBody().front();
  b.setInsertionPointToEnd(entry);
  gpu::ReturnOp::create(b, loc);
  scopes.push_back({nullptr, nullptr, entry, nextScopeId++, entry->getTerminator()});
  b.setInsertionPoint(entry->getTerminator());
  auto word = [&](unsigned w) -> Value {
    Value pack = entry->getArgument(bufs.size());
    return memref::LoadOp::create(b, loc, pack, ValueRange{arith::ConstantIndexOp::create(b, loc, w)});
  };
  for (size_t i = 0; i < bufs.size(); ++i) {
    Value arg = entry->getArgument(i);
    args[bufs[i]] = arg;
    if (!vulkan)
      continue;
    // The view's byte offset inside its binding, in elements.
    unsigned eb = storageBytes(bufs[i]->dtype);
    Value off = word(sig.scalarWords + i);
    off = arith::DivUIOp::create(b, loc, off, arith::ConstantIntOp::create(b, loc, b.getI32Type(), eb));
    bufOffsets[arg] = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), off);
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    Value a;
    if (vulkan) {
      a = word(varWords[i]);
      if (getInfo(sig.varDTypes[i]).bitsize == 64) {
        // Two words, low first.
        Type i64 = b.getI64Type();
        Value lo = arith::ExtUIOp::create(b, loc, i64, a);
        Value hi = arith::ExtUIOp::create(b, loc, i64, word(varWords[i] + 1));
        hi = arith::ShLIOp::create(b, loc, hi, arith::ConstantIntOp::create(b, loc, i64, 32));
        a = arith::OrIOp::create(b, loc, lo, hi);
      }
    } else {
      a = entry->getArgument(bufs.size() + i);
    }
    Type vt = ty(vars[i]->dtype);
    unsigned w = vt.getIntOrFloatBitWidth(), aw = a.getType().getIntOrFloatBitWidth();
    args[vars[i]] = w > aw   ? arith::ExtSIOp::create(b, loc, vt, a).getResult()
                    : w < aw ? arith::TruncIOp::create(b, loc, vt, a).getResult()
                             : a;
  }
  return success();
}

void Emitter::finishGPUEntry() {
  if (target.abi != EntryABI::VulkanBindings)
    return;
  MLIRContext *ctx = module.getContext();
  // The capabilities the types in the kernel need; spirv-update-vce keeps
  // those the module ends up using.
  bool f16 = false, i16 = false, i8 = false, i64 = false, f64 = false;
  auto see = [&](Type t) {
    if (auto s = dyn_cast<ShapedType>(t))
      t = s.getElementType();
    f16 |= t.isF16();
    f64 |= t.isF64();
    i8 |= t.isInteger(8);
    i16 |= t.isInteger(16) || t.isBF16(); // bf16 is emulated in i16 (tg-gpu-emulate-bfloat16)
    i64 |= t.isInteger(64);
  };
  fn.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      see(t);
    for (Type t : op->getOperandTypes())
      see(t);
  });
  for (Type t : fn.getArgumentTypes())
    see(t);
  using spirv::Capability;
  using spirv::Extension;
  SmallVector<Capability> caps{Capability::Shader};
  SmallVector<Extension> exts{Extension::SPV_KHR_storage_buffer_storage_class};
  if (f16 || i16) {
    caps.push_back(Capability::StorageBuffer16BitAccess);
    exts.push_back(Extension::SPV_KHR_16bit_storage);
  }
  if (f16)
    caps.push_back(Capability::Float16);
  if (i16)
    caps.push_back(Capability::Int16);
  if (i8) {
    caps.append({Capability::Int8, Capability::StorageBuffer8BitAccess});
    exts.push_back(Extension::SPV_KHR_8bit_storage);
  }
  if (i64)
    caps.push_back(Capability::Int64);
  if (f64)
    caps.push_back(Capability::Float64);
  auto vce = spirv::VerCapExtAttr::get(spirv::Version::V_1_3, caps, exts, ctx);
  fn->getParentOp()->setAttr(spirv::getTargetEnvAttrName(),
                             spirv::TargetEnvAttr::get(vce, spirv::getDefaultResourceLimits(ctx)));
}

Value Emitter::emitSpecial(UOpRef u) {
  StringRef prefix;
  int d = specialDim(u, prefix);
  if (d < 0 || !gpu())
    return fail(u, "SPECIAL is a launch id, which only a GPU target has");
  auto dim = static_cast<gpu::Dimension>(d);
  Value id = prefix == "lidx" ? gpu::ThreadIdOp::create(b, loc, dim).getResult()
                              : gpu::BlockIdOp::create(b, loc, dim).getResult();
  return arith::IndexCastUIOp::create(b, loc, ty(u->dtype), id);
}

Value Emitter::gatedLoadsOnGPU(OpBuilder &ob, const Address &a, Value mask, Value pass) {
  Type mt = memoryType(ob.getContext(), a.dt);
  Value zero = arith::ConstantIndexOp::create(ob, loc, 0);
  SmallVector<Value> elems;
  for (unsigned l = 0; l < a.lanes; ++l) {
    Value g = isa<VectorType>(mask.getType()) ? vector::ExtractOp::create(ob, loc, mask, l).getResult() : mask;
    Value alt = pass ? pickLanes(ob, pass, {(int64_t)l}) : arith::ConstantOp::create(ob, loc, ob.getZeroAttr(mt));
    int8_t known = l < a.laneGates.size() ? a.laneGates[l] : -1;
    if (known == 0) {
      elems.push_back(alt);
      continue;
    }
    Value at = a.lanes == 1 ? (a.base ? a.base : a.idx) : laneAddress(ob, a, l);
    if (known == 1) {
      elems.push_back(loadAt(ob, a.buf, at));
      continue;
    }
    Value v = loadAt(ob, a.buf, arith::SelectOp::create(ob, loc, g, at, zero));
    elems.push_back(arith::SelectOp::create(ob, loc, g, v, alt));
  }
  if (a.lanes == 1)
    return elems[0];
  return vector::FromElementsOp::create(ob, loc, VectorType::get({(int64_t)a.lanes}, mt), elems);
}

Value Emitter::loadAt(OpBuilder &ob, Value buf, Value idx) {
  if (Value off = bufOffsets.lookup(buf))
    idx = arith::AddIOp::create(ob, loc, idx, off);
  return memref::LoadOp::create(ob, loc, buf, ValueRange{idx});
}

void Emitter::storeAt(OpBuilder &ob, Value v, Value buf, Value idx) {
  if (Value off = bufOffsets.lookup(buf))
    idx = arith::AddIOp::create(ob, loc, idx, off);
  memref::StoreOp::create(ob, loc, v, buf, ValueRange{idx});
}

Value Emitter::accAlloc(Type t, unsigned n) {
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  if (!gpu())
    return memref::AllocaOp::create(eb, loc, MemRefType::get({}, n > 1 ? Type(VectorType::get({n}, t)) : t));
  return memref::AllocaOp::create(eb, loc, MemRefType::get({n}, t, MemRefLayoutAttrInterface(), privateSpace));
}

Value Emitter::accLoad(Value acc, Type accT) {
  if (!gpu())
    return memref::LoadOp::create(b, loc, acc);
  auto vt = dyn_cast<VectorType>(accT);
  SmallVector<Value> lanes;
  for (int64_t l = 0, n = vt ? vt.getNumElements() : 1; l < n; ++l)
    lanes.push_back(memref::LoadOp::create(b, loc, acc, ValueRange{arith::ConstantIndexOp::create(b, loc, l)}));
  return vt ? vector::FromElementsOp::create(b, loc, vt, lanes).getResult() : lanes[0];
}

Operation *Emitter::accStore(Value v, Value acc) {
  if (!gpu())
    return memref::StoreOp::create(b, loc, v, acc);
  auto vt = dyn_cast<VectorType>(v.getType());
  Operation *last = nullptr;
  for (int64_t l = 0, n = vt ? vt.getNumElements() : 1; l < n; ++l) {
    Value x = vt ? vector::ExtractOp::create(b, loc, v, l).getResult() : v;
    last = memref::StoreOp::create(b, loc, x, acc, ValueRange{arith::ConstantIndexOp::create(b, loc, l)});
  }
  return last;
}

} // namespace mlir::tinygrad::kernel_emitter
