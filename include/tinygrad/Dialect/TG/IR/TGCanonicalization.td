//===- TGCanonicalization.td - tinygrad local algebra (DRR) -*- tablegen -*-===//
//
// MLIR-native canonicalization patterns for the tg dialect: the local,
// identity-based rules of tinygrad's `symbolic_simple`
// (tinygrad/uop/symbolic.py), so that `--canonicalize` applies them to MLIR
// graphs directly. The full symbolic engine (range analysis, divmod folding,
// ...) stays in lib/Symbolic behind `--tg-symbolic`.
//
// Conventions:
//  * Constant evaluation is NOT here: the ALU/CAST folders already do it with
//    tinygrad's exact scalar semantics (ALUFolding.cpp, TGOps.cpp). CAST and
//    BITCAST to the operand's own (strong) dtype are folded by their folders.
//  * Commutative ops (ADD MUL MAX CMPNE CMPEQ XOR OR AND) have their constant
//    operands moved to the right by MLIR's Commutative trait folding before
//    patterns run, so one operand order suffices for `x op CONST`. Patterns
//    that match two non-constant operands list the orders explicitly.
//  * A pattern that replaces the op with an existing value requires that
//    value to have exactly the op's result type (dtype, shape, addrspace):
//    weak/strong promotion and broadcasting may make them differ.
//  * A pattern that builds a CONST needs a scalar result (a CONST is always
//    scalar) and builds it with the result's dtype (tinygrad's const_like;
//    0 of a bool is False, 1 of a bool is True).
//  * tinygrad's `UPat.const(v)` matches a CONST whose arg == v in Python, so
//    0 also matches 0.0, -0.0 and False, and 1 matches 1.0 and True
//    (`constEquals` in TGCanonicalize.cpp).
//
// Semantic guards (where this file is stricter than tinygrad, on purpose):
//  * x+0 on floats only folds x + -0.0 (x + +0.0 is -0.0 -> +0.0 otherwise).
//  * x != x only for ints/bool (nan != nan is true).
//  * no x*0 -> 0 (nan/inf), no x-x, no x/x: not ported.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGCANONICALIZATION_TD
#define TINYGRAD_DIALECT_TG_IR_TGCANONICALIZATION_TD

include "mlir/IR/PatternBase.td"
include "tinygrad/Dialect/TG/IR/TGOps.td"

//===----------------------------------------------------------------------===//
// Constraints and builders (helpers live in TGCanonicalize.cpp)
//===----------------------------------------------------------------------===//

// The value of a tg.const, compared like tinygrad's UPat.const(v).
class TG_ConstEq<int v> : AttrConstraint<
    CPred<"constEquals($_self, " # v # ")">, "a CONST equal to " # v>;
def TG_Zero : TG_ConstEq<0>;
def TG_One : TG_ConstEq<1>;
def TG_MinusOne : TG_ConstEq<-1>;
def TG_True : AttrConstraint<CPred<"isBoolConst($_self, true)">, "True">;
def TG_False : AttrConstraint<CPred<"isBoolConst($_self, false)">, "False">;

// The value, as the result of the op it replaces, keeps its type.
def TG_SameType : Constraint<CPred<"$0.getType() == $1.getType()">,
                             "values of the same type">;
// A CONST can stand for this value: it is a scalar.
def TG_Scalar : Constraint<CPred<"isScalarValue($0)">, "a scalar value">;
// dtypes.ints (weakint included).
def TG_Int : Constraint<CPred<"isIntDType($0.getType())">, "an int value">;
def TG_Bool : Constraint<CPred<"isBoolType($0.getType())">, "a bool value">;
// dtypes.ints + (dtypes.bool, dtypes.weakint).
def TG_IntOrBool : Constraint<
    CPred<"isIntDType($0.getType()) || isBoolType($0.getType())">,
    "an int or bool value">;
// For floats only -0.0 is an additive identity; every zero is for ints/bool.
def TG_AddIdentity : Constraint<
    CPred<"isAddIdentity($0.getType(), $1)">, "an additive identity for x">;

// x.const_like(v) for the op being replaced: a CONST of its result type.
class TG_ConstLike<int v> : NativeCodeCall<
    "buildConstLike($_builder, $_loc, $0.getType(), " # v # ")">;
