//===- EmitNodes.cpp - value nodes and ALU ops ------------------------------===//
//
// The memoized walk over value nodes and the ALU ops with tinygrad's C
// semantics.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

namespace mlir::tinygrad::kernel_emitter {

Value Emitter::emit(UOpRef u) {
  Value v = emitL(u);
  if (v && isa<VectorType>(v.getType()))
    return fail(u, "a scalar is needed here, not a value of " +
                       Twine(cast<VectorType>(v.getType()).getNumElements()) + " lanes");
  return v;
}

Value Emitter::emitL(UOpRef u) {
  auto it = memo.find(u);
  if (it != memo.end()) {
    const Memo &m = it->second;
    if (m.depth < scopes.size() && scopes[m.depth].id == m.scopeId)
      return m.v;
  }
  if (u->op == K::RANGE && !isLaneRange(u))
    return fail(u, "RANGE used outside of its loop");
  int depth = depthOf(u);
  if (depth < 0)
    return {};
  Value v;
  if (u->op == K::RANGE) {
    // An UPCAST/UNROLL range: its lanes are 0..n-1.
    setInsertionAt(depth);
    Type t = ty(u->dtype);
    int64_t n = rangeSize(u);
    if (!t || !isa<IntegerType>(t))
      return fail(u, "unsupported dtype");
    if (n == 1) {
      v = constant(Scalar::fromInt(0), u->dtype);
    } else {
      SmallVector<Attribute> lanes;
      for (int64_t i = 0; i < n; ++i)
        lanes.push_back(b.getIntegerAttr(t, i));
      v = arith::ConstantOp::create(b, loc,
                                    DenseElementsAttr::get(VectorType::get({n}, t), lanes));
    }
  } else if (u->op == K::REDUCE) {
    v = emitReduce(u, depth);
  } else if (UOpRef r = negatedFold(u)) {
    int rDepth = depthOf(r);
    bool negated = true;
    Value rv = rDepth < 0 ? Value() : emitReduce(r, rDepth, &negated);
    if (!rv)
      return {};
    if (negated) {
      // The negated chain is this node's value; the REDUCE has none of
      // its own (this was its only user).
      reduceValues[u] = reduceValues.lookup(r);
      memo[u] = {rv, unsigned(rDepth), scopes[rDepth].id, Value()}; // placed where the REDUCE is
      return rv;
    }
    // Not a chain negated term by term (EmitReduce.cpp says where): the
    // REDUCE's value, negated as any product by -1.
    memo[r] = {rv, unsigned(rDepth), scopes[rDepth].id, promotedOut};
    for (UOpRef s : u->src)
      if (!emitL(s))
        return {};
    setInsertionAt(depth);
    promotedOut = {};
    v = emitNode(u);
  } else if (u->op == K::AFTER) {
    v = emitAfter(u, depth);
  } else if (Value w = u->op == K::WHERE ? laneStaticWhere(u, depth) : Value()) {
    v = w;
    laneShuffles.insert(u);
  } else if (!error.empty()) {
    return {};
  } else {
    // PARAM sizes are not computed; INDEX/LOAD place their own operands.
    bool ownOperands = u->op == K::PARAM || u->op == K::BUFFER || u->op == K::INDEX || u->op == K::LOAD ||
                       u->op == K::CALL;
    for (UOpRef s : u->src)
      if (!ownOperands && !emitL(s))
        return {};
    setInsertionAt(depth);
    promotedOut = {};
    v = emitNode(u);
  }
  if (!v) {
    // Every failure names the node: helpers that only return null (an
    // unmapped dtype) are reported here.
    fail(u, Twine("no CPU lowering at dtype ") + getName(u->dtype));
    return {};
  }
  memo[u] = {v, unsigned(depth), scopes[depth].id, promotedOut};
  promotedOut = {};
  noteValue(u, v);
  return v;
}

UOpRef Emitter::negatedFold(UOpRef u) {
  if (u->dtype != DType::Float32 && u->dtype != DType::Float64)
    return nullptr;
  auto isMinusOne = [](UOpRef c) {
    if (c->op != K::CONST)
      return false;
    Scalar v = c->val();
    return v.isFloat() ? v.f == -1.0 : v.isInt() && v.i == -1;
  };
  // x * -1, or the NEG our late rewrites make of it (after tinygrad's
  // symbolic has distributed it, as there).
  UOpRef r = u->op == K::NEG && u->src.size() == 1 ? u->src[0]
             : u->op != K::MUL || u->src.size() != 2 ? nullptr
             : isMinusOne(u->src[1])                 ? u->src[0]
             : isMinusOne(u->src[0])                 ? u->src[1]
                                                     : nullptr;
  if (!r || r->op != K::REDUCE || r->dtype != u->dtype || users.lookup(r) != 1 || memo.count(r) ||
      laneShape(r) != laneShape(u))
    return nullptr;
  auto kind = r->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(r->arg.attrs.get("kind")) : tg::ReduceKindAttr();
  if (!kind || kind.getValue() != tg::ReduceKind::Add)
    return nullptr;
  // Loop-free: every reduce range is lanes (tinygrad's value is then the
  // ADD chain itself; after a loop it is the accumulator's LOAD, which the
  // -1 does not enter).
  SmallVector<UOpRef, 4> ranges = closedRanges(r);
  if (ranges.empty() || !llvm::all_of(ranges, [&](UOpRef x) { return x->op == K::RANGE && isLaneRange(x); }))
    return nullptr;
  return r;
}

Value Emitter::laneStaticWhere(UOpRef u, unsigned depth) {
  // A condition on the lanes alone (`stack`/`cat` of pieces: lane 0 takes
  // a, lane 1 b) is known per lane, as tinygrad's devectorized symbolic
  // folds it: the result picks each lane from its branch, no select.
  std::optional<SmallVector<int8_t>> gates = decidedLanes(u);
  if (!gates)
    return {};
  SmallVector<int8_t> &g = *gates;
  SmallVector<UOpRef, 2> shape = laneShape(u);
  bool anyT = llvm::is_contained(g, 1), anyF = llvm::is_contained(g, 0);
  Value t = anyT ? emitL(u->src[1]) : Value(), f = anyF ? emitL(u->src[2]) : Value();
  if ((anyT && !t) || (anyF && !f))
    return {};
  setInsertionAt(depth);
  // A branch emitted in another type computes at the WHERE's, as alu()
  // converts its operands: an Invalid constant (a bool CONST: the "no
  // value" of the border lanes a pad's lane-decided gate leaves in an
  // unrolled reduce's term; random-kernels seed 1885 #98).
  auto atDType = [&](Value x, UOpRef s) {
    return getElementTypeOrSelf(x.getType()) == ty(u->dtype) ? x : convert(x, s->dtype, u->dtype);
  };
  if (anyT && !(t = atDType(t, u->src[1])))
    return {};
  if (anyF && !(f = atDType(f, u->src[2])))
    return {};
  if (anyT)
    t = broadcastTo(t, laneShape(u->src[1]), shape);
  if (anyF)
    f = broadcastTo(f, laneShape(u->src[2]), shape);
  Value r = !anyF ? t : !anyT ? f : Value();
  if (!r) {
    SmallVector<int64_t> pick;
    for (auto [l, x] : llvm::enumerate(g))
      pick.push_back(x ? (int64_t)l : (int64_t)(g.size() + l));
    r = vector::ShuffleOp::create(b, loc, t, f, pick);
  }
  // Folded per lane, the WHERE is no `__fp16` variable of the C: each lane
  // is its branch's expression, rounded where the branch is named (its own
  // emission) or where this node's users name it. Rounding it as a WHERE
  // turned an inline half square (90000 in the C's float) into inf, and
  // `inf - inf` a NaN where tinygrad's exp gave 0 (random-kernels seed 1801
  // #49).
  bool named = u->dtype == DType::BFloat16 || users.lookup(u) > 1 || readPerLane.contains(u);
  return isHalfLike(u->dtype) && named ? roundToStorage(r, u->dtype) : r;
}

static bool powerOfTwoDivisor(UOpRef u) {
  UOpRef d = u->src[1];
  return d->op == K::CONST && d->val().isInt() && d->val().i > 0 && llvm::isPowerOf2_64((uint64_t)d->val().i);
}

/// The bounds tinygrad's division decompositions saw for `x`: they run
/// before the late rewrite that makes an integer `x*-1` our NEG, so a NEG
/// has MUL's bounds there, (-vmax, -vmin), where its own are the dtype's
/// (uint8 `-x % 3` keeps its sign fix-up, and reads -x wrapped).
static std::pair<Scalar, Scalar> decompBounds(UOpRef x) {
  if (x->op == K::NEG && isInt(x->dtype)) {
    const Scalar &lo = x->src[0]->vmin(), &hi = x->src[0]->vmax();
    if (lo.isInt() && hi.isInt())
      return {Scalar::fromInt(-hi.i), Scalar::fromInt(-lo.i)};
  }
  return {x->vmin(), x->vmax()};
}

/// floordiv_to_idiv / floormod_to_mod's first case: operands whose bounds
/// give the signs, where tinygrad writes C's truncating `/` and `%` (also
/// when a wrapped narrow value breaks the bound: that is its C's answer).
static bool signsKnown(UOpRef u) {
  UOpRef d = u->src[1];
  auto [amin, amax] = decompBounds(u->src[0]);
  auto lt0 = [](const Scalar &x) { return x.isInt() && x.i < 0; };
  auto ge0 = [](const Scalar &x) { return x.isInt() && x.i >= 0; };
  auto gt0 = [](const Scalar &x) { return x.isInt() && x.i > 0; };
  auto le0 = [](const Scalar &x) { return x.isInt() && x.i <= 0; };
  return (ge0(amin) && gt0(d->vmin())) || (le0(amax) && lt0(d->vmax()));
}

/// A FLOORDIV/FLOORMOD tinygrad's decompositions turn into one shift, mask,
/// CDIV or CMOD (a power-of-two divisor, or operands of known signs).
static bool plainDivision(UOpRef u) { return powerOfTwoDivisor(u) || signsKnown(u); }

static bool isIntDivision(K op) { return op == K::CDIV || op == K::CMOD || op == K::FLOORDIV || op == K::FLOORMOD; }

Value Emitter::promotedAlu(UOpRef u, ArrayRef<Value> in) {
  // C promotes 8- and 16-bit operands to int: tinygrad's C wraps such a
  // value only where it names a variable (a WHERE, MAX's operands and
  // result, a node used twice), casts or stores it; `(a+b)>>1` on uint8
  // keeps the carry. Comparisons compare the int values.
  K op = u->op;
  bool cmp = sym::isComparison(op);
  DType opdt = u->dtype;
  if (cmp) {
    auto lub = leastUpperDType({u->src[0]->dtype, u->src[1]->dtype});
    opdt = lub ? *lub : u->src[0]->dtype;
  }
  bool promotes = op == K::ADD || op == K::SUB || op == K::MUL || op == K::NEG || op == K::SHL ||
                  op == K::SHR || op == K::AND || op == K::OR || op == K::XOR || op == K::CDIV ||
                  op == K::CMOD || op == K::FLOORDIV || op == K::FLOORMOD || op == K::MAX || cmp;
  if (!promotes || !isNarrowInt(opdt) || in.size() != u->src.size())
    return {};
  SmallVector<Value, 3> wide;
  for (size_t i = 0; i < in.size(); ++i) {
    // MAX is written `(a<b)?b:a`, and a floor division that needs its sign
    // fix-up reads its operands again (floordiv_to_idiv): used twice there,
    // they are named and wrapped.
    bool named = op == K::MAX || ((op == K::FLOORDIV || op == K::FLOORMOD) && !plainDivision(u));
    Value w = !named && i < promotedIn.size() && promotedIn[i] ? promotedIn[i]
                                                     : convert(in[i], u->src[i]->dtype, DType::Int32);
    if (!w)
      return {};
    wide.push_back(w);
  }
  // The same op at int, on a stand-in node of int dtype.
  sym::Context &ctx = u->ctx();
  SmallVector<UOpRef, 3> src;
  // (A constant stays a constant: a power-of-two divisor keeps its shift.)
  for (UOpRef s : u->src)
    src.push_back(s->op == K::CONST && s->val().isInt() ? ctx.constInt(s->val().i, DType::Int32)
                                                          : ctx.cast(s, DType::Int32));
  UOpRef asInt = ctx.alu(op, src);
  if (!asInt)
    return {};
  Value r = alu(asInt, wide);
  if (!r || cmp)
    return r;
  Value narrow = convert(r, DType::Int32, u->dtype);
  // Inline in the C (used once, not written as a WHERE, not read by each
  // lane of a node with lanes): its consumer reads the int value.
  if (op != K::MAX && users.lookup(u) == 1 && !readPerLane.contains(u))
    promotedOut = r;
  return narrow;
}

Value Emitter::alu(UOpRef u, ArrayRef<Value> in) {
  DType dt = u->dtype;
  K op = u->op;
  // Operands compute at the node's dtype (comparisons: at the operands'
  // common dtype; WHERE: the condition stays bool; shifts: the lhs dtype).
  DType opdt = dt;
  if (sym::isComparison(op)) {
    auto lub = leastUpperDType({u->src[0]->dtype, u->src[1]->dtype});
    opdt = lub ? *lub : u->src[0]->dtype;
  }
  SmallVector<Value, 3> v;
  for (size_t i = 0; i < in.size(); ++i) {
    DType target = op == K::WHERE && i == 0 ? DType::Bool : opdt;
    Value c = convert(in[i], u->src[i]->dtype, target);
    if (!c)
      return fail(u, "unsupported operand dtype");
    v.push_back(c);
  }
  Type t = ty(opdt);
  if (!t)
    return fail(u, "unsupported dtype");
  bool f = isa<FloatType>(t);
  bool uns = isUnsignedDT(opdt);
  if (!f && isIntDivision(op))
    return guardedDivision(u, v[0], v[1], uns);
  if (!f && (op == K::SHL || op == K::SHR))
    return guardedShift(u, v[0], v[1], uns);
  auto cmpi = [&](arith::CmpIPredicate p) { return arith::CmpIOp::create(b, loc, p, v[0], v[1]).getResult(); };
  auto cmpf = [&](arith::CmpFPredicate p) { return arith::CmpFOp::create(b, loc, p, v[0], v[1]).getResult(); };
  switch (op) {
  case K::ADD: return f ? foldZeroLanes(u, v, arith::AddFOp::create(b, loc, v[0], v[1], contract())) : arith::AddIOp::create(b, loc, v[0], v[1]).getResult();
  case K::SUB: return f ? arith::SubFOp::create(b, loc, v[0], v[1], contract()).getResult() : arith::SubIOp::create(b, loc, v[0], v[1]).getResult();
  case K::MUL: return f ? foldZeroLanes(u, v, arith::MulFOp::create(b, loc, v[0], v[1], contract())) : arith::MulIOp::create(b, loc, v[0], v[1]).getResult();
  case K::FDIV: return foldZeroLanes(u, v, arith::DivFOp::create(b, loc, v[0], v[1]));
  case K::MULACC:
    return f ? math::FmaOp::create(b, loc, v[0], v[1], v[2]).getResult()
             : arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, v[0], v[1]), v[2]).getResult();
  case K::NEG: return f ? arith::NegFOp::create(b, loc, v[0]).getResult()
                         : arith::SubIOp::create(b, loc, zeroLike(v[0]), v[0]).getResult();
  case K::MAX: {
    Value lt = f ? cmpf(arith::CmpFPredicate::OLT) : cmpi(uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
    return arith::SelectOp::create(b, loc, lt, v[1], v[0]);
  }
  case K::CMPLT: return f ? cmpf(arith::CmpFPredicate::OLT) : cmpi(uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
  case K::CMPNE: return f ? cmpf(arith::CmpFPredicate::UNE) : cmpi(arith::CmpIPredicate::ne);
  case K::CMPEQ: return f ? cmpf(arith::CmpFPredicate::OEQ) : cmpi(arith::CmpIPredicate::eq);
  case K::AND: return arith::AndIOp::create(b, loc, v[0], v[1]);
  case K::OR: return arith::OrIOp::create(b, loc, v[0], v[1]);
  case K::XOR: return arith::XOrIOp::create(b, loc, v[0], v[1]);
  case K::CDIV: return arith::DivFOp::create(b, loc, v[0], v[1]);
  case K::CMOD: return arith::RemFOp::create(b, loc, v[0], v[1]);
  case K::FLOORDIV: return math::FloorOp::create(b, loc, arith::DivFOp::create(b, loc, v[0], v[1]));
  case K::FLOORMOD: return fail(u, "float FLOORMOD");
  case K::WHERE: {
    // tinygrad's C names a WHERE (`float alu2 = g ? x*x : 0.0f;`), so a
    // product in its branch fuses with no add: without `contract` LLVM
    // cannot fuse it either once InstCombine moves a later add into the
    // select's arms (`sqrtf(alu2 + 1.0f)` as `g ? x*x + 1 : 1`, one FMA;
    // random-kernels seed 1900 #71: 1 ulp on 1095 of 22100 values). A gated
    // term, WHERE(g, x, Invalid), is no such variable: its user's op moves
    // inside the gate (tinygrad's pm_data_invalid), `acc + x*w` fuses.
    if (!u->src[1]->isInvalid() && !u->src[2]->isInvalid())
      for (Value x : {v[1], v[2]})
        if (auto m = x.getDefiningOp<arith::MulFOp>())
          m.setFastmathAttr(arith::FastMathFlagsAttr::get(b.getContext(),
                                                          m.getFastmath() & ~arith::FastMathFlags::contract));
    return arith::SelectOp::create(b, loc, v[0], v[1], v[2]);
  }
  case K::SQRT: return math::SqrtOp::create(b, loc, v[0]);
  case K::EXP2: return math::Exp2Op::create(b, loc, v[0]);
  case K::LOG2: return math::Log2Op::create(b, loc, v[0]);
  case K::SIN: return math::SinOp::create(b, loc, v[0]);
  case K::TRUNC: {
    if (!f)
      return v[0];
    // math.trunc has no lowering in convert-math-to-spirv nor in
    // convert-gpu-to-nvvm's libdevice patterns: floor, or ceil below zero,
    // is the same value (signed zeros and NaN included).
    if (target.math == MathLowering::SPIRVGLSL || target.math == MathLowering::Libdevice) {
      Value neg = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v[0], zeroLike(v[0]));
      return arith::SelectOp::create(b, loc, neg, math::CeilOp::create(b, loc, v[0]),
                                     math::FloorOp::create(b, loc, v[0]));
    }
    return math::TruncOp::create(b, loc, v[0]);
  }
  case K::RECIPROCAL:
    return arith::DivFOp::create(b, loc, splatLike(v[0], b.getFloatAttr(t, 1.0)), v[0]);
  case K::THREEFRY: // threefry2x32 in the early decompositions (SimplifyingRewrites.cpp)
    return fail(u, "THREEFRY left undecomposed");
  default:
    return fail(u, "not an ALU op the CPU target lowers");
  }
}

