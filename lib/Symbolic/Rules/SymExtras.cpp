//===- SymExtras.cpp - the rules of `sym` (tinygrad/uop/symbolic.py) ------===//
//
// `sym = symbolic + pm_simplify_valid + [these] + pm_clean_up_group_sink`:
// STACK/ALU reorder, cast into where, pow, load/store folding, reciprocal
// forms, reduce rules, term combining; and pm_clean_up_group_sink.
//
//===----------------------------------------------------------------------===//
#include "Valid.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include <limits>

namespace mlir::tinygrad::sym::rules {
namespace {

UOpRef noop(Context &ctx) { return ctx.get(Op::NOOP, ctx.typeFor(DType::Void), {}); }
UOpRef recip(Context &ctx, UOpRef x) { return ctx.alu(Op::RECIPROCAL, {x}); }
/// `1 - d`.
UOpRef oneMinus(Context &ctx, UOpRef d) { return py::sub(ctx, py::ic(ctx, 1), d); }

/// The REDUCE arg (kind, n).
std::optional<std::pair<tg::ReduceKind, int64_t>> reduceArg(UOpRef r) {
  if (!r->arg.attrs)
    return std::nullopt;
  auto k = dyn_cast_or_null<tg::ReduceKindAttr>(r->arg.attrs.get("kind"));
  if (!k)
    return std::nullopt;
  int64_t n = 0;
  if (auto na = dyn_cast_or_null<IntegerAttr>(r->arg.attrs.get("n")))
    n = na.getInt();
  return std::make_pair(k.getValue(), n);
}
/// `arg=(Ops.ADD, 0)` on a REDUCE.
bool isReduceAdd(UOpRef r) {
  auto arg = reduceArg(r);
  return arg && arg->first == tg::ReduceKind::Add && arg->second == 0;
}

/// codegen/decomp/transcendental.py's xpow.
UOpRef xpow(Context &ctx, UOpRef base, UOpRef exponent) {
  auto ltz = [&](UOpRef x) { return py::binopI(ctx, Op::CMPLT, x, 0); };
  auto constLikeF = [&](UOpRef x, double v) { return ctx.constLike(x, Scalar::fromFloat(v)); };
  // b ** e = exp2(e * log2(|b|))
  UOpRef absBase = py::where(ctx, ltz(base), py::neg(ctx, base), base);
  UOpRef ret = ctx.alu(Op::EXP2, {py::binop(ctx, Op::MUL, ctx.alu(Op::LOG2, {absBase}), exponent)});
  UOpRef nonInt = py::binop(ctx, Op::CMPNE, exponent,
                      py::cast(ctx, py::cast(ctx, exponent, DType::Int32), exponent->dtype));
  UOpRef absExp = py::where(ctx, ltz(exponent), py::neg(ctx, exponent), exponent);
  UOpRef isOdd = py::cast(ctx, py::binopI(ctx, Op::FLOORMOD, py::cast(ctx, absExp, DType::Int32), 2),
                        DType::Bool);
  UOpRef negInf = py::lit(ctx, Scalar::fromFloat(-std::numeric_limits<double>::infinity()));
  UOpRef negBase = py::where(
      ctx, nonInt,
      py::where(ctx, py::binop(ctx, Op::CMPNE, base, negInf),
             constLikeF(ret, std::numeric_limits<double>::quiet_NaN()), ret),
      py::where(ctx, isOdd, py::neg(ctx, ret), ret));
  // x ** 0 = 1
  UOpRef isZero = ctx.logicalNot(py::cast(ctx, py::binopI(ctx, Op::CMPNE, exponent, 0), DType::Bool));
  return py::where(ctx, isZero, ctx.constLike(ret, 1), py::where(ctx, ltz(base), negBase, ret));
}

/// `UOp.store(index.src[0].index(index.src[1].valid(gate)), val)`; the new
/// INDEX and STORE keep the old nodes' types and args.
UOpRef gatedStore(pat::Match &m, Name gate, Name val) {
  Context &ctx = m.ctx;
  UOpRef index = m[n::index];
  UOpRef w = py::valid(ctx, index->src[1], m[gate]);
  UOpRef newIndex = ctx.get(Op::INDEX, index->type, {index->src[0], w}, index->arg);
  return ctx.get(Op::STORE, m.root->type, {newIndex, m[val]}, m.root->arg);
}

UOpRef reduceMulChain(pat::Match &m) {
  Context &ctx = m.ctx;
  UOpRef r = m[n::r];
  auto arg = reduceArg(r);
  if (!arg || (arg->first != tg::ReduceKind::Add && arg->first != tg::ReduceKind::Max))
    return nullptr;
  if (r->dtype != r->src[0]->dtype)
    return nullptr;
  llvm::ArrayRef<UOpRef> rngs = r->src.drop_front();
  bool isMax = arg->first == tg::ReduceKind::Max;
  llvm::SmallVector<UOpRef, 4> inside, outside;
  for (UOpRef mu : split(ctx, r->src[0], Op::MUL)) {
    bool out = !llvm::is_contained(rngs, mu) &&
               llvm::all_of(rngs, [&](UOpRef rr) { return !ctx.inBackwardSlice(rr, mu); }) &&
               (!isMax || compareScalar(mu->vmin(), Scalar::fromInt(0)) >= 0);
    (out ? outside : inside).push_back(mu);
  }
  if (outside.empty())
    return nullptr;
  llvm::SmallVector<UOpRef, 4> src{inside.empty() ? ctx.constLike(r->src[0], 1)
                                                  : py::prod(ctx, inside)};
  src.append(rngs.begin(), rngs.end());
  return py::binop(ctx, Op::MUL, ctx.replaceSrc(r, src), py::prod(ctx, outside));
}

/// `x.reciprocal()` on a pattern.
/// `(1+UPat.var("x")).reciprocal().named("d")`.
Pat recipOnePlusX() { return reciprocal(cnum(1) + var(n::x)).named(n::d); }

} // namespace

std::vector<pat::Rule> symRules() {
  return {
      // reorder ALU/STACK
      {"alu_of_broadcasts",
       up(aluOps(), {upRepeat(Op::STACK, var(n::x)), upRepeat(Op::STACK, var(n::y))}, n::alu),
       [](pat::Match &m) -> UOpRef {
         if (!m[n::x] || !m[n::y]) // STACK() binds nothing
           return nullptr;
         return m.ctx.stack({m.ctx.alu(m[n::alu]->op, {m[n::x], m[n::y]})});
       }},
      // ** where **
      // push cast to branches
      {"cast_into_where", var(n::s).where(var(n::a), var(n::b)).cast().named(n::cast),
       [](pat::Match &m) {
         DType dt = m[n::cast]->dtype;
         auto commit = [&](UOpRef u) {
           return u->op == Op::CONST ? m.ctx.cnst(u->val(), dt) : py::cast(m.ctx, u, dt);
         };
         return py::where(m.ctx, m[n::s], commit(m[n::a]), commit(m[n::b]));
       }},
      // ** pow **
      {"xpow", up(Op::POW, {var(n::x), var(n::y)}),
       [](pat::Match &m) { return xpow(m.ctx, m[n::x], m[n::y]); }},
      // ** load/store folding **
      {"store_of_own_load", op(Op::INDEX, n::index).store({op(Op::INDEX, n::index).load()}),
       [](pat::Match &m) { return noop(m.ctx); }},
      {"store_where_own_load",
       op(Op::INDEX, n::index).store({var(n::gate).where(var(n::alt), op(Op::INDEX, n::index).load())}),
       [](pat::Match &m) { return gatedStore(m, n::gate, n::alt); }},
      // fold gated LOAD/STORE
      {"store_invalid", up(Op::STORE, {var(), invalidPat()}),
       [](pat::Match &m) { return noop(m.ctx); }},
      // store of where with invalid -> gated store
      {"store_where_invalid",
       up(Op::STORE, {op(Op::INDEX, n::index), var(n::cond).where(var(n::val), invalidPat())}),
       [](pat::Match &m) { return gatedStore(m, n::cond, n::val); }},
      // 1/(x^c) -> (1/x)^c
      {"recip_square", reciprocal(var(n::x) * var(n::x)),
       [](pat::Match &m) {
         UOpRef rx = recip(m.ctx, m[n::x]);
         return py::binop(m.ctx, Op::MUL, rx, rx);
       }},
      {"recip_cube", reciprocal(var(n::x) * var(n::x) * var(n::x)),
       [](pat::Match &m) {
         UOpRef rx = recip(m.ctx, m[n::x]);
         return py::binop(m.ctx, Op::MUL, py::binop(m.ctx, Op::MUL, rx, rx), rx);
       }},
      // 1/(x*c) -> (1/c)*(1/x)
      {"recip_mul_const", reciprocal(var(n::x) * cvar(n::c)),
       [](pat::Match &m) {
         return py::binop(m.ctx, Op::MUL, recip(m.ctx, m[n::x]), recip(m.ctx, m[n::c]));
       }},
      // x*/(1+x) -> 1-1/(1+x)
      {"x_over_one_plus_x", var(n::x) * recipOnePlusX(),
       [](pat::Match &m) { return oneMinus(m.ctx, m[n::d]); }},
      {"x_over_one_plus_x_mul", var(n::x) * (recipOnePlusX() * var(n::y)),
       [](pat::Match &m) { return py::binop(m.ctx, Op::MUL, m[n::y], oneMinus(m.ctx, m[n::d])); }},
      {"x_over_one_plus_x_add", var(n::x) * (recipOnePlusX() + var(n::y)),
       [](pat::Match &m) {
         return py::binop(m.ctx, Op::ADD, oneMinus(m.ctx, m[n::d]),
                          py::binop(m.ctx, Op::MUL, m[n::x], m[n::y]));
       }},
      // move const multiply after REDUCE
      {"reduce_add_const_mul",
       up(Op::REDUCE, {var(n::x) * cvar(n::c)}, n::r).withArgIf(isReduceAdd).allowAnyLen(),
       [](pat::Match &m) -> UOpRef {
         UOpRef r = m[n::r], c = m[n::c];
         if (c->isInvalid())
           return nullptr;
         llvm::SmallVector<UOpRef, 4> src{m[n::x]};
         src.append(r->src.begin() + 1, r->src.end());
         return py::binop(m.ctx, Op::MUL, m.ctx.replaceSrc(r, src), py::lit(m.ctx, c->val()));
       }},
      // reduce mul chain, move muls after the reduce
      {"reduce_mul_chain", up(Op::REDUCE, {op(Op::MUL)}, n::r).allowAnyLen(), reduceMulChain},
      // ** combine terms (opinionated) **
      // -(x+y) -> -x + -y
      {"neg_of_sum", cnum(-1) * (var(n::x) + var(n::y)),
       [](pat::Match &m) {
         return py::binop(m.ctx, Op::ADD, py::neg(m.ctx, m[n::x]), py::neg(m.ctx, m[n::y]));
       }},
      // (x+y)*c -> x*c+y*c. only for int, float has inf*0=nan issue
      {"distribute_const", (var(n::x, DType::WeakInt) + var(n::y)) * cvar(n::c),
       [](pat::Match &m) {
         Context &ctx = m.ctx;
         UOpRef c = m[n::c];
         return py::binop(ctx, Op::ADD, py::binop(ctx, Op::MUL, m[n::x], c),
                          py::binop(ctx, Op::MUL, m[n::y], c));
       }},
  };
}

//===----------------------------------------------------------------------===//
// pm_clean_up_group_sink
//===----------------------------------------------------------------------===//

static bool removeFromSinkLike(UOpRef x) {
  return x->op == Op::NOOP || x->op == Op::STACK || x->op == Op::SINK || x->op == Op::GROUP;
}

std::vector<pat::Rule> cleanUpGroupSinkRules() {
  return {
      // clean up GROUP/SINK
      {"group_single", up(Op::GROUP, {var(n::x)}), to(n::x)},
      {"flatten_sink_group", op({Op::SINK, Op::GROUP}, n::root),
       [](pat::Match &m) -> UOpRef {
         UOpRef root = m[n::root];
         if (!llvm::any_of(root->src, removeFromSinkLike))
           return nullptr;
         llvm::SmallVector<UOpRef, 8> src;
         for (UOpRef x : root->src) {
           if (removeFromSinkLike(x))
             src.append(x->src.begin(), x->src.end());
           else
             src.push_back(x);
         }
         return m.ctx.get(root->op, root->type, src, root->arg);
       }},
  };
}

} // namespace mlir::tinygrad::sym::rules

mlir::tinygrad::sym::UOpRef mlir::tinygrad::sym::powToExp2Log2(Context &ctx, UOpRef base,
                                                              UOpRef exponent) {
  return rules::xpow(ctx, base, exponent);
}
