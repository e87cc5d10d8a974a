"""The device half of scripts/device-check.sh: run the cases on a GPU.

Needs only Python 3 with numpy and the runtime library next to this file
(runtime/libTinygradRuntime.so): no MLIR, no compiler. Every case
(cases/*/case.json, written by make_cases.py) runs once through our CUDA
driver (tgrt_device_open("CUDA:0"), tgrt_program_create with the cubin, or
its PTX when the cubin's arch is not the device's), its outputs are compared
with the expected ones, and it is timed (median of queued launches); cases
marked `bench` are also timed in torch (cuBLAS) when torch is installed.
Bench cases (kind "bench", bench_cases.py) run a schedule of kernels in order over
buffers named by id, with inputs generated from their specs and the reference
computed by torch on the GPU (bench_ref.py), and are timed against torch.
Then the runtime's conformance suite runs on the GPU: its CUDA instantiation
(conformance/TinygradRuntimeTests --gtest_filter=*/CUDA, the kernels it loads
in conformance/kernels), counted from gtest's JSON report as passed, failed
and skipped; on a GPU nothing may skip.
Writes results.json next to this file. Exit 0: every case matched and the
suite passed; 1: a mismatch, an error or a conformance test that failed or
skipped; 3: NOT RUN, the runtime reports no CUDA device.
`--self-test` checks these bindings on the CPU device instead (no GPU), the
bench cases' generation, references and comparison at small shapes, that
every bench case of the bundle is well formed, and the bundled conformance
suite: its CPU instantiation passes, and its CUDA one, with no GPU, runs only
the tests that need no device and skips the rest.
"""
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_ref  # noqa: E402

API = 1
OK, UNAVAILABLE = 0, 11
FORMAT_ELF, FORMAT_CUBIN, FORMAT_PTX = 1, 3, 4
ARG_BUFFER, ARG_INT = 1, 2
COMPUTE = 0


class DeviceInfo(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("driver", ctypes.c_char * 16), ("description", ctypes.c_char * 128),
                ("features", ctypes.c_uint32), ("max_workgroup_size", ctypes.c_uint32 * 3),
                ("max_workgroup_invocations", ctypes.c_uint32), ("max_workgroup_count", ctypes.c_uint32 * 3),
                ("shared_memory_bytes", ctypes.c_uint32), ("subgroup_size", ctypes.c_uint32),
                ("buffer_offset_alignment", ctypes.c_uint32), ("arch", ctypes.c_char * 16)]


class ProgramDesc(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("format", ctypes.c_uint32), ("binary", ctypes.c_void_p),
                ("size", ctypes.c_size_t), ("entry_name", ctypes.c_char_p), ("num_buffers", ctypes.c_uint32),
                ("num_scalars", ctypes.c_uint32), ("scalar_bytes", ctypes.POINTER(ctypes.c_uint8)),
                ("offsets_word", ctypes.c_uint32), ("local_size", ctypes.c_uint32 * 3)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint32), ("reserved", ctypes.c_uint32), ("buffer", ctypes.c_void_p),
                ("value", ctypes.c_uint64)]


class Dispatch(ctypes.Structure):
    _fields_ = [("api_version", ctypes.c_uint32), ("global_size", ctypes.c_uint32 * 3),
                ("local_size", ctypes.c_uint32 * 3), ("core_id_arg_index", ctypes.c_int32)]


class Runtime:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.tgrt_last_error.restype = ctypes.c_char_p
        self.lib.tgrt_status_string.restype = ctypes.c_char_p

    def __call__(self, name, *args):
        status = getattr(self.lib, name)(*args)
        if status != OK:
            raise RuntimeFailure(status, f"{name}: {self.lib.tgrt_status_string(status).decode()}: "
                                         f"{self.lib.tgrt_last_error().decode()}")


