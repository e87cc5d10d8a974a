"""Auto-import of the tinygrad-mlir hook for every Python process (scripts, subprocesses, workers).

Put this directory first on PYTHONPATH:
    PYTHONPATH=<repo>/python/tinygrad_mlir/site:<tinygrad checkout> DEV=CPU:MLIR python3 script.py
When DEV names the MLIR renderer (`...:MLIR`) or our Vulkan device (`VULKAN`), `tinygrad_mlir.tinygrad`
is imported, which patches tinygrad so its CPU kernels are compiled by our compiler and registers the
VULKAN device (gpu_device.py). Otherwise nothing is imported.
Either way the next `sitecustomize` on sys.path (e.g. Debian's) still runs, since this file
shadows it.
"""
import os
import sys


def _chain_next_sitecustomize():
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.realpath(__file__))
    path = [p for p in sys.path if os.path.realpath(p or os.getcwd()) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.origin is None or os.path.realpath(spec.origin) == os.path.realpath(__file__):
        return
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)


def _install_hook():
    dev = os.environ.get("DEV", "").upper()
    if not (dev.endswith(":MLIR") or dev.split(":")[0] == "VULKAN"):
        return
    pkg_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    if pkg_root not in sys.path:
        sys.path.append(pkg_root)  # <repo>/python, so `tinygrad_mlir` imports
    try:
        import tinygrad_mlir.tinygrad  # noqa: F401
    except Exception as e:  # never break interpreter startup; tinygrad will say "no renderer 'MLIR'"
        print(f"tinygrad-mlir: sitecustomize could not install the tinygrad hook: {type(e).__name__}: {e}",
              file=sys.stderr)


try:
    _chain_next_sitecustomize()
finally:
    _install_hook()
