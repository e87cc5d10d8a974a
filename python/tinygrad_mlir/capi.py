"""ctypes binding of the C API (include/tinygrad-c/tinygrad.h, libTinygradCAPI.so).

The compiler in-process, for tools and for the tinygrad backend:

    from tinygrad_mlir import capi
    with capi.Context() as ctx:
        mod = ctx.import_json(open("case.json").read(), graph_path="ast")
        for pass_name, ir in mod.run_pipeline("tg-symbolic,cse", collect_ir=True): ...
        k = mod.compile_cpu(max_threads=4, keep=("mlir", "asm"))
        k.info["globals"], k.object, k.text("asm")
    capi.run_case("kernels/add.json")          # compile + run a corpus kernel case, compare
    ast = capi.with_opts(case["ast"], [("UPCAST", 0, 4)])  # choose the opts instead of the heuristics
    prog = ctx.import_json(tensor_graph_json).program(progress=True)   # schedule + compile
    prog.set_buffer(0, x.tobytes()); prog.run(); prog.read_output(0)  # -> bytes

Which library: `find_library()` (TINYGRAD_MLIR_CAPI=path, else the one an install recorded
in _installed.py, else a copy inside this package (pip install), else <repo>/build/lib). A
library that cannot be found or loaded is CAPINotFound naming what was tried; nothing falls back.

Handles follow the C API's ownership rules: each Python object releases its handle once
(close(), a with block, or garbage collection); a Module keeps its Context alive.
Errors are CAPIError with the status name and the library's message (diagnostics with their
locations).
"""
import ctypes
import json
import os
import struct
import threading

from .progress import ProgressBar

ENV_LIBRARY = "TINYGRAD_MLIR_CAPI"
API_VERSION = 3
_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))

STATUS_NAMES = ["TGC_OK", "TGC_INVALID_ARGUMENT", "TGC_PARSE_ERROR", "TGC_VERIFY_ERROR",
                "TGC_PASS_FAILED", "TGC_COMPILE_FAILED", "TGC_RUNTIME_ERROR", "TGC_INTERNAL"]
TEXT_KINDS = {"mlir": 0, "llvm": 1, "asm": 2, "uops": 3, "phases": 4}


class CAPINotFound(RuntimeError):
    pass


class CAPIError(RuntimeError):
    """A tgc_* or tgrt_* call failed: `status` is its name, `message` the library's text."""

    def __init__(self, function, status, message):
        super().__init__(f"{function}: {status}: {message}")
        self.function, self.status, self.message = function, status, message


# ---------------------------------------------------------------- loading

def candidates():
    """The library paths find_library tries, in order."""
    env = os.environ.get(ENV_LIBRARY)
    if env:
        return [env]
    out = []
    try:
        from . import _installed  # written by `cmake --install`
        out.append(_installed.CAPI_LIBRARY)
    except ImportError:
        pass
    out.append(os.path.join(_HERE, "_lib", "libTinygradCAPI.so"))  # pip install's copy
    out.append(os.path.join(_REPO, "build", "lib", "libTinygradCAPI.so"))
    return out


def find_library():
    """Path of libTinygradCAPI.so, or CAPINotFound listing what was tried."""
    tried = candidates()
    for p in tried:
        if os.path.isfile(p):
            return p
    how = f"{ENV_LIBRARY}={tried[0]!r} is not a file" if os.environ.get(ENV_LIBRARY) else \
        "tried " + ", ".join(tried)
    raise CAPINotFound(f"tinygrad-mlir: the C API library libTinygradCAPI.so was not found ({how}); "
                       f"build it with `make build`, install with `cmake --install`, or set {ENV_LIBRARY}")


_IR_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t,
                                ctypes.c_void_p)


# tgc_kernel_info.format (tgrt_program_format)
FORMAT_NAMES = {1: "elf", 2: "spirv", 3: "cubin", 4: "ptx", 5: "hsaco"}


class _PassOptions(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("verify_each", ctypes.c_uint32),
                ("after_pass", _IR_CALLBACK), ("user_data", ctypes.c_void_p)]


class _CPUOptions(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("max_threads", ctypes.c_uint32),
                ("keep_mlir", ctypes.c_uint32), ("keep_llvm_ir", ctypes.c_uint32),
                ("keep_asm", ctypes.c_uint32), ("after_pass", _IR_CALLBACK), ("user_data", ctypes.c_void_p)]


_I64P = ctypes.POINTER(ctypes.c_int64)
_BEAM_TIMER = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p)


