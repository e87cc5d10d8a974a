//===- SimplifyValid.cpp - (being ported) ---------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
std::vector<Rule> simplifyValidRules() { return {}; }
std::vector<Rule> symRules() { return {}; }
std::vector<Rule> cleanUpGroupSinkRules() { return {}; }
std::vector<Rule> moveWhereOnLoadRules() { return {}; }
} // namespace mlir::tinygrad::sym::rules