/// Whether the integer bounds of `x` (tinygrad's vmin/vmax) may hold `c`.
static bool mayBe(UOpRef x, __int128 c) {
  const Scalar &lo = x->vmin(), &hi = x->vmax();
  return !lo.isInt() || !hi.isInt() || (lo.i <= c && c <= hi.i);
}

Value Emitter::guardedDivision(UOpRef u, Value a, Value d, bool uns) {
  // A divisor of 0, or -1 under INT_MIN, is undefined in C and in LLVM
  // (and poison through the f64 quotient). tinygrad's exec_alu defines
  // them: x / 0 = 0, x % 0 = x, INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1
  // = 0. The instruction sees a safe divisor (1) and a select gives those
  // answers; bounds that exclude the cases emit no guard.
  K op = u->op;
  bool isDiv = op == K::CDIV || op == K::FLOORDIV;
  unsigned w = getElementTypeOrSelf(a.getType()).getIntOrFloatBitWidth();
  __int128 intMin = -(__int128(1) << (w - 1));
  bool zero = mayBe(u->src[1], 0);
  bool overflow = !uns && mayBe(u->src[1], -1) && mayBe(u->src[0], intMin);
  if (!zero && !overflow)
    return integerDivision(u, a, d, uns);
  auto eq = [&](int64_t c) { return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, intLike(d, c)).getResult(); };
  Value isZero = zero ? eq(0) : Value(), isM1 = overflow ? eq(-1) : Value();
  Value bad = isZero && isM1 ? arith::OrIOp::create(b, loc, isZero, isM1).getResult() : isZero ? isZero : isM1;
  Value safe = arith::SelectOp::create(b, loc, bad, intLike(d, 1), d);
  Value r = integerDivision(u, a, safe, uns);
  if (!r)
    return r;
  // By 1 the quotient is a and the remainder 0: right for % by -1.
  if (isM1 && isDiv)
    r = arith::SelectOp::create(b, loc, isM1, arith::SubIOp::create(b, loc, zeroLike(a), a), r);
  if (isZero)
    r = arith::SelectOp::create(b, loc, isZero, isDiv ? zeroLike(a) : a, r);
  return r;
}