class RuntimeFailure(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def out_ptr():
    return ctypes.c_void_p()


def load_program(rt, dev, info, d, arch, kernel, num_buffers, scalars):
    """A kernel's program: its cubin, or its PTX (JIT-compiled by the driver) when the device's arch differs."""
    elf = kernel.get("format") == "elf"  # the self-test's CPU kernels
    use_ptx = not elf and arch != info.arch.decode() and kernel.get("ptx")
    binary = open(os.path.join(d, kernel["ptx"] if use_ptx else kernel["binary"]), "rb").read() + (b"\0" if use_ptx else b"")
    scalar_bytes = (ctypes.c_uint8 * max(1, len(scalars)))(*[s["bytes"] for s in scalars])
    desc = ProgramDesc(api_version=API, format=FORMAT_ELF if elf else FORMAT_PTX if use_ptx else FORMAT_CUBIN,
                       binary=ctypes.cast(ctypes.c_char_p(binary), ctypes.c_void_p), size=len(binary),
                       entry_name=kernel["entry"].encode(), num_buffers=num_buffers,
                       num_scalars=len(scalars), scalar_bytes=scalar_bytes)
    desc.local_size[:] = kernel["local_size"]
    prog = out_ptr()
    rt("tgrt_program_create", dev, ctypes.byref(desc), ctypes.byref(prog))
    return prog, "elf" if elf else "ptx" if use_ptx else "cubin"


def run_case(rt, dev, info, root, case):
    d = os.path.join(root, "cases", case["name"])
    prog, buffers, queue = None, [], None
    try:
        prog, loaded = load_program(rt, dev, info, d, case["arch"], case, len(case["buffers"]), case["scalars"])
        for b in case["buffers"]:
            dt = np.dtype(b["dtype"])
            buf = out_ptr()
            rt("tgrt_buffer_alloc", dev, ctypes.c_size_t(b["count"] * dt.itemsize), ctypes.byref(buf))
            buffers.append(buf)
            if b["input"]:
                host = np.fromfile(os.path.join(d, b["input"]), dtype=dt)
                rt("tgrt_buffer_copy_in", buf, ctypes.c_size_t(0), host.ctypes.data_as(ctypes.c_void_p),
                   ctypes.c_size_t(host.nbytes))
        args = (Arg * (len(buffers) + len(case["scalars"])))()
        for i, buf in enumerate(buffers):
            args[i] = Arg(kind=ARG_BUFFER, buffer=buf.value)
        for j, s in enumerate(case["scalars"]):
            args[len(buffers) + j] = Arg(kind=ARG_INT, value=s["value"] & (2**64 - 1))
        dispatch = Dispatch(api_version=API, core_id_arg_index=-1)
        dispatch.global_size[:] = case["global_size"]
        dispatch.local_size[:] = case["local_size"]
        rt("tgrt_program_dispatch", prog, args, len(args), ctypes.byref(dispatch))
        worst, mismatches = 0.0, 0
        for b, buf in zip(case["buffers"], buffers):
            if not b["expected"]:
                continue
            dt = np.dtype(b["dtype"])
            want = np.fromfile(os.path.join(d, b["expected"]), dtype=dt)
            got = np.empty_like(want)
            rt("tgrt_buffer_copy_out", buf, ctypes.c_size_t(0), got.ctypes.data_as(ctypes.c_void_p),
               ctypes.c_size_t(got.nbytes))
            ok = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=b["rtol"], atol=b["atol"],
                            equal_nan=True)
            mismatches += int((~ok).sum())
            diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
            worst = max(worst, float(np.nanmax(diff)) if diff.size else 0.0)
        # Timing: launches recorded in one queue, the median of per-launch times.
        queue = out_ptr()
        rt("tgrt_queue_create", dev, COMPUTE, ctypes.byref(queue))
        reps, times = 20, []
        for _ in range(5):
            rt("tgrt_queue_reset", queue)
            for _ in range(reps):
                rt("tgrt_queue_dispatch", queue, prog, args, len(args), ctypes.byref(dispatch))
            start = time.perf_counter()
            rt("tgrt_queue_submit", queue)
            rt("tgrt_device_synchronize", dev, ctypes.c_uint64(60000))
            times.append((time.perf_counter() - start) / reps * 1e6)
        result = dict(name=case["name"], ok=mismatches == 0, mismatches=mismatches, max_abs_diff=worst,
                      loaded=loaded, us_per_launch=statistics.median(times))
        if case.get("bench"):
            result["bench"] = bench_torch(case["bench"], result["us_per_launch"])
        return result
    finally:
        if queue:
            rt.lib.tgrt_queue_destroy(queue)
        for buf in buffers:
            rt.lib.tgrt_buffer_free(buf)
        if prog:
            rt.lib.tgrt_program_free(prog)


