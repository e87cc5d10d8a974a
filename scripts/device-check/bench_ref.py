"""The bench cases' data for the device half (run_cases.py): inputs from their generator specs, the op's
reference output, the comparison, and torch's time on the same shapes. Needs numpy; torch is used when
installed (on the GPU when CUDA is there, else on the CPU), and the references fall back to numpy.

A generator spec {seed, distribution "normal", mean, std, shape, dtype} gives the same data on every
machine: numpy's default_rng(seed).standard_normal in float32, scaled, then cast to dtype (float16
inputs are the rounded values, and the reference computes from those rounded values in float64).
"""
import statistics

import numpy as np


def generate(spec):
    if spec["distribution"] != "normal":
        raise ValueError(f"unknown distribution {spec['distribution']!r}")
    x = np.random.default_rng(spec["seed"]).standard_normal(tuple(spec["shape"]), dtype=np.float32)
    if spec["std"] != 1.0 or spec["mean"] != 0.0:
        x = x * np.float32(spec["std"]) + np.float32(spec["mean"])
    return x.astype(np.dtype(spec["dtype"]))


def reference_numpy(ref, xs):
    """The op in float64 with numpy (the fallback without torch, and the self-test's second opinion)."""
    xs = [x.astype(np.float64) for x in xs]
    op = ref["op"]
    if op == "matmul":
        return xs[0] @ xs[1]
    if op == "softmax":
        e = np.exp(xs[0] - xs[0].max(axis=ref["axis"], keepdims=True))
        return e / e.sum(axis=ref["axis"], keepdims=True)
    if op == "layernorm":
        x = xs[0]
        mean = x.mean(axis=ref["axis"], keepdims=True)
        var = ((x - mean) ** 2).mean(axis=ref["axis"], keepdims=True)
        return (x - mean) / np.sqrt(var + ref["eps"])
    if op == "conv2d":
        x, w, p, s = xs[0], xs[1], ref["padding"], ref["stride"]
        xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
        win = np.lib.stride_tricks.sliding_window_view(xp, w.shape[2:], axis=(2, 3))[:, :, ::s, ::s]
        # win: N, Cin, OH, OW, KH, KW; w: Cout, Cin, KH, KW
        return np.einsum("nchwij,ocij->nohw", win, w, optimize=True)
    raise ValueError(f"unknown op {op!r}")


def torch_op(ref, ts):
    """The op in torch (cuBLAS/cuDNN on the GPU), in the tensors' own dtype."""
    import torch
    import torch.nn.functional as F
    op = ref["op"]
    if op == "matmul":
        return ts[0] @ ts[1]
    if op == "softmax":
        return torch.softmax(ts[0], ref["axis"])
    if op == "layernorm":
        assert ref["axis"] == -1
        return F.layer_norm(ts[0], (ts[0].shape[-1],), eps=ref["eps"])
    if op == "conv2d":
        return F.conv2d(ts[0], ts[1], padding=ref["padding"], stride=ref["stride"])
    raise ValueError(f"unknown op {op!r}")


def _torch(device):
    try:
        import torch
    except ImportError:
        return None
    if device == "cuda" and not torch.cuda.is_available():
        return None
    return torch


def reference(ref, xs, device="cuda"):
    """(float64 output, how it was computed): torch on `device` when it is there, else numpy."""
    torch = _torch(device)
    if torch is None:
        return reference_numpy(ref, xs), "numpy float64"
    ts = [torch.from_numpy(np.ascontiguousarray(x).astype(np.float64)).to(device) for x in xs]
    out = torch_op(ref, ts).cpu().numpy()
    return out, f"torch float64 ({device})"


def compare(got, want, tol):
    """(mismatches, max |diff|): |got - want| <= atol + rtol * |want|, NaN where want is not NaN counts."""
    got64, want64 = got.astype(np.float64).reshape(-1), want.astype(np.float64).reshape(-1)
    ok = np.isclose(got64, want64, rtol=tol["rtol"], atol=tol["atol"], equal_nan=True)
    diff = np.abs(got64 - want64)
    return int((~ok).sum()), float(np.nanmax(diff)) if diff.size else 0.0