Value Emitter::integerDivision(UOpRef u, Value a, Value d, bool uns) {
  K op = u->op;
  Type t = getElementTypeOrSelf(a.getType());
  // A power of two takes the shift / mask (floor semantics); else known
  // signs take C's truncating division, as tinygrad's decompositions do.
  if ((op == K::FLOORDIV || op == K::FLOORMOD) && !powerOfTwoDivisor(u) && signsKnown(u))
    op = op == K::FLOORDIV ? K::CDIV : K::CMOD;
  if (t.getIntOrFloatBitWidth() <= 32 && u->src[1]->op != K::CONST)
    return divideViaF64(op, a, d, uns);
  // Floor semantics by 2^k are an arithmetic shift and a mask in two's
  // complement, as tinygrad's C writes them; arith.floordivsi would reach
  // LLVM as a truncating divide and a sign fix-up it does not fold back
  // (seven instructions per lane in every exp2's exponent split).
  if ((op == K::FLOORDIV || op == K::FLOORMOD) && powerOfTwoDivisor(u)) {
    int64_t c = u->src[1]->val().i;
    if (op == K::FLOORMOD)
      return arith::AndIOp::create(b, loc, a, intLike(a, c - 1)).getResult();
    Value k = intLike(a, llvm::Log2_64((uint64_t)c));
    return uns ? arith::ShRUIOp::create(b, loc, a, k).getResult() : arith::ShRSIOp::create(b, loc, a, k).getResult();
  }
  // A signed CDIV by 2^k is tinygrad's `(x + (x<0 ? 2^k-1 : 0)) >> k`
  // with `x<0` folded where x's bounds decide it: a plain shift when they
  // say x >= 0, which is its C's answer even where a wrapped narrow value
  // breaks them ((signed char)ushort >> 4: floor, where a divide truncates).
  if (!uns && op == K::CDIV && powerOfTwoDivisor(u)) {
    auto [lo, hi] = decompBounds(u->src[0]);
    int64_t c = u->src[1]->val().i;
    Value k = intLike(a, llvm::Log2_64((uint64_t)c));
    if (lo.isInt() && lo.i >= 0)
      return arith::ShRSIOp::create(b, loc, a, k).getResult();
    if (hi.isInt() && hi.i < 0)
      return arith::ShRSIOp::create(b, loc, arith::AddIOp::create(b, loc, a, intLike(a, c - 1)), k)
          .getResult();
  }
  switch (op) {
  case K::CDIV:
    return uns ? arith::DivUIOp::create(b, loc, a, d).getResult() : arith::DivSIOp::create(b, loc, a, d).getResult();
  case K::CMOD:
    return uns ? arith::RemUIOp::create(b, loc, a, d).getResult() : arith::RemSIOp::create(b, loc, a, d).getResult();
  case K::FLOORDIV:
    return uns ? arith::DivUIOp::create(b, loc, a, d).getResult() : arith::FloorDivSIOp::create(b, loc, a, d).getResult();
  default: {
    if (uns)
      return arith::RemUIOp::create(b, loc, a, d);
    // Python's %: the remainder takes the divisor's sign.
    Value r = arith::RemSIOp::create(b, loc, a, d);
    Value zero = zeroLike(a);
    Value rne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
    Value rneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
    Value bneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, d, zero);
    Value fix = arith::AndIOp::create(b, loc, rne, arith::XOrIOp::create(b, loc, rneg, bneg));
    return arith::SelectOp::create(b, loc, fix, arith::AddIOp::create(b, loc, r, d), r);
  }
  }
}