def time_queue(rt, dev, launches, rounds=5):
    """Median microseconds per pass over `launches` (program, args, dispatch), queued and submitted
    together after a warm-up pass; enough passes per round for about 0.2 s."""
    queue = out_ptr()
    rt("tgrt_queue_create", dev, COMPUTE, ctypes.byref(queue))
    try:
        def round_us(reps):
            rt("tgrt_queue_reset", queue)
            for _ in range(reps):
                for prog, args, dispatch in launches:
                    rt("tgrt_queue_dispatch", queue, prog, args, len(args), ctypes.byref(dispatch))
            start = time.perf_counter()
            rt("tgrt_queue_submit", queue)
            rt("tgrt_device_synchronize", dev, ctypes.c_uint64(120000))
            return (time.perf_counter() - start) / reps * 1e6
        first = round_us(1)
        reps = max(1, min(100, int(0.2e6 / max(first, 1.0))))
        return statistics.median(round_us(reps) for _ in range(rounds))
    finally:
        rt.lib.tgrt_queue_destroy(queue)


def run_bench_case(rt, dev, info, root, case, folder="cases", timed=True):
    """A bench case: generated inputs, its kernels in order, the torch reference, ours and torch timed
    (the self-test's CPU cases: the reference on the CPU, ours timed in one round, torch not)."""
    d = os.path.join(root, folder, case["name"])
    progs, bufs = [], {}
    try:
        for b in case["buffers"]:
            buf = out_ptr()
            rt("tgrt_buffer_alloc", dev, ctypes.c_size_t(b["count"] * np.dtype(b["dtype"]).itemsize), ctypes.byref(buf))
            bufs[b["id"]] = buf
        hosts = {}
        for b in case["buffers"]:
            if b["generate"]:
                host = np.ascontiguousarray(bench_ref.generate(b["generate"]))
                assert host.size == b["count"] and host.dtype == np.dtype(b["dtype"]), f"{b['id']}: generator spec"
                rt("tgrt_buffer_copy_in", bufs[b["id"]], ctypes.c_size_t(0), host.ctypes.data_as(ctypes.c_void_p),
                   ctypes.c_size_t(host.nbytes))
                hosts[b["id"]] = host
        launches, loaded = [], set()
        for k in case["kernels"]:
            prog, how = load_program(rt, dev, info, d, case["arch"], k, len(k["args"]), [])
            progs.append(prog)
            loaded.add(how)
            args = (Arg * len(k["args"]))(*[Arg(kind=ARG_BUFFER, buffer=bufs[a].value) for a in k["args"]])
            dispatch = Dispatch(api_version=API, core_id_arg_index=-1)
            dispatch.global_size[:] = k["global_size"]
            dispatch.local_size[:] = k["local_size"]
            launches.append((prog, args, dispatch))
        for prog, args, dispatch in launches:
            rt("tgrt_program_dispatch", prog, args, len(args), ctypes.byref(dispatch))
        ref = case["reference"]
        out = next(b for b in case["buffers"] if b["id"] == ref["output"])
        got = np.empty(out["count"], np.dtype(out["dtype"]))
        rt("tgrt_buffer_copy_out", bufs[out["id"]], ctypes.c_size_t(0), got.ctypes.data_as(ctypes.c_void_p),
           ctypes.c_size_t(got.nbytes))
        xs = [hosts[i] for i in ref["inputs"]]
        want, how_ref = bench_ref.reference(ref, xs, device="cuda" if timed else "cpu")
        mismatches, worst = bench_ref.compare(got, want.reshape(-1), case["tolerance"])
        if not timed:
            return dict(name=case["name"], ok=mismatches == 0, mismatches=mismatches, max_abs_diff=worst,
                        reference=how_ref, us_per_launch=time_queue(rt, dev, launches, rounds=1))
        us = time_queue(rt, dev, launches)
        per_kernel = [time_queue(rt, dev, [launch], rounds=3) for launch in launches]
        bench = case["bench"]
        result = dict(name=case["name"], ok=mismatches == 0, mismatches=mismatches, max_abs_diff=worst,
                      reference=how_ref, loaded="+".join(sorted(loaded)), us_per_launch=us, kernel_us=per_kernel,
                      opts=case["opts"], applied_opts=[k["applied_opts"] for k in case["kernels"]])
        timing = dict(bench, ours_us=us, ours_gflops=bench["flops"] / us / 1e3 if bench["flops"] else None,
                      ours_gbps=bench["bytes"] / us / 1e3)
        timing.update(bench_ref.time_torch(ref, xs, bench["flops"], bench["bytes"]))
        if "torch_us" in timing:
            timing["fraction_of_torch"] = timing["torch_us"] / us
        result["bench"] = timing
        return result
    finally:
        for buf in bufs.values():
            rt.lib.tgrt_buffer_free(buf)
        for prog in progs:
            rt.lib.tgrt_program_free(prog)


