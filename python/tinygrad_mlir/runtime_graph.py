"""Our runtime's graphs as tinygrad's JIT graph: TinyJit replays through one `tgrt_graph` (issue #25).

tinygrad's JIT (engine/jit.py) splits a captured schedule into batches that a device's `graph` class
accepts (`supports_uop`) and runs each batch as one graph call; everything else replays kernel by
kernel. tinygrad's CPU device has no graph, so without this module TinyJit on DEV=CPU:MLIR replays
through tinygrad's CPU runner, one ctypes call per kernel. `RuntimeGraph` is a `MultiGraphRunner`
(tinygrad's HCQGraph is one too) that records a batch once through our runtime's graph recorder
(tgrt_graph_recorder_*, runtime.h), which does what HCQGraph.__init__ does: kernels on the device's compute
queue, copies on its copy queue, and between the two only the waits the data dependencies need (a kernel's
written buffers are its ProgramInfo.outs), and captures it as a `tgrt_graph`. Each call then patches only what changed since the last
one, as HCQGraph does, and launches the graph:

* a buffer that comes from a JIT input (a PARAM, or a view of one) is a use of its own in the
  recording; when the input's memory differs from the last call's, `tgrt_graph_update_buffer` points that
  use at the new memory. Buffers the JIT owns (weights, the memory planner's arena) never change;
* a bound variable (`GraphRunner.updated_vars`) whose value changed: `tgrt_graph_update_arg`;
* launch dims that depend on a variable (`updated_launch_dims`) that changed: `tgrt_graph_update_dispatch`.

The call waits for the launch: tinygrad's CPU device runs its kernels synchronously, so whatever runs
after the JIT call (a kernel of tinygrad's runner, a copy out) expects the graph's writes done.

`CPUGraph` is the graph of tinygrad's CPU device when its kernels are ours (DEV=CPU:MLIR: PROGRAMs whose
target renderer is MLIR). tinygrad's CPU allocator owns the memory, so each buffer is imported into our
runtime's CPU device in place (tgrt_buffer_import_host) and each program is loaded from the same ELF
object tinygrad's CPU runner loads (tgrt_program_load). Copies between CPU devices (CPU:0, CPU:1) are
host copies on the same runtime device. With TINYGRAD_MLIR_CHECK, graphs are off so that every launch
is still compared with tinygrad's program.

`stats` counts graphs, launches and what each call patched (python/tests/test_runtime_graph.py checks
them; the pytest plugin prints them).
"""
import ctypes
import os
import time

from tinygrad.engine.jit import GraphRunner, MultiGraphRunner
from tinygrad.device import Device
from tinygrad.engine.realize import get_call_arg_uops, get_runtime, resolve_params, unwrap_multi
from tinygrad.runtime.ops_cpu import CPUDevice
from tinygrad.uop.ops import Ops

from . import capi, cpu_program
from .gpu_device import TGRT_API_VERSION, TGRT_ARG_BUFFER, TGRT_ARG_INT, VulkanDevice, _Arg, _Dispatch

stats = {"graphs": 0, "launches": 0, "execs": 0, "copies": 0, "waits": 0, "buffer_updates": 0, "arg_updates": 0,
         "dispatch_updates": 0}

TGRT_WAIT_INFINITE = 2**64 - 1


def _call(name, *args):
    capi._check_rt(name, getattr(capi.library(), name)(*args))


def _new(name, *args):
    """Calls a tgrt_* constructor whose last parameter is the out-handle; returns the handle."""
    h = ctypes.c_void_p()
    _call(name, *args, ctypes.byref(h))
    return h.value


def _dims(d):
    return (ctypes.c_uint32 * 3)(*[int(x) for x in (tuple(d) + (1, 1, 1))[:3]])


class _Use:
    """One buffer operand of a recorded command that comes from a JIT input: the captured handle the
    graph knows it by, the key of the memory it points at now, and the handle we hold for that memory."""
    __slots__ = ("call", "lane", "pos", "captured", "key", "current")

    def __init__(self, call, lane, pos, captured, key):
        self.call, self.lane, self.pos, self.captured, self.key, self.current = call, lane, pos, captured, key, captured


def _input_positions(call):
    """Positions of the call's buffer arguments that come from a JIT input (a PARAM or a view of one)."""
    return [p for p, u in enumerate(get_call_arg_uops(call)) if any(x.op is Ops.PARAM for x in u.toposort())]


