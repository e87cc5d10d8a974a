//===- TestInputs.h - reading the C API tests' input files ------*- C++ -*-===//
#ifndef TINYGRAD_UNITTESTS_CAPI_TESTINPUTS_H
#define TINYGRAD_UNITTESTS_CAPI_TESTINPUTS_H

#include "tinygrad-c/tinygrad.h"

#include <fstream>
#include <sstream>
#include <string>

namespace tgctest {
inline std::string readInput(const char *name) {
  std::ifstream f(std::string(TGC_TEST_INPUT_DIR) + "/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string lastError() { return tgc_last_error(); }
} // namespace tgctest

#endif