def check_bench_case(root, case):
    """A bench case of the bundle is well formed: its binaries are there, every kernel argument names a
    buffer, every input has a generator spec of its size, and the reference names them."""
    d = os.path.join(root, "cases", case["name"])
    ids = {b["id"]: b for b in case["buffers"]}
    for k in case["kernels"]:
        for f in (k["binary"], k["ptx"]):
            assert os.path.getsize(os.path.join(d, f)) > 0, f"{case['name']}: {f} missing"
        assert all(a in ids for a in k["args"]), f"{case['name']}: a kernel argument names no buffer: {k['args']}"
    for b in case["buffers"]:
        if b["generate"]:
            g = b["generate"]
            assert int(np.prod(g["shape"])) == b["count"] and g["dtype"] == b["dtype"], f"{case['name']}: {b['id']} spec"
    ref = case["reference"]
    assert all(ids[i]["generate"] for i in ref["inputs"]), f"{case['name']}: an input without a generator spec"
    assert ids[ref["output"]]["output"] and int(np.prod(ref["output_shape"])) == ids[ref["output"]]["count"]


def bench_self_test(rt, root):
    """The bench code path on the CPU device: the bench ops at small shapes, compiled for the CPU by the
    local half (OUT/selftest), run kernel by kernel over their buffers and compared with the reference."""
    manifest = os.path.join(root, "manifest.json")
    if not os.path.exists(manifest):
        return
    dev = out_ptr()
    rt("tgrt_device_open", b"CPU", None, ctypes.byref(dev))
    info = DeviceInfo(api_version=API)
    rt("tgrt_device_query", dev, ctypes.byref(info))
    try:
        for name in json.load(open(manifest)).get("self_test_cases", []):
            case = json.load(open(os.path.join(root, "selftest", name, "case.json")))
            r = run_bench_case(rt, dev, info, root, case, folder="selftest", timed=False)
            assert r["ok"], f"self-test bench case {name} (CPU): {r}"
            print(f"  ok   selftest/{name}: {len(case['kernels'])} kernels, max |diff| {r['max_abs_diff']:.3g} "
                  f"({r['reference']}), {r['us_per_launch']:.1f} us")
    finally:
        rt.lib.tgrt_device_close(dev)


def bench_torch(bench, ours_us):
    flops = 2.0 * bench["m"] * bench["n"] * bench["k"]
    out = dict(bench, ours_us=ours_us, ours_gflops=flops / ours_us / 1e3)
    try:
        import torch
    except ImportError:
        out["torch"] = "not installed"
        return out
    dt = getattr(torch, bench["dtype"])
    a = torch.randn(bench["m"], bench["k"], device="cuda", dtype=dt)
    b = torch.randn(bench["k"], bench["n"], device="cuda", dtype=dt)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    times = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            a @ b
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / 20)
    torch_us = statistics.median(times)
    out.update(torch_us=torch_us, torch_gflops=flops / torch_us / 1e3, fraction_of_torch=torch_us / ours_us)
    return out


# The suite takes seconds; a hang must not eat the device run's 10 minutes (the log's tail names the test).
CONFORMANCE_TIMEOUT_S = 180


def test_logs(text):
    """What gtest printed inside each test ([ RUN ] name ... [ OK | SKIPPED | FAILED ] name): its JSON report
    (gtest 1.12) has no skip messages."""
    logs, current, lines = {}, None, []
    for line in text.splitlines():
        if line.startswith("[ RUN      ] "):
            current, lines = line[13:].strip(), []
        elif current and line.startswith(("[       OK ] ", "[  SKIPPED ] ", "[  FAILED  ] ")):
            logs[current], current = "\n".join(lines).strip(), None
        elif current:
            lines.append(line)
    return logs