class RuntimeGraph(MultiGraphRunner):
    """A batch of the JIT's calls as one tgrt_graph. Subclasses say which tinygrad devices and programs
    they take (`device_type`, `takes_program`) and how a tinygrad buffer or program becomes a runtime
    handle (`rt_device`, `buffer_key`, `buffer_handle`, `program_handle`, `dispatch`)."""
    device_type = None

    # ---- what a subclass provides

    @classmethod
    def takes_program(cls, prg):
        raise NotImplementedError

    def rt_device(self):
        raise NotImplementedError

    def buffer_key(self, buf, device):
        """What identifies the memory a tinygrad buffer is (the same key: the same memory)."""
        raise NotImplementedError

    def buffer_handle(self, key):
        """(runtime handle of that memory, whether we own the handle and must free it)."""
        raise NotImplementedError

    def program_handle(self, prg, device):
        raise NotImplementedError

    def dispatch(self, prg, global_size):
        raise NotImplementedError

    # ---- tinygrad's side

    @classmethod
    def supports_uop(cls, batch_devs, new_call):
        ast = new_call.src[0]
        if ast.op is Ops.PROGRAM:
            if not cls.takes_program(ast):
                return False
        elif ast.op is not Ops.COPY:
            return False
        return all(isinstance(d, cls.device_type) for d in GraphRunner._all_devs(batch_devs, new_call))

    def __init__(self, linear, input_uops=()):
        super().__init__(linear, input_uops)
        self._owned, self._graph, self._signal, self._value = [], None, None, 0
        self._uses, self._fixed, self._exec_of, self._vals, self._dims = [], {}, {}, {}, {}
        self._dyn_calls = []  # (index in self.linear.src, its call, input positions, first j of its lanes)
        try:
            self._record(input_uops)
        except BaseException:
            self._release()
            raise
        stats["graphs"] += 1

    def _handle(self, key):
        h, owned = self.buffer_handle(key)
        if owned:
            self._owned.append(h)
        return h

    def _record(self, input_uops):
        dev = self.rt_device()
        q = _new("tgrt_graph_recorder_create", dev)
        try:
            j = 0
            for ci, call in enumerate(self.linear.src):
                dyn = set(_input_positions(call))
                if dyn:
                    self._dyn_calls.append((ci, call, sorted(dyn), j))
                for lane in range(len(list(unwrap_multi(call, resolve_params(call, input_uops))))):
                    self._record_call(q, j, lane, dyn)
                    j += 1
            self._graph = _new("tgrt_graph_recorder_finish", q)
            waits = ctypes.c_uint32()
            _call("tgrt_graph_recorder_wait_count", q, ctypes.byref(waits))
            stats["waits"] += waits.value
            n = ctypes.c_uint32()
            _call("tgrt_graph_exec_count", self._graph, ctypes.byref(n))
            if n.value != len(self._exec_of):  # the exec indices the patches name
                raise RuntimeError(f"tgrt_graph captured {n.value} execs, {len(self._exec_of)} were recorded")
        finally:
            _call("tgrt_graph_recorder_destroy", q)
        self._signal = _new("tgrt_signal_create", dev, 0)

    def _record_call(self, q, j, lane, dyn):
        _, ast, bufs, device_vars = self.calls[j]

        def operand(pos):
            b = bufs[pos]
            key = self.buffer_key(b, b.device)
            if pos in dyn:  # a use of its own, patched when the input changes
                h = self._handle(key)
                self._uses.append(_Use(j, lane, pos, h, key))
                return h
            if key not in self._fixed:  # one handle per piece of the JIT's own memory
                self._fixed[key] = self._handle(key)
            return self._fixed[key]

        if ast.op is Ops.COPY:
            dst, src = operand(0), operand(1)
            _call("tgrt_graph_recorder_copy", q, dst, 0, src, 0, bufs[0].nbytes)
            stats["copies"] += 1
            return
        info = ast.arg
        device = bufs[0].device
        args = (_Arg * max(1, len(info.globals) + len(info.vars)))()
        for k, pos in enumerate(info.globals):
            args[k] = _Arg(TGRT_ARG_BUFFER, 0, operand(pos), 0)
        for i, v in enumerate(info.vars):  # bound per device (_device_num) now, the others patched per call
            args[len(info.globals) + i] = _Arg(TGRT_ARG_INT, 0, None, int(device_vars.get(v.expr, 0)) & (2**64 - 1))
        base = self.launch_dims_base.get(j, (info.global_size, info.local_size))[0]
        d = self.dispatch(ast, [x if isinstance(x, int) else 1 for x in base])
        # the buffers the kernel writes (all of them if its info does not say)
        written = sum(1 << k for k, pos in enumerate(info.globals) if pos in info.outs or not info.outs)
        _call("tgrt_graph_recorder_dispatch", q, self.program_handle(ast, device), args,
              len(info.globals) + len(info.vars), ctypes.byref(d), ctypes.c_uint64(written))
        self._exec_of[j] = len(self._exec_of)
        stats["execs"] += 1

    # ---- replay

    def __call__(self, input_uops, var_vals, wait=False):
        st = time.perf_counter()
        self._patch_buffers(input_uops)
        for j, i, v in self.updated_vars(var_vals):
            if self._vals.get((j, i)) != v:
                _call("tgrt_graph_update_arg", self._graph, self._exec_of[j], len(self.calls[j][1].arg.globals) + i, v)
                self._vals[(j, i)] = v
                stats["arg_updates"] += 1
        for j, gl, _ in self.updated_launch_dims(var_vals):
            if self._dims.get(j) != tuple(gl):
                _call("tgrt_graph_update_dispatch", self._graph, self._exec_of[j],
                      self.dispatch(self.calls[j][1], gl).global_size)
                self._dims[j] = tuple(gl)
                stats["dispatch_updates"] += 1
        self._value += 1
        _call("tgrt_graph_launch", self._graph, self._signal, self._value)
        _call("tgrt_signal_wait", self._signal, self._value, TGRT_WAIT_INFINITE)
        stats["launches"] += 1
        return time.perf_counter() - st if wait else None

    def _patch_buffers(self, input_uops):
        if not self._uses:
            return
        now = {}
        for _, call, positions, j0 in self._dyn_calls:
            for lane, (bufs, _) in enumerate(unwrap_multi(call, resolve_params(call, input_uops))):
                for pos in positions:
                    now[(j0 + lane, pos)] = bufs[pos]
        for use in self._uses:
            b = now[(use.call, use.pos)]
            key = self.buffer_key(b.ensure_allocated(), b.device)
            if key == use.key:
                continue
            h, owned = self.buffer_handle(key)
            try:
                _call("tgrt_graph_update_buffer", self._graph, use.captured, h)
            except BaseException:
                if owned:
                    _call("tgrt_buffer_free", h)
                raise
            if use.current is not use.captured and use.current in self._owned:
                self._owned.remove(use.current)
                _call("tgrt_buffer_free", use.current)
            if owned:
                self._owned.append(h)
            use.key, use.current = key, h
            stats["buffer_updates"] += 1

    def _release(self):
        lib = capi._lib
        if lib is None:
            return
        if self._graph:
            lib.tgrt_graph_destroy(self._graph)
        if self._signal:
            lib.tgrt_signal_destroy(self._signal)
        for h in self._owned:
            lib.tgrt_buffer_free(h)
        self._graph, self._signal, self._owned = None, None, []

    def __del__(self):
        self._release()


