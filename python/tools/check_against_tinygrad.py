"""Cross-check uop_to_json against the real tinygrad (not part of the unittest suite).

Rebuilds live tinygrad UOps from corpus graphs, then checks that
  1. repr(rebuilt) equals the repr tinygrad stored next to the graph (when there is one), which
     shows the rebuild is faithful independently of our exporter, and
  2. uop_to_json(rebuilt) reproduces the corpus graph exactly (same JSON text, node for node).

Run with the tinygrad checkout on the path, e.g.
  cd /work/tinygrad-src && python3 /work/main/python/tools/check_against_tinygrad.py [--limit N]
"""
import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # python/ for tinygrad_mlir
sys.path.insert(0, os.getcwd())            # the tinygrad checkout when run from it

from tinygrad.uop.ops import UOp, Ops, AxisType, ParamArg, KernelInfo, CallInfo  # noqa: E402
from tinygrad.dtype import dtypes, AddrSpace, Invalid, ConstFloat  # noqa: E402
from tinygrad.codegen.opt import Opt, OptOps  # noqa: E402
from tinygrad.renderer import Estimates  # noqa: E402
from tinygrad.schedule.indexing import BufferizeOpts  # noqa: E402
from tinygrad_mlir.uop_json import uop_to_json, find_graphs  # noqa: E402

FLOAT_SPECIAL = {"inf": float("inf"), "-inf": float("-inf"), "nan": float("nan"),
                 "-nan": -float("nan"), "-0.0": -0.0}
ENUMS = {"Ops": Ops, "AxisType": AxisType, "AddrSpace": AddrSpace, "OptOps": OptOps}


def dev(d):
    return tuple(d) if isinstance(d, list) else d


def dec(v, const_float=False):
    """Inverse of the arg encoding, producing real tinygrad objects."""
    if isinstance(v, list):
        return tuple(dec(e) for e in v)
    if not isinstance(v, dict):
        return v
    k = v["kind"]
    if k == "float":
        x = v["value"]
        x = FLOAT_SPECIAL[x] if isinstance(x, str) else float(x)
        # CONST args are ConstFloat in tinygrad (dtype.const wraps them); hash-consing depends on it
        return ConstFloat(x) if const_float else x
    if k in ENUMS:
        return ENUMS[k][v["name"]]
    if k == "Invalid":
        return Invalid
    if k == "DType":
        return getattr(dtypes, v["name"])
    if k == "bytes":
        return bytes.fromhex(v["hex"])
    if k == "UOp":
        return build(v["graph"])
    if k == "ParamArg":
        vv = v["vmin_vmax"]
        return ParamArg(v["slot"], getattr(dtypes, v["dtype"]), None if vv is None else tuple(dec(e) for e in vv),
                        v["multiple_of"], v["name"], None if v["addrspace"] is None else AddrSpace[v["addrspace"]],
                        v["axis"], dev(v["device"]), v["volatile"])
    if k == "Opt":
        return Opt(OptOps[v["op"]], v["axis"], dec(v["arg"]))
    if k == "Estimates":
        return Estimates(dec(v["ops"]), dec(v["lds"]), dec(v["mem"]))
    if k == "KernelInfo":
        ota = v["opts_to_apply"]
        return KernelInfo(v["name"], tuple(AxisType[a] for a in v["axis_types"]), v["dont_use_locals"],
                          tuple(dec(o) for o in v["applied_opts"]), None if ota is None else tuple(dec(o) for o in ota),
                          dec(v["estimates"]), v["beam"])
    if k == "CallInfo":
        if v["grad_fxn"] is not None:
            raise NotImplementedError("grad_fxn cannot be rebuilt from its name")
        return CallInfo(None, v["name"], v["precompile"], v["precompile_backward"], dec(v["aux"]))
    if k == "BufferizeOpts":
        return BufferizeOpts(dev(v["device"]), AddrSpace[v["addrspace"]], v["removable"])
    raise NotImplementedError(f"cannot rebuild kind {k}")


def build(g):
    built = []
    for n in g["nodes"]:
        built.append(UOp(Ops[n["op"]], getattr(dtypes, n["dtype"]), tuple(built[s] for s in n["src"]),
                         dec(n["arg"], const_float=n["op"] == "CONST"), dec(n["tag"])))
    return built[g["root"]]


