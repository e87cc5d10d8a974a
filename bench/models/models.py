#!/usr/bin/env python3
"""One model, one side, one thread count, in this (fresh) process: prints `RESULT {json}`.

        models.py MODEL SIDE --threads N --reps R

MODEL: resnet18 (tinygrad's extra/models/resnet.py, random weights, batch 1, 224x224, TinyJit),
llama (extra/models/llama.py: dim 256, 4 layers, 8 heads, vocab 1024, a prefill of 64 tokens,
TinyJit), mnist_train (one training step of examples/beautiful_mnist.py's model with Adam on
random data, its own TinyJit train_step). SIDE: ours (tinygrad with DEV=CPU:MLIR), tinygrad
(DEV=CPU, its own compiler), torch (the same model written in PyTorch; torchvision's resnet18).
The caller sets DEV and the environment (run.py); this file only builds, runs and times.

Weights as a user has them: on both tinygrad sides every tensor of the model's state
(nn.state.get_state_dict: parameters, BatchNorm statistics, the llama's rope table) is realized once
before anything is timed, as a loaded model's are. Unrealized, tinygrad would recompute each weight
(`rand*scale+low`) inside every kernel of every step, while PyTorch's weights are plain memory.
One code path for ours and tinygrad's compiler; the realize is not part of first_s.

first_s: the first call (schedule, compile, run) in a fresh process with no disk cache
(CACHELEVEL=0); first_split (tinygrad sides): its seconds in tinygrad's scheduling
(create_linear_with_vars, the same Python on both sides), in lowering and compiling the new kernels
(lower_and_compile: our compile threads, or tinygrad's worker pool) and the rest (running the
kernels, the Python that builds the step's graph). Then two untimed calls (TinyJit captures on the second), then `reps` timed calls:
median_ms and all of them. `check`: a few output values after the last call, `first_check` after the
first, for run.py to compare ours with tinygrad's.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

LLAMA = dict(dim=256, hidden_dim=768, n_heads=8, n_layers=4, norm_eps=1e-5, vocab_size=1024, max_context=128)
PREFILL = 64


def tinygrad_model(name):
    """-> (step(), sync(), check()) for tinygrad (either compiler)."""
    from tinygrad import Tensor, TinyJit, Device, nn
    Tensor.manual_seed(1337)
    dev = Device[Device.DEFAULT]
    if name == "resnet18":
        from extra.models.resnet import ResNet
        model = ResNet(18, num_classes=1000)
        x = Tensor.randn(1, 3, 224, 224).realize()
        jit = TinyJit(lambda x: model(x).realize())
        out = {}

        def step():
            out["y"] = jit(x)
    elif name == "llama":
        from extra.models.llama import Transformer
        model = Transformer(**LLAMA, jit=False)
        toks = Tensor.randint(1, PREFILL, high=LLAMA["vocab_size"]).realize()
        jit = TinyJit(lambda t: model.forward(t, 0, math.nan, 0, 0.8, 0.0, 0.0).realize())
        out = {}

        def step():
            out["y"] = jit(toks)
    elif name == "mnist_train":
        import examples.beautiful_mnist as bm
        model = bm.Model()
        bm.opt = nn.optim.Adam(nn.state.get_parameters(model))
        n = int(os.environ.get("BS", "512")) * 4
        X = Tensor.randn(n, 1, 28, 28).realize()
        Y = Tensor.randint(n, high=10).realize()
        out = {}

        def step():
            out["y"] = model.train_step(X, Y)
    else:
        raise SystemExit(f"unknown model {name}")
    Tensor.realize(*nn.state.get_parameters(model))
    dev.synchronize()

    def check():
        return [float(v) for v in out["y"].flatten()[:8].numpy().tolist()]
    return step, dev.synchronize, check


def torch_model(name, threads):
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(1337)
    if name == "resnet18":
        import torchvision
        model = torchvision.models.resnet18(weights=None).eval()
        x = torch.randn(1, 3, 224, 224)

        def step():
            with torch.no_grad():
                return model(x)
    elif name == "llama":
        model = TorchLlama(**LLAMA).eval()
        toks = torch.randint(0, LLAMA["vocab_size"], (1, PREFILL))

        def step():
            with torch.no_grad():
                return model(toks)
    elif name == "mnist_train":
        model = TorchMnist()
        opt = torch.optim.Adam(model.parameters())
        bs = int(os.environ.get("BS", "512"))
        X, Y = torch.randn(bs * 4, 1, 28, 28), torch.randint(0, 10, (bs * 4,))

        def step():
            opt.zero_grad()
            idx = torch.randint(0, X.shape[0], (bs,))
            loss = torch.nn.functional.cross_entropy(model(X[idx]), Y[idx])
            loss.backward()
            opt.step()
            return loss
    else:
        raise SystemExit(f"unknown model {name}")
    return step, (lambda: None), (lambda: [])


def _torch_classes():
    """PyTorch versions of the llama and beautiful_mnist models (same shapes and ops)."""
    import torch
    import torch.nn as tnn

    class RMSNorm(tnn.Module):
        def __init__(self, dim, eps):
            super().__init__()
            self.eps, self.weight = eps, tnn.Parameter(torch.ones(dim))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

    class Block(tnn.Module):
        def __init__(self, dim, hidden_dim, n_heads, norm_eps):
            super().__init__()
            self.n_heads, self.head_dim = n_heads, dim // n_heads
            self.wq, self.wk, self.wv, self.wo = (tnn.Linear(dim, dim, bias=False) for _ in range(4))
            self.w1, self.w3 = tnn.Linear(dim, hidden_dim, bias=False), tnn.Linear(dim, hidden_dim, bias=False)
            self.w2 = tnn.Linear(hidden_dim, dim, bias=False)
            self.attention_norm, self.ffn_norm = RMSNorm(dim, norm_eps), RMSNorm(dim, norm_eps)

        def rope(self, x, cos, sin):
            x = x.reshape(*x.shape[:-1], -1, 2)
            a, b = x[..., 0], x[..., 1]
            return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)

        def forward(self, x, cos, sin, mask):
            bs, n, _ = x.shape
            h = self.attention_norm(x)
            q, k, v = (w(h).view(bs, n, self.n_heads, self.head_dim) for w in (self.wq, self.wk, self.wv))
            q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
            q, k, v = (t.transpose(1, 2) for t in (q, k, v))
            att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim) + mask
            o = (att.softmax(-1) @ v).transpose(1, 2).reshape(bs, n, -1)
            x = x + self.wo(o)
            h = self.ffn_norm(x)
            return x + self.w2(tnn.functional.silu(self.w1(h)) * self.w3(h))

    class Llama(tnn.Module):
        def __init__(self, dim, hidden_dim, n_heads, n_layers, norm_eps, vocab_size, max_context):
            super().__init__()
            self.tok = tnn.Embedding(vocab_size, dim)
            self.layers = tnn.ModuleList(Block(dim, hidden_dim, n_heads, norm_eps) for _ in range(n_layers))
            self.norm, self.output = RMSNorm(dim, norm_eps), tnn.Linear(dim, vocab_size, bias=False)
            hd = dim // n_heads
            freqs = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
            ang = torch.outer(torch.arange(max_context * 2).float(), freqs)
            self.cos, self.sin = ang.cos()[:, None, :], ang.sin()[:, None, :]

        def forward(self, toks):
            n = toks.shape[1]
            mask = torch.full((n, n), float("-inf")).triu(1)
            h = self.tok(toks)
            for layer in self.layers:
                h = layer(h, self.cos[:n], self.sin[:n], mask)
            return self.output(self.norm(h))

    class Mnist(tnn.Module):
        def __init__(self):
            super().__init__()
            self.seq = tnn.Sequential(
                tnn.Conv2d(1, 32, 5), tnn.ReLU(), tnn.Conv2d(32, 32, 5), tnn.ReLU(), tnn.BatchNorm2d(32),
                tnn.MaxPool2d(2), tnn.Conv2d(32, 64, 3), tnn.ReLU(), tnn.Conv2d(64, 64, 3), tnn.ReLU(),
                tnn.BatchNorm2d(64), tnn.MaxPool2d(2), tnn.Flatten(1), tnn.Linear(576, 10))

        def forward(self, x):
            return self.seq(x)
    return Llama, Mnist


def TorchLlama(**kw):
    return _torch_classes()[0](**kw)


def TorchMnist():
    return _torch_classes()[1]()


class FirstCallSplit:
    """Times tinygrad's scheduling and compiling while installed (`with`): the parts of a first call
    that one side's compiler does not make faster (schedule) or does (compile), for first_split."""

    def __init__(self):
        self.schedule_s = self.compile_s = 0.0
        self._undo = []

    def _wrap(self, mod, name, field):
        f = getattr(mod, name)

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                setattr(self, field, getattr(self, field) + time.perf_counter() - t0)
        setattr(mod, name, timed)
        self._undo.append((mod, name, f))

    def __enter__(self):
        import tinygrad.engine.realize as realize
        import tinygrad.tensor as tensor
        # tensor.py calls create_linear_with_vars and realize.py lower_and_compile by their module
        # globals at call time (the latter as our compile threads wrapped it)
        self._wrap(tensor, "create_linear_with_vars", "schedule_s")
        self._wrap(realize, "lower_and_compile", "compile_s")
        return self

    def __exit__(self, *exc):
        for mod, name, f in reversed(self._undo):
            setattr(mod, name, f)
        self._undo.clear()

    def as_dict(self, first_s):
        return {"schedule_s": self.schedule_s, "compile_s": self.compile_s,
                "rest_s": first_s - self.schedule_s - self.compile_s}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("side", choices=["ours", "tinygrad", "torch"])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    step, sync, check = torch_model(a.model, a.threads) if a.side == "torch" else tinygrad_model(a.model)
    split = FirstCallSplit() if a.side != "torch" else None
    t0 = time.perf_counter()
    if split:
        with split:
            step()
            sync()
    else:
        step()
        sync()
    first = time.perf_counter() - t0
    first_check = check()
    for _ in range(2):
        step()
        sync()
    times = []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        step()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    print("RESULT " + json.dumps({"model": a.model, "side": a.side, "threads": a.threads, "first_s": first,
                                  "median_ms": statistics.median(times), "times_ms": times, "check": check(),
                                  "first_check": first_check,
                                  "first_split": split.as_dict(first) if split else None}))


if __name__ == "__main__":
    sys.exit(main())