# ---------------------------------------------------------------- tinygrad's CPU device (DEV=CPU:MLIR)

_cpu = {"programs": {}}


def _cpu_device():
    return cpu_program.device()  # one runtime CPU device (one thread pool) for graphs and launches


class CPUGraph(RuntimeGraph):
    device_type = CPUDevice

    @classmethod
    def takes_program(cls, prg):
        if os.environ.get("TINYGRAD_MLIR_CHECK", "") not in ("", "0"):
            return False  # every launch goes through tinygrad's runner, which compares it
        return getattr(prg.arg.target, "renderer", "") == "MLIR"

    def rt_device(self):
        return _cpu_device()

    def buffer_key(self, buf, device):
        return int(buf.get_buf(device).va_addr), buf.nbytes

    def buffer_handle(self, key):
        return _new("tgrt_buffer_import_host", _cpu_device(), ctypes.c_void_p(key[0]), key[1]), True

    def program_handle(self, prg, device):
        h = _cpu["programs"].get(prg.key)
        if h is None:
            lib = prg.to_elf().lib
            h = _cpu["programs"][prg.key] = _new("tgrt_program_load", _cpu_device(), lib, len(lib), None)
        return h

    def dispatch(self, prg, global_size):
        core = prg.arg.runtimevars.get("core_id")
        gs = [int(global_size[0]), 1, 1] if core is not None else [1, 1, 1]
        return _Dispatch(TGRT_API_VERSION, _dims(gs), _dims((1, 1, 1)),
                         -1 if core is None else len(prg.arg.globals) + core)


# ---------------------------------------------------------------- our Vulkan device (DEV=VULKAN, gpu_device.py)

class VulkanGraph(RuntimeGraph):
    """Buffers and programs are already the runtime's (gpu_device's allocator and GPUProgram): the graph
    names their handles. One graph is one runtime device, so a batch stays on one VULKAN device."""
    device_type = VulkanDevice

    @classmethod
    def supports_uop(cls, batch_devs, new_call):
        return RuntimeGraph.supports_uop.__func__(cls, batch_devs, new_call) and \
            len(GraphRunner._all_devs(batch_devs, new_call)) == 1

    @classmethod
    def takes_program(cls, prg):
        return True  # every kernel of the device is ours (no fallback)

    def rt_device(self):
        return Device[self.calls[0][2][0].device].rt.handle

    def buffer_key(self, buf, device):
        return buf.get_buf(device).handle, buf.nbytes

    def buffer_handle(self, key):
        return key[0], False

    def program_handle(self, prg, device):
        return get_runtime(device, prg).handle

    def dispatch(self, prg, global_size):
        local = get_runtime(prg.device if isinstance(prg.device, str) else prg.device[0], prg).meta["local_size"]
        return _Dispatch(TGRT_API_VERSION, _dims(global_size), _dims(local), -1)


def install(device):
    """Gives a tinygrad device of ours its graph (Compiled.graph, which graph_split_rewrite asks): tinygrad's
    CPU devices (their kernels when ours) and our Vulkan device."""
    if isinstance(device, CPUDevice):
        device.graph = CPUGraph
    elif isinstance(device, VulkanDevice):
        device.graph = VulkanGraph
