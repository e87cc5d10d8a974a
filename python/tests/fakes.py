"""Minimal stand-ins for tinygrad classes so the suite never needs tinygrad.

Only names and attributes matter: uop_json recognises tinygrad values by class name and
attribute names, so these mirror tinygrad's field names (not its behaviour).
"""
import enum
from dataclasses import dataclass
from typing import Any

from tinygrad_mlir.uop_json import AXIS_TYPE_NAMES, OPS_NAMES, OPT_OPS_NAMES


# IntEnums like tinygrad's, to catch "enum encoded as int" bugs; every member the format knows, so
# the UOps a compiled program hands back (uop_json.graph_to_uops) can be rebuilt with these too.
Ops = enum.IntEnum("Ops", sorted(OPS_NAMES))
AxisType = enum.Enum("AxisType", sorted(AXIS_TYPE_NAMES))
AddrSpace = enum.IntEnum("AddrSpace", ["GLOBAL", "LOCAL", "REG", "ALU"])


OptOps = enum.Enum("OptOps", sorted(OPT_OPS_NAMES))


class Color(enum.Enum):  # an enum the format does not know
    RED = 1


@dataclass(frozen=True)
class DType:
    name: str  # tinygrad's C-style name, e.g. "float" for float32


class dtypes:  # noqa: N801 - mirrors tinygrad's spelling
    void, weakint, weakfloat, bool = DType("void"), DType("weakint"), DType("weakfloat"), DType("bool")
    int8, int32, uint8, int64 = DType("signed char"), DType("int"), DType("unsigned char"), DType("long")
    float16, bfloat16, float32 = DType("half"), DType("__bf16"), DType("float")


class ConstFloat(float):
    pass


class InvalidType:
    def __repr__(self):
        return "Invalid"


Invalid = InvalidType()


@dataclass(frozen=True)
class ParamArg:
    slot: int
    dtype: DType
    vmin_vmax: Any = None
    multiple_of: Any = None
    name: Any = None
    addrspace: Any = AddrSpace.GLOBAL
    axis: Any = None
    device: Any = None
    volatile: bool = False


@dataclass(frozen=True)
class Opt:
    op: OptOps
    axis: Any = None
    arg: Any = None


@dataclass(frozen=True)
class Estimates:
    ops: Any = 0
    lds: Any = 0
    mem: Any = 0


@dataclass(frozen=True)
class KernelInfo:
    name: str = "test"
    axis_types: tuple = ()
    dont_use_locals: bool = False
    applied_opts: tuple = ()
    opts_to_apply: Any = None
    estimates: Any = None
    beam: int = 0


@dataclass(frozen=True)
class CallInfo:
    grad_fxn: Any = None
    name: Any = None
    precompile: bool = False
    precompile_backward: bool = False
    aux: Any = None


@dataclass(frozen=True)
class BufferizeOpts:
    device: Any
    addrspace: AddrSpace = AddrSpace.GLOBAL
    removable: bool = True


@dataclass(frozen=True)
class ProgramInfo:
    name: str = "test"
    global_size: tuple = (1, 1, 1)
    local_size: Any = None
    vars: tuple = ()
    globals: tuple = ()
    outs: tuple = ()
    ins: tuple = ()
    target: Any = None


class UOp:
    """Not hash-consed (unlike tinygrad), so tests can check that equal nodes are merged."""

    def __init__(self, op, dtype=dtypes.void, src=(), arg=None, tag=None):
        self.op, self.dtype, self.src, self.arg, self.tag = op, dtype, tuple(src), arg, tag

    def __repr__(self):
        return f"UOp({self.op.name}, {self.dtype.name}, arg={self.arg!r})"


class API:
    """What tinygrad_mlir.backend.build_program needs from tinygrad, as stand-ins."""
    UOp, Ops, ProgramInfo, Estimates = UOp, Ops, ProgramInfo, Estimates
    AxisType, AddrSpace, ParamArg, ConstFloat, Invalid = AxisType, AddrSpace, ParamArg, ConstFloat, Invalid
    Opt, OptOps = Opt, OptOps

    @staticmethod
    def dtype(name):
        return getattr(dtypes, name, None) or DType(name)

    @staticmethod
    def variable(name, lo, hi, dtype):
        return UOp(Ops.PARAM, getattr(dtypes, {"int": "int32"}.get(dtype, dtype)), (UOp(Ops.STACK),),
                   ParamArg(-1, dtypes.int32, (lo, hi), 1, name, AddrSpace.ALU))


def const(v, dtype=dtypes.weakint):
    return UOp(Ops.CONST, dtype, (), v)
