"""Export tinygrad UOp graphs to the corpus JSON graph format, and validate such graphs.

The format is specified in shared/corpus/README.md section 1. This module never imports
tinygrad: every tinygrad value is recognised by duck typing (attribute names) and by class
name, so it works on live tinygrad objects and on the small stand-ins used by the tests.
"""
import enum
import json
import math
import os

# Canonical dtype names (the `dtypes.<attr>` names). The format allows exactly these.
DTYPE_NAMES = (
    "void weakint bool int8 uint8 int16 uint16 int32 uint32 int64 uint64 _uint128 _uint256 "
    "weakfloat fp8e4m3 fp8e5m2 fp8e4m3fnuz fp8e5m2fnuz float16 bfloat16 float32 float64").split()

# tinygrad's DType.name is the C spelling ("float", "unsigned char"); map it to the attr name.
# None of these C spellings is itself a canonical name, so the mapping is unambiguous.
_C_NAME_TO_DTYPE = {
    "signed char": "int8", "unsigned char": "uint8", "short": "int16", "unsigned short": "uint16",
    "int": "int32", "unsigned int": "uint32", "long": "int64", "unsigned long": "uint64",
    "uint128": "_uint128", "uint256": "_uint256", "float8_e4m3": "fp8e4m3",
    "float8_e5m2": "fp8e5m2", "float8_e4m3fnuz": "fp8e4m3fnuz", "float8_e5m2fnuz": "fp8e5m2fnuz",
    "half": "float16", "__bf16": "bfloat16", "float": "float32", "double": "float64",
}

# Enum member names of the pinned tinygrad commit (a9069c17); used only for validation.
OPS_NAMES = frozenset((
    "SPECIAL BUFFER NOOP REWRITE_ERROR PARAM FUNCTION CALL PROGRAM LINEAR SOURCE BINARY SINK AFTER "
    "GROUP STACK TUPLE GETTUPLE GETADDR INDEX SHRINK LOAD STORE WMMA CAST BITCAST EXP2 LOG2 SIN SQRT "
    "RECIPROCAL NEG TRUNC ADD MUL SHL SHR CDIV MAX CMOD CMPLT CMPNE CMPEQ XOR OR AND THREEFRY SUB FDIV "
    "POW FLOORDIV FLOORMOD WHERE MULACC BARRIER RANGE IF END ENDIF WAIT CONST CUSTOM CUSTOMI INS "
    "CONTIGUOUS CONTIGUOUS_BACKWARD DETACH STAGE COPY MSELECT MSTACK CUSTOM_FUNCTION RESHAPE PERMUTE "
    "EXPAND PAD FLIP UNSHARD REDUCE ALLREDUCE PYLITERAL").split())
AXIS_TYPE_NAMES = frozenset(
    "DEVICE GLOBAL WARP LOCAL WEAK GROUP_REDUCE REDUCE UPCAST UNROLL THREAD PLACEHOLDER LOOP".split())
ADDR_SPACE_NAMES = frozenset("GLOBAL LOCAL REG ALU".split())
OPT_OPS_NAMES = frozenset("TC UPCAST UNROLL LOCAL THREAD GROUP GROUPTOP NOLOCALS PADTO SWAP".split())
_ENUM_NAMES = {"Ops": OPS_NAMES, "AxisType": AXIS_TYPE_NAMES, "AddrSpace": ADDR_SPACE_NAMES,
               "OptOps": OPT_OPS_NAMES}

_FLOAT_SPECIALS = ("inf", "-inf", "nan", "-nan", "-0.0")
_STRUCT_KINDS = ("InvalidType", "DType", "ParamArg", "KernelInfo", "Opt", "Estimates", "CallInfo",
                 "BufferizeOpts")


# ---------------------------------------------------------------- export

