//===- DeviceToVar.cpp - pm_device_to_var: DEVICE ranges as _device_num ---===//
//
// A multi-device kernel is one program launched once per device (tinygrad's
// unwrap_multi binds `_device_num` to the device's position), so its DEVICE
// range is not a loop: it is a variable the launch sets, like SPECIAL for a
// GPU's thread ids. tinygrad/codegen/gpudims.py's pm_device_to_var.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Schedule/Graph.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
using K = sym::Op;
using sym::UOpRef;

static bool isDeviceNum(UOpRef u) {
  return u->op == K::PARAM && u->param().isALU && u->param().name == "_device_num";
}

static const sym::PatternMatcher &pmDeviceToVar() {
  static const sym::PatternMatcher pm({
      // the DEVICE axis is bound per device at launch: the _device_num variable
      {"DEVICE range -> _device_num", op(K::RANGE, n::r),
       [](Match &m) -> UOpRef {
         UOpRef r = m[n::r];
         if (sched::rangeType(r) != tg::AxisType::Device || !r->vmax().isInt())
           return nullptr;
         return m.ctx.variable("_device_num", 0, r->vmax().i, r->dtype);
       }},
      // ENDs that closed a DEVICE range no longer close it
      {"END drops _device_num", op(K::END, n::e),
       [](Match &m) -> UOpRef {
         UOpRef e = m[n::e];
         if (llvm::none_of(e->src.drop_front(), isDeviceNum))
           return nullptr;
         llvm::SmallVector<UOpRef, 4> src{e->src[0]};
         for (UOpRef s : e->src.drop_front())
           if (!isDeviceNum(s))
             src.push_back(s);
         return m.ctx.get(K::END, e->type, src, e->arg);
       }},
  });
  return pm;
}

UOpRef codegen::deviceToVar(sym::Context &ctx, UOpRef sink) {
  // Single-device kernels (nearly all) have nothing to rewrite.
  bool any = false;
  opt::forEachNode(sink, [&](UOpRef u) {
    any = u->op == K::RANGE && sched::rangeType(u) == tg::AxisType::Device;
    return !any;
  });
  return any ? sym::graphRewrite(ctx, sink, pmDeviceToVar()) : sink;
}