def repr_for(record, path):
    """The repr tinygrad stored next to the graph at `path` ("$.a.b"), if any."""
    keys = path[2:].split(".")
    parent = record
    for k in keys[:-1]:
        parent = parent[k]
    last = keys[-1]
    return parent.get(last + "_repr", parent.get("repr") if last in ("ast", "graph") else None)


def records(corpus):
    for f in sorted(glob.glob(os.path.join(corpus, "kernels", "*.json"))):
        with open(f) as fh:
            yield json.load(fh)
    for name in ("schedules.jsonl", "symbolic.jsonl"):
        with open(os.path.join(corpus, name)) as fh:
            for line in fh:
                yield json.loads(line)


def live_cases():
    """UOps built directly with tinygrad covering arg kinds the corpus lacks (Opt, Estimates,
    BufferizeOpts, bytes, float specials, tags, a variable bounded by a variable)."""
    n = UOp.variable("n", 1, 10, param=True)
    yield "float specials", UOp.sink(*[UOp.const(x, dtypes.float) for x in
                                       (-0.0, 0.0, float("nan"), float("inf"), float("-inf"), 0.1, 1e300)])
    yield "KernelInfo+Opt+Estimates", UOp(Ops.SINK, dtypes.void, (), KernelInfo(
        "k", (AxisType.LOOP, AxisType.REDUCE), True, (Opt(OptOps.UPCAST, 0, 4), Opt(OptOps.NOLOCALS)),
        (Opt(OptOps.PADTO, 1, (2, 3)),), Estimates(n * 2, 3, n), 2))
    yield "BufferizeOpts", UOp(Ops.NOOP, dtypes.void, (), (BufferizeOpts(("CPU", "CPU:1"), AddrSpace.LOCAL, False),
                                                         BufferizeOpts(3)))
    yield "bytes+tag", UOp(Ops.CUSTOM, dtypes.uint8, (n,), b"\x00\xffab", tag=(1, "t"))
    yield "var bounded by var", UOp.variable("m", 0, n, param=True)
    yield "DType/Ops args", UOp(Ops.REDUCE, dtypes.half, (UOp.const(1.5, dtypes.half).cast(dtypes.bfloat16),),
                                (Ops.MAX, 0, dtypes.int8, Invalid, True, None))


def check_live():
    """Exported JSON must rebuild to the very same (hash-consed) tinygrad object."""
    ok = 0
    cases = list(live_cases())
    for name, u in cases:
        try:
            same = build(json.loads(json.dumps(uop_to_json(u)))) is u
        except Exception as e:
            print("FAIL live", name, repr(e))
            continue
        ok += same
        if not same:
            print("FAIL live", name, "rebuilt object differs")
    print(f"live round trips: {len(cases)}, identical: {ok}")
    return ok == len(cases)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TG_CORPUS_DIR", os.path.join(HERE, "..", "..", "..", "shared", "corpus")))
    ap.add_argument("--limit", type=int, default=0, help="check only the first N graphs (0 = all)")
    a = ap.parse_args()
    total = json_ok = repr_checked = repr_ok = 0
    failures = []
    for rec in records(a.corpus):
        for path, g in find_graphs(rec):
            if a.limit and total >= a.limit:
                break
            total += 1
            where = f"{rec.get('id')}:{path}"
            try:
                uop = build(g)
            except Exception as e:  # report and keep going: one bad case should not hide others
                failures.append(f"{where}: rebuild failed: {e!r}")
                continue
            want = json.dumps(g, separators=(",", ":"))
            got = json.dumps(uop_to_json(uop), separators=(",", ":"))
            json_ok += got == want
            if got != want:
                failures.append(f"{where}: JSON differs")
            r = repr_for(rec, path)
            if isinstance(r, str):
                repr_checked += 1
                repr_ok += repr(uop) == r
                if repr(uop) != r:
                    failures.append(f"{where}: repr differs")
    for f in failures[:20]:
        print("FAIL", f)
    print(f"graphs: {total}, uop_to_json matched: {json_ok}, repr checked: {repr_checked}, repr matched: {repr_ok}")
    live_ok = check_live()
    return 0 if json_ok == total and repr_ok == repr_checked and live_ok else 1


if __name__ == "__main__":
    sys.exit(main())
