//===- RuleSets.cpp - tinygrad's matcher compositions ---------------------===//
//
// The same sums tinygrad writes (`symbolic = symbolic_simple + commutative +
// ...`); earlier rules have priority.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace sym = mlir::tinygrad::sym;
using namespace mlir::tinygrad::sym;
using namespace mlir::tinygrad::sym::rules;

const PatternMatcher &sym::symbolicSimple() {
  static const PatternMatcher pm = [] {
    PatternMatcher m(dataInvalidRules());
    m.add(symbolicSimpleRules());
    m.add(mopCleanupRules());
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::commutative() {
  static const PatternMatcher pm(commutativeRules());
  return pm;
}

const PatternMatcher &sym::symbolic() {
  static const PatternMatcher pm = [] {
    PatternMatcher m = symbolicSimple();
    m += commutative();
    m.add(symbolicRules());
    m.add(divAndModRules());
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::simplifyValid() {
  static const PatternMatcher pm(simplifyValidRules());
  return pm;
}

const PatternMatcher &sym::symMatcher() {
  static const PatternMatcher pm = [] {
    PatternMatcher m = symbolic();
    m += simplifyValid();
    m.add(symRules());
    m.add(cleanUpGroupSinkRules());
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::castWeak() {
  static const PatternMatcher pm(castWeakRules());
  return pm;
}

const PatternMatcher &sym::commitWeak() {
  static const PatternMatcher pm = [] {
    PatternMatcher m(commitWeakRules());
    m += PatternMatcher(castWeakFloatRules());
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::simplifyAddImageCasts() {
  static const PatternMatcher pm(simplifyAddImageCastRules());
  return pm;
}

const PatternMatcher &sym::symCastWeak() {
  static const PatternMatcher pm = [] {
    PatternMatcher m = symMatcher();
    m += castWeak();
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::symMoveWhereOnLoad() {
  static const PatternMatcher pm = [] {
    PatternMatcher m = symMatcher();
    m.add(moveWhereOnLoadRules());
    return m;
  }();
  return pm;
}

const PatternMatcher &sym::symMoveWhereOnLoadIndexing() {
  static const PatternMatcher pm = [] {
    PatternMatcher m = symMoveWhereOnLoad();
    m.add(indexingSimplifyRules());
    return m;
  }();
  return pm;
}
