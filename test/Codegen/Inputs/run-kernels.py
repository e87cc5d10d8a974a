"""Runs every corpus kernel case through tinygrad-run and checks the verdicts.

A kernel listed in known-mismatches.txt (with its reason) must still
mismatch: one that starts matching fails the test (XPASS) so the list
shrinks as the pipeline grows. Any other kernel must match. Compile errors,
crashes and timeouts always fail.
"""
import glob, json, os, subprocess, sys

runner, kernels_dir, known_file = sys.argv[1:4]
known = {}
for line in open(known_file):
    line = line.strip()
    if line and not line.startswith("#"):
        name, _, why = line.partition(" ")
        known[name] = why.strip()

passed = failed = xfail = 0
for case in sorted(glob.glob(os.path.join(kernels_dir, "*.json"))):
    name = os.path.basename(case)[:-len(".json")]
    try:
        p = subprocess.run([runner, "--case", case, "--json"], capture_output=True, text=True, timeout=120)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        verdict = json.loads(last) if last.startswith("{") else None
    except subprocess.TimeoutExpired:
        p, verdict = None, None
    match = verdict is not None and verdict.get("match") is True and p.returncode == 0
    mismatch = verdict is not None and verdict.get("match") is False and p.returncode == 2
    if name in known:
        if mismatch:
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
print(f"kernels: {passed} matched, {xfail} known mismatches, {failed} failed")
sys.exit(1 if failed else 0)