def run_conformance(root, driver):
    """The bundled conformance suite's instantiation for `driver` ("CUDA", "CPU"): gtest's counts
    (passed, failed, skipped), the failed and skipped tests with their first message, or None
    where the bundle has no suite."""
    manifest = os.path.join(root, "manifest.json")
    suite = json.load(open(manifest)).get("conformance") if os.path.exists(manifest) else None
    if not suite:
        return None
    binary, report = os.path.join(root, suite["binary"]), os.path.join(root, "conformance", f"{driver}.json")
    env = dict(os.environ, TGRT_TEST_KERNEL_DIR=os.path.join(root, suite["kernels"]))
    env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (os.path.join(root, "runtime"), env.get("LD_LIBRARY_PATH")) if p)
    if os.path.exists(report):
        os.remove(report)
    out = dict(driver=driver, passed=0, failed=0, skipped=0, passes=[], failures=[], skips=[])
    try:
        r = subprocess.run([binary, f"--gtest_filter=*/{driver}", f"--gtest_output=json:{report}"], env=env,
                           capture_output=True, text=True, timeout=CONFORMANCE_TIMEOUT_S)
        out["rc"], text = r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        out.update(rc=None, error=f"timed out after {CONFORMANCE_TIMEOUT_S} s")
        text = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
    tail, logs = text[-4000:], test_logs(text)
    if not os.path.exists(report):
        out["failed"] = 1
        out.setdefault("error", f"no gtest report (exit {out['rc']})")
        out["output_tail"] = tail
        return out
    for group in json.load(open(report))["testsuites"]:
        for t in group["testsuite"]:
            name = f"{group['name']}.{t['name']}"
            if t.get("failures"):
                out["failed"] += 1
                out["failures"].append(dict(test=name, message=t["failures"][0]["failure"][:2000]))
            elif t.get("result") == "SKIPPED":
                out["skipped"] += 1
                out["skips"].append(dict(test=name, message=logs.get(name, "")[:500]))
            elif t.get("result") == "COMPLETED":
                out["passed"] += 1
                out["passes"].append(name)
    if out["rc"] != 0 and out["failed"] == 0:
        out["failed"] = 1
        out["error"] = f"exit {out['rc']} with no failed test"
        out["output_tail"] = tail
    return out


def conformance_line(c):
    line = f"conformance ({c['driver']}): {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped"
    return line + (f" ({c['error']})" if c.get("error") else "")


def print_conformance(c):
    """Each failed and skipped test with its message, the log's tail where gtest did not finish, the counts."""
    for f in c["failures"]:
        print(f"  FAIL {f['test']}: {' '.join(f['message'].splitlines()[:3])}")  # where, then what
    for f in c["skips"]:
        print(f"  SKIP {f['test']}: {(f['message'].splitlines() or [''])[-1]}")
    if c.get("output_tail"):
        print(c["output_tail"])
    print(f"device-check: {conformance_line(c)}")


def self_test_conformance(root):
    """The bundled suite runs here: the CPU instantiation passes; the CUDA one without a GPU passes
    only the tests that need no device (a missing device, a missing libcuda) and skips the others,
    saying why; none of them passes by skipping."""
    cpu = run_conformance(root, "CPU")
    if cpu is None:
        return "no conformance suite in the bundle"
    assert cpu["failed"] == 0 and cpu["skipped"] == 0 and cpu["passed"] > 0, f"CPU conformance: {cpu}"
    cuda = run_conformance(root, "CUDA")
    assert cuda["failed"] == 0 and cuda["passed"] > 0 and cuda["skipped"] > 0, f"CUDA conformance without a GPU: {cuda}"
    device_less = ("Drivers/DriverOpen.", "Drivers/DriverLibrary.")  # ConformanceTest.cpp's fixtures without a device
    assert all(p.startswith(device_less) for p in cuda["passes"]), f"passed without a GPU: {cuda['passes']}"
    assert all("needs hardware" in s["message"] for s in cuda["skips"]), cuda["skips"]
    return f"{conformance_line(cpu)}; {conformance_line(cuda)} (no GPU here)"


