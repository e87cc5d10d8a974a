"""What the tests of our heuristic's kernels share: the kernel ASTs saved under test/Codegen/Inputs, and one
compile-and-run of such an AST under a TG_OPTS mode on seeded inputs."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

INPUTS = os.path.join(REPO, "test", "Codegen", "Inputs")


def ast_of(name):
    """The kernel's AST as the heuristic sees it (any opts_to_apply it was saved with dropped)."""
    with open(os.path.join(INPUTS, name), encoding="utf-8") as f:
        case = json.load(f)
    ast = case["ast"] if "ast" in case else case
    next(n for n in ast["nodes"] if n["id"] == ast["root"])["arg"]["opts_to_apply"] = None
    return ast


def run_kernel(ctx, dev, ast, mode, seed):
    """(object bytes, applied opts, first output's values) of `ast` compiled with TG_OPTS=mode (None: our
    heuristic) at 2 threads and run once on inputs uniform in [-1, 1) from `seed`."""
    old = os.environ.pop("TG_OPTS", None)
    if mode is not None:
        os.environ["TG_OPTS"] = mode
    try:
        with ctx.import_json(json.dumps(ast), name="k") as mod, mod.compile_cpu(2) as k:
            info = k.info
            opts = [(o["op"], o["axis"], o["arg"]) for o in k.result()["uops"]["applied_opts"]]
            rng = np.random.default_rng(seed)
            bufs = [dev.buffer((rng.random(max(1, n), dtype=np.float32) * 2 - 1).tobytes())
                    for n in info["global_elements"]]
            k.load(dev)(bufs, [0] * len(info["vars"]))
            out = bufs[info["globals"].index(info["outs"][0])]
            return bytes(k.object), opts, np.frombuffer(out.read(), dtype=np.float32).copy()
    finally:
        os.environ.pop("TG_OPTS", None)
        if old is not None:
            os.environ["TG_OPTS"] = old