def dtype_name(dt):
    """Canonical name of a tinygrad DType (or of a stand-in with `.name`, or of a plain str)."""
    name = dt if isinstance(dt, str) else getattr(dt, "name", None)
    if name in DTYPE_NAMES:
        return name
    if name in _C_NAME_TO_DTYPE:
        return _C_NAME_TO_DTYPE[name]
    raise ValueError(f"unknown dtype {dt!r}")


def _is_uop(x):
    # A UOp is recognised structurally so fake UOps in tests qualify too.
    return all(hasattr(x, a) for a in ("op", "dtype", "src", "arg")) and isinstance(x.src, (tuple, list))


def _struct_kind(x):
    # Match on class names along the MRO so subclasses (and test stand-ins) are recognised.
    for cls in type(x).__mro__:
        if cls.__name__ in _STRUCT_KINDS:
            return cls.__name__
    return None


def _enum_name(x):
    return x.name if isinstance(x, enum.Enum) else x


def _float_value(v):
    v = float(v)  # drop ConstFloat wrapper; json would still print via float.__repr__
    if math.isnan(v):
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0.0 and math.copysign(1.0, v) < 0:
        return "-0.0"
    return v


def _device(d):
    return list(d) if isinstance(d, (tuple, list)) else d


def encode_arg(x):
    """Encode one arg/tag value with the README's arg encoding table."""
    if x is None or isinstance(x, str):
        return x
    # Enums first: Ops and AddrSpace are IntEnums, which would otherwise pass as ints.
    if isinstance(x, enum.Enum):
        kind = type(x).__name__
        if kind in _ENUM_NAMES:
            return {"kind": kind, "name": x.name}
        return _unserializable(x)
    if isinstance(x, bool):  # before int: bool is an int subclass
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return {"kind": "float", "value": _float_value(x)}
    if isinstance(x, (tuple, list)):
        return [encode_arg(e) for e in x]
    if isinstance(x, (bytes, bytearray)):
        return {"kind": "bytes", "hex": bytes(x).hex()}
    if _is_uop(x):
        return {"kind": "UOp", "graph": uop_to_json(x)}
    kind = _struct_kind(x)
    if kind is not None:
        return _STRUCT_ENCODERS[kind](x)
    return _unserializable(x)


def _unserializable(x):
    return {"kind": "unserializable", "type": type(x).__name__, "repr": repr(x)}


def _enc_param_arg(p):
    vv = p.vmin_vmax
    return {"kind": "ParamArg", "slot": p.slot, "dtype": dtype_name(p.dtype),
            "vmin_vmax": None if vv is None else [encode_arg(v) for v in vv],
            "multiple_of": p.multiple_of, "name": p.name,
            "addrspace": None if p.addrspace is None else _enum_name(p.addrspace),
            "axis": p.axis, "device": _device(p.device), "volatile": bool(p.volatile)}


def _enc_kernel_info(k):
    return {"kind": "KernelInfo", "name": k.name, "axis_types": [_enum_name(a) for a in k.axis_types],
            "dont_use_locals": bool(k.dont_use_locals),
            "applied_opts": [encode_arg(o) for o in k.applied_opts],
            "opts_to_apply": None if k.opts_to_apply is None else [encode_arg(o) for o in k.opts_to_apply],
            "estimates": None if k.estimates is None else encode_arg(k.estimates), "beam": k.beam}


def _enc_call_info(c):
    fn = c.grad_fxn
    # A Python function cannot be serialised; keep its module-qualified name only.
    gf = None if fn is None else ".".join(
        p for p in (getattr(fn, "__module__", None), getattr(fn, "__qualname__", repr(fn))) if p)
    return {"kind": "CallInfo", "grad_fxn": gf, "name": c.name, "precompile": bool(c.precompile),
            "precompile_backward": bool(c.precompile_backward), "aux": encode_arg(c.aux)}


