"""tinygrad devices backed by our runtime's GPU drivers and our compiler: `DEV=VULKAN`.

tinygrad has no Vulkan backend; this module is one, registered from outside tinygrad (no tinygrad
file is edited): `install()` puts it in `sys.modules` as `tinygrad.runtime.ops_vulkan`, where
`Device.get_class` looks for a `VulkanDevice`. tinygrad schedules as for any device; every kernel
is compiled by our compiler for the target `vulkan` (tinygrad.py's `do_to_program` wrapper sends
SINKs rendered for a `GPURenderer` to it) and runs through the runtime's Vulkan driver
(`tgrt_program_create` with SPIR-V, `tgrt_program_dispatch`). There is no fallback: a kernel we
cannot compile raises, it never runs on the CPU or through tinygrad's own codegen.

The program binary tinygrad carries in its PROGRAM's BINARY is a small container: the magic
`TGGPU1\\0\\0`, a little-endian u32 length, that many bytes of JSON describing the kernel's
interface as the runtime needs it (format, entry, buffer count, scalar widths, offsets word,
local size), then the binary itself (SPIR-V words). tinygrad never looks inside a binary.
"""
import ctypes
import json
import struct
import sys

from tinygrad.device import BufferSpec, Compiled, LRUAllocator, Program, TinyELF
from tinygrad.dtype import dtypes
from tinygrad.renderer import Renderer

from . import capi

MAGIC = b"TGGPU1\0\0"
FORMATS = {"spirv": 2, "cubin": 3, "ptx": 4, "hsaco": 5}


def pack_binary(meta, binary):
    """The container: MAGIC, u32 JSON length, JSON (the interface), the binary."""
    blob = json.dumps(meta, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(blob)) + blob + bytes(binary)


def unpack_binary(lib):
    """(interface dict, binary bytes) of a container made by pack_binary; ValueError otherwise."""
    if not lib.startswith(MAGIC) or len(lib) < len(MAGIC) + 4:
        raise ValueError("not a tinygrad-mlir GPU program (no TGGPU1 header)")
    (n,) = struct.unpack_from("<I", lib, len(MAGIC))
    start = len(MAGIC) + 4
    if start + n > len(lib):
        raise ValueError("truncated tinygrad-mlir GPU program header")
    return json.loads(lib[start:start + n]), lib[start + n:]


# ---------------------------------------------------------------- runtime structs (runtime.h)

class _DeviceInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("driver", ctypes.c_char * 16), ("description", ctypes.c_char * 128),
                ("features", ctypes.c_uint32), ("max_workgroup_size", ctypes.c_uint32 * 3),
                ("max_workgroup_invocations", ctypes.c_uint32), ("max_workgroup_count", ctypes.c_uint32 * 3),
                ("shared_memory_bytes", ctypes.c_uint32), ("subgroup_size", ctypes.c_uint32),
                ("buffer_offset_alignment", ctypes.c_uint32), ("arch", ctypes.c_char * 16)]


class _ProgramDesc(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("format", ctypes.c_uint32), ("binary", ctypes.c_void_p),
                ("size", ctypes.c_size_t), ("entry_name", ctypes.c_char_p), ("num_buffers", ctypes.c_uint32),
                ("num_scalars", ctypes.c_uint32), ("scalar_bytes", ctypes.POINTER(ctypes.c_uint8)),
                ("offsets_word", ctypes.c_uint32), ("local_size", ctypes.c_uint32 * 3)]


class _Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint32), ("reserved", ctypes.c_uint32), ("buffer", ctypes.c_void_p),
                ("value", ctypes.c_uint64)]


class _Dispatch(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("global_size", ctypes.c_uint32 * 3),
                ("local_size", ctypes.c_uint32 * 3), ("core_id_arg_index", ctypes.c_int32)]


_P, _PP = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
_RT_SIGNATURES = {
    "tgrt_device_query": ([_P, ctypes.POINTER(_DeviceInfo)], ctypes.c_int),
    "tgrt_device_synchronize": ([_P, ctypes.c_uint64], ctypes.c_int),
    "tgrt_buffer_view": ([_P, ctypes.c_size_t, ctypes.c_size_t, _PP], ctypes.c_int),
    "tgrt_program_create": ([_P, ctypes.POINTER(_ProgramDesc), _PP], ctypes.c_int),
    "tgrt_program_dispatch": ([_P, ctypes.POINTER(_Arg), ctypes.c_uint32, ctypes.POINTER(_Dispatch)], ctypes.c_int),
}
TGRT_API_VERSION = 1
TGRT_ARG_BUFFER, TGRT_ARG_INT = 1, 2
FEATURE_FLOAT16, FEATURE_FLOAT64, FEATURE_INT8, FEATURE_INT16, FEATURE_INT64 = 1, 2, 4, 8, 16


