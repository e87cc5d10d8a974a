"""A many-kernel program replayed end to end: one training step of a small MLP under TinyJit (issue #25).

The model is tinygrad's nn.Linear layers (784 -> 128 -> 64 -> 10, ReLU) trained with Adam on a fixed random
batch of 64; the step (forward, sparse categorical cross-entropy, backward, Adam update) is a TinyJit function.
Three ways of replaying the same step, each timed with the same statistic (the median over `reps` calls of a
call plus a device synchronize, after two untimed calls, the second of which captures):

* ours_graph:    DEV=CPU:MLIR, our kernels replayed through our runtime's graph (runtime_graph.CPUGraph);
* ours_nograph:  DEV=CPU:MLIR with JIT=2 (tinygrad's JIT without graphs): our kernels, tinygrad's runner,
                 one ctypes call per kernel;
* tinygrad_jit:  DEV=CPU, tinygrad's compiler and its TinyJit (its CPU device has no graph).

The first two run in one process (JIT is a ContextVar, read when the JIT captures); tinygrad's side runs in
a second process with DEV=CPU. Each side reports the kernels one step runs and the first step's loss; the
driver requires that the three losses agree (the same step from the same seed) and that the graph side
launched our graph on every replay and the no-graph side never.

usage: python3 mlp_train_step.py BUILD [reps=30]   (driver; needs TINYGRAD_SRC; prints MLP_* lines;
       THREADS=n sets NUM_CPU_THREADS on every side, default 1)
       python3 mlp_train_step.py --side ours|tinygrad REPS   (one side, under DEV; prints RESULT json)
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "models"))
from harness import PY, side_env, tinygrad_checkout  # noqa: E402

BATCH, SIZES = 64, (784, 128, 64, 10)


def replayed_calls(jit):
    """(kernels and copies one replay of the captured JIT runs, how many of the JIT's calls are graphs):
    tinygrad's GlobalCounters count a graph as one kernel."""
    from tinygrad.uop.ops import Ops
    kernels = graphs = 0
    for call in jit.captured.linear.src:
        ast = call.src[0]
        if ast.op is Ops.CUSTOM_FUNCTION and ast.arg == "graph":
            kernels, graphs = kernels + len(ast.src[0].src), graphs + 1
        else:
            kernels += 1
    return kernels, graphs


def measure(reps):
    """Builds the model and its TinyJit step now (under the caller's JIT setting), runs it reps + 2 times;
    returns {ms: median per step, kernels: per replay, graphs: graph calls per replay, loss: the first step's}."""
    from tinygrad import Device, Tensor, TinyJit, nn
    from tinygrad.helpers import Context

    Tensor.manual_seed(1337)
    layers = [nn.Linear(a, b) for a, b in zip(SIZES, SIZES[1:])]
    opt = nn.optim.Adam(nn.state.get_parameters(layers), lr=1e-3)
    X = Tensor.randn(BATCH, SIZES[0]).realize()
    Y = Tensor.randint(BATCH, high=SIZES[-1]).realize()

    @TinyJit
    @Context(TRAINING=1)
    def step(x, y):
        h = x
        for i, layer in enumerate(layers):
            h = layer(h)
            if i < len(layers) - 1:
                h = h.relu()
        opt.zero_grad()
        loss = h.sparse_categorical_crossentropy(y).backward()
        return loss.realize(*opt.schedule_step())

    dev = Device[Device.DEFAULT]
    first = float(step(X, Y).item())
    step(X, Y)  # captures
    dev.synchronize()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        step(X, Y)
        dev.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    kernels, graphs = replayed_calls(step)
    return {"ms": times[len(times) // 2], "kernels": kernels, "graphs": graphs, "loss": first}


def side(which, reps):
    if which == "tinygrad":
        return {"tinygrad_jit": measure(reps)}
    from tinygrad.helpers import Context
    from tinygrad_mlir import runtime_graph
    res = {}
    for name, jit in (("ours_graph", 1), ("ours_nograph", 2)):
        before = runtime_graph.stats["launches"]
        with Context(JIT=jit):
            res[name] = measure(reps)
        res[name]["graph_launches"] = runtime_graph.stats["launches"] - before
    return res


def run_side(which, reps, tg, build):
    env = side_env("ours" if which == "ours" else "tinygrad", int(os.environ.get("THREADS", "1")), tg, build)
    p = subprocess.run([PY, os.path.abspath(__file__), "--side", which, str(reps)], env=env, cwd=tg,
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"mlp_train_step {which} failed (rc {p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}")


def main():
    if sys.argv[1:2] == ["--side"]:
        print("RESULT " + json.dumps(side(sys.argv[2], int(sys.argv[3]))))
        return 0
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    tg = tinygrad_checkout("the MLP training step")
    if tg is None:
        return 0
    res = run_side("ours", reps, tg, build)
    res.update(run_side("tinygrad", reps, tg, build))
    ref = res["tinygrad_jit"]["loss"]
    for name in ("ours_graph", "ours_nograph"):
        if abs(res[name]["loss"] - ref) > 1e-4 * (1 + abs(ref)):
            raise SystemExit(f"{name}'s first loss {res[name]['loss']} differs from tinygrad's {ref}")
    # every replay (reps timed + the first after capture... all after capture) went through our graph,
    # and with JIT=2 none did
    if res["ours_graph"]["graph_launches"] < reps or res["ours_nograph"]["graph_launches"] != 0:
        raise SystemExit(f"graph launches: with graph {res['ours_graph']['graph_launches']} (expected >= {reps}), "
                         f"without {res['ours_nograph']['graph_launches']} (expected 0)")
    if len({r["kernels"] for r in res.values()}) != 1:
        raise SystemExit("the three replay different numbers of kernels: "
                         + ", ".join(f"{n} {r['kernels']}" for n, r in res.items()))
    for name, r in res.items():
        print(f"MLP_{name.upper()}_MS {r['ms']:.4f}")
    print(f"MLP_KERNELS {res['ours_graph']['kernels']}")
    print(f"MLP_OURS_GRAPHS {res['ours_graph']['graphs']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