// A Python int in a result (`x * -1`): a weakint CONST; promotion gives the
// ALU op x's dtype.
class TG_WeakIntConst<int v> : NativeCodeCall<
    "buildConstLike($_builder, $_loc, ::mlir::tinygrad::tg::getTypeForDType("
    "$_builder.getContext(), ::mlir::tinygrad::DType::WeakInt), " # v # ")">;
// A scalar CONST of $0's dtype (broadcasts against $0 in an ALU op).
class TG_ScalarConstLike<int v> : NativeCodeCall<
    "buildConstLike($_builder, $_loc, "
    "::mlir::tinygrad::tg::getElementTypeOrSelf($0.getType()), "
    # v # ")">;

//===----------------------------------------------------------------------===//
// ** self folding **
//===----------------------------------------------------------------------===//

// (UPat({Ops.ADD, Ops.XOR, Ops.OR}, src=[UPat.var("x"), UPat.const(0)]),
//  lambda x: x)  # x+0 / x^0 / x|0 -> x
// ADD also applies to floats: there only -0.0 is an identity (guard).
def AddZero : Pat<(TG_AddOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                  (replaceWithValue $x),
                  [(TG_SameType $res, $x), (TG_AddIdentity $x, $v)]>;
// XOR/OR are ints/bool only (the verifier rejects floats). Also covers the
// bool rule `x | False -> x`.
def XorZero : Pat<(TG_XorOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                  (replaceWithValue $x), [(TG_SameType $res, $x)]>;
def OrZero : Pat<(TG_OrOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                 (replaceWithValue $x), [(TG_SameType $res, $x)]>;

// (UPat({Ops.SHL, Ops.SHR}, src=(UPat.var("x"), UPat.const(0))), lambda x: x)
def ShlZero : Pat<(TG_ShlOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                  (replaceWithValue $x), [(TG_SameType $res, $x)]>;
def ShrZero : Pat<(TG_ShrOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                  (replaceWithValue $x), [(TG_SameType $res, $x)]>;

// (UPat.var("x") * 1, lambda x: x)  # x*1 -> x
// Exact for every dtype (floats: x*1.0 == x incl. -0.0/nan/inf; bool: AND).
def MulOne : Pat<(TG_MulOp:$res $x, (TG_ConstOp TG_One:$v)),
                 (replaceWithValue $x), [(TG_SameType $res, $x)]>;

// (UPat.var("x") // UPat.var("x"), lambda x: x.const_like(1))  # x//x -> 1
// FLOORDIV is int-only. NOTE: like tinygrad this also maps 0//0 (= 0 in
// exec_alu) to 1.
def FloorDivSelf : Pat<(TG_FloorDivOp:$res $x, $x),
                       (TG_ConstLike<1> $res),
                       [(TG_Int $res), (TG_Scalar $res)]>;

// (UPat.var("x") // 1, lambda x: x)  # x//1 -> x
def FloorDivOne : Pat<(TG_FloorDivOp:$res $x, (TG_ConstOp TG_One:$v)),
                      (replaceWithValue $x),
                      [(TG_SameType $res, $x), (TG_Int $x)]>;

// (UPat.var("x") // -1, lambda x: -x)  # x//-1 -> -x
// For non-bool dtypes tinygrad's -x is x*(-1) (MathMixin.neg); the -1 is a
// Python int, so a weakint CONST (found by the DRR/engine consistency test).
def FloorDivMinusOne : Pat<(TG_FloorDivOp:$res $x, (TG_ConstOp TG_MinusOne:$v)),
                           (TG_MulOp $x, (TG_WeakIntConst<-1>)),
                           [(TG_SameType $res, $x), (TG_Int $x)]>;

// ((UPat.var("x") ^ UPat.var("y")) ^ UPat.var("y"), lambda x,y: x)
// XOR is commutative, so tinygrad matches every operand order of both XORs.
def XorXorY0 : Pat<(TG_XorOp:$res (TG_XorOp $x, $y), $y),
                   (replaceWithValue $x), [(TG_SameType $res, $x)]>;
def XorXorY1 : Pat<(TG_XorOp:$res (TG_XorOp $y, $x), $y),
                   (replaceWithValue $x), [(TG_SameType $res, $x)]>;
def XorXorY2 : Pat<(TG_XorOp:$res $y, (TG_XorOp $x, $y)),
                   (replaceWithValue $x), [(TG_SameType $res, $x)]>;
def XorXorY3 : Pat<(TG_XorOp:$res $y, (TG_XorOp $y, $x)),
                   (replaceWithValue $x), [(TG_SameType $res, $x)]>;

// ((UPat.var() % UPat.var("y")).named("base") % UPat.var("y"),
//  lambda base,y: base)  # (x%y)%y -> x%y
// `%` is FLOORMOD (ints): |x%y| < |y| with y's sign, so a second % is a noop.
def ModModY : Pat<(TG_FloorModOp:$res (TG_FloorModOp:$base $x, $y), $y),
                  (replaceWithValue $base), [(TG_SameType $res, $base)]>;

// (UPat.var("x", dtype=dtypes.bool) & UPat.cvar("c"),
//  lambda x,c: x if c.val else c)
// The False half is `x&0 -> 0` below.
def BoolAndTrue : Pat<(TG_AndOp:$res $x, (TG_ConstOp TG_True:$v)),
                      (replaceWithValue $x),
                      [(TG_SameType $res, $x), (TG_Bool $x)]>;

// (UPat.var("x", dtype=dtypes.bool) | UPat.cvar("c"),
//  lambda x,c: c if c.val else x)
// The False half is `x|0 -> x` above.
def BoolOrTrue : Pat<(TG_OrOp:$res $x, (TG_ConstOp:$c TG_True:$v)),
                     (replaceWithValue $c),
                     [(TG_SameType $res, $c), (TG_Bool $x)]>;

// (UPat.var("x", dtype=dtypes.bool) != UPat.const(False, dtypes.bool),
//  lambda x: x)  # x != False -> x
def BoolNeFalse : Pat<(TG_CmpNeOp:$res $x, (TG_ConstOp TG_False:$v)),
                      (replaceWithValue $x),
                      [(TG_SameType $res, $x), (TG_Bool $x)]>;

// (UPat(GroupOp.Idempotent, src=(UPat.var("x"), UPat.var("x"))),
//  lambda x: x)  # x|x, x&x, max(x,x) -> x
def OrSelf : Pat<(TG_OrOp:$res $x, $x), (replaceWithValue $x),
                 [(TG_SameType $res, $x)]>;
def AndSelf : Pat<(TG_AndOp:$res $x, $x), (replaceWithValue $x),
                  [(TG_SameType $res, $x)]>;
def MaxSelf : Pat<(TG_MaxOp:$res $x, $x), (replaceWithValue $x),
                  [(TG_SameType $res, $x)]>;

// (UPat.var("x", dtype=dtypes.bool).logical_not().logical_not(),
//  lambda x: x)  # !!x -> x
// logical_not() of a bool is x.ne(True); CMPNE is commutative, so the True
// CONST sits on the right.
def BoolNotNot : Pat<(TG_CmpNeOp:$res (TG_CmpNeOp $x, (TG_ConstOp TG_True:$a)),
                                      (TG_ConstOp TG_True:$b)),
                     (replaceWithValue $x),
                     [(TG_SameType $res, $x), (TG_Bool $x)]>;

// (UPat.var("x", dtype=dtypes.bool).where(UPat.const(True, dtypes.bool),
//  UPat.const(False, dtypes.bool)), lambda x: x)
def WhereTrueFalse : Pat<(TG_WhereOp:$res $x, (TG_ConstOp TG_True:$t),
                                              (TG_ConstOp TG_False:$f)),
                         (replaceWithValue $x),
                         [(TG_SameType $res, $x), (TG_Bool $x)]>;

// (UPat.var("x", dtype=dtypes.bool).where(UPat.const(False, dtypes.bool),
//  UPat.const(True, dtypes.bool)), lambda x: x.logical_not())
// logical_not() is x != True; the True CONST is reused.
def WhereFalseTrue : Pat<(TG_WhereOp:$res $x, (TG_ConstOp TG_False:$f),
                                              (TG_ConstOp:$t TG_True:$tv)),
                         (TG_CmpNeOp $x, $t),
                         [(TG_SameType $res, $x), (TG_Bool $x)]>;

// (UPat.var("x", dtype=dtypes.ints+(dtypes.bool, dtypes.weakint)).trunc(),
//  lambda x: x)
def TruncInt : Pat<(TG_TruncOp:$res $x), (replaceWithValue $x),
                   [(TG_SameType $res, $x), (TG_IntOrBool $x)]>;

//===----------------------------------------------------------------------===//
// ** zero folding **
//===----------------------------------------------------------------------===//

// (UPat.var("x") < UPat.var("x"),
//  lambda x: x.const_like(False, dtypes.bool))  # x < x -> False
// Valid for floats too (nan < nan is False).
def LtSelf : Pat<(TG_CmpLtOp:$res $x, $x), (TG_ConstLike<0> $res),
                 [(TG_Scalar $res)]>;

// (UPat.var("x") % UPat.var("x"), lambda x: x.const_like(0))  # x%x -> 0
// FLOORMOD is int-only; 0%0 is 0 in exec_alu as well.
def ModSelf : Pat<(TG_FloorModOp:$res $x, $x), (TG_ConstLike<0> $res),
                  [(TG_Int $res), (TG_Scalar $res)]>;

// (UPat.var("x") ^ UPat.var("x"), lambda x: x.const_like(0))  # x^x -> 0
// Ints and bool (False).
def XorSelf : Pat<(TG_XorOp:$res $x, $x), (TG_ConstLike<0> $res),
                  [(TG_IntOrBool $res), (TG_Scalar $res)]>;

// (UPat.var("x") & 0, lambda x: x.const_like(0))  # x&0 -> 0
// Also the bool rule `x & False -> False`. The CONST takes the result type
// (x's dtype promoted with the 0's, which is x's unless x is weak).
def AndZero : Pat<(TG_AndOp:$res $x, (TG_ConstOp TG_Zero:$v)),
                  (TG_ConstLike<0> $res),
                  [(TG_IntOrBool $res), (TG_Scalar $res)]>;

// (UPat.var("x", dtype=dtypes.ints+(dtypes.bool, dtypes.weakint))
//  != UPat.var("x"), lambda x: x.const_like(False, dtypes.bool))
// Not for floats: nan != nan is True.
def NeSelf : Pat<(TG_CmpNeOp:$res $x, $x), (TG_ConstLike<0> $res),
                 [(TG_IntOrBool $x), (TG_Scalar $res)]>;

//===----------------------------------------------------------------------===//
// bool MUL/ADD/MAX
//===----------------------------------------------------------------------===//

// (UPat.var('x', dtype=dtypes.bool) * UPat.var('y', dtype=dtypes.bool),
//  lambda x,y: x&y)  # bool MUL is AND
def BoolMulToAnd : Pat<(TG_MulOp:$res $x, $y), (TG_AndOp $x, $y),
                       [(TG_Bool $x), (TG_Bool $y)]>;
// (UPat.var('x', dtype=dtypes.bool) + UPat.var('y', dtype=dtypes.bool),
//  lambda x,y: x|y)  # bool ADD is OR
def BoolAddToOr : Pat<(TG_AddOp:$res $x, $y), (TG_OrOp $x, $y),
                      [(TG_Bool $x), (TG_Bool $y)]>;
// (UPat.var('x', dtype=dtypes.bool).maximum(UPat.var('y', dtype=dtypes.bool)),
//  lambda x,y: x|y)  # bool MAX is OR
def BoolMaxToOr : Pat<(TG_MaxOp:$res $x, $y), (TG_OrOp $x, $y),
                      [(TG_Bool $x), (TG_Bool $y)]>;

//===----------------------------------------------------------------------===//
// ** simple where folding **
//===----------------------------------------------------------------------===//

// (UPat.var().where(UPat.var("val"), UPat.var("val")), lambda val: val)
def WhereSame : Pat<(TG_WhereOp:$res $c, $v, $v), (replaceWithValue $v),
                    [(TG_SameType $res, $v)]>;

// (UPat.cvar("gate").where(UPat.var("c0"), UPat.var("c1")).named("w"),
//  fold_const_where)  # c0 if gate.val else c1
// fold_const_where also commits a weak CONST branch to a strong result
// dtype; here the chosen branch must already have the result type (the
// all-CONST case is the WHERE folder's).
def WhereTrueCond : Pat<(TG_WhereOp:$res (TG_ConstOp TG_True:$g), $t, $f),
                        (replaceWithValue $t), [(TG_SameType $res, $t)]>;
def WhereFalseCond : Pat<(TG_WhereOp:$res (TG_ConstOp TG_False:$g), $t, $f),
                         (replaceWithValue $f), [(TG_SameType $res, $f)]>;

#endif // TINYGRAD_DIALECT_TG_IR_TGCANONICALIZATION_TD
