#!/usr/bin/env python3
"""Run tinygrad's own test files through our backend and through tinygrad's CPU compiler, side by side.

For every test file given (files or folders, relative to the tinygrad checkout), pytest runs twice in
fresh processes: once with DEV=CPU (tinygrad's own Clang codegen, the reference) and once with the
target under test (DEV=CPU:MLIR by default; --dev VULKAN for our Vulkan device). Each test's outcome is
read from pytest's JUnit XML; the tests that pass with tinygrad's compiler but not through ours are
listed by name, with the first line of their failure. Prints one table row per file and a total, and
writes the whole comparison as JSON (--json).

  TINYGRAD_SRC=../tinygrad scripts/tinygrad-tests.py test/backend test/models --json build/tinygrad-tests.json
  scripts/tinygrad-tests.py test/backend/test_arange.py -k embedding     # extra args after -- go to pytest

RUN_SLOW=1 is set (tinygrad marks test_nn and test_optim slow). Exits 1 when any test passes with
DEV=CPU but not with the target under test; a file whose run crashed or timed out is a failure too.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.path.join(ROOT, "python", "tinygrad_mlir", "site")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def outcomes(xml_path):
    """{test id: (outcome, first message line)} from a JUnit XML file."""
    res = {}
    try:
        tree = ET.parse(xml_path)
    except (ET.ParseError, FileNotFoundError):
        return None
    for tc in tree.iter("testcase"):
        tid = f"{tc.get('classname', '')}::{tc.get('name', '')}"
        outcome, msg = "passed", ""
        for child in tc:
            if child.tag in ("failure", "error"):
                text = (child.get("message") or child.text or "").strip()
                outcome, msg = "failed", " | ".join(l.strip() for l in text.splitlines()[:3])[:400]
                break
            if child.tag == "skipped":
                outcome = "xfailed" if (child.get("type") or "").endswith("xfail") else "skipped"
        res[tid] = (outcome, msg)
    return res


def run_file(tg, path, dev, timeout, extra):
    with tempfile.NamedTemporaryFile(suffix=".xml", delete=False) as f:
        xml = f.name
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TINYGRAD_MLIR_", "PYTEST_"))}
    env.update({"DEV": dev, "RUN_SLOW": "1", "PYTHONPATH": os.pathsep.join([SITE, os.path.join(ROOT, "python"), tg])})
    cmd = [PY, "-m", "pytest", "--noconftest", "-p", "no:cacheprovider", "-q",
           f"--junitxml={xml}", path] + extra
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=tg, env=env, capture_output=True, text=True, timeout=timeout)
        status = f"rc {p.returncode}"
        tail = (p.stdout + p.stderr)[-3000:]
    except subprocess.TimeoutExpired:
        status, tail = "timeout", ""
    secs = time.time() - t0
    res = outcomes(xml)
    os.unlink(xml) if os.path.exists(xml) else None
    return res, status, secs, tail


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="test files or folders, relative to the tinygrad checkout")
    ap.add_argument("--tinygrad", default=os.environ.get("TINYGRAD_SRC", os.path.join(ROOT, "..", "tinygrad")))
    ap.add_argument("--dev", default="CPU:MLIR", help="the target under test (default CPU:MLIR)")
    ap.add_argument("--ref-dev", default="CPU", help="the reference (default CPU: tinygrad's own compiler)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per file and side")
    ap.add_argument("--json", help="write the comparison here")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a, extra = ap.parse_args(argv[:cut]), argv[cut + 1:]  # after --: passed to pytest
    tg = os.path.abspath(a.tinygrad)
    files = []
    for p in a.paths:
        full = os.path.join(tg, p)
        if os.path.isdir(full):
            files += sorted(os.path.join(p, f) for f in os.listdir(full) if f.startswith("test_") and f.endswith(".py"))
        else:
            files.append(p)
    report, total_only, bad = [], 0, False
    print(f"{'file':<44} {'ref pass':>8} {'ours pass':>9} {'only ref':>8} {'ref s':>6} {'ours s':>6}")
    for f in files:
        ref, ref_status, ref_s, _ = run_file(tg, f, a.ref_dev, a.timeout, extra)
        ours, our_status, our_s, our_tail = run_file(tg, f, a.dev, a.timeout, extra)
        row = {"file": f, "ref_status": ref_status, "ours_status": our_status, "ref_s": round(ref_s, 1),
               "ours_s": round(our_s, 1)}
        if ref is None or ours is None:
            row["error"] = "no JUnit XML (the run crashed or timed out)"
            row["tail"] = our_tail if ours is None else ""
            bad = bad or ours is None
            print(f"{f:<44} {'?':>8} {'?':>9} {'?':>8} {ref_s:6.0f} {our_s:6.0f}  {row['error']} (ref {ref_status}, ours {our_status})")
            report.append(row)
            continue
        only = {t: ours.get(t, ("missing", "not run"))[1] for t, (o, _) in ref.items()
                if o == "passed" and ours.get(t, ("missing",))[0] != "passed"}
        row.update({"ref_passed": sum(o == "passed" for o, _ in ref.values()),
                    "ours_passed": sum(o == "passed" for o, _ in ours.values()),
                    "ref_failed": sum(o == "failed" for o, _ in ref.values()),
                    "ours_failed": sum(o == "failed" for o, _ in ours.values()),
                    "tests": len(ref), "only_ref_passed": only})
        total_only += len(only)
        bad = bad or bool(only)
        print(f"{f:<44} {row['ref_passed']:>8} {row['ours_passed']:>9} {len(only):>8} {ref_s:6.0f} {our_s:6.0f}")
        for t, msg in sorted(only.items()):
            print(f"    {t}: {msg}")
        sys.stdout.flush()
        report.append(row)
    crashed = sum("error" in r for r in report)
    print(f"total: {total_only} tests pass with {a.ref_dev} but not with {a.dev}"
          + (f"; {crashed} file(s) gave no result (crashed or timed out)" if crashed else ""))
    if a.json:
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as fh:
            json.dump({"dev": a.dev, "ref_dev": a.ref_dev, "files": report}, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
