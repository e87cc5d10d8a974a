"""Large CPU buffers of DEV=CPU:MLIR on transparent huge pages: a model's first call stops paying a page
fault per 4 KiB of fresh memory.

tinygrad's CPU allocator maps every buffer MAP_SHARED|MAP_ANONYMOUS (shared memory, which Linux backs
with 4 KiB pages unless shmem huge pages are on, as they are not by default). The first touch of each
page faults; on this machine (a VM) one fault costs ~15 us, so first-touching 256 MiB takes ~1 s against
~25 ms on 2 MiB huge pages (measured in one process: 1069 ms shared, 1010 ms private, 24 ms private with
MADV_HUGEPAGE). A model's first call writes all of its fresh activations and gradients once:
mnist_train's training step on fresh buffers faults ~43,600 times (~170 MiB), ~120 times with these.

`install(device, is_ours)` wraps the CPU device's allocator: while the device's selected renderer is
ours (`is_ours(device.renderer)`), a buffer of at least HUGE bytes is a private anonymous mapping advised
MADV_HUGEPAGE (used when the kernel's transparent_hugepage setting is `madvise` or `always`); smaller
buffers, external pointers and every buffer of DEV=CPU (tinygrad's own compiler) are tinygrad's. The
`TINYGRAD_MLIR_HUGE_PAGES=0` keeps tinygrad's allocator for every buffer (bench/models/search.py times
the kernels BEAM found in the same kind of memory on both sides, so its ratio is the kernels'). The
buffer is the same HCQBuffer tinygrad's allocator makes (its mapping kept alive in `meta`, unmapped when
freed), zero-filled as anonymous memory is. Private instead of shared: the memory is only ever used by
this process's threads (tinygrad's CPU device and our runtime run kernels in threads, never in a forked
child).
"""
import mmap
import os

HUGE = 2 << 20  # one x86-64 huge page: a smaller buffer cannot be backed by one

stats = {"huge": 0}


def _huge_buffer(dev, size):
    from tinygrad.helpers import mv_address
    from tinygrad.runtime.support.hcq import HCQBuffer, MMIOInterface
    buf = mmap.mmap(-1, size, mmap.MAP_ANONYMOUS | mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE)
    buf.madvise(mmap.MADV_HUGEPAGE)
    va = mv_address(buf)
    stats["huge"] += 1
    return HCQBuffer(va, size, meta=buf, view=MMIOInterface(va, size, fmt="B"), owner=dev)


def install(dev, is_ours):
    """Idempotent: dev's allocator makes buffers of HUGE bytes or more on huge pages while dev's
    renderer is ours."""
    alloc = dev.allocator
    tinygrads = alloc._alloc
    if getattr(tinygrads, "_tinygrad_mlir", False) or not hasattr(mmap, "MADV_HUGEPAGE"):
        return
    if os.environ.get("TINYGRAD_MLIR_HUGE_PAGES", "1") == "0":
        return

    def ours():
        try:
            return is_ours(dev.renderer)
        except Exception:  # DEV names no renderer of this device: no kernel of ours can run here either
            return False

    def _alloc(size, options):
        if size >= HUGE and options.external_ptr is None and ours():
            return _huge_buffer(dev, size)
        return tinygrads(size, options)
    _alloc._tinygrad_mlir = True
    alloc._alloc = _alloc