_STRUCT_ENCODERS = {
    "InvalidType": lambda x: {"kind": "Invalid"},
    "DType": lambda x: {"kind": "DType", "name": dtype_name(x)},
    "ParamArg": _enc_param_arg,
    "KernelInfo": _enc_kernel_info,
    "Opt": lambda o: {"kind": "Opt", "op": _enum_name(o.op), "axis": o.axis, "arg": encode_arg(o.arg)},
    "Estimates": lambda e: {"kind": "Estimates", "ops": encode_arg(e.ops), "lds": encode_arg(e.lds),
                            "mem": encode_arg(e.mem)},
    "CallInfo": _enc_call_info,
    "BufferizeOpts": lambda b: {"kind": "BufferizeOpts", "device": _device(b.device),
                                "addrspace": _enum_name(b.addrspace), "removable": bool(b.removable)},
}


def _toposort(root):
    """tinygrad's UOp.toposort(): iterative DFS, srcs in order, post-order, memo by identity.

    Done with an explicit stack because real graphs are deeper than Python's recursion limit.
    """
    done, order = set(), []
    stack = [(root, False)]
    while stack:
        u, visited = stack.pop()
        if id(u) in done:
            continue
        if visited:
            done.add(id(u))
            order.append(u)
        else:
            stack.append((u, True))
            stack.extend((s, False) for s in reversed(tuple(u.src)))
    return order


def uop_to_json(uop):
    """Graph dict {"nodes": [...], "root": id} for `uop`, in tinygrad toposort order."""
    index, nodes, by_key = {}, [], {}
    for u in _toposort(uop):
        arg = u.arg
        if u.op.name == "CONST" and dtype_name(u.dtype) == "weakint" and isinstance(arg, int) \
                and not isinstance(arg, bool) and not -2**63 <= arg < 2**64:
            # A weakint is a Python int of any size and JSON readers turn one past 64 bits into a
            # double (int64 and uint64 read exactly, as our importer does). pm_lower_weak commits it
            # to long, whose truncation (dtypes' truncate, ctypes.c_int64) keeps the low 64 bits:
            # the value we define it by. (tinygrad's C renders the literal whole, `(short)(1766...776)`,
            # which clang refuses: random-kernels seed 611 --edges #36 folded a prod of shorts to
            # 1.77e72.) Up to 2**64 the value is kept whole: a weak 2**64-1 (uint64's ~x mask) is not
            # -1 to the bounds (random-kernels --edges --replay seed 642 #36 folded min(x) < y to
            # true where tinygrad computes it).
            arg = (arg + 2**63) % 2**64 - 2**63
        node = {"op": u.op.name, "dtype": dtype_name(u.dtype), "src": [index[id(s)] for s in u.src],
                "arg": encode_arg(arg), "tag": encode_arg(getattr(u, "tag", None))}
        # tinygrad hash-conses, so structurally equal nodes are one object there; merge equal
        # encodings too so graphs built without hash-consing (e.g. test stand-ins) match.
        key = json.dumps([node["op"], node["dtype"], node["src"], node["arg"], node["tag"]])
        if key not in by_key:
            by_key[key] = len(nodes)
            nodes.append({"id": len(nodes), **node})
        index[id(u)] = by_key[key]
    return {"nodes": nodes, "root": index[id(uop)]}


def dumps(uop, **kwargs):
    """JSON text of uop_to_json(uop); compact separators like the corpus files by default."""
    kwargs.setdefault("separators", (",", ":"))
    return json.dumps(uop_to_json(uop), **kwargs)


# ---------------------------------------------------------------- validation

_NODE_KEYS = ("id", "op", "dtype", "src", "arg", "tag")
_KIND_FIELDS = {
    "float": {"value"}, "Invalid": set(), "Ops": {"name"}, "AxisType": {"name"},
    "AddrSpace": {"name"}, "OptOps": {"name"}, "DType": {"name"}, "bytes": {"hex"},
    "ParamArg": {"slot", "dtype", "vmin_vmax", "multiple_of", "name", "addrspace", "axis", "device",
                 "volatile"},
    "KernelInfo": {"name", "axis_types", "dont_use_locals", "applied_opts", "opts_to_apply",
                   "estimates", "beam"},
    "Opt": {"op", "axis", "arg"}, "Estimates": {"ops", "lds", "mem"}, "UOp": {"graph"},
    "CallInfo": {"grad_fxn", "name", "precompile", "precompile_backward", "aux"},
    "BufferizeOpts": {"device", "addrspace", "removable"}, "unserializable": {"type", "repr"},
}


