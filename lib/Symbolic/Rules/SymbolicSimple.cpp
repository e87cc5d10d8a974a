//===- SymbolicSimple.cpp - (being ported) ---------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
std::vector<Rule> dataInvalidRules() { return {}; }
std::vector<Rule> symbolicSimpleRules() { return {}; }
std::vector<Rule> mopCleanupRules() { return {}; }
} // namespace mlir::tinygrad::sym::rules
