"""Runs every corpus tensor program through `tinygrad-run --case` and checks the verdicts.

Each schedules.jsonl line is saved as a file and run with --json, with our
kernel graph, or with tinygrad's when a kernel-graph file is given ("-": ours).
A program listed in known-failures.txt (with its reason) must still fail
(mismatch or a diagnostic, never a crash or a timeout): one that starts
matching fails the test so the list shrinks. Every other program must
match, and its kernel count is compared with tinygrad's (num_kernels).
Compile errors, crashes and timeouts always fail. For a target tinygrad-run
only compiles for (CUDA, AMD: no driver here) a program's every kernel
compiling is its pass (COMPILED, "compiled" in the JSON).
"""
import json, os, subprocess, sys

runner, corpus, known_file, kernel_graphs, tmp = sys.argv[1:6]
extra = sys.argv[6:]  # more tinygrad-run flags (--target=vulkan)
known = {}
for line in open(known_file):
    line = line.strip()
    if line and not line.startswith("#"):
        name, _, why = line.partition(" ")
        known[name] = why.strip()
os.makedirs(tmp, exist_ok=True)

passed = failed = xfail = same_count = total = compiled_only = 0
diff_counts = []
for line in open(corpus):
    rec = json.loads(line)
    name = rec["id"]
    total += 1
    case = os.path.join(tmp, name + ".json")
    with open(case, "w") as f:
        f.write(line)
    cmd = [runner, "--case", case, "--json"] + (["--kernel-graphs", kernel_graphs] if kernel_graphs != "-" else []) + extra
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        verdict = json.loads(last) if last.startswith("{") else None
    except subprocess.TimeoutExpired:
        p, verdict = None, None
    compiled = verdict is not None and verdict.get("compiled") is True and p.returncode == 0
    compiled_only += compiled
    match = compiled or (verdict is not None and verdict.get("match") is True and p.returncode == 0)
    mismatch = verdict is not None and verdict.get("match") is False and p.returncode == 2
    if verdict is not None:
        if verdict.get("kernels") == rec["num_kernels"]:
            same_count += 1
        else:
            diff_counts.append(f"{name}: {verdict.get('kernels')} kernels, tinygrad {rec['num_kernels']}")
    diagnosed = p is not None and p.returncode == 1 and "error:" in p.stderr
    if name in known:
        if mismatch or diagnosed:
            xfail += 1
            continue
        print(f"UNEXPECTED {'PASS' if match else 'ERROR'}: {name} (listed: {known[name]})")
        if p is not None and not match:
            print(p.stderr.strip()[-2000:])
        failed += 1
    elif match:
        passed += 1
    else:
        print(f"FAIL: {name}")
        if p is not None:
            print((p.stdout + p.stderr).strip()[-2000:])
        failed += 1
for d in diff_counts:
    print(f"KERNEL COUNT: {d}")
print(f"programs: {passed} {'compiled' if compiled_only else 'matched'}, {xfail} known failures, {failed} failed; "
      f"kernel count equal to tinygrad's for {same_count}/{total}")
sys.exit(1 if failed else 0)