class _Bad(Exception):
    """Internal: carries a field path and message up to the node-level handler."""

    def __init__(self, path, msg):
        super().__init__(msg)
        self.path, self.msg = path, msg


def _need(cond, path, msg):
    if not cond:
        raise _Bad(path, msg)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _check_opt_int(v, path):
    _need(v is None or _is_int(v), path, f"expected int or null, got {v!r}")


def _check_name(v, names, path):
    _need(isinstance(v, str) and v in names, path, f"unknown name {v!r}")


def _check_device(v, path, allow_int=False):
    ok = v is None or isinstance(v, str) or (allow_int and _is_int(v)) or (
        isinstance(v, list) and all(isinstance(d, str) for d in v))
    _need(ok, path, f"bad device {v!r}")


def _check_arg(v, path):
    if v is None or isinstance(v, (bool, str)) or _is_int(v):
        return
    if isinstance(v, float):
        raise _Bad(path, f"bare float {v!r}: floats must use {{\"kind\":\"float\"}}")
    if isinstance(v, list):
        for i, e in enumerate(v):
            _check_arg(e, f"{path}[{i}]")
        return
    _need(isinstance(v, dict), path, f"unexpected JSON value {v!r}")
    kind = v.get("kind")
    _need(kind in _KIND_FIELDS, path, f"unknown kind {kind!r}")
    _need(set(v) - {"kind"} == _KIND_FIELDS[kind], path,
          f"{kind} needs fields {sorted(_KIND_FIELDS[kind])}, got {sorted(set(v) - {'kind'})}")
    _KIND_CHECKS.get(kind, lambda v, p: None)(v, path)


def _check_float(v, path):
    x = v["value"]
    ok = x in _FLOAT_SPECIALS if isinstance(x, str) else (
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x))
    _need(ok, path + ".value", f"bad float value {x!r}")


def _check_bytes(v, path):
    try:
        bytes.fromhex(v["hex"])
    except (TypeError, ValueError):
        raise _Bad(path + ".hex", f"not a hex string: {v['hex']!r}") from None


def _check_param_arg(v, path):
    _need(_is_int(v["slot"]), path + ".slot", f"expected int, got {v['slot']!r}")
    _check_name(v["dtype"], DTYPE_NAMES, path + ".dtype")
    vv = v["vmin_vmax"]
    _need(vv is None or (isinstance(vv, list) and len(vv) == 2), path + ".vmin_vmax", f"bad {vv!r}")
    for i, e in enumerate(vv or ()):
        _check_arg(e, f"{path}.vmin_vmax[{i}]")
    _check_opt_int(v["multiple_of"], path + ".multiple_of")
    _check_opt_int(v["axis"], path + ".axis")
    _need(v["name"] is None or isinstance(v["name"], str), path + ".name", f"bad {v['name']!r}")
    if v["addrspace"] is not None:
        _check_name(v["addrspace"], ADDR_SPACE_NAMES, path + ".addrspace")
    _check_device(v["device"], path + ".device")
    _need(isinstance(v["volatile"], bool), path + ".volatile", f"expected bool, got {v['volatile']!r}")


def _check_opt_list(v, path):
    _need(isinstance(v, list), path, f"expected list, got {v!r}")
    for i, o in enumerate(v):
        _need(isinstance(o, dict) and o.get("kind") == "Opt", f"{path}[{i}]", f"expected Opt, got {o!r}")
        _check_arg(o, f"{path}[{i}]")