Value Emitter::guardedShift(UOpRef u, Value x, Value y, bool uns) {
  // C leaves a shift by the width or more undefined (x86's scalar shifts
  // mask the count, its vector shifts give 0), LLVM makes it poison.
  // tinygrad's exec_alu shifts Python ints and truncates: x << y is 0 and
  // x >> y is 0 or -1 (the sign) for y >= the width. A count read as
  // unsigned (a negative one is out of range) selects those answers; bounds
  // within [0, width) emit no guard.
  unsigned w = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
  const Scalar &lo = u->src[1]->vmin(), &hi = u->src[1]->vmax();
  bool inRange = lo.isInt() && hi.isInt() && lo.i >= 0 && hi.i < w;
  bool shl = u->op == K::SHL;
  auto shift = [&](Value by) -> Value {
    if (shl)
      return arith::ShLIOp::create(b, loc, x, by);
    return uns ? arith::ShRUIOp::create(b, loc, x, by).getResult() : arith::ShRSIOp::create(b, loc, x, by).getResult();
  };
  if (inRange)
    return shift(y);
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, y, intLike(y, w));
  if (!shl && !uns) // the sign in every bit: a shift by w - 1
    return shift(arith::SelectOp::create(b, loc, ok, y, intLike(y, w - 1)));
  // select yields the chosen operand only: the other one's poison stays there.
  return arith::SelectOp::create(b, loc, ok, shift(y), zeroLike(x));
}

