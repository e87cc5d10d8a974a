//===- EmitReduce.cpp - REDUCE as accumulators and loop nests ---------------===//
//
// A REDUCE accumulates in a stack slot of the entry block, over its own
// ranges opened as loops where the reduce is placed.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::tinygrad::kernel_emitter {

Value Emitter::emitReduce(UOpRef u, unsigned depth, bool *negate) {
  // Asked for `-1 * REDUCE` (negatedFold): done only on the plain chain of
  // a loop-free fold (horizontal, below); elsewhere the caller negates.
  bool negateWanted = negate && *negate;
  if (negate)
    *negate = false;
  auto kindAttr = u->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind"))
                               : tg::ReduceKindAttr();
  if (!kindAttr)
    return fail(u, "REDUCE without a reduce kind");
  tg::ReduceKind kind = kindAttr.getValue();
  DType dt = u->dtype;
  Type t = ty(dt);
  if (!t)
    return fail(u, "unsupported dtype");
  bool f = isa<FloatType>(t);
  auto combineF32 = [&](Value cur, Value x) -> Value {
    switch (kind) {
    case tg::ReduceKind::Add:
      return f ? arith::AddFOp::create(b, loc, cur, x, contract()).getResult()
               : arith::AddIOp::create(b, loc, cur, x).getResult();
    case tg::ReduceKind::Mul:
      return f ? arith::MulFOp::create(b, loc, cur, x, contract()).getResult()
               : arith::MulIOp::create(b, loc, cur, x).getResult();
    case tg::ReduceKind::Max: {
      // tinygrad renders MAX as (a<b ? b : a).
      Value lt = f ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, cur, x).getResult()
                   : arith::CmpIOp::create(b, loc, isUnsignedDT(dt) ? arith::CmpIPredicate::ult
                                                                    : arith::CmpIPredicate::slt,
                                           cur, x)
                         .getResult();
      return arith::SelectOp::create(b, loc, lt, x, cur);
    }
    }
    return {};
  };
  // The linear form (EmitLinear.cpp): each combine is tinygrad's ALU of the
  // running value (`chain`: the accumulator's LOAD, then each ALU) and the
  // term, as wide as the output.
  sym::Context &sc = symCtx();
  sym::Op aluOp = kind == tg::ReduceKind::Add ? K::ADD : kind == tg::ReduceKind::Mul ? K::MUL : K::MAX;
  unsigned nOutLanes = numLanes(laneShape(u));
  UOpRef chain = nullptr;
  // tinygrad's accumulator is a variable of the reduce's dtype: a half one
  // rounds at every step.
  auto combine = [&](Value cur, Value x) -> Value {
    Value r = combineF32(cur, x);
    r = r && isHalfLike(dt) ? roundToStorage(r, dt) : r;
    if (r) {
      chain = sc.get(aluOp, sc.typeFor(dt), {chain ? chain : u->src[0], u->src[0]});
      note(r.getDefiningOp(), chain, nOutLanes);
    }
    return r;
  };
  // A half chain `acc*x0*x1...` is one expression of tinygrad's C, which
  // computes __fp16 arithmetic in float and rounds once, where it assigns
  // the accumulator; a bfloat16 op is cast back one by one (combine).
  bool halfChain = dt == DType::Float16 && (kind == tg::ReduceKind::Add || kind == tg::ReduceKind::Mul);
  auto chainStep = [&](Value cur, Value x) { return halfChain ? combineF32(cur, x) : combine(cur, x); };
  auto endChain = [&](Value cur) { return halfChain ? roundToStorage(cur, dt) : cur; };
  // The reduce ranges: loops, outermost first in axis order, and the
  // UNROLL/UPCAST ranges the expander folds, in the order the REDUCE lists
  // them (tinygrad's flatten_range order, which its CONTRACT keeps: the
  // last fastest). Sorting those by id would change the order of the sum.
  SmallVector<UOpRef, 4> loops, folded;
  for (UOpRef r : closedRanges(u)) {
    if (r->op != K::RANGE)
      return fail(u, "REDUCE over a non-RANGE source");
    (isLaneRange(r) ? folded : loops).push_back(r);
  }
  llvm::stable_sort(loops, rangeIdsLess);
  SmallVector<UOpRef, 2> outShape = laneShape(u);
  unsigned nFold = numLanes(folded);
  // Folded lane c of every output lane at once: the output lanes stay one
  // vector and each is summed over c in tinygrad's order (acc + x0 + x1 ...),
  // which a horizontal vector.reduction would reassociate.
  auto foldLane = [&](Value x, UOpRef of, unsigned c) {
    LaneVals vals = laneVals(folded, c);
    return broadcastTo(x, laneShape(of), outShape, &vals);
  };
  // A float sum of products whose every lane is used once: tinygrad's C
  // writes `acc + a*b` and contracts it to an FMA. The product is formed
  // per folded lane so that LLVM fuses it into its add, as it does there.
  UOpRef src = u->src[0];
  // A gated term, WHERE(g, x, Invalid): tinygrad moves the accumulating ALU
  // inside the gate (pm_data_invalid) and makes the accumulator's STORE a
  // gated one, `if (g) acc = acc <op> x`. So x meets the accumulator
  // directly (C contracts `acc + a*b` to an FMA, whose unrounded product
  // can keep an overflowing term finite) and the accumulator keeps its
  // value where g is false (-0.0 stays -0.0), where `acc + (g ? x : 0)`
  // would differ on both. Only for a gate every folded lane shares (one
  // that varies over them drops whole lane groups in tinygrad's form,
  // which the term-by-term path below computes).
  UOpRef gate = nullptr;
  if (!loops.empty() && src->op == K::WHERE && src->src[2]->isInvalid() &&
      llvm::none_of(laneShape(src->src[0]), [&](UOpRef r) { return llvm::is_contained(folded, r); })) {
    gate = src->src[0];
    src = src->src[1];
  }
  // A loop-free fold of WHERE(g, x, k), g the same in every folded lane and
  // k Invalid or the op's identity: tinygrad's symbolic lifts an Invalid
  // gate out of each ALU of the unrolled terms (alu(g.where(x, Invalid), y)
  // -> g.where(alu(x, y), Invalid)) and combines two WHEREs of one condition
  // with a constant branch (alu(g.where(t, k), g.where(tt, k)) ->
  // g.where(alu(t, tt), alu(k, k))), so its C folds x's terms alone and
  // selects once: a padded convolution's dot contracted into FMAs
  // (random-kernels seed 2174 #25: the last bits of its floats, 110 of the
  // 23040 bytes they were bitcast to), where we had selected each term. An
  // Invalid branch is no value: the C computes the fold alone. An
  // identity's own fold is itself (a zero of either sign adds to itself).
  // Floats only: an integer fold's value does not depend on where the
  // select is.
  UOpRef hoistedCond = nullptr, hoistedConst = nullptr;
  bool hoistedInTrue = false;
  if (f && loops.empty() && nFold > 1 && src->op == K::WHERE &&
      llvm::none_of(laneShape(src->src[0]), [&](UOpRef r) { return llvm::is_contained(folded, r); })) {
    auto isIdentity = [&](UOpRef k) {
      if (k->op != K::CONST)
        return false;
      if (k->isInvalid())
        return true;
      Scalar v = k->val();
      double d = v.isFloat() ? v.f : v.isInt() ? (double)v.i : std::nan("");
      return kind == tg::ReduceKind::Max || (kind == tg::ReduceKind::Add && d == 0.0) ||
             (kind == tg::ReduceKind::Mul && d == 1.0);
    };
    for (unsigned side : {2u, 1u})
      if (isIdentity(src->src[side]) && src->src[3 - side]->op != K::CONST) {
        hoistedCond = src->src[0];
        hoistedConst = src->src[side];
        hoistedInTrue = side == 1;
        src = src->src[3 - side];
        break;
      }
  }
  // (Only where no conversion sits between: a cast that computes nothing
  // is no barrier to the contraction either.)
  auto noConversion = [&](DType from, DType to) {
    return ty(from) == ty(to) && !(isHalfLike(to) && from != to);
  };
  bool mulFold = kind == tg::ReduceKind::Add && f && src->op == K::MUL &&
                 noConversion(src->dtype, dt) && noConversion(src->src[0]->dtype, src->dtype) &&
                 noConversion(src->src[1]->dtype, src->dtype) && users.lookup(src) == 1 &&
                 numLanes(laneShape(src)) == numLanes(outShape) * nFold;
  auto emitSrc = [&]() -> Value {
    if (!mulFold)
      return emitL(src);
    return emitL(src->src[0]) && emitL(src->src[1]) ? Value(memo.lookup(src->src[0]).v) : Value();
  };
  bool mulNoted = false;
  auto term = [&](Value x, unsigned c) -> Value {
    if (!mulFold)
      return foldLane(x, src, c);
    Value l = foldLane(memo.lookup(src->src[0]).v, src->src[0], c);
    Value r = foldLane(memo.lookup(src->src[1]).v, src->src[1], c);
    Value p = arith::MulFOp::create(b, loc, l, r, contract());
    // The products (one MUL over all their lanes in tinygrad's form).
    if (!mulNoted)
      note(p.getDefiningOp(), src, numLanes(laneShape(src)));
    mulNoted = true;
    return p;
  };
  auto prepare = [&](Value x) { return mulFold ? x : convert(x, src->dtype, dt); };
  // tinygrad's C adds each term to the sum as `acc + <term>`, and its
  // renderer strips the parentheses of an inlined (single-use) float ADD
  // operand: `acc + (a + b)` is C's `acc + a + b`, ((acc + a) + b). So a
  // source that is such a chain is added leaf by leaf (a nested reduce's
  // `acc + inner + x`: 1.4e-5 off on a cancelling sum otherwise).
  SmallVector<UOpRef, 4> leaves;
  std::function<void(UOpRef)> collectLeaves = [&](UOpRef n) {
    for (UOpRef s : n->src)
      if (s->op == K::ADD && s->dtype == dt && users.lookup(s) == 1)
        collectLeaves(s);
      else
        leaves.push_back(s);
  };
  if (kind == tg::ReduceKind::Add && !mulFold && (dt == DType::Float32 || dt == DType::Float64) &&
      src->op == K::ADD && src->dtype == dt && users.lookup(src) == 1)
    collectLeaves(src);
  // The leaves of folded lane c added to `cur` (null: the first starts it);
  // null when a leaf was not emitted as a value of its own.
  auto addLeaves = [&](Value cur, unsigned c) -> Value {
    for (UOpRef l : leaves) {
      Value v = memo.lookup(l).v;
      if (!v)
        return {};
      v = foldLane(v, l, c);
      cur = cur ? combine(cur, v) : v;
    }
    return cur;
  };
  // Per folded lane c, the output lanes whose term tinygrad's per-lane
  // symbolic folds to the constant 0 (a padded border, see
  // EmitZeroLanes.cpp): a sum drops it (`acc + 0`); a product is 0 (`x*0`
  // folds to 0 whatever x, inf and NaN included, and so does every later
  // `0*x` of the chain). Empty when no term is such a constant. Known once
  // the source is emitted.
  SmallVector<LaneMask> dropped;
  LaneMask zeroProduct;
  auto findDropped = [&]() {
    if ((kind != tg::ReduceKind::Add && kind != tg::ReduceKind::Mul) || !f)
      return;
    SmallVector<UOpRef, 2> srcShape = laneShape(src);
    LaneMask z = mulFold ? LaneMask() : zeroLanes(src);
    if (mulFold)
      for (UOpRef s : src->src) {
        LaneMask zs = maskTo(zeroLanes(s), laneShape(s), srcShape);
        if (z.empty() || zs.empty()) {
          z = z.empty() ? zs : z;
          continue;
        }
        for (size_t l = 0; l < z.size(); ++l)
          z[l] = z[l] || zs[l];
      }
    if (z.empty())
      return;
    for (unsigned c = 0; c < nFold; ++c) {
      LaneVals vals = laneVals(folded, c);
      dropped.push_back(maskTo(z, srcShape, outShape, &vals));
    }
    if (kind == tg::ReduceKind::Mul) {
      zeroProduct.assign(numLanes(outShape), false);
      for (const LaneMask &m : dropped)
        for (size_t o = 0; o < m.size(); ++o)
          zeroProduct[o] = zeroProduct[o] || m[o];
      dropped.clear();
    }
  };
  auto foldZeroProduct = [&](Value cur) {
    return zeroProduct.empty() ? cur : selectLanes(zeroProduct, zeroLike(cur), cur);
  };
  auto isDropped = [&](unsigned c, unsigned o) { return !dropped.empty() && dropped[c][o]; };
  // A loop-free half chain's running values the C names (set below).
  SmallVector<LaneMask> namedHalf;
  // Terms that are a float ADD in some lanes only, added leaf by leaf there
  // (EmitInlinedAdds.cpp). Known once the source is emitted.
  SmallVector<InlinedAdd, 2> inlined;
  auto findInlined = [&]() {
    if (kind == tg::ReduceKind::Add && !mulFold && (dt == DType::Float32 || dt == DType::Float64) &&
        src->dtype == dt)
      inlined = inlinedAddLanes(src, dt);
  };
  // `next`, `cur` combined with folded lane c's term, but in the output
  // lanes where that term is an inlined ADD: `cur` plus its leaves one by
  // one (a leaf tinygrad folds to 0 in a lane is no term there: `x+0` is x).
  auto withInlined = [&](Value cur, Value next, unsigned c) -> Value {
    if (inlined.empty() || !cur || !next)
      return next;
    LaneVals vals = laneVals(folded, c);
    SmallVector<UOpRef, 2> srcShape = laneShape(src);
    for (const InlinedAdd &ia : inlined) {
      LaneMask m = maskTo(ia.lanes, srcShape, outShape, &vals);
      if (!llvm::is_contained(m, true))
        continue;
      Value flat = cur;
      for (UOpRef l : ia.leaves) {
        Value v = memo.lookup(l).v;
        if (!v) {
          flat = Value(); // a leaf not emitted as a value of its own
          break;
        }
        Value step = combine(flat, foldLane(v, l, c));
        LaneMask nonZero = maskTo(zeroLanes(l), laneShape(l), outShape, &vals);
        for (auto &&z : nonZero)
          z = !z;
        flat = nonZero.empty() ? step : selectLanes(nonZero, step, flat);
      }
      if (flat)
        next = selectLanes(m, flat, next);
    }
    return next;
  };
  // The folded lanes' terms combined, as tinygrad's C computes such a
  // group on its own (the horizontal reduce's value; with loops, a group
  // the C names, below). After findDropped.
  auto horizontal = [&](Value x) -> Value {
    if (dropped.empty()) {
      SmallVector<Value> terms;
      for (unsigned c = 0; c < nFold; ++c)
        terms.push_back(term(x, c));
      // Our heuristic's accumulator lanes fold pairwise: the chain of 32
      // dependent adds per output sat on the critical path of a streaming
      // sum (sum 16M 0.8x the STREAM loop when the other core was busy).
      bool pairwise = u->arg.attrs && u->arg.attrs.get(opt::kPairwiseFoldAttr) && kind == tg::ReduceKind::Add;
      // Several outputs, the folded lanes fastest (laneBefore): halve the
      // whole vector, lanes c < n/2 plus lanes c >= n/2 of every output,
      // log2(n) shuffles of register halves, where extracting each folded
      // lane of every output is a gather across all the registers.
      SmallVector<UOpRef, 2> srcShape = laneShape(src);
      unsigned nOut = numLanes(outShape);
      // (Several folded ranges: any order among them, the sum is over all.)
      bool foldedLast = srcShape.size() >= folded.size() &&
                        llvm::all_of(ArrayRef<UOpRef>(srcShape).take_back(folded.size()),
                                     [&](UOpRef r) { return llvm::is_contained(folded, r); });
      if (pairwise && !mulFold && nOut > 1 && llvm::isPowerOf2_32(nFold) && foldedLast) {
        Value v = x;
        for (unsigned n = nFold; n > 1; n /= 2) {
          SmallVector<int64_t> lo, hi;
          for (unsigned o = 0; o < nOut; ++o)
            for (unsigned c = 0; c < n / 2; ++c) {
              lo.push_back(o * n + c);
              hi.push_back(o * n + n / 2 + c);
            }
          v = combine(vector::ShuffleOp::create(b, loc, v, v, lo), vector::ShuffleOp::create(b, loc, v, v, hi));
        }
        return v;
      }
      if (pairwise)
        while (terms.size() > 1) {
          SmallVector<Value> next;
          for (size_t i = 0; i + 1 < terms.size(); i += 2)
            next.push_back(combine(terms[i], terms[i + 1]));
          if (terms.size() % 2)
            next.push_back(terms.back());
          terms = std::move(next);
        }
      if (!pairwise && !leaves.empty()) {
        Value cur;
        for (unsigned c = 0; c < nFold && (c == 0 || cur); ++c)
          cur = addLeaves(cur, c);
        if (cur)
          return cur;
      }
      // `-1 * (t0 + t1 + ...)` as tinygrad's symbolic distributes it:
      // -(t0) - t1 - ... Products fuse as clang fuses that C
      // (contractLikeClang): the first, through its negation, into the
      // second's subtraction, fmuladd(-a0, b0, -(a1*b1)), each later one
      // into `cur - a*b`. Not where the chain above is more than term
      // after term (leaves, lanes of inlined ADDs, a hoisted gate, a half
      // chain): those negate the sum.
      if (negateWanted && !pairwise && leaves.empty() && inlined.empty() && !halfChain && !hoistedCond &&
          terms.size() > 1) {
        Value cur = arith::NegFOp::create(b, loc, terms[0]);
        chain = sc.get(K::NEG, sc.typeFor(dt), {u->src[0]});
        note(cur.getDefiningOp(), chain, nOutLanes);
        for (size_t c = 1; c < terms.size(); ++c) {
          cur = arith::SubFOp::create(b, loc, cur, terms[c], contract());
          chain = sc.get(K::SUB, sc.typeFor(dt), {chain, u->src[0]});
          note(cur.getDefiningOp(), chain, nOutLanes);
        }
        *negate = true;
        return cur;
      }
      Value cur = terms[0];
      for (size_t c = 1; c < terms.size(); ++c) {
        cur = withInlined(cur, chainStep(cur, terms[c]), c);
        // A running value the C names (lanes sharing a prefix of their
        // chains, EmitNamedPartials.cpp) is an `__fp16` variable: rounded.
        if (halfChain && c < namedHalf.size() && llvm::is_contained(namedHalf[c], true))
          cur = selectLanes(namedHalf[c], roundToStorage(cur, dt), cur);
      }
      return foldZeroProduct(terms.size() > 1 ? endChain(cur) : cur);
    }
    // Each output lane sums its kept terms only. Lanes that keep none are
    // tinygrad's folded constant +0.0; the others start from -0.0, which
    // adds exactly (-0.0 + x is x).
    unsigned nOut = numLanes(outShape);
    SmallVector<int> first(nOut, -1), second(nOut, -1);
    for (unsigned o = 0; o < nOut; ++o)
      for (unsigned c = 0; c < nFold; ++c)
        if (!isDropped(c, o)) {
          (first[o] < 0 ? first[o] : second[o]) = c;
          if (second[o] >= 0)
            break;
        }
    auto lanesWhere = [&](auto pred) {
      LaneMask m(nOut);
      for (unsigned o = 0; o < nOut; ++o)
        m[o] = pred(o);
      return m;
    };
    Type outT = nOut > 1 ? Type(VectorType::get({(int64_t)nOut}, t)) : t;
    Value negZero = arith::ConstantOp::create(b, loc, b.getFloatAttr(t, -0.0));
    if (nOut > 1)
      negZero = vector::BroadcastOp::create(b, loc, outT, negZero);
    Value cur = negZero;
    // Terms already in `cur` for lane o: those up to `upTo[o]`.
    SmallVector<int> upTo(nOut, -1);
    if (mulFold) {
      // The C contracts the first product of the sum into the second,
      // fma(a_i, b_i, a_j*b_j), and each later one into the running sum:
      // each lane's first two kept terms, gathered, keep that shape.
      Value a, bv, p;
      for (unsigned c = 0; c < nFold; ++c) {
        LaneMask isFirst = lanesWhere([&](unsigned o) { return first[o] == (int)c; });
        LaneMask isSecond = lanesWhere([&](unsigned o) { return second[o] == (int)c; });
        bool anyFirst = llvm::any_of(isFirst, [](bool x) { return x; });
        bool anySecond = llvm::any_of(isSecond, [](bool x) { return x; });
        if (!anyFirst && !anySecond)
          continue;
        Value l = foldLane(memo.lookup(src->src[0]).v, src->src[0], c);
        Value r = foldLane(memo.lookup(src->src[1]).v, src->src[1], c);
        if (anyFirst) {
          a = a ? selectLanes(isFirst, l, a) : l;
          bv = bv ? selectLanes(isFirst, r, bv) : r;
        }
        if (anySecond)
          p = selectLanes(isSecond, arith::MulFOp::create(b, loc, l, r, contract()), p ? p : negZero);
      }
      if (a) {
        cur = combine(arith::MulFOp::create(b, loc, a, bv, contract()), p ? p : negZero);
        for (unsigned o = 0; o < nOut; ++o)
          upTo[o] = std::max(first[o], second[o]);
      }
    }
    for (unsigned c = 0; c < nFold; ++c) {
      LaneMask keep = lanesWhere([&](unsigned o) { return (int)c > upTo[o] && !isDropped(c, o); });
      if (llvm::any_of(keep, [](bool k) { return k; }))
        cur = selectLanes(keep, withInlined(cur, combine(cur, term(x, c)), c), cur);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(outT));
    return selectLanes(lanesWhere([&](unsigned o) { return first[o] < 0; }), zero, cur);
  };
  if (loops.empty()) {
    // A horizontal fold's value is its last ALU (its term alone when one).
    auto value = llvm::make_scope_exit([&] {
      UOpRef v = chain ? chain : src;
      if (hoistedCond)
        v = sc.get(K::WHERE, v->type,
                   {hoistedCond, hoistedInTrue ? hoistedConst : v, hoistedInTrue ? v : hoistedConst});
      reduceValues[u] = v;
    });
    // Only lanes: the horizontal reduce, no accumulator (tinygrad's
    // expand_horizontal_reduce).
    Value x = emitSrc();
    if (!x)
      return {};
    bool selectOnce = hoistedCond && !hoistedConst->isInvalid();
    Value hoistedG = selectOnce ? emitL(hoistedCond) : Value();
    Value hoistedK = selectOnce ? emitL(hoistedConst) : Value();
    if (selectOnce && (!hoistedG || !hoistedK))
      return {};
    setInsertionAt(depth);
    x = prepare(x);
    findDropped();
    findInlined();
    if (halfChain && nFold > 2)
      namedHalf = namedPartials(src, aluOp, folded, outShape);
    Value r = horizontal(x);
    // An 8/16-bit ADD or MUL chain the C keeps inline computes in int: its
    // user reads that value (promotedOut), wrapped only where the C names a
    // running value (EmitNamedPartials.cpp). Not our heuristic's pairwise
    // fold, which is no chain of tinygrad's.
    bool pairwise = u->arg.attrs && u->arg.attrs.get(opt::kPairwiseFoldAttr);
    if (r && isNarrowInt(dt) && src->dtype == dt && (kind == tg::ReduceKind::Add || kind == tg::ReduceKind::Mul) &&
        !pairwise && nFold > 1 && users.lookup(u) == 1 && !readPerLane.contains(u)) {
      SmallVector<LaneMask> named = namedPartials(src, aluOp, folded, outShape);
      Value srcInt = memo.lookup(src).promoted;
      Value p;
      for (unsigned c = 0; c < named.size() && x; ++c) {
        Value t = srcInt ? foldLane(srcInt, src, c) : convert(term(x, c), dt, DType::Int32);
        if (!t)
          break;
        p = !p ? t
            : kind == tg::ReduceKind::Add ? arith::AddIOp::create(b, loc, p, t).getResult()
                                          : arith::MulIOp::create(b, loc, p, t).getResult();
        if (llvm::is_contained(named[c], true))
          p = selectLanes(named[c], convert(convert(p, DType::Int32, dt), dt, DType::Int32), p);
      }
      promotedOut = named.empty() ? Value() : p;
    }
    if (r && selectOnce) {
      Value g = broadcastTo(hoistedG, laneShape(hoistedCond), outShape);
      Value k = broadcastTo(convert(hoistedK, hoistedConst->dtype, dt), laneShape(hoistedConst), outShape);
      r = hoistedInTrue ? arith::SelectOp::create(b, loc, g, k, r).getResult()
                        : arith::SelectOp::create(b, loc, g, r, k).getResult();
    }
    return r;
  }
  // The accumulator: a stack slot in the entry block holding every output
  // lane (SROA keeps it in registers).
  unsigned nOut = numLanes(outShape);
  Type accT = nOut > 1 ? Type(VectorType::get({(int64_t)nOut}, t)) : t;
  Value acc = accAlloc(t, nOut);
  // tinygrad's accumulator: a REG BUFFER of the output's lanes.
  MLIRContext *mc = b.getContext();
  Type elemT = sc.typeFor(dt), voidT = sc.typeFor(DType::Void);
  Type regElem = tg::makeValueType(elemT, {}, tg::AddrSpace::Reg);
  NamedAttrList regAttrs;
  regAttrs.set("arg", tg::ParamAttr::get(mc, nextRegSlot++, elemT, {}, std::nullopt, {}, tg::AddrSpace::Reg,
                                         std::nullopt, {}, false, std::nullopt));
  UOpRef reg = sc.get(K::BUFFER, tg::makeValueType(elemT, {(int64_t)nOut}, tg::AddrSpace::Reg),
                      {sc.constInt(nOut)}, sym::Arg{Scalar(), regAttrs.getDictionary(mc)});
  note(acc.getDefiningOp(), reg, 1);
  auto regIndex = [&](UOpRef buf) { return sc.get(K::INDEX, regElem, {buf, sc.constInt(0)}); };
  setInsertionAt(depth);
  Value initV;
  if (kind == tg::ReduceKind::Max) {
    if (f)
      initV = arith::ConstantOp::create(b, 
          loc, b.getFloatAttr(t, -std::numeric_limits<double>::infinity()));
    else if (dt == DType::Bool)
      initV = constant(Scalar::fromBool(false), dt);
    else
      initV = constant(Scalar::fromInt(*intMinValue(dt)), dt);
  } else {
    initV = constant(kind == tg::ReduceKind::Add ? Scalar::fromInt(0) : Scalar::fromInt(1), dt);
  }
  Scalar identity = kind == tg::ReduceKind::Max
                       ? (f ? Scalar::fromFloat(-std::numeric_limits<double>::infinity())
                          : dt == DType::Bool ? Scalar::fromBool(false) : Scalar::fromInt(*intMinValue(dt)))
                       : Scalar::fromInt(kind == tg::ReduceKind::Add ? 0 : 1);
  if (nOut > 1)
    initV = vector::BroadcastOp::create(b, loc, accT, initV);
  Operation *initStore = accStore(initV, acc);
  UOpRef init = sc.get(K::STORE, voidT, {regIndex(reg), sc.cnst(identity, dt)});
  note(initStore, init, nOut);
  // The reduce's own loops open at `depth`, inside whatever is open there.
  return atDepth(depth, [&]() -> Value {
    unsigned d = depth;
    for (UOpRef r : loops) {
      openLoop(r, d);
      d = scopes.size() - 1;
    }
    if (error.empty()) {
      Value x = emitSrc();
      Value g = x && gate ? emitL(gate) : Value();
      if (x && (!gate || g)) {
        b.setInsertionPoint(scopes.back().tail);
        x = prepare(x);
        findDropped();
        findInlined();
        Value cur = accLoad(acc, accT);
        Value accIn = cur;
        SmallVector<UOpRef, 4> waits{reg, init};
        for (UOpRef r : loops)
          waits.push_back(r);
        chain = regIndex(sc.get(K::AFTER, reg->type, waits));
        note(cur.getDefiningOp(), chain, nOut, /*load=*/true);
        // tinygrad's accumulator takes `acc <op> (x0 <op> x1 <op> ...)`
        // (reduce_ranges_to_acc over expand_horizontal_reduce). float ADD
        // and MUL chains render without the parentheses, so C folds them
        // into acc term by term; MAX renders as nested `(a<b)?b:a`, so the
        // lanes meet first (a NaN lane drops its whole group, where one
        // step at a time only the NaN itself would be skipped), and so do a
        // bfloat16 chain's, each op cast back on its own.
        bool bf16Lanes = dt == DType::BFloat16 && (kind == tg::ReduceKind::Add || kind == tg::ReduceKind::Mul);
        bool lanesFirst = (kind == tg::ReduceKind::Max || bf16Lanes) && nFold > 1;
        if (lanesFirst) {
          // A bfloat16 group starts from the identity (-0.0 + x and 1.0 * x
          // are x exactly), so that a lane's dropped terms are skipped.
          Value h = bf16Lanes ? splatLike(cur, b.getFloatAttr(t, kind == tg::ReduceKind::Add ? -0.0 : 1.0))
                              : term(x, 0);
          for (unsigned c = bf16Lanes ? 0 : 1; c < nFold; ++c) {
            LaneMask keep(numLanes(outShape), true);
            for (unsigned o = 0; o < keep.size(); ++o)
              keep[o] = !isDropped(c, o);
            h = selectLanes(keep, combine(h, term(x, c)), h);
          }
          cur = combine(cur, h);
        }
        for (unsigned c = 0; c < (lanesFirst ? 0 : nFold); ++c) {
          LaneMask keep(numLanes(outShape), false);
          for (unsigned o = 0; o < keep.size(); ++o)
            keep[o] = !isDropped(c, o);
          if (!llvm::any_of(keep, [](bool k) { return k; }))
            continue;
          Value flat = dropped.empty() && !leaves.empty() ? addLeaves(cur, c) : Value();
          cur = flat ? flat : selectLanes(keep, withInlined(cur, chainStep(cur, term(x, c)), c), cur);
        }
        // An output lane whose unrolled group is another lane's too: tinygrad's
        // C names that group and adds it whole, `acc + (x0 + x1 ...)`
        // (EmitSharedLanes.cpp), where a group of its own is added term by term.
        // The group's adds are listed in the linear form as a horizontal
        // reduce's chain; the accumulator's chain goes on from the term-by-term one.
        if (!lanesFirst && !halfChain && (dt == DType::Float32 || dt == DType::Float64) &&
            kind == tg::ReduceKind::Add && nFold > 1) {
          LaneMask shared = lanesSharingTheirGroup(src, folded, outShape);
          if (!shared.empty()) {
            UOpRef keepChain = chain;
            Value whole = combineF32(accIn, horizontal(x));
            chain = keepChain;
            // A lane whose every term folds to 0 adds nothing (`acc + 0` folds).
            for (unsigned o = 0; o < shared.size(); ++o) {
              bool allDropped = true;
              for (unsigned c = 0; c < nFold; ++c)
                allDropped = allDropped && isDropped(c, o);
              shared[o] = shared[o] && !allDropped;
            }
            cur = selectLanes(shared, whole, cur);
          }
        }
        if (!lanesFirst)
          cur = endChain(cur);
        cur = foldZeroProduct(cur);
        if (gate)
          cur = arith::SelectOp::create(b, loc, broadcastTo(g, laneShape(gate), outShape), cur, accIn);
        Operation *update = accStore(cur, acc);
        UOpRef updated = sc.get(K::STORE, voidT, {regIndex(reg), chain});
        note(update, updated, nOut);
        chain = updated;
      }
    }
    while (scopes.size() > depth + 1)
      closeLoop();
    if (!error.empty())
      return Value();
    setInsertionAt(depth);
    Value result = accLoad(acc, accT);
    // The REDUCE's value: the accumulator read after its loops end.
    UOpRef after = regIndex(sc.get(K::AFTER, reg->type, {reg, chain}));
    note(result.getDefiningOp(), after, nOut, /*load=*/true);
    reduceValues[u] = after;
    return result;
  });
}

} // namespace mlir::tinygrad::kernel_emitter
