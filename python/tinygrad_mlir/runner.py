"""Runs a tensor program (a schedules.jsonl-style record) through our scheduler,
CPU codegen and runtime: `tinygrad-run --case REC --write-outputs OUT`.

Which executable: TINYGRAD_MLIR_RUN=path, else the one `cmake --install`
recorded, else <repo>/build/bin/tinygrad-run, else tinygrad-run on PATH (a pip
install carries the C API library but not the tools)."""
import json
import os
import shutil
import subprocess
import tempfile

ENV_RUN = "TINYGRAD_MLIR_RUN"
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class RunError(RuntimeError):
  pass


def find_runner():
  env = os.environ.get(ENV_RUN)
  if env:
    if os.path.isfile(env) and os.access(env, os.X_OK): return env
    raise RunError(f"{ENV_RUN}={env!r} is not an executable file")
  tried = [os.path.join(_REPO, "build", "bin", "tinygrad-run")]
  try:
    from . import _installed  # written by `cmake --install`
    if getattr(_installed, "RUN", None): tried.insert(0, _installed.RUN)
  except ImportError:
    pass
  for p in tried:
    if os.path.isfile(p) and os.access(p, os.X_OK): return p
  if on_path := shutil.which("tinygrad-run"): return on_path
  raise RunError("tinygrad-mlir: tinygrad-run not found (tried " + ", ".join(tried) + f"); set {ENV_RUN}")


def run_program(record):
  """The values of each of the record's outputs, as flat lists."""
  with tempfile.TemporaryDirectory(prefix="tinygrad-mlir-") as d:
    rec, out = os.path.join(d, "program.json"), os.path.join(d, "outputs.json")
    with open(rec, "w") as f: json.dump(record, f)
    p = subprocess.run([find_runner(), "--case", rec, "--write-outputs", out], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(out):
      raise RunError(f"tinygrad-run failed ({p.returncode}):\n{p.stderr.strip() or p.stdout.strip()}")
    with open(out) as f: return [o["values"] for o in json.load(f)]