class _BeamOptions(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("beam", ctypes.c_uint32), ("max_threads", ctypes.c_uint32),
                ("ignore_cache", ctypes.c_uint32), ("cache_dir", ctypes.c_char_p), ("timer", _BEAM_TIMER),
                ("user_data", ctypes.c_void_p), ("target", ctypes.c_char_p), ("device", ctypes.c_char_p)]
_PROGRESS_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p)


class _ProgramOptions(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("max_threads", ctypes.c_uint32),
                ("progress", _PROGRESS_CALLBACK), ("after_pass", _IR_CALLBACK), ("user_data", ctypes.c_void_p)]


class _ProgramInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("num_buffers", ctypes.c_size_t),
                ("num_outputs", ctypes.c_size_t), ("num_kernels", ctypes.c_uint32),
                ("num_copies", ctypes.c_uint32), ("schedule_ms", ctypes.c_double),
                ("compile_ms", ctypes.c_double), ("run_ms", ctypes.c_double)]


class _TensorInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("slot", ctypes.c_int64), ("dtype", ctypes.c_char_p),
                ("device", ctypes.c_char_p), ("shape", _I64P), ("ndim", ctypes.c_size_t),
                ("bytes", ctypes.c_size_t)]


class _KernelInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("global_size", ctypes.c_int64 * 3), ("local_size", ctypes.c_int64 * 3),
                ("global_size_expr", ctypes.c_char_p * 3), ("local_size_expr", ctypes.c_char_p * 3),
                ("globals", _I64P), ("num_globals", ctypes.c_size_t), ("global_elements", _I64P),
                ("outs", _I64P), ("num_outs", ctypes.c_size_t), ("ins", _I64P), ("num_ins", ctypes.c_size_t),
                ("vars", ctypes.POINTER(ctypes.c_char_p)), ("var_dtypes", ctypes.POINTER(ctypes.c_char_p)),
                ("num_vars", ctypes.c_size_t),
                ("core_id_arg", ctypes.c_int32), ("codegen_ms", ctypes.c_double), ("llvm_ms", ctypes.c_double),
                ("ops", ctypes.c_int64), ("lds", ctypes.c_int64), ("mem", ctypes.c_int64),
                ("ops_expr", ctypes.c_char_p), ("lds_expr", ctypes.c_char_p), ("mem_expr", ctypes.c_char_p)]


class _TargetInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("name", ctypes.c_char_p), ("arch", ctypes.c_char_p),
                ("device", ctypes.c_char_p), ("dtypes", ctypes.POINTER(ctypes.c_char_p)),
                ("num_dtypes", ctypes.c_size_t), ("has_local", ctypes.c_int32), ("has_shared", ctypes.c_int32),
                ("has_threads", ctypes.c_int32), ("global_max", ctypes.c_int64 * 3),
                ("local_max", ctypes.c_int64 * 3), ("local_prod_max", ctypes.c_int64),
                ("shared_max_bytes", ctypes.c_int64), ("subgroup_size", ctypes.c_uint32),
                ("offsets_word", ctypes.c_uint32)]


