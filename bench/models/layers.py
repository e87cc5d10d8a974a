#!/usr/bin/env python3
"""ResNet-18 (batch 1, 224x224) kernel by kernel: where a step's time goes, on one side.

        layers.py ours|tinygrad|torch [--threads N] [--reps R] [--json PATH] [--dump DIR]
        layers.py compare A.json B.json ...

ours / tinygrad: the model of models.py (tinygrad's extra/models/resnet.py, realized random weights),
run without TinyJit so that every kernel is launched and timed on its own as tinygrad's DEBUG=2 times
it (run_linear with wait=True); the caller sets DEV (CPU:MLIR or CPU), NUM_CPU_THREADS and the rest
of the environment as run.py's side_env does. tinygrad's scheduler makes 19 kernels of the model
(SCHEDULE): each is labelled by its position. torch: torchvision's resnet18, each leaf module timed
by forward hooks and its time counted to the kernel tinygrad fuses it into (BN, ReLU, the downsample,
the pools). Medians (or minima, --stat min) over `reps` steps after two warm-up steps; GFLOP/s of the convolutions' nominal
FLOPs. compare prints the sides' JSON side by side, by layer and by class, as markdown.
"""
import argparse
import json
import os
import re
import statistics
import sys
import time

def _schedule():
    """(label, class, FLOPs) of the 19 kernels tinygrad's scheduler makes of ResNet-18 at batch 1, in launch
    order: the stem (conv, BN, ReLU, the max pool's padding), the max pool, then per block its first conv
    (with BN, ReLU) and its tail (second conv, BN, the residual add with the 1x1 downsample where the block
    has one, ReLU; the last one with the average pool), the FC. FLOPs are the convolutions' 2*MACs."""
    out = [("conv1", "stem 7x7 s2 3->64 on 112^2", 2 * 3 * 49 * 64 * 112 * 112),
           ("maxpool", "maxpool 3x3 s2", 64 * 56 * 56 * 9)]
    conv3 = lambda c, h, s=1: 2 * (c // s) * 9 * c * h * h
    for stage, (c, h) in enumerate([(64, 56), (128, 28), (256, 14), (512, 7)], 1):
        for blk in range(2):
            first = stage > 1 and blk == 0
            pre = f"layer{stage}.{blk}"
            if first:
                out.append((f"{pre}.conv1", f"3x3 s2 {c // 2}->{c} on {h}^2", conv3(c, h, 2)))
                out.append((f"{pre}.conv2+ds", f"3x3 s1 {c} on {h}^2 + 1x1 s2 ds tail",
                            conv3(c, h) + 2 * (c // 2) * c * h * h))
            else:
                out.append((f"{pre}.conv1", f"3x3 s1 {c} on {h}^2", conv3(c, h)))
                last = stage == 4 and blk == 1
                out.append((f"{pre}.conv2", f"3x3 s1 {c} on {h}^2 " + ("+ avgpool" if last else "tail"), conv3(c, h)))
    out.append(("fc", "fc 512->1000", 2 * 512 * 1000))
    return out


SCHEDULE = _schedule()


def tinygrad_profile(reps, dump=None, stat=statistics.median):
    from tinygrad import Tensor, Device, nn
    from tinygrad.uop.ops import Ops
    import tinygrad.engine.realize as R
    import tinygrad.tensor as T
    from extra.models.resnet import ResNet
    Tensor.manual_seed(1337)
    model = ResNet(18, num_classes=1000)
    x = Tensor.randn(1, 3, 224, 224).realize()
    Tensor.realize(*nn.state.get_state_dict(model).values())
    Device[Device.DEFAULT].synchronize()
    rec = []
    orig = R.track_stats

    def track(ctx, call, st, ets):
        if call.src[0].op is Ops.PROGRAM and ets and ets[0] is not None:
            name = re.sub(r"\x1b\[[0-9;]*m", "", call.src[0].arg.name)
            est = R.estimate_uop(call)
            out = call.src[1]
            src = next((x.arg for x in call.src[0].src if x.op is Ops.SOURCE), None)
            rec.append((name, ets[0], float(est.ops), int(out.max_numel()), src))
        return orig(ctx, call, st, ets)
    R.track_stats = track
    run = R.run_linear
    T.run_linear = lambda *a, **k: run(*a, **{**k, "wait": True})
    runs = []
    for i in range(reps + 2):
        rec.clear()
        model(x).realize()
        if i >= 2:
            runs.append(list(rec))
    rows = []
    for j, (name, _, ops, numel, src) in enumerate(runs[0]):
        ms = stat([r[j][1] for r in runs]) * 1e3
        label, cls, flops = SCHEDULE[j] if len(runs[0]) == len(SCHEDULE) else (name, "?", ops)
        if dump and src:  # ours: the AST JSON tinygrad-compile/tinygrad-run take; tinygrad's: its C
            os.makedirs(dump, exist_ok=True)
            with open(os.path.join(dump, f"{j:02d}_{label}.{'json' if src.lstrip().startswith('{') else 'c'}"), "w") as f:
                f.write(src)
        rows.append({"kernel": name, "layer": label, "class": cls, "out": numel, "gflop": flops / 1e9, "ms": ms,
                     "gflops": flops / ms / 1e6 if ms else 0.0})
    return rows


def torch_label(module):
    """The SCHEDULE label a torchvision resnet18 leaf module's time counts to (its BN and ReLU, the
    downsample and the pools go with the conv tinygrad fuses them into)."""
    if module in ("conv1", "bn1", "relu"):
        return "conv1"
    if module in ("maxpool", "fc"):
        return module
    if module == "avgpool":
        return "layer4.1.conv2"
    parts = module.split(".")
    pre = ".".join(parts[:2])
    if parts[2] in ("conv1", "bn1", "relu"):  # a block's ReLU runs twice: both go to its first conv
        return f"{pre}.conv1"
    labels = [lab for lab, _, _ in SCHEDULE]
    return f"{pre}.conv2+ds" if f"{pre}.conv2+ds" in labels else f"{pre}.conv2"


def torch_profile(reps, threads, stat=statistics.median):
    import torch
    import torchvision
    torch.set_num_threads(threads)
    torch.manual_seed(1337)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    step, t0 = {}, {}

    def post(n):
        lab = torch_label(n)
        step[lab] = step.get(lab, 0.0) + time.perf_counter() - t0[n]
    for name, mod in model.named_modules():
        if len(list(mod.children())) == 0:
            mod.register_forward_pre_hook(lambda m, i, n=name: t0.__setitem__(n, time.perf_counter()))
            mod.register_forward_hook(lambda m, i, o, n=name: post(n))
    runs = []
    with torch.no_grad():
        for i in range(reps + 2):
            step.clear()
            model(x)
            if i >= 2:
                runs.append(dict(step))
    rows = []
    for label, cls, flops in SCHEDULE:
        ms = stat([r[label] for r in runs]) * 1e3
        rows.append({"kernel": label, "layer": label, "class": cls, "gflop": flops / 1e9, "ms": ms,
                     "gflops": flops / ms / 1e6})
    return rows


def compare(paths):
    """One table of several sides' JSON (same SCHEDULE labels), by layer and by class."""
    sides = []
    for p in paths:
        with open(p) as f:
            d = json.load(f)
        sides.append((f"{d['side']} {d['threads']}t", {r["layer"]: r for r in d["rows"]}))
    head = "".join(f" {n + ' ms':>14}" for n, _ in sides)
    print(f"| {'layer':<16} | {'class':<34} | {'MFLOP':>6} |" + "|".join(f" {n + ' ms':>13} | GFLOP/s" for n, _ in sides) + " |")
    print("|---|---|---|" + "---|---|" * len(sides))
    by = {}
    for label, cls, flops in SCHEDULE:
        cells = []
        for _, rows in sides:
            r = rows.get(label)
            cells.append(f" {r['ms']:13.2f} | {r['gflops']:7.1f}" if r else f" {'-':>13} | {'-':>7}")
        print(f"| {label:<16} | {cls:<34} | {flops / 1e6:6.1f} |" + "|".join(cells) + " |")
        key = cls.replace(" tail", "").replace(" + avgpool", "")
        c = by.setdefault(key, {"n": 0, "flops": 0, "ms": [0.0] * len(sides)})
        c["n"], c["flops"] = c["n"] + 1, c["flops"] + flops
        for i, (_, rows) in enumerate(sides):
            c["ms"][i] += rows[label]["ms"] if label in rows else float("nan")
    print(f"\n| {'class':<34} | n |" + "|".join(f" {n + ' ms':>13} | GFLOP/s" for n, _ in sides) + " |")
    print("|---|---|" + "---|---|" * len(sides))
    for k, c in by.items():
        print(f"| {k:<34} | {c['n']} |" + "|".join(f" {ms:13.2f} | {c['flops'] / ms / 1e6:7.1f}" for ms in c["ms"]) + " |")
    print("| total | |" + "|".join(f" {sum(r['ms'] for r in rows.values()):13.2f} | " for _, rows in sides) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("side", choices=["ours", "tinygrad", "torch", "compare"])
    ap.add_argument("jsons", nargs="*", help="compare: the --json files of the sides to put side by side")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--stat", choices=["median", "min"], default="median",
                    help="per kernel over the reps (min: for A/B runs on a loaded machine)")
    ap.add_argument("--dump", help="ours/tinygrad: write each kernel's source (our AST JSON, tinygrad's C) here")
    a = ap.parse_args()
    if a.side == "compare":
        return compare(a.jsons) or 0
    stat = min if a.stat == "min" else statistics.median
    rows = torch_profile(a.reps, a.threads, stat) if a.side == "torch" else tinygrad_profile(a.reps, a.dump, stat)
    for r in rows:
        print(f"{r['layer']:<16} {r['kernel']:<34} {r['class']:<34} {r['ms']:8.3f} ms {r['gflops']:7.1f} GFLOP/s")
    print(f"total {sum(r['ms'] for r in rows):.2f} ms")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"side": a.side, "threads": a.threads, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
