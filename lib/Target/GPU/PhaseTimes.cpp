//===- PhaseTimes.cpp - where a GPU compile's time went -------------------===//
#include "tinygrad/Target/GPU/PhaseTimes.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tinygrad;

void PhaseTimes::add(llvm::StringRef phase, double ms) {
  for (auto &[name, total] : entries_)
    if (name == phase) {
      total += ms;
      return;
    }
  entries_.emplace_back(phase.str(), ms);
}

std::string PhaseTimes::json() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os);
  j.object([&] {
    for (const auto &[name, ms] : entries_)
      j.attribute(name, ms);
  });
  return out;
}