def self_test(rt, root):
    """The bindings above against the CPU device (struct layouts, buffers,
    queues): what can be checked without a GPU, so that a lent device's
    minutes are not spent on a Python typo."""
    dev, buf, queue = out_ptr(), out_ptr(), out_ptr()
    rt("tgrt_device_open", b"CPU", None, ctypes.byref(dev))
    info = DeviceInfo(api_version=API)
    rt("tgrt_device_query", dev, ctypes.byref(info))
    assert info.driver == b"CPU" and info.arch == b"" and info.subgroup_size == 1, "tgrt_device_info layout"
    host = np.arange(64, dtype=np.float32)
    rt("tgrt_buffer_alloc", dev, ctypes.c_size_t(host.nbytes), ctypes.byref(buf))
    rt("tgrt_buffer_copy_in", buf, ctypes.c_size_t(0), host.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(host.nbytes))
    back = np.empty_like(host)
    rt("tgrt_buffer_copy_out", buf, ctypes.c_size_t(0), back.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(back.nbytes))
    assert (back == host).all(), "buffer copies"
    rt("tgrt_queue_create", dev, COMPUTE, ctypes.byref(queue))
    rt("tgrt_queue_submit", queue)
    rt("tgrt_device_synchronize", dev, ctypes.c_uint64(60000))
    try:
        rt("tgrt_program_create", dev, ctypes.byref(ProgramDesc(api_version=API, format=FORMAT_CUBIN,
                                                                 binary=ctypes.cast(ctypes.c_char_p(b"x" * 64), ctypes.c_void_p),
                                                                 size=64, entry_name=b"k")), ctypes.byref(out_ptr()))
        raise AssertionError("the CPU device accepted a cubin")
    except RuntimeFailure as e:
        assert "TGRT_UNSUPPORTED" in str(e) or "TGRT_INVALID" in str(e), str(e)
    rt("tgrt_queue_destroy", queue)
    rt("tgrt_buffer_free", buf)
    rt("tgrt_device_close", dev)
    refs = bench_ref.self_test()
    bench_self_test(rt, root)
    print(f"  ok   {self_test_conformance(root)}")
    bench = 0
    if os.path.exists(os.path.join(root, "manifest.json")):
        for name in json.load(open(os.path.join(root, "manifest.json")))["cases"]:
            case = json.load(open(os.path.join(root, "cases", name, "case.json")))
            if case.get("kind") == "bench":
                check_bench_case(root, case)
                bench += 1
    print(f"device-check: self-test passed (bindings checked on the CPU device; bench references: {refs}; "
          f"{bench} bench cases well formed)")
    return 0


def main():
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    root = os.path.abspath(args[0] if args else os.path.dirname(__file__))
    rt = Runtime(os.path.join(root, "runtime", "libTinygradRuntime.so"))
    if "--self-test" in sys.argv:
        return self_test(rt, root)
    manifest = json.load(open(os.path.join(root, "manifest.json")))
    dev = out_ptr()
    status = rt.lib.tgrt_device_open(b"CUDA:0", None, ctypes.byref(dev))
    if status != OK:
        print(f"device-check: NOT RUN: {rt.lib.tgrt_status_string(status).decode()}: "
              f"{rt.lib.tgrt_last_error().decode()}")
        return 3 if status == UNAVAILABLE else 1
    info = DeviceInfo(api_version=API)
    rt("tgrt_device_query", dev, ctypes.byref(info))
    print(f"device-check: {info.description.decode()} ({info.arch.decode()}), {len(manifest['cases'])} cases")
    results = []
    for name in manifest["cases"]:
        case = json.load(open(os.path.join(root, "cases", name, "case.json")))
        try:
            r = (run_bench_case if case.get("kind") == "bench" else run_case)(rt, dev, info, root, case)
        except (RuntimeFailure, AssertionError, ValueError, OSError) as e:
            r = dict(name=name, ok=False, error=f"{type(e).__name__}: {e}")
        results.append(r)
        line = (f"  {'ok  ' if r['ok'] else 'FAIL'} {name}: " +
                (r.get("error") or f"{r['mismatches']} mismatches (max |diff| {r['max_abs_diff']:.3g}), "
                 f"{r['us_per_launch']:.1f} us/launch ({r['loaded']})"))
        if "kernel_us" in r:
            line += f" [{len(r['kernel_us'])} kernels; ref {r['reference']}]"
        if "bench" in r and r["bench"].get("ours_gflops"):
            line += f", {r['bench']['ours_gflops']:.0f} GFLOP/s"
        if "bench" in r and "torch_us" in r["bench"]:
            line += f"; torch {r['bench']['torch_us']:.1f} us ({r['bench']['fraction_of_torch']:.2%} of torch)"
        print(line, flush=True)
    rt.lib.tgrt_device_close(dev)
    passed = sum(r["ok"] for r in results)
    conformance = run_conformance(root, "CUDA")
    conformance_ok = conformance is None or (conformance["failed"] == 0 and conformance["skipped"] == 0
                                             and conformance["passed"] > 0)
    json.dump(dict(device=info.description.decode(), arch=info.arch.decode(), passed=passed, total=len(results),
                   results=results, conformance=conformance), open(os.path.join(root, "results.json"), "w"), indent=1)
    print(f"device-check: {passed}/{len(results)} cases matched")
    if conformance:
        print_conformance(conformance)
    return 0 if passed == len(results) and conformance_ok else 1


if __name__ == "__main__":
    sys.exit(main())