def _rt():
    lib = capi.library()
    if not getattr(lib, "_gpu_device_prototypes", False):
        for name, (args, res) in _RT_SIGNATURES.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, res
        lib._gpu_device_prototypes = True
    return lib


def _check(fn, status):
    capi._check_rt(fn, status)


# ---------------------------------------------------------------- memory

class _Buf:
    """A runtime buffer handle, freed by the allocator's _free; or a view (`base` set), whose handle
    goes with the Python object, since tinygrad drops views without freeing them."""
    __slots__ = ("handle", "size", "base")

    def __init__(self, handle, size, base=None):
        self.handle, self.size, self.base = handle, size, base

    def __del__(self):
        if self.base is not None and self.handle and capi._lib is not None:
            capi._lib.tgrt_buffer_free(self.handle)


class GPUAllocator(LRUAllocator):
    def _alloc(self, size, options: BufferSpec):
        h = ctypes.c_void_p()
        _check("tgrt_buffer_alloc", _rt().tgrt_buffer_alloc(self.dev.rt.handle, size, ctypes.byref(h)))
        return _Buf(h.value, size)

    def _free(self, opaque, options: BufferSpec):
        if opaque.handle:
            _check("tgrt_buffer_free", _rt().tgrt_buffer_free(opaque.handle))
            opaque.handle = None

    def _offset(self, buf, size, offset):
        h = ctypes.c_void_p()
        _check("tgrt_buffer_view", _rt().tgrt_buffer_view(buf.handle, offset, size, ctypes.byref(h)))
        return _Buf(h.value, size, buf)

    def _copyin(self, dest, src: memoryview):
        data = bytes(src)
        _check("tgrt_buffer_copy_in", _rt().tgrt_buffer_copy_in(dest.handle, 0, data, len(data)))

    def _copyout(self, dest: memoryview, src):
        n = dest.nbytes
        out = (ctypes.c_char * n).from_buffer(dest.cast("B"))
        _check("tgrt_buffer_copy_out", _rt().tgrt_buffer_copy_out(src.handle, 0, out, n))


# ---------------------------------------------------------------- programs

class GPUProgram(Program):
    """One compiled kernel on the device: the container's binary loaded through tgrt_program_create."""

    def __init__(self, dev, obj: TinyELF):
        self.dev, self.name = dev, obj.name
        self.meta, self.binary = unpack_binary(obj.lib)
        if self.meta.get("format") not in FORMATS:
            raise RuntimeError(f"{obj.name}: unknown binary format {self.meta.get('format')!r}")
        # tinygrad's signature: the buffer PARAMs, then the variables (the scalars)
        scalar_bytes = self.meta["scalar_bytes"]
        self.num_buffers = len(obj.signature) - len(scalar_bytes)
        if self.num_buffers != self.meta["num_buffers"]:
            raise RuntimeError(f"{obj.name}: {self.num_buffers} buffers in tinygrad's signature, "
                               f"{self.meta['num_buffers']} in the binary")
        self._scalars = (ctypes.c_uint8 * max(1, len(scalar_bytes)))(*scalar_bytes)
        self._bin = ctypes.create_string_buffer(self.binary, len(self.binary))
        desc = _ProgramDesc(TGRT_API_VERSION, FORMATS[self.meta["format"]], ctypes.cast(self._bin, ctypes.c_void_p),
                            len(self.binary), self.meta["entry"].encode(), self.num_buffers, len(scalar_bytes),
                            self._scalars, int(self.meta.get("offsets_word", 0)),
                            (ctypes.c_uint32 * 3)(*self.meta["local_size"]))
        h = ctypes.c_void_p()
        _check("tgrt_program_create", _rt().tgrt_program_create(dev.rt.handle, ctypes.byref(desc), ctypes.byref(h)))
        self.handle = h.value

    def __del__(self):
        h, self.handle = getattr(self, "handle", None), None
        if h and capi._lib is not None:
            capi._lib.tgrt_program_free(h)

    def __call__(self, *bufs, global_size=(1, 1, 1), local_size=(1, 1, 1), vals=(), wait=False, timeout=None):
        import time
        if tuple(local_size or (1, 1, 1)) != tuple(self.meta["local_size"]):
            raise RuntimeError(f"{self.name}: launched with local size {local_size}, compiled for "
                               f"{tuple(self.meta['local_size'])}")
        args = (_Arg * max(1, len(bufs) + len(vals)))()
        for i, b in enumerate(bufs):
            args[i] = _Arg(TGRT_ARG_BUFFER, 0, b.handle, 0)
        for j, v in enumerate(vals):
            args[len(bufs) + j] = _Arg(TGRT_ARG_INT, 0, None, int(v) & (2**64 - 1))
        d = _Dispatch(TGRT_API_VERSION, (ctypes.c_uint32 * 3)(*[int(g) for g in global_size]),
                      (ctypes.c_uint32 * 3)(*self.meta["local_size"]), -1)
        t0 = time.perf_counter()
        _check("tgrt_program_dispatch", _rt().tgrt_program_dispatch(self.handle, args, len(bufs) + len(vals),
                                                                    ctypes.byref(d)))
        return time.perf_counter() - t0 if wait else None


