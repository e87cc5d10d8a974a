"""Our kernels outside TinyJit run through our runtime's CPU device, their core_id lanes in parallel.

tinygrad's CPU runner (runtime/ops_cpu.py CPUProgram.__call__) calls a kernel split over `core_id`
once per lane, one after another, on the Python thread: a kernel our compiler split over
NUM_CPU_THREADS cores runs on one of them everywhere but in a TinyJit replay (runtime_graph.py's
graph launches the lanes on the runtime's thread pool). So the first call of a model, and every call
of code without TinyJit, ran ~NUM_CPU_THREADS times slower than the kernels allow (mnist_train's
first training step: 2.3 s of kernels at 2 threads, against ~0.8 s for the same kernels replayed).

`install(device)` makes tinygrad's CPU device load our PROGRAMs (ELF objects whose target renderer is
MLIR) as `RuntimeCPUProgram`: loaded by the runtime's ELF loader (tgrt_program_load, on the CPU device
runtime_graph's graphs use) and launched with tgrt_program_launch, which
calls the lanes in parallel on the CPU device's persistent threads and returns when all are done
(tinygrad's CPU runner is synchronous too). Every other program (tinygrad's own Clang kernels,
TINYGRAD_MLIR_FALLBACK's) keeps tinygrad's runner.

`stats` counts the programs loaded and freed and the launches (python/tests/test_cpu_program.py checks them).
"""
import ctypes
import sys
import time

from . import capi
from .gpu_device import TGRT_ARG_INT, _Arg

stats = {"programs": 0, "freed": 0, "launches": 0}

_state = {"device": None}


def device():
    """The runtime's CPU device (opened once; its thread pool runs every launch and graph of ours)."""
    if _state["device"] is None:
        _state["device"] = capi.Device("CPU")
    return _state["device"].handle


class RuntimeCPUProgram:
    """tinygrad's Program interface (engine/realize.py calls it as it calls CPUProgram) over one of
    our ELF objects: the buffers' host addresses, then the variables, each a 64-bit argument (tinygrad's
    CPU convention); core_id (if the kernel has it) is set per lane by the runtime."""

    def __init__(self, dev, obj):
        self.dev, self.name, self.signature = dev, obj.name, obj.signature
        h, self._lib = ctypes.c_void_p(), capi.library()
        capi._check_rt("tgrt_program_load", self._lib.tgrt_program_load(device(), obj.lib, len(obj.lib), None,
                                                                      ctypes.byref(h)))
        self.handle = h.value
        stats["programs"] += 1
        core = [slot for name, slot, *_ in obj.signature if name == "core_id"]
        self.core_id = core[0] if core else -1

    # tinygrad drops the runtimes it does not cache (BEAM's candidates); at exit (module globals gone, hence
    # the default argument) the process's memory goes anyway
    def __del__(self, _finalizing=sys.is_finalizing):
        h, self.handle = getattr(self, "handle", None), None
        if h and not _finalizing():
            capi._check_rt("tgrt_program_free", self._lib.tgrt_program_free(h))
            stats["freed"] += 1

    def __call__(self, *bufs, global_size=(1, 1, 1), local_size=(1, 1, 1), vals=(), wait=False, timeout=None):
        # core_id's value is None (tinygrad's runner sets it per lane, the runtime does here)
        values = [int(b.va_addr) for b in bufs] + [0 if v is None else int(v) for v in vals]
        args = (_Arg * max(1, len(values)))(*[_Arg(TGRT_ARG_INT, 0, None, v & (2**64 - 1)) for v in values])
        t0 = time.perf_counter()
        capi._check_rt("tgrt_program_launch", self._lib.tgrt_program_launch(
            self.handle, args, len(values), self.core_id, int(global_size[0])))
        stats["launches"] += 1
        return time.perf_counter() - t0 if wait else None


def _is_ours(obj):
    return getattr(getattr(obj, "target", None), "renderer", "") == "MLIR"


def install(dev):
    """Idempotent: tinygrad's CPU device `dev` runs our ELF objects as RuntimeCPUProgram, the rest with
    its own runner."""
    tinygrads = dev.runtime_t
    if getattr(tinygrads, "_tinygrad_mlir", False):
        return

    def runtime(d, obj):
        return RuntimeCPUProgram(d, obj) if _is_ours(obj) else tinygrads(d, obj)
    runtime._tinygrad_mlir = True
    runtime.tinygrads = tinygrads
    dev.runtime_t = runtime
