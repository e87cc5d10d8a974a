"""Runs every corpus kernel case through tinygrad-run and checks the verdicts.

  run-kernels.py TINYGRAD_RUN KERNELS_DIR KNOWN_FILE [--spirv-val=SPIRV_VAL] [TINYGRAD_RUN ARGS...]

A kernel listed in the known file (with its reason) must still mismatch: one
that starts matching fails the test (XPASS) so the list shrinks as the
pipeline grows. A reason `refused: TEXT` means the compile must fail with
TEXT in its diagnostic (a dtype the target lacks). Any other kernel must
match, or, for a target tinygrad-run only compiles for (cuda, amd), compile.
Other compile errors, crashes and timeouts always fail. With --spirv-val
each kernel's SPIR-V (--emit=spirv) must pass `spirv-val --target-env
vulkan1.2`.
"""
import glob, json, os, subprocess, sys, tempfile

runner, kernels_dir, known_file = sys.argv[1:4]
extra = [a for a in sys.argv[4:] if not a.startswith("--spirv-val=")]
spirv_val = next((a.split("=", 1)[1] for a in sys.argv[4:] if a.startswith("--spirv-val=")), None)
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
        p = subprocess.run([runner, "--case", case, "--json"] + extra, capture_output=True, text=True, timeout=120)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        verdict = json.loads(last) if last.startswith("{") else None
        # a compile-only target (cuda, amd): compiled is the verdict (its --json line says so)
        if p.returncode == 0 and (last.startswith("COMPILED:") or (verdict or {}).get("compiled") is True):
            verdict = {"match": True}
    except subprocess.TimeoutExpired:
        p, verdict = None, None
    match = verdict is not None and verdict.get("match") is True and p.returncode == 0
    mismatch = verdict is not None and verdict.get("match") is False and p.returncode == 2
    if name in known and known[name].startswith("refused:"):
        want = known[name][len("refused:"):].strip()
        if p is not None and p.returncode == 1 and want in p.stderr:
            xfail += 1
        else:
            print(f"UNEXPECTED {'PASS' if match else 'ERROR'}: {name} (listed: {known[name]})")
            if p is not None:
                print((p.stdout + p.stderr).strip()[-2000:])
            failed += 1
        continue
    if match and spirv_val:
        with tempfile.NamedTemporaryFile(suffix=".spv") as spv:
            e = subprocess.run([runner, "--case", case, "--emit=spirv", "-o", spv.name] + extra,
                               capture_output=True, text=True, timeout=120)
            v = subprocess.run([spirv_val, "--target-env", "vulkan1.2", spv.name], capture_output=True, text=True)
            if e.returncode != 0 or v.returncode != 0:
                print(f"SPIRV-VAL FAIL: {name}\n{(e.stderr + v.stdout + v.stderr).strip()[-2000:]}")
                failed += 1
                continue
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