# ---------------------------------------------------------------- the renderer tinygrad sees

class GPURenderer(Renderer):
    """What tinygrad's scheduler and tests read of a GPU target; kernels are never rendered by tinygrad
    (tinygrad.py's do_to_program compiles them for `mlir_target` with our compiler)."""
    mlir_target = "vulkan"
    device = "VULKAN"
    has_local, has_shared, has_threads = True, True, False
    supports_float4 = False

    def supported_dtypes(self):
        """What both the compiler can lower for the target (its description, tgc_target_describe) and the
        device has (the driver's features): tinygrad's tests skip the rest."""
        feats = VulkanDevice.features()
        drop = set()
        if not feats & FEATURE_FLOAT64:
            drop.add(dtypes.double)
        if not feats & FEATURE_INT64:
            drop |= {dtypes.long, dtypes.ulong}
        if not feats & FEATURE_FLOAT16:
            drop.add(dtypes.half)
        if not feats & FEATURE_INT8:
            drop |= {dtypes.int8, dtypes.uint8, dtypes.bool}
        if not feats & FEATURE_INT16:  # bfloat16 is emulated in 16-bit integers
            drop |= {dtypes.int16, dtypes.uint16, dtypes.bfloat16}
        lowered = set(capi.describe_target(self.mlir_target)["dtypes"])
        return {d for d in super().supported_dtypes() - drop if _dtype_name(d) in lowered}


def _dtype_name(dt):
    """The compiler's name of a tinygrad dtype (uop_json's, the corpus's)."""
    from .uop_json import dtype_name
    try:
        return dtype_name(dt)
    except ValueError:  # a dtype the compiler has no name for: not lowered
        return None


class VulkanRenderer(GPURenderer):
    pass


class VulkanDevice(Compiled):
    _info = None

    def __init__(self, device="VULKAN"):
        self.rt = capi.Device(device)
        info = _DeviceInfo(api_version=TGRT_API_VERSION)
        _check("tgrt_device_query", _rt().tgrt_device_query(self.rt.handle, ctypes.byref(info)))
        VulkanDevice._info = info
        # the device's limits, within what the compiler's target description allows (its heuristic
        # sizes groups to the description, so tinygrad's search must not exceed it either)
        t = capi.describe_target(VulkanRenderer.mlir_target)
        VulkanRenderer.local_max = tuple(min(d, m) if m else d for d, m in zip(info.max_workgroup_size, t["local_max"]))
        VulkanRenderer.global_max = tuple(info.max_workgroup_count)
        VulkanRenderer.shared_max = min(info.shared_memory_bytes, t["shared_max_bytes"] or info.shared_memory_bytes)
        super().__init__(device, GPUAllocator(self), [VulkanRenderer], GPUProgram)

    @classmethod
    def features(cls):
        if cls._info is None:
            from tinygrad.device import Device
            Device["VULKAN"]
        return cls._info.features

    def synchronize(self):
        _check("tgrt_device_synchronize", _rt().tgrt_device_synchronize(self.rt.handle, 60_000))


def install():
    """tinygrad finds `VulkanDevice` as the module tinygrad.runtime.ops_vulkan (idempotent)."""
    sys.modules.setdefault("tinygrad.runtime.ops_vulkan", sys.modules[__name__])
