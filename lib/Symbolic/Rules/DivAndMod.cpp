//===- DivAndMod.cpp - (being ported) ---------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
std::vector<Rule> divAndModRules() { return {}; }
} // namespace mlir::tinygrad::sym::rules
