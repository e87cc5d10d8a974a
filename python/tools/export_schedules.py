"""Run tinygrad's scheduler steps on every program of a schedules.jsonl and export their results.

For each record the `call` graph (tinygrad's transform_to_call output) is rebuilt as live tinygrad
UOps from its JSON, then tinygrad's own get_kernel_graph, create_schedule, resolve_linear_call and
pm_copy_from_store run on it. One output line per program:

  {"id", "kernel_graph", "linear", "resolved", "var_vals", "num_kernels"}

`kernel_graph` is what create_schedule receives, `linear` its result (CALLs over PARAMs),
`resolved` the LINEAR over buffers with COPY calls (before memory planning). These are test
inputs and oracles for tg-create-schedule and for running programs while our own kernel graph
(sched::getKernelGraph) does not cover a program yet.

usage: cd <tinygrad a9069c17> && PYTHONPATH=<repo>/python:. python3 export_schedules.py IN.jsonl OUT.jsonl
"""
import json
import sys

from tinygrad.uop.ops import UOp, Ops, ParamArg, CallInfo, graph_rewrite
from tinygrad.dtype import dtypes, ConstFloat, AddrSpace, Invalid
from tinygrad.uop.ops import AxisType
from tinygrad.schedule import create_schedule, pm_resolve_linear_call, pm_copy_from_store, pm_schedule
from tinygrad.schedule.rangeify import get_kernel_graph

from tinygrad_mlir.uop_json import uop_to_json


def _dtype(name):
    return getattr(dtypes, name)


def decode_arg(v):
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, list):
        return tuple(decode_arg(x) for x in v)
    kind = v["kind"]
    if kind == "float":
        x = v["value"]
        return ConstFloat(float(x) if not isinstance(x, str) else {"inf": float("inf"), "-inf": float("-inf"),
                          "nan": float("nan"), "-nan": -float("nan"), "-0.0": -0.0}[x])
    if kind == "Ops":
        return Ops[v["name"]]
    if kind == "AxisType":
        return AxisType[v["name"]]
    if kind == "AddrSpace":
        return AddrSpace[v["name"]]
    if kind == "DType":
        return _dtype(v["name"])
    if kind == "Invalid":
        return Invalid
    if kind == "ParamArg":
        vmm = v["vmin_vmax"]
        dev = v["device"]
        return ParamArg(v["slot"], _dtype(v["dtype"]), tuple(decode_arg(x) for x in vmm) if vmm is not None else None,
                        v["multiple_of"], v["name"], AddrSpace[v["addrspace"]] if v["addrspace"] else None, v["axis"],
                        tuple(dev) if isinstance(dev, list) else dev, v["volatile"])
    if kind == "CallInfo":
        if v["grad_fxn"] is not None:
            raise ValueError("a CallInfo with a grad_fxn cannot be rebuilt")
        return CallInfo(None, v["name"], v["precompile"], v["precompile_backward"], decode_arg(v["aux"]))
    raise ValueError(f"cannot rebuild arg kind {kind}")


def decode_graph(g):
    nodes = []
    for n in g["nodes"]:
        tag = decode_arg(n["tag"])
        nodes.append(UOp(Ops[n["op"]], _dtype(n["dtype"]), tuple(nodes[i] for i in n["src"]), decode_arg(n["arg"]), tag))
    return nodes[g["root"]]


def export(rec):
    call = decode_graph(rec["call"])
    kg = get_kernel_graph(call.src[0])
    linear = create_schedule(kg)
    linear_call = call.replace(src=(linear,) + call.src[1:])
    resolved = graph_rewrite(linear_call, pm_resolve_linear_call, name="resolve linear call")
    resolved = graph_rewrite(resolved, pm_copy_from_store, name="copies")
    kernels = sum(1 for si in resolved.src if si.src[0].op is Ops.SINK)
    return {"id": rec["id"], "kernel_graph": uop_to_json(kg), "linear": uop_to_json(linear),
            "resolved": uop_to_json(resolved), "var_vals": rec["var_vals"], "num_kernels": kernels}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    bad = 0
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            rec = json.loads(line)
            try:
                res = export(rec)
            except Exception as e:  # report and go on: one odd program must not hide the others
                print(f"{rec['id']}: {type(e).__name__}: {e}", file=sys.stderr)
                bad += 1
                continue
            if res["num_kernels"] != rec["num_kernels"]:
                print(f"{rec['id']}: {res['num_kernels']} kernels, record says {rec['num_kernels']}", file=sys.stderr)
            out.write(json.dumps(res, separators=(",", ":")) + "\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