def _check_kernel_info(v, path):
    _need(isinstance(v["name"], str), path + ".name", f"expected str, got {v['name']!r}")
    _need(isinstance(v["axis_types"], list), path + ".axis_types", "expected list")
    for i, a in enumerate(v["axis_types"]):
        _check_name(a, AXIS_TYPE_NAMES, f"{path}.axis_types[{i}]")
    _need(isinstance(v["dont_use_locals"], bool), path + ".dont_use_locals", "expected bool")
    _check_opt_list(v["applied_opts"], path + ".applied_opts")
    if v["opts_to_apply"] is not None:
        _check_opt_list(v["opts_to_apply"], path + ".opts_to_apply")
    est = v["estimates"]
    _need(est is None or (isinstance(est, dict) and est.get("kind") == "Estimates"),
          path + ".estimates", f"expected Estimates or null, got {est!r}")
    if est is not None:
        _check_arg(est, path + ".estimates")
    _need(_is_int(v["beam"]), path + ".beam", f"expected int, got {v['beam']!r}")


def _check_estimates(v, path):
    for f in ("ops", "lds", "mem"):
        x = v[f]
        _need(_is_int(x) or (isinstance(x, dict) and x.get("kind") == "UOp"), f"{path}.{f}",
              f"expected int or UOp, got {x!r}")
        _check_arg(x, f"{path}.{f}")


def _check_nested_graph(v, path):
    try:
        validate_graph(v["graph"])
    except ValueError as e:
        raise _Bad(path + ".graph", f"nested graph: {e}") from None


def _check_call_info(v, path):
    for f in ("grad_fxn", "name"):
        _need(v[f] is None or isinstance(v[f], str), f"{path}.{f}", f"expected str or null, got {v[f]!r}")
    for f in ("precompile", "precompile_backward"):
        _need(isinstance(v[f], bool), f"{path}.{f}", f"expected bool, got {v[f]!r}")
    _check_arg(v["aux"], path + ".aux")


def _check_bufferize(v, path):
    _check_device(v["device"], path + ".device", allow_int=True)
    _check_name(v["addrspace"], ADDR_SPACE_NAMES, path + ".addrspace")
    _need(isinstance(v["removable"], bool), path + ".removable", "expected bool")


_KIND_CHECKS = {
    "float": _check_float, "bytes": _check_bytes, "ParamArg": _check_param_arg,
    "KernelInfo": _check_kernel_info, "Estimates": _check_estimates, "UOp": _check_nested_graph,
    "CallInfo": _check_call_info, "BufferizeOpts": _check_bufferize,
    "Opt": lambda v, p: (_check_name(v["op"], OPT_OPS_NAMES, p + ".op"), _check_opt_int(v["axis"], p + ".axis"),
                         _check_arg(v["arg"], p + ".arg")),
    "DType": lambda v, p: _check_name(v["name"], DTYPE_NAMES, p + ".name"),
    "unserializable": lambda v, p: _need(isinstance(v["type"], str) and isinstance(v["repr"], str), p,
                                         "type and repr must be strings"),
}
for _k in _ENUM_NAMES:
    _KIND_CHECKS[_k] = (lambda names: lambda v, p: _check_name(v["name"], names, p + ".name"))(_ENUM_NAMES[_k])


def _check_node(i, n):
    _need(isinstance(n, dict), "", f"node must be an object, got {type(n).__name__}")
    missing, extra = set(_NODE_KEYS) - set(n), set(n) - set(_NODE_KEYS)
    _need(not missing, sorted(missing)[0] if missing else "", "missing field")
    _need(not extra, sorted(extra)[0] if extra else "", "unknown field")
    _need(_is_int(n["id"]) and n["id"] == i, "id", f"id {n['id']!r} does not equal its index {i}")
    _check_name(n["op"], OPS_NAMES, "op")
    _check_name(n["dtype"], DTYPE_NAMES, "dtype")
    _need(isinstance(n["src"], list), "src", "expected a list of ids")
    for j, s in enumerate(n["src"]):
        _need(_is_int(s) and 0 <= s < i, f"src[{j}]", f"src id {s!r} is not an earlier node (topological order)")
    _check_arg(n["arg"], "arg")
    _check_arg(n["tag"], "tag")


