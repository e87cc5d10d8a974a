"""What opts-agreement.py and estimates-agreement.py share: tinygrad as the oracle for every corpus
kernel (one python process running ORACLE over the kernels' repr, printing [file, answer] lines),
and the comparison against a list of known differences (a kernel listed must still differ: one that
starts to agree fails too, so the list only shrinks)."""
import glob, json, os, subprocess, sys

# ORACLE's prelude: the names a corpus kernel's repr uses.
PRELUDE = r'''
import json, sys
from tinygrad.uop.ops import *
import tinygrad.uop.ops as ops_mod, tinygrad.dtype as dt_mod
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.device import Device
ns = dict(vars(ops_mod)); ns.update({k: v for k, v in vars(dt_mod).items() if not k.startswith("_")})
ns.update(Opt=Opt, OptOps=OptOps)
ren = RENDERER
def ast_of(f): return eval(json.load(open(f))["repr"], ns)
'''
# The renderer tinygrad's answers are for, by our target string.
RENDERERS = {
    "cpu": 'Device["CPU"].renderer',
    "cuda:sm_90": '__import__("tinygrad.renderer.cstyle", fromlist=["CUDARenderer"]).CUDARenderer('
                  '__import__("tinygrad.helpers", fromlist=["Target"]).Target(device="NV", renderer="CUDA", arch="sm_90"))',
}


def kernels(kernels_dir):
    return sorted(glob.glob(os.path.join(kernels_dir, "*.json")))


def tinygrad_answers(oracle, cases, tg_src, target="cpu"):
    """{case: answer} from tinygrad (its renderer for `target`; the CPU's with 2 threads, as the corpus
    was made)."""
    env = dict(os.environ, PYTHONPATH=tg_src, NUM_CPU_THREADS="2", DEV="CPU")
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    prelude = PRELUDE.replace("RENDERER", RENDERERS[target])
    p = subprocess.run([py, "-c", prelude + oracle] + cases, capture_output=True, text=True, env=env, timeout=1200)
    theirs = dict(json.loads(l) for l in p.stdout.splitlines() if l.startswith("["))
    if len(theirs) != len(cases):
        sys.exit("tinygrad oracle failed:\n" + p.stderr[-2000:])
    return theirs


def compare(what, cases, theirs, ours_of, known_file):
    """Prints each difference and the rate; exits 1 on one not listed in known_file (or a listed
    kernel that agrees)."""
    known = {l.split()[0] for l in open(known_file) if l.strip() and not l.startswith("#")}
    agree = bad = 0
    for case in cases:
        name = os.path.basename(case)[:-len(".json")]
        ours = ours_of(case)
        if ours == theirs[case]:
            agree += 1
            if name in known:
                bad += 1
                print(f"XAGREE {name}: listed as differing, now agrees: remove it from the list")
        else:
            if name not in known:
                bad += 1
            print(f"{'known difference' if name in known else 'DIFFER'} {name}\n  ours:     {ours}\n  tinygrad: {theirs[case]}")
    print(f"{what} agreement: {agree}/{len(cases)} kernels, {bad} unexpected")
    sys.exit(1 if bad else 0)
