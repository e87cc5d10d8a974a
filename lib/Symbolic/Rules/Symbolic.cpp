//===- Symbolic.cpp - (being ported) ---------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
std::vector<Rule> commutativeRules() { return {}; }
std::vector<Rule> symbolicRules() { return {}; }
} // namespace mlir::tinygrad::sym::rules
