"""The textual pipelines against the library: every step its own process, its IR printed and parsed between steps.

  textual-pipeline.py BIN programs SCHEDULES.jsonl [WORK_DIR]
  textual-pipeline.py BIN kernels KERNELS_DIR|KERNELS.jsonl [WORK_DIR]

programs: each record's tensor graph is imported by tinygrad-translate, then tinygrad-opt runs
tg-callify, tg-kernel-graph and tg-create-schedule, each in its own process on the file the last
one printed (and tg-schedule, the whole scheduler, on the imported graph); `tinygrad-schedule
--check-textual` parses every printed file and compares it node for node with what the library
computes from the record in one context, without printing.

kernels: each kernel AST is imported, lowered by tg-lower-kernel, then taken to the llvm dialect by
the steps of tg-lower-to-llvm-cpu one process each (LLVM_STEPS: they must stay the steps of
buildStandardToLLVMCPUPipeline, which the comparison below checks). The result must be the text
tinygrad-opt prints for tg-lower-to-llvm-cpu in one process, and, for a case with outputs,
`tinygrad-run --lowered` compiles and runs it and must match tinygrad's outputs. Kernels come from a
directory of corpus kernel cases or a JSONL of cases (random programs' kernels, no outputs).

Prints a line per failing program or kernel and a closing count line; exits 1 on any failure.
"""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

LLVM_STEPS = ["--tg-approximate-math", "--tg-expand-bf16", "--canonicalize=top-down=false", "--convert-scf-to-cf",
              "--tg-convert-to-llvm-cpu", "--reconcile-unrealized-casts"]
SCHEDULE_STEPS = [("callify", "--tg-callify"), ("kernel-graph", "--tg-kernel-graph"),
                  ("create-schedule", "--tg-create-schedule")]


class StepFailed(Exception):
  pass


def run(cmd, timeout=300):
  p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
  if p.returncode != 0:
    raise StepFailed(f"{' '.join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd))} "
                     f"exited {p.returncode}:\n{(p.stdout + p.stderr).strip()[-3000:]}")
  return p.stdout


def first_error(text):
  """The pass's error, without the location and the op it points at."""
  for line in text.splitlines():
    if "error: " in line:
      return line.split("error: ", 1)[1]
  return text.strip().splitlines()[-1] if text.strip() else "(no message)"


def check_program(bin_dir, work, line):
  rec = json.loads(line)
  pid = rec["id"]
  d = os.path.join(work, pid)
  os.makedirs(d, exist_ok=True)
  path = os.path.join(d, "record.json")
  with open(path, "w") as f:
    f.write(line)
  opt, tool = os.path.join(bin_dir, "tinygrad-opt"), os.path.join(bin_dir, "tinygrad-schedule")
  tensor = os.path.join(d, "tensor.mlir")
  run([os.path.join(bin_dir, "tinygrad-translate"), "--import-tinygrad-json", "--graph-path=tensor_graph", path,
       "-o", tensor])
  # Each step on the file the last one printed; a step that fails ends the chain, and the library
  # must fail at that step with the same error (tinygrad-schedule --refused).
  args, prev = [], tensor
  steps = SCHEDULE_STEPS + [("schedule", "--tg-schedule")]
  for stage, flag in steps:
    if stage == "schedule":
      prev = tensor  # the whole scheduler, one pass, on the imported graph
    elif prev is None:
      continue
    out = os.path.join(d, stage + ".mlir")
    p = subprocess.run([opt, flag, prev, "-o", out], capture_output=True, text=True, timeout=300)
    if p.returncode == 0:
      args.append(f"--{stage}-ir={out}")
      prev = out
    else:
      args.append(f"--refused={stage}={first_error(p.stderr)}")
      prev = None
  return run([tool, "--check-textual", "-v", path] + args)


def check_kernel(bin_dir, work, case_path):
  with open(case_path) as f:
    rec = json.load(f)
  d = os.path.join(work, rec["id"])
  os.makedirs(d, exist_ok=True)
  opt = os.path.join(bin_dir, "tinygrad-opt")
  ast = os.path.join(d, "ast.mlir")
  run([os.path.join(bin_dir, "tinygrad-translate"), "--import-tinygrad-json", "--graph-path=ast", case_path, "-o", ast])
  prev = os.path.join(d, "lowered.mlir")
  run([opt, "--tg-lower-kernel", ast, "-o", prev])
  for i, flag in enumerate(LLVM_STEPS):
    out = os.path.join(d, f"step{i}.mlir")
    run([opt, flag, prev, "-o", out])
    prev = out
  one = run([opt, "--tg-lower-to-llvm-cpu", ast])
  with open(prev) as f:
    if f.read() != one:
      raise StepFailed(f"the llvm dialect after {len(LLVM_STEPS)} processes ({prev}) differs from "
                       "tinygrad-opt --tg-lower-to-llvm-cpu in one process")
  if "outputs" not in rec:
    return "lowered, same as one process"
  p = subprocess.run([os.path.join(bin_dir, "tinygrad-run"), "--case", case_path, "--lowered", prev],
                     capture_output=True, text=True, timeout=300)
  if p.returncode != 0 or not p.stdout.startswith("MATCH"):
    raise StepFailed(f"tinygrad-run --lowered exited {p.returncode}:\n{(p.stdout + p.stderr).strip()[-3000:]}")
  return p.stdout.strip()


def kernel_cases(src, work):
  if os.path.isdir(src):
    return sorted(glob.glob(os.path.join(src, "*.json")))
  cases = []  # one case per JSONL line, written out for the tools
  os.makedirs(os.path.join(work, "cases"), exist_ok=True)
  for line in open(src):
    if line.strip():
      rec = json.loads(line)
      path = os.path.join(work, "cases", rec["id"] + ".json")
      with open(path, "w") as f:
        f.write(line)
      cases.append(path)
  return cases


def main():
  bin_dir, mode, src = sys.argv[1:4]
  work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="textual-")
  if mode == "programs":
    items = [l for l in open(src) if l.strip()]
    name = lambda l: json.loads(l)["id"]
    check = lambda l: check_program(bin_dir, work, l)
  elif mode == "kernels":
    items = kernel_cases(src, work)
    name = lambda p: os.path.basename(p)[:-len(".json")]
    check = lambda p: check_kernel(bin_dir, work, p)
  else:
    sys.exit(f"unknown mode {mode}: programs or kernels")

  def one(item):
    try:
      return None, "both refuse" in check(item)
    except (StepFailed, subprocess.TimeoutExpired) as e:
      return f"FAIL {name(item)}: {e}", False

  failed = refused = 0
  with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for err, both_refuse in pool.map(one, items):
      refused += both_refuse
      if err:
        failed += 1
        print(err, flush=True)
  what = f"programs identical to the library at every step ({refused} refused by both at the same step)" \
      if mode == "programs" else "kernels lowered one process per step as in one process" + \
      (", and matching tinygrad's outputs" if os.path.isdir(src) else "")
  print(f"textual {mode}: {len(items) - failed}/{len(items)} {what}")
  sys.exit(1 if failed or not items else 0)


if __name__ == "__main__":
  main()
