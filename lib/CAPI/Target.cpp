//===- Target.cpp - a target's description through the C API -------------===//
//
// tgc_target_describe: the TargetDescription a target string names, in the
// C struct. Descriptions are built once per target string and kept for the
// library's lifetime, so the strings handed out stay valid.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include "tinygrad/Support/DType.h"
#include "tinygrad/Target/TargetDescription.h"

#include <map>
#include <memory>

using namespace mlir::tinygrad;

namespace {
/// One target's description and the C strings pointing into it.
struct Described {
  TargetDescription target;
  std::string device;
  std::vector<const char *> dtypes;
};

/// The description of `name`, built once (null with `why` if unknown).
const Described *describe(const std::string &name, std::string &why) {
  static std::mutex m;
  static std::map<std::string, std::unique_ptr<Described>> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(name);
  if (it != cache.end())
    return it->second.get();
  std::optional<TargetDescription> t = TargetDescription::parse(name, &why);
  if (!t)
    return nullptr;
  auto d = std::make_unique<Described>();
  d->target = std::move(*t);
  d->device = d->target.runtimeDevice();
  for (unsigned i = 0; i < kNumDTypes; ++i)
    if (d->target.has(static_cast<DType>(i)))
      d->dtypes.push_back(getInfo(static_cast<DType>(i)).name.data());
  return cache.emplace(name, std::move(d)).first->second.get();
}
} // namespace

tgc_status tgc_target_describe(const char *target, tgc_target_info *out_info) {
  return tgc::apiCall("tgc_target_describe", [&] {
    if (!target || !out_info)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_target_describe: target and out_info must not be NULL");
    if (out_info->api_version != TGC_API_VERSION)
      return tgc::badVersion("tgc_target_describe", out_info->api_version);
    std::string why;
    // The emit kind ("cuda:sm_90:ptx") picks a format, not another target.
    const Described *d = describe(tgc::splitEmitKind(target).first.str(), why);
    if (!d)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_target_describe: " + why);
    const TargetDescription &t = d->target;
    tgc_target_info info = {};
    info.api_version = TGC_API_VERSION;
    info.name = t.name.c_str();
    info.arch = t.arch.c_str();
    info.device = d->device.c_str();
    info.dtypes = d->dtypes.data();
    info.num_dtypes = d->dtypes.size();
    info.has_local = t.hasLocal;
    info.has_shared = t.hasShared;
    info.has_threads = t.hasThreads;
    for (int i = 0; i < 3; ++i) {
      info.global_max[i] = t.globalMax[i];
      info.local_max[i] = t.localMax[i];
    }
    info.local_prod_max = t.localProdMax;
    info.shared_max_bytes = t.sharedMaxBytes;
    info.subgroup_size = t.subgroupSize;
    info.offsets_word = t.abi == EntryABI::VulkanBindings;
    *out_info = info;
    return TGC_OK;
  });
}