def validate_graph(g):
    """Check `g` against the graph format; raise ValueError naming the node id and field."""
    if not isinstance(g, dict) or set(g) != {"nodes", "root"}:
        raise ValueError(f"graph must be an object with exactly 'nodes' and 'root', got "
                         f"{sorted(g) if isinstance(g, dict) else type(g).__name__}")
    nodes = g["nodes"]
    if not isinstance(nodes, list) or not nodes:
        raise ValueError("graph field 'nodes' must be a non-empty list")
    for i, n in enumerate(nodes):
        try:
            _check_node(i, n)
        except _Bad as e:
            raise ValueError(f"node {i}: field '{e.path}': {e.msg}") from None
    root = g["root"]
    if not _is_int(root) or not 0 <= root < len(nodes):
        raise ValueError(f"graph field 'root': {root!r} is not a node id")
    return g


def load_graph(source):
    """Read and validate one graph: `source` is a path to a JSON file or an already-parsed dict."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            source = json.load(f)
    return validate_graph(source)


def find_graphs(obj, path="$"):
    """Yield (json_path, graph) for every top-level graph object inside a corpus record."""
    if isinstance(obj, dict):
        if set(obj) == {"nodes", "root"}:
            yield path, obj
            return  # nested UOp-in-arg graphs are validated as part of their parent
        for k, v in obj.items():
            yield from find_graphs(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from find_graphs(v, f"{path}[{i}]")


# ---------------------------------------------------------------- import

_FLOAT_FROM_SPECIAL = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "-nan": -math.nan, "-0.0": -0.0}


def decode_arg(v, api):
    """An arg of the export format as tinygrad values, built with `api` (a namespace with Ops, AxisType,
    AddrSpace, ParamArg, Opt, OptOps, ConstFloat, Invalid and dtype(name)). The kinds a compiled program's UOps carry;
    ValueError for the others."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, list):
        return tuple(decode_arg(x, api) for x in v)
    kind = v.get("kind") if isinstance(v, dict) else None
    if kind == "float":
        x = v["value"]
        return api.ConstFloat(_FLOAT_FROM_SPECIAL[x] if isinstance(x, str) else float(x))
    if kind in ("Ops", "AxisType", "AddrSpace"):
        return getattr(api, kind)[v["name"]]
    if kind == "DType":
        return api.dtype(v["name"])
    if kind == "Invalid":
        return api.Invalid
    if kind == "Opt":
        return api.Opt(api.OptOps[v["op"]], v["axis"], decode_arg(v["arg"], api))
    if kind == "ParamArg":
        vmm, dev = v["vmin_vmax"], v["device"]
        return api.ParamArg(v["slot"], api.dtype(v["dtype"]), None if vmm is None else tuple(decode_arg(x, api) for x in vmm),
                            v["multiple_of"], v["name"], None if v["addrspace"] is None else api.AddrSpace[v["addrspace"]],
                            v["axis"], tuple(dev) if isinstance(dev, list) else dev, v["volatile"])
    raise ValueError(f"cannot rebuild an arg of kind {kind!r}")


def graph_to_uops(g, api, param=None):
    """The root UOp of a graph in the export format ({"nodes", "root"}), built with api.UOp. `param(arg)`
    may return the UOp to use for a PARAM node with that (decoded) ParamArg (the caller's own), else None."""
    nodes = []
    for n in g["nodes"]:
        arg = decode_arg(n["arg"], api)
        own = param(arg) if param is not None and n["op"] == "PARAM" else None
        nodes.append(own if own is not None else
                     api.UOp(api.Ops[n["op"]], api.dtype(n["dtype"]), tuple(nodes[i] for i in n["src"]), arg))
    return nodes[g["root"]]
