"""Python-side interop between tinygrad and tinygrad-mlir (stdlib only)."""
from .uop_json import uop_to_json, dumps, load_graph, validate_graph, encode_arg, dtype_name  # noqa: F401
from .graph import dtypes  # noqa: F401
from .tensor import Tensor, Variable  # noqa: F401
