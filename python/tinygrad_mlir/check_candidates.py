"""TINYGRAD_MLIR_CHECK_CANDIDATES=N: BEAM's candidates for each kernel checked too, not only the kernel run.

A search compiles kernels no program runs by default: the heuristic's opts and one or two more, or one opt on
the bare kernel, where our heuristic's steps that no Opt names (a reduce split into lanes, an operand packed
into a panel, a mask hoisted) are repeated around opts they were not chosen for (opt/ApplyOpts.cpp). A wrong
value there is found only if the search picks that candidate. With TINYGRAD_MLIR_CHECK on, this compiles N such
candidates of each kernel (tinygrad's own action list, search.py's `actions`, those the CPU takes: UPCAST,
UNROLL, THREAD), deterministically per AST, and every launch of the kernel also runs each candidate on copies of
the inputs and compares its outputs twice: with tinygrad's own C under the candidate's opts, wherever tinygrad's
codegen takes them (the opts decide which values tinygrad's devectorized C names, so rounds or wraps, and a
candidate must give those values: seed 2238 #88, a half product rounded under UPCAST 1 4 that tinygrad's C compares
unrounded, showed up only there), and with the kernel run (ours, itself compared with tinygrad's). Both by one
rule, since the steps our heuristic takes without an Opt, repeated around the candidate's opts, reorder its sums
against either: integers exactly, floats within 1e-5 of each output's largest magnitude (TINYGRAD_MLIR_CHECK=
scaled's rule, in every mode), leaving out what the order decides: 16-bit floats' tolerance where the kernel
computes in them, finite values only (a sum of infinities is inf or NaN by its order: seed 2258 #47), and no
kernel that bitcasts a float (every bit of a sum moves with its order). A candidate that gives tinygrad's values
under its opts and differs from our kernel is tinygrad's own difference between the two opts (seed 2266 #46,
edge values in a half conv): counted and logged, not a mismatch. A candidate opt that does not apply
is dropped as BEAM drops it (apply_opts' KernelOptError), and one whose UPCAST and UNROLL amounts alone
multiply past BEAM_UPCAST_MAX (256) is not formed, as BEAM forms none past it (get_kernel_actions; their lanes
are at least that product, an amount of 0 being the whole axis); a candidate that fails otherwise is a
rejection (stats["failed"]).
"""
import dataclasses
import os
import random

from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.codegen.opt.search import actions

# search.py's actions the CPU applies (LOCAL/GROUP/GROUPTOP/TC/SWAP raise KernelOptError on its renderer)
CPU_ACTIONS = [a for a in actions if a.op in (OptOps.UPCAST, OptOps.UNROLL, OptOps.THREAD)]


def wanted():
    """How many candidates per kernel TINYGRAD_MLIR_CHECK_CANDIDATES asks for (0: none)."""
    try:
        return max(0, int(os.environ.get("TINYGRAD_MLIR_CHECK_CANDIDATES", "0") or 0))
    except ValueError:
        return 0


def comparable(ast):
    """Whether a candidate's outputs can be compared with the kernel's: not where a float is bitcast (to an
    int's bytes), whose every bit a sum's order moves (seed 2174 #82: a 1-ulp different sum, one byte 64 vs
    65). Those kernels are still compared with tinygrad's by the main check."""
    from tinygrad.dtype import dtypes
    from tinygrad.uop.ops import Ops
    return not any(u.op is Ops.BITCAST and dtypes.is_float(getattr(u.src[0].dtype, "base", u.src[0].dtype))
                   for u in ast.toposort())


def candidate_opts(rng, applied):
    """One candidate's opts: as BEAM's rounds build them, one opt on the bare kernel (its first round from the
    kernel without opts), or the heuristic's opts (its seed) and one or two more."""
    kind = rng.randrange(3)
    base = [] if kind == 0 else list(applied)
    return base + [rng.choice(CPU_ACTIONS) for _ in range(2 if kind == 2 else 1)]


def beyond_beam_upcast(opts):
    """Whether BEAM never forms a kernel with these opts: their UPCAST and UNROLL amounts alone multiply past
    its BEAM_UPCAST_MAX (search.py's get_kernel_actions drops every such kernel). An amount of 0 (the whole
    axis) counts 1 here, the axis's size being the kernel's: refused_past_lane_bound sees the rest."""
    up = 1
    for o in opts:
        if o.op in (OptOps.UPCAST, OptOps.UNROLL) and o.arg:
            up *= o.arg
    return up > int(os.environ.get("BEAM_UPCAST_MAX", "256") or 256)


LANE_BOUND_REFUSAL = "lanes (its UPCAST and UNROLL axes), over the"


def refused_past_lane_bound(e):
    """Whether a candidate's compile error is our refusal of a value wider than a vector may be (16384 lanes,
    KernelEmitter's maxValueLanes). A candidate's lanes are its opts' upcasts and unrolls, and our heuristic's
    steps only where they keep it within BEAM_UPCAST_MAX and the heuristic's own kernel (ApplyOpts.cpp): so
    such opts are past BEAM's bound by themselves, whole axes counted (seed 2268 #12: a conv's heuristic
    opts, 1280 lanes, and UNROLL 0 0 of its 32 channels, 40960), and BEAM never forms the kernel."""
    return LANE_BOUND_REFUSAL in (getattr(e, "detail", None) or "")


def compile_candidates(ast, applied, n, compile_ast, is_opt_error):
    """[(opts, PROGRAM)] of up to n candidates of the kernel `ast` whose heuristic applied `applied` (tinygrad
    Opts), each compiled by compile_ast(ast with opts_to_apply). Candidates whose opts do not apply
    (is_opt_error(exception)) or are past BEAM's lane bound (refused_past_lane_bound) are dropped; any other
    failure raises."""
    rng = random.Random(f"{os.environ.get('TINYGRAD_MLIR_CHECK_CANDIDATES_SEED', '0')}:{ast.key.hex()}")
    out, seen = [], {tuple(applied)}
    for _ in range(8 * n):
        if len(out) >= n:
            break
        opts = tuple(candidate_opts(rng, applied))
        if opts in seen or beyond_beam_upcast(opts):
            continue
        seen.add(opts)
        try:
            out.append((opts, compile_ast(ast.replace(arg=dataclasses.replace(ast.arg, opts_to_apply=opts)))))
        except Exception as e:
            if not (is_opt_error(e) or refused_past_lane_bound(e)):
                raise
    return out


def opts_of(res):
    """The heuristic's applied opts in a compile result, as tinygrad Opts."""
    return [Opt(getattr(OptOps, o["op"]), o["axis"], o["arg"]) for o in res.get("uops", {}).get("applied_opts", [])]
