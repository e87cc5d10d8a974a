"""tinygrad-compile's ProgramInfo (globals, outs, ins) against the program_info tinygrad recorded for
every corpus kernel. usage: program-info.py TINYGRAD_COMPILE CORPUS_DIR [EXTRA_AST_JSON...]
CORPUS_DIR: the corpus (its kernels/ cases), or a folder of kernel cases recorded with their program_info."""
import glob, json, os, subprocess, sys

tool, corpus = sys.argv[1], sys.argv[2]
same = differ = 0
cases = os.path.join(corpus, "kernels") if os.path.isdir(os.path.join(corpus, "kernels")) else corpus
for f in sorted(glob.glob(os.path.join(cases, "*.json"))):
  want = json.load(open(f))["program_info"]
  r = subprocess.run([tool, f], capture_output=True, text=True)
  got = json.loads(r.stdout) if r.returncode == 0 else None
  if got and all(got[k] == want[k] for k in ("globals", "outs", "ins")):
    same += 1
  else:
    differ += 1
    print(f"DIFFERS {os.path.basename(f)}: ours {got and {k: got[k] for k in ('globals', 'outs', 'ins')}} "
          f"tinygrad {({k: want[k] for k in ('globals', 'outs', 'ins')})} {r.stderr.strip()[:200]}")
print(f"program info: {same} identical, {differ} differ")
