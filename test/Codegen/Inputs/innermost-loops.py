"""Prints each innermost loop of an x86 assembly listing (stdin): from a
label to the branch back to it, with no other label between, each after a
line `LOOP` and followed by `END`, so a test can check what runs per
iteration and nothing around it."""
import re
import sys

lines = sys.stdin.read().splitlines()
labels = {}
for i, line in enumerate(lines):
    if re.match(r"^\.LBB\S+:$", line):
        labels[line[:-1]] = i
for i, line in enumerate(lines):
    m = re.match(r"^\s+j\w+\s+(\.LBB\S+)$", line)
    start = labels.get(m.group(1), i) if m else i
    body = lines[start + 1:i]
    if start < i and not any(re.match(r"^\.LBB\S+:$", x) for x in body):
        print("LOOP")
        print("\n".join(body + [line]))
        print("END")