Value Emitter::divideViaF64(K op, Value a, Value d, bool uns) {
  // x86 has no vector integer divide: LLVM's vectorizers split one into a
  // divide per lane between extracts and inserts (int_truncdiv_fmod: 0.76x
  // tinygrad's scalar loop, 1.25-1.3x through f64, where the loop
  // vectorizer widens the f64 divide). For operands of at most 32 bits the f64 quotient is
  // exact enough to round the same way: its error is below 2^-22/|d|, the
  // gap from a/d to the next integer at least 1/|d|, so truncating
  // (flooring) it gives the integer quotient. The remainder follows as
  // a - q*d. guardedDivision keeps d from 0 and INT_MIN / -1, so the
  // quotient converts in range (no poison from fptosi/fptoui).
  Type ft = shapedLike(a, b.getF64Type());
  auto toF = [&](Value x) -> Value {
    return uns ? arith::UIToFPOp::create(b, loc, ft, x).getResult() : arith::SIToFPOp::create(b, loc, ft, x).getResult();
  };
  Value qf = arith::DivFOp::create(b, loc, toF(a), toF(d));
  bool floor = !uns && (op == K::FLOORDIV || op == K::FLOORMOD);
  if (floor)
    qf = math::FloorOp::create(b, loc, qf);
  Value q = uns ? arith::FPToUIOp::create(b, loc, a.getType(), qf).getResult()
                : arith::FPToSIOp::create(b, loc, a.getType(), qf).getResult();
  if (op == K::CDIV || op == K::FLOORDIV)
    return q;
  return arith::SubIOp::create(b, loc, a, arith::MulIOp::create(b, loc, q, d));
}