def time_torch(ref, xs, flops, nbytes, rounds=5):
    """torch's median time per op on the GPU (CUDA events), or why not; TF32 off (both are float32)."""
    torch = _torch("cuda")
    if torch is None:
        return dict(torch="not available (no torch or no CUDA)")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    ts = [torch.from_numpy(np.ascontiguousarray(x)).to("cuda") for x in xs]
    for _ in range(3):
        torch_op(ref, ts)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch_op(ref, ts)
    end.record()
    torch.cuda.synchronize()
    reps = max(1, min(100, int(0.2e3 / max(start.elapsed_time(end), 1e-3))))
    times = []
    for _ in range(rounds):
        start.record()
        for _ in range(reps):
            torch_op(ref, ts)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / reps)
    us = statistics.median(times)
    return dict(torch_us=us, torch_gflops=flops / us / 1e3 if flops else None, torch_gbps=nbytes / us / 1e3,
                torch_version=torch.__version__, tf32=False)


SELF_TEST_REFS = [
    (dict(op="matmul", m=5, n=7, k=6), [(5, 6), (6, 7)]),
    (dict(op="softmax", axis=-1), [(4, 33)]),
    (dict(op="layernorm", axis=-1, eps=1e-5), [(4, 33)]),
    (dict(op="conv2d", padding=1, stride=1), [(2, 3, 5, 6), (4, 3, 3, 3)]),
]


def self_test():
    """Generation, the references and the comparison on the CPU at small shapes (no GPU): known answers
    for each op, numpy against torch (CPU) where torch is installed, and a comparison that must fail."""
    spec = dict(seed=7, distribution="normal", mean=0.0, std=1.0, shape=[3, 4], dtype="float16")
    a, b = generate(spec), generate(spec)
    assert a.dtype == np.float16 and a.shape == (3, 4) and (a == b).all(), "generation is not deterministic"
    assert not (generate(dict(spec, seed=8)) == a).all(), "the seed does not change the data"
    rng = np.random.default_rng(1)
    torch_used = _torch("cpu") is not None
    for ref, shapes in SELF_TEST_REFS:
        xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        want = reference_numpy(ref, xs)
        if torch_used:
            got, how = reference(ref, xs, device="cpu")
            assert how.startswith("torch") and compare(got, want, dict(rtol=1e-12, atol=1e-12))[0] == 0, \
                f"{ref['op']}: torch and numpy references differ"
        if ref["op"] == "matmul":  # A @ I == A
            assert np.allclose(reference_numpy(ref, [xs[0], np.eye(6, 7, dtype=np.float32)]), xs[0] @ np.eye(6, 7))
            assert want.shape == (5, 7)
        elif ref["op"] == "softmax":
            assert np.allclose(want.sum(-1), 1.0) and (want > 0).all()
        elif ref["op"] == "layernorm":
            assert np.allclose(want.mean(-1), 0.0, atol=1e-12) and np.allclose(want.var(-1), 1.0, atol=1e-3)
        else:  # a centre tap copies the input channel into each output
            delta = np.zeros((3, 3, 3, 3), np.float32)
            for c in range(3):
                delta[c, c, 1, 1] = 1.0
            assert np.array_equal(reference_numpy(ref, [xs[0], delta]), xs[0].astype(np.float64))
            assert want.shape == (2, 4, 5, 6)
        tol = dict(rtol=1e-4, atol=1e-6)
        assert compare(want.astype(np.float32), want, tol) == (0, compare(want.astype(np.float32), want, tol)[1])
        bad = want.astype(np.float32).reshape(-1).copy()
        bad[1] += 1e-2 + abs(bad[1]) * 1e-3
        bad[2] = np.nan
        assert compare(bad, want, tol)[0] == 2, f"{ref['op']}: the comparison missed wrong values"
    return "torch (CPU) and numpy" if torch_used else "numpy only (torch not installed)"
