//===- Weak.cpp - pm_cast_weak (being ported) -----------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
std::vector<Rule> castWeakRules() { return {}; }
} // namespace mlir::tinygrad::sym::rules