Value Emitter::emitNode(UOpRef u) {
  switch (u->op) {
  case K::INDEX:
    return emitLoad(u, u, nullptr);
  case K::LOAD:
    return emitLoad(u, u->src[0], u->src.size() > 1 ? u->src[1] : nullptr);
  case K::CALL:
    return emitCall(u);
  default:
    break;
  }
  // Everything else is one op over the node's lanes, each source
  // broadcast (or permuted) to them.
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  bool ownOperands = u->op == K::PARAM || u->op == K::BUFFER || u->op == K::CONST;
  SmallVector<Value, 3> in;
  promotedIn.clear();
  if (!ownOperands)
    for (UOpRef s : u->src) {
      // A copy: laneShape may grow the map.
      SmallVector<UOpRef, 2> from = laneShape(s);
      const Memo &m = memo.lookup(s);
      in.push_back(broadcastTo(m.v, from, shape));
      promotedIn.push_back(m.promoted ? broadcastTo(m.promoted, from, shape) : Value());
    }
  return emitNodeOp(u, in);
}

Value Emitter::emitNodeOp(UOpRef u, ArrayRef<Value> in) {
  switch (u->op) {
  case K::CONST:
    if (!ty(u->dtype))
      return fail(u, "unsupported dtype");
    return constant(u->val(), u->dtype);
  case K::PARAM: {
    auto it = args.find(u);
    if (it == args.end())
      return fail(u, "PARAM is not a kernel argument");
    return it->second;
  }
  case K::CAST: {
    // C casts an inline 8/16-bit integer expression from its int value.
    bool fromInt = !promotedIn.empty() && promotedIn[0];
    Value x = fromInt ? convert(promotedIn[0], DType::Int32, u->dtype)
                      : convert(in[0], u->src[0]->dtype, u->dtype);
    if (!x)
      return fail(u, Twine("no CPU lowering from ") + getName(u->src[0]->dtype) + " to " + getName(u->dtype));
    return x;
  }
  case K::BITCAST: {
    // Reinterpret the storage bits (half-like values compute in f32).
    DType from = u->src[0]->dtype, to = u->dtype;
    Value x = in[0];
    // A weak int (a literal tinygrad's symbolic folds, random-kernels seed
    // 1859 #9: `BITCAST(0)` to uint32) commits at an int target's width,
    // where the bitcast is the value itself.
    if (isWeak(from) && isInt(from) && isInt(to) && !isWeak(to))
      if (Value v = convert(x, from, to))
        return v;
    Type ft = memoryType(b.getContext(), from), tt = memoryType(b.getContext(), to);
    if (!ft || !tt || from == DType::Bool || to == DType::Bool ||
        ft.getIntOrFloatBitWidth() != tt.getIntOrFloatBitWidth())
      return fail(u, "BITCAST between different widths");
    if (isHalfLike(from))
      x = arith::TruncFOp::create(b, loc, shapedLike(x, ft), x);
    Value r = arith::BitcastOp::create(b, loc, shapedLike(x, tt), x);
    return isHalfLike(to) ? arith::ExtFOp::create(b, loc, shapedLike(r, b.getF32Type()), r).getResult()
                          : r;
  }
  case K::BUFFER:
    return emitLocalBuffer(u);
  case K::SPECIAL:
    return emitSpecial(u);
  case K::EXPAND:
  case K::RESHAPE: {
    // A scalar given a one-element shape (`Tensor(1).unsqueeze(0)` padded
    // and expanded by a variable): the same value, as tinygrad's
    // devectorizer makes an EXPAND of a scalar a STACK of one.
    tg::ValueInfo info = tg::getValueInfo(u->type);
    int64_t n = 1;
    for (int64_t d : info.shape)
      n = d == tg::kDynamic ? -1 : n * d;
    if (n == 1 && in.size() >= 1 && !isa<VectorType>(in[0].getType()))
      return in[0];
    return fail(u, "a movement op left in the kernel (only a one-element " +
                       sym::getOpName(u->op) + " of a scalar lowers)");
  }
  default:
    break;
  }
  if (!sym::isALU(u->op))
    return fail(u, "op has no CPU lowering");
  if (Value p = promotedAlu(u, in))
    return p;
  Value r = alu(u, in);
  return r && isHalfLike(u->dtype) ? roundLikeC(u, r) : r;
}

} // namespace mlir::tinygrad::kernel_emitter