_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_SIGNATURES = {
    # C API (status-returning unless noted)
    "tgc_api_version": ([], ctypes.c_uint32),
    "tgc_last_error": ([], ctypes.c_char_p),
    "tgc_string_free": ([_P], None),
    "tgc_context_create": ([_PP], ctypes.c_int),
    "tgc_context_destroy": ([_P], ctypes.c_int),
    "tgc_module_import_json": ([_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, _PP],
                               ctypes.c_int),
    "tgc_module_parse_mlir": ([_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _PP], ctypes.c_int),
    "tgc_module_destroy": ([_P], ctypes.c_int),
    "tgc_module_print": ([_P, ctypes.c_int, _PP], ctypes.c_int),
    "tgc_module_export_json": ([_P, _PP], ctypes.c_int),
    "tgc_module_run_pipeline": ([_P, ctypes.c_char_p, ctypes.POINTER(_PassOptions)], ctypes.c_int),
    "tgc_compile_kernel_cpu": ([_P, ctypes.POINTER(_CPUOptions), _PP], ctypes.c_int),
    "tgc_compile_kernel": ([_P, ctypes.c_char_p, ctypes.POINTER(_CPUOptions), _PP], ctypes.c_int),
    "tgc_kernel_format": ([_P, ctypes.POINTER(ctypes.c_uint32)], ctypes.c_int),
    "tgc_target_describe": ([ctypes.c_char_p, ctypes.POINTER(_TargetInfo)], ctypes.c_int),
    "tgc_kernel_destroy": ([_P], ctypes.c_int),
    "tgc_beam_search": ([_P, ctypes.POINTER(_BeamOptions), _PP], ctypes.c_int),
    "tgc_beam_search_kernel": ([_P, ctypes.POINTER(_BeamOptions), _PP, _PP], ctypes.c_int),
    "tgc_kernel_get_info": ([_P, ctypes.POINTER(_KernelInfo)], ctypes.c_int),
    "tgc_kernel_object": ([_P, _PP, ctypes.POINTER(ctypes.c_size_t)], ctypes.c_int),
    "tgc_kernel_text": ([_P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)],
                        ctypes.c_int),
    "tgc_kernel_load": ([_P, _P, _PP], ctypes.c_int),
    "tgc_kernel_launch": ([_P, _P, _PP, ctypes.c_size_t, _I64P, ctypes.c_size_t], ctypes.c_int),
    "tgc_program_create": ([_P, ctypes.POINTER(_ProgramOptions), _PP], ctypes.c_int),
    "tgc_program_destroy": ([_P], ctypes.c_int),
    "tgc_program_get_info": ([_P, ctypes.POINTER(_ProgramInfo)], ctypes.c_int),
    "tgc_program_buffer_info": ([_P, ctypes.c_size_t, ctypes.POINTER(_TensorInfo)], ctypes.c_int),
    "tgc_program_output_info": ([_P, ctypes.c_size_t, ctypes.POINTER(_TensorInfo)], ctypes.c_int),
    "tgc_program_set_buffer": ([_P, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int),
    "tgc_program_run": ([_P], ctypes.c_int),
    "tgc_program_read_output": ([_P, ctypes.c_size_t, _P, ctypes.c_size_t], ctypes.c_int),
    # runtime (libTinygradRuntime.so, loaded with the C API)
    "tgrt_last_error": ([], ctypes.c_char_p),
    "tgrt_status_string": ([ctypes.c_int], ctypes.c_char_p),
    "tgrt_device_open": ([ctypes.c_char_p, _P, _PP], ctypes.c_int),
    "tgrt_device_close": ([_P], ctypes.c_int),
    "tgrt_buffer_alloc": ([_P, ctypes.c_size_t, _PP], ctypes.c_int),
    "tgrt_buffer_free": ([_P], ctypes.c_int),
    "tgrt_buffer_size": ([_P, ctypes.POINTER(ctypes.c_size_t)], ctypes.c_int),
    "tgrt_buffer_copy_in": ([_P, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int),
    "tgrt_buffer_copy_out": ([_P, ctypes.c_size_t, _P, ctypes.c_size_t], ctypes.c_int),
    "tgrt_program_free": ([_P], ctypes.c_int),
    # graphs (runtime_graph.py)
    "tgrt_buffer_import_host": ([_P, _P, ctypes.c_size_t, _PP], ctypes.c_int),
    "tgrt_program_load": ([_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _PP], ctypes.c_int),
    # direct launches (cpu_program.py)
    "tgrt_program_launch": ([_P, _P, ctypes.c_uint32, ctypes.c_int32, ctypes.c_uint32], ctypes.c_int),
    "tgrt_signal_create": ([_P, ctypes.c_uint64, _PP], ctypes.c_int),
    "tgrt_signal_destroy": ([_P], ctypes.c_int),
    "tgrt_signal_wait": ([_P, ctypes.c_uint64, ctypes.c_uint64], ctypes.c_int),
    "tgrt_graph_destroy": ([_P], ctypes.c_int),
    "tgrt_graph_exec_count": ([_P, ctypes.POINTER(ctypes.c_uint32)], ctypes.c_int),
    "tgrt_graph_update_buffer": ([_P, _P, _P], ctypes.c_int),
    "tgrt_graph_update_arg": ([_P, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_int64], ctypes.c_int),
    "tgrt_graph_update_dispatch": ([_P, ctypes.c_uint32, ctypes.c_uint32 * 3], ctypes.c_int),
    "tgrt_graph_launch": ([_P, _P, ctypes.c_uint64], ctypes.c_int),
    "tgrt_graph_recorder_create": ([_P, _PP], ctypes.c_int),
    "tgrt_graph_recorder_destroy": ([_P], ctypes.c_int),
    "tgrt_graph_recorder_dispatch": ([_P, _P, _P, ctypes.c_uint32, _P, ctypes.c_uint64], ctypes.c_int),
    "tgrt_graph_recorder_copy": ([_P, _P, ctypes.c_size_t, _P, ctypes.c_size_t, ctypes.c_size_t], ctypes.c_int),
    "tgrt_graph_recorder_wait_count": ([_P, ctypes.POINTER(ctypes.c_uint32)], ctypes.c_int),
    "tgrt_graph_recorder_finish": ([_P, _PP], ctypes.c_int),
}

_lib = None
_lib_path = None
_lib_lock = threading.Lock()


def library():
    """The loaded library (ctypes.CDLL with prototypes), loading it on first use."""
    global _lib, _lib_path
    with _lib_lock:
        if _lib is None:
            path = find_library()
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                raise CAPINotFound(f"tinygrad-mlir: cannot load {path}: {e}") from None
            for name, (args, res) in _SIGNATURES.items():
                fn = getattr(lib, name)
                fn.argtypes, fn.restype = args, res
            if lib.tgc_api_version() != API_VERSION:
                raise CAPINotFound(f"tinygrad-mlir: {path} has C API version {lib.tgc_api_version()}, "
                                   f"this binding needs {API_VERSION}")
            _lib, _lib_path = lib, path
        return _lib


def library_path():
    library()
    return _lib_path


def _check(fn, status):
    if status != 0:
        name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else f"status {status}"
        raise CAPIError(fn, name, library().tgc_last_error().decode(errors="replace"))


def _check_rt(fn, status):
    if status != 0:
        lib = library()
        raise CAPIError(fn, lib.tgrt_status_string(status).decode(), lib.tgrt_last_error().decode(errors="replace"))


def _call(name, *args):
    _check(name, getattr(library(), name)(*args))


def _take_string(ptr):
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        library().tgc_string_free(ptr)


def _ir_callback(sink):
    """A C callback appending (pass, ir) to `sink`, or calling it if it is callable."""
    def cb(pass_name, ir, size, _user):
        item = (pass_name.decode(), ctypes.string_at(ir, size).decode())
        sink(*item) if callable(sink) else sink.append(item)
    return _IR_CALLBACK(cb)


# ---------------------------------------------------------------- compiler

class _Handle:
    _destroy = None

    def __init__(self, handle):
        self._h = handle

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _call(self._destroy, h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def handle(self):
        if not self._h:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._h


class Context(_Handle):
    """A compiler context. Internally locked in C; a Context per thread gives parallelism."""
    _destroy = "tgc_context_destroy"

    def __init__(self):
        h = ctypes.c_void_p()
        _call("tgc_context_create", ctypes.byref(h))
        super().__init__(h.value)

    def import_json(self, text, graph_path=None, name=None):
        """A tinygrad UOp graph (corpus JSON) -> Module. graph_path: e.g. "ast" in a kernel case."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        h = ctypes.c_void_p()
        _call("tgc_module_import_json", self.handle, data, len(data), (name or "<json>").encode(),
              (graph_path or "").encode(), ctypes.byref(h))
        return Module(h.value, self)

    def parse_mlir(self, text, name=None):
        data = text.encode() if isinstance(text, str) else bytes(text)
        h = ctypes.c_void_p()
        _call("tgc_module_parse_mlir", self.handle, data, len(data), (name or "<mlir>").encode(), ctypes.byref(h))
        return Module(h.value, self)


class Module(_Handle):
    _destroy = "tgc_module_destroy"

    def __init__(self, handle, context):
        super().__init__(handle)
        self.context = context

    def print(self, generic=False):
        p = ctypes.c_void_p()
        _call("tgc_module_print", self.handle, int(generic), ctypes.byref(p))
        return _take_string(p)

    __str__ = print

    def export_json(self):
        p = ctypes.c_void_p()
        _call("tgc_module_export_json", self.handle, ctypes.byref(p))
        return _take_string(p)

    def run_pipeline(self, pipeline, verify_each=True, after_pass=None, collect_ir=False):
        """Run a pass pipeline in place. after_pass(pass_name, ir) is called after each pass;
        collect_ir=True returns [(pass_name, ir), ...] instead."""
        seen = [] if collect_ir else None
        sink = seen if collect_ir else after_pass
        cb = _ir_callback(sink) if sink is not None else _IR_CALLBACK()
        opts = _PassOptions(API_VERSION, int(bool(verify_each)), cb, None)
        _call("tgc_module_run_pipeline", self.handle, pipeline.encode(), ctypes.byref(opts))
        return seen

    def compile_cpu(self, max_threads=0, keep=(), after_pass=None):
        """Compile this kernel AST for the host CPU -> Kernel. keep: any of "mlir", "llvm", "asm".
        max_threads: the cores the thread split may use (tinygrad's global_max; 0: the host's).
        after_pass(pass_name, ir): the IR after the kernel lowering and after each llvm pass."""
        bad = set(keep) - {"mlir", "llvm", "asm"}
        if bad:
            raise ValueError(f"keep takes mlir, llvm, asm; got {sorted(bad)}")
        cb = _ir_callback(after_pass) if after_pass is not None else _IR_CALLBACK()
        opts = _CPUOptions(API_VERSION, max_threads, "mlir" in keep, "llvm" in keep, "asm" in keep, cb, None)
        h = ctypes.c_void_p()
        _call("tgc_compile_kernel_cpu", self.handle, ctypes.byref(opts), ctypes.byref(h))
        return Kernel(h.value)

    def beam_search(self, beam, max_threads=0, ignore_cache=False, cache_dir=None, timer=None, target=None,
                    device=None, kernel=False):
        """tinygrad's BEAM search of this kernel AST's opts (tgc_beam_search) -> its result dict:
        "opts" ([{"op", "axis", "arg"}], the opts_to_apply), "cached", "searched", "device", "failures", ...
        timer(opts) -> seconds (or < 0: the candidate fails) replaces the runtime as the clock. `target`
        ("vulkan"; None: the CPU) is what candidates compile for, `device` ("VULKAN:1"; None: the target's)
        where they are timed. kernel=True (tgc_beam_search_kernel): (that dict, the Kernel its opts compile
        to, the winning candidate's own compile, or None where the search has none: cached, not searched,
        a GPU target)."""
        def cb(opts_json, _user):
            try:
                return float(timer(json.loads(opts_json.decode())))
            except Exception:  # an exception cannot cross the C boundary: it fails the candidate
                return -1.0
        ctimer = _BEAM_TIMER(cb) if timer is not None else _BEAM_TIMER()
        opts = _BeamOptions(API_VERSION, beam, max_threads, int(bool(ignore_cache)),
                            cache_dir.encode() if cache_dir else None, ctimer, None,
                            target.encode() if target else None, device.encode() if device else None)
        p = ctypes.c_void_p()
        if not kernel:
            _call("tgc_beam_search", self.handle, ctypes.byref(opts), ctypes.byref(p))
            return json.loads(_take_string(p))
        k = ctypes.c_void_p()
        _call("tgc_beam_search_kernel", self.handle, ctypes.byref(opts), ctypes.byref(p), ctypes.byref(k))
        return json.loads(_take_string(p)), (Kernel(k.value) if k.value else None)

    def compile(self, target="cpu", max_threads=0, keep=()):
        """Compile this kernel AST for `target` ("cpu", "vulkan", "cuda:sm_90", "cuda:sm_90:ptx", "amd:gfx942";
        tgc_compile_kernel) -> Kernel, whose info["format"] names its binary (Kernel.object).
        keep: as compile_cpu's (the CPU's IR only)."""
        bad = set(keep) - {"mlir", "llvm", "asm"}
        if bad:
            raise ValueError(f"keep takes mlir, llvm, asm; got {sorted(bad)}")
        opts = _CPUOptions(API_VERSION, max_threads, "mlir" in keep, "llvm" in keep, "asm" in keep, _IR_CALLBACK(), None)
        h = ctypes.c_void_p()
        _call("tgc_compile_kernel", self.handle, target.encode(), ctypes.byref(opts), ctypes.byref(h))
        return Kernel(h.value, target)

    def program(self, max_threads=0, progress=None, after_pass=None):
        """Schedule this tensor graph (a SINK of the tensors to realize), compile every kernel for
        the host CPU and load it -> TensorProgram. progress: a callable(stage, done, total), or
        True for a bar on stderr (shown only on a terminal, or when TINYGRAD_MLIR_PROGRESS=1),
        or None. after_pass(pass_name, ir): the IR after each pass of every kernel's compile."""
        bar = ProgressBar("tinygrad-mlir") if progress is True else None
        report = bar.update if bar is not None else progress
        pcb = _PROGRESS_CALLBACK((lambda st, d, t, _u: report(st.decode(), d, t))) if report else _PROGRESS_CALLBACK()
        icb = _ir_callback(after_pass) if after_pass is not None else _IR_CALLBACK()
        opts = _ProgramOptions(API_VERSION, max_threads, pcb, icb, None)
        h = ctypes.c_void_p()
        try:
            _call("tgc_program_create", self.handle, ctypes.byref(opts), ctypes.byref(h))
        finally:
            if bar is not None:
                bar.close()
        return TensorProgram(h.value, self.context)


def _tensor_info(fn, handle, index):
    ti = _TensorInfo()
    ti.api_version = API_VERSION
    _call(fn, handle, index, ctypes.byref(ti))
    return {"slot": ti.slot, "dtype": ti.dtype.decode(), "device": ti.device.decode(),
            "shape": tuple(ti.shape[i] for i in range(ti.ndim)), "bytes": ti.bytes}


class TensorProgram(_Handle):
    """A scheduled, compiled tensor program on the CPU device: fill `buffers` (slot order, inputs
    first) with set_buffer, run(), read each of `outputs` as dense row-major bytes."""
    _destroy = "tgc_program_destroy"

    def __init__(self, handle, context):
        super().__init__(handle)
        self.context = context
        self.buffers = [_tensor_info("tgc_program_buffer_info", handle, i) for i in range(self.info()["num_buffers"])]
        self.outputs = [_tensor_info("tgc_program_output_info", handle, i) for i in range(self.info()["num_outputs"])]

    def info(self):
        pi = _ProgramInfo()
        pi.api_version = API_VERSION
        _call("tgc_program_get_info", self.handle, ctypes.byref(pi))
        return {k: getattr(pi, k) for k, _ in _ProgramInfo._fields_ if k != "api_version"}

    def set_buffer(self, index, data):
        data = bytes(data)
        _call("tgc_program_set_buffer", self.handle, index, data, len(data))

    def run(self):
        _call("tgc_program_run", self.handle)

    def read_output(self, index):
        n = self.outputs[index]["bytes"] if 0 <= index < len(self.outputs) else 0
        out = ctypes.create_string_buffer(max(1, n))
        _call("tgc_program_read_output", self.handle, index, out, n)
        return out.raw[:n]


def describe_target(target):
    """What the compiler knows of `target` (tgc_target_describe): a dict of its canonical name, arch, runtime
    device, the dtype names it can lower ("dtypes"), has_local/has_shared/has_threads, global_max, local_max,
    local_prod_max, shared_max_bytes, subgroup_size and offsets_word (its kernels' scalar words end with each
    buffer view's byte offset). CAPIError for an unknown target."""
    ti = _TargetInfo()
    ti.api_version = API_VERSION
    _call("tgc_target_describe", target.encode(), ctypes.byref(ti))
    return {"name": ti.name.decode(), "arch": ti.arch.decode(), "device": ti.device.decode(),
            "dtypes": [ti.dtypes[i].decode() for i in range(ti.num_dtypes)],
            "has_local": bool(ti.has_local), "has_shared": bool(ti.has_shared), "has_threads": bool(ti.has_threads),
            "global_max": list(ti.global_max), "local_max": list(ti.local_max), "local_prod_max": ti.local_prod_max,
            "shared_max_bytes": ti.shared_max_bytes, "subgroup_size": ti.subgroup_size,
            "offsets_word": ti.offsets_word}


class Kernel(_Handle):
    """A compiled kernel: the ELF object and tinygrad's ProgramInfo (`info`)."""
    _destroy = "tgc_kernel_destroy"

    def __init__(self, handle, target="cpu"):
        super().__init__(handle)
        self.target = target
        ki = _KernelInfo()
        ki.api_version = API_VERSION
        _call("tgc_kernel_get_info", self.handle, ctypes.byref(ki))

        def arr(p, n):
            return [p[i] for i in range(n)]
        self.info = {
            "name": ki.name.decode(),
            "global_size": list(ki.global_size), "local_size": list(ki.local_size),
            "global_size_expr": [x.decode() for x in ki.global_size_expr],
            "local_size_expr": [x.decode() for x in ki.local_size_expr],
            "globals": arr(ki.globals, ki.num_globals), "global_elements": arr(ki.global_elements, ki.num_globals),
            "outs": arr(ki.outs, ki.num_outs), "ins": arr(ki.ins, ki.num_ins),
            "vars": [ki.vars[i].decode() for i in range(ki.num_vars)],
            "var_dtypes": [ki.var_dtypes[i].decode() for i in range(ki.num_vars)],
            "core_id_arg": ki.core_id_arg, "codegen_ms": ki.codegen_ms, "llvm_ms": ki.llvm_ms,
            # tinygrad's Estimates of the kernel as compiled (-1: see the expression)
            "estimates": {k: getattr(ki, k) for k in ("ops", "lds", "mem")},
            "estimates_expr": {k: getattr(ki, k + "_expr").decode() for k in ("ops", "lds", "mem")},
        }
        fmt = ctypes.c_uint32()
        _call("tgc_kernel_format", self.handle, ctypes.byref(fmt))
        self.info["format"] = FORMAT_NAMES.get(fmt.value, str(fmt.value))
        # whether the scalar words end with the buffers' view offsets: the target's (tgc_target_describe)
        self.info["offsets_word"] = describe_target(target)["offsets_word"]
        data, size = ctypes.c_void_p(), ctypes.c_size_t()
        _call("tgc_kernel_object", self.handle, ctypes.byref(data), ctypes.byref(size))
        self.object = ctypes.string_at(data, size.value)

    def text(self, kind):
        """The IR kept with compile_cpu(keep=...): "mlir", "llvm" or "asm" ("" if not kept); or "uops",
        always there: the compiled program's linear form and Estimates as JSON (tgc_text_kind); or
        "phases", always there: JSON {phase: ms} of where the compile's time went."""
        p, n = ctypes.c_char_p(), ctypes.c_size_t()
        _call("tgc_kernel_text", self.handle, TEXT_KINDS[kind], ctypes.byref(p), ctypes.byref(n))
        return ctypes.string_at(p, n.value).decode()

    def result(self):
        """The fields tinygrad-compile prints (backend.check_result's input), `binary` = the object."""
        i = self.info
        return {"format": i["format"], "local_size": i["local_size"], "offsets_word": i["offsets_word"],
                "name": i["name"], "binary": self.object, "globals": i["globals"], "outs": i["outs"],
                "ins": i["ins"], "vars": i["vars"], "var_dtypes": i["var_dtypes"], "core_id_arg": i["core_id_arg"],
                "global_size": i["global_size"], "codegen_ms": i["codegen_ms"], "llvm_ms": i["llvm_ms"],
                "uops": json.loads(self.text("uops")), "phases": json.loads(self.text("phases"))}

    def load(self, device):
        """A Program on `device` (a Device) running this kernel."""
        h = ctypes.c_void_p()
        _call("tgc_kernel_load", self.handle, device.handle, ctypes.byref(h))
        return Program(h.value, device, self)


# ---------------------------------------------------------------- runtime

class Device(_Handle):
    """tgrt_device_open("CPU")."""

    def __init__(self, name="CPU"):
        h = ctypes.c_void_p()
        _check_rt("tgrt_device_open", library().tgrt_device_open(name.encode(), None, ctypes.byref(h)))
        super().__init__(h.value)

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _check_rt("tgrt_device_close", library().tgrt_device_close(h))

    def buffer(self, size_or_data):
        """A Buffer of that many bytes (zeroed), or holding a copy of the given bytes."""
        data = None if isinstance(size_or_data, int) else bytes(size_or_data)
        b = Buffer(self, len(data) if data is not None else size_or_data)
        if data:
            b.copy_in(data)
        return b


class Buffer(_Handle):
    def __init__(self, device, size):
        h = ctypes.c_void_p()
        _check_rt("tgrt_buffer_alloc", library().tgrt_buffer_alloc(device.handle, size, ctypes.byref(h)))
        super().__init__(h.value)
        self.device, self.size = device, size

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _check_rt("tgrt_buffer_free", library().tgrt_buffer_free(h))

    def copy_in(self, data, offset=0):
        data = bytes(data)
        _check_rt("tgrt_buffer_copy_in", library().tgrt_buffer_copy_in(self.handle, offset, data, len(data)))

    def read(self, size=None, offset=0):
        n = self.size - offset if size is None else size
        out = ctypes.create_string_buffer(n)
        _check_rt("tgrt_buffer_copy_out", library().tgrt_buffer_copy_out(self.handle, offset, out, n))
        return out.raw


class Program(_Handle):
    def __init__(self, handle, device, kernel):
        super().__init__(handle)
        self.device, self.kernel = device, kernel

    def close(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _check_rt("tgrt_program_free", library().tgrt_program_free(h))

    def __call__(self, buffers, var_values=()):
        """Launch and wait: buffers in the kernel's globals order, var_values in its vars order
        (core_id's value is ignored; pass 0)."""
        bufs = (ctypes.c_void_p * max(1, len(buffers)))(*[b.handle for b in buffers])
        vals = (ctypes.c_int64 * max(1, len(var_values)))(*var_values)
        _call("tgc_kernel_launch", self.kernel.handle, self.handle, bufs, len(buffers), vals, len(var_values))


# ---------------------------------------------------------------- kernel cases

# struct formats of tinygrad's buffer dtypes (bfloat16: the top half of a float32)
_FORMATS = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i", "uint32": "I",
            "int64": "q", "uint64": "Q", "float16": "e", "float32": "f", "float64": "d", "bfloat16": "bf16"}


def _value(v):
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    return v


def encode(values, dtype):
    """Corpus JSON values -> the buffer's bytes."""
    fmt = _FORMATS.get(dtype)
    if fmt is None:
        raise ValueError(f"unsupported buffer dtype {dtype}")
    if fmt == "bf16":
        return b"".join(struct.pack("<f", float(_value(v)))[2:] for v in values)
    vals = [_value(v) for v in values]
    if fmt in "efd":
        vals = [float(v) for v in vals]
    elif fmt == "?":
        vals = [bool(v) for v in vals]
    else:
        vals = [int(v) for v in vals]
    return struct.pack(f"<{len(vals)}{fmt}", *vals)


def decode(data, dtype):
    fmt = _FORMATS[dtype]
    if fmt == "bf16":
        return [struct.unpack("<f", b"\0\0" + data[i:i + 2])[0] for i in range(0, len(data), 2)]
    n = len(data) // struct.calcsize(fmt)
    return list(struct.unpack(f"<{n}{fmt}", data[:n * struct.calcsize(fmt)]))


def _close_enough(got, want, dtype):
    if isinstance(got, float):
        if got != got or want != want:
            return got != got and want != want
        if got == want:
            return True
        tol = 1e-2 if dtype in ("float16", "bfloat16") else 1e-5
        return abs(got - want) <= tol * max(abs(want), 1e-30) or abs(got - want) <= 1e-30
    return got == want


def itemsize(dtype):
    fmt = _FORMATS[dtype]
    return 2 if fmt == "bf16" else struct.calcsize(fmt)


def with_opts(graph, opts):
    """A copy of a kernel AST graph (corpus JSON, a dict) whose KernelInfo asks for exactly `opts`:
    tinygrad's opts_to_apply, which the compiler applies instead of its heuristics. Each opt is
    (op, axis, arg), e.g. ("UPCAST", 0, 4), ("THREAD", 0, 2), ("UNROLL", 0, 4), ("NOLOCALS", None, None).
    An opt that does not fit the kernel fails the compile with a message, as in tinygrad."""
    import copy
    out = copy.deepcopy(graph)
    root = out["nodes"][out.get("root", len(out["nodes"]) - 1)]
    info = root.get("arg")
    if root.get("op") != "SINK" or not isinstance(info, dict) or info.get("kind") != "KernelInfo":
        raise ValueError("with_opts: the graph's root is not a SINK with a KernelInfo (not a kernel AST)")
    info["opts_to_apply"] = [{"kind": "Opt", "op": op, "axis": axis, "arg": arg} for op, axis, arg in opts]
    return out


def run_case(case, context=None, device=None, **compile_opts):
    """Compile a corpus kernel case (a dict, or the path of its JSON) and run it on its inputs.

    Returns {"match": bool, "outputs": {slot: values}, "mismatches": [...], "kernel": Kernel.info}.
    Floats compare within 1e-5 relative (1e-2 for 16-bit floats), NaN equal to NaN."""
    import json
    if isinstance(case, (str, os.PathLike)):
        with open(case, encoding="utf-8") as f:
            text = "\n".join("" if ln.startswith("//") else ln for ln in f.read().split("\n"))
        case = json.loads(text)
    ctx = context or Context()
    dev = device or Device()
    owned = []
    try:
        mod = ctx.import_json(json.dumps(case["ast"]), name=case.get("id", "<case>"))
        owned.append(mod)
        kernel = mod.compile_cpu(**compile_opts)
        owned.append(kernel)
        params = {p["slot"]: p for p in case["params"]}
        bufs = {}
        for slot, p in params.items():
            b = dev.buffer(max(1, p["size"]) * itemsize(p["dtype"]))
            owned.append(b)
            bufs[slot] = b
        for slot, vals in (case.get("inputs") or {}).items():
            bufs[int(slot)].copy_in(encode(vals, params[int(slot)]["dtype"]))
        var_vals = case.get("var_vals") or {}
        vals = [0 if v == "core_id" else var_vals[v] for v in kernel.info["vars"]]
        prog = kernel.load(dev)
        owned.append(prog)
        prog([bufs[s] for s in kernel.info["globals"]], vals)
        outputs, mismatches = {}, []
        for slot, want in (case.get("outputs") or {}).items():
            p = params[int(slot)]
            got = decode(bufs[int(slot)].read(p["size"] * itemsize(p["dtype"])), p["dtype"])
            outputs[int(slot)] = got
            for i, (g, w) in enumerate(zip(got, want)):
                w = _value(w)
                if isinstance(g, float):
                    w = float(w)
                if not _close_enough(g, w, p["dtype"]):
                    mismatches.append({"slot": int(slot), "index": i, "got": g, "want": w})
        return {"match": not mismatches, "outputs": outputs, "mismatches": mismatches, "kernel": kernel.info}
    finally:
        for h in reversed(owned):
            h.close()
        if device is None:
            dev.close()
        if context is None:
            ctx.close()
