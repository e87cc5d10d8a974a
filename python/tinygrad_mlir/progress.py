"""A one-line progress bar on stderr for long compiler work (scheduling and compiling a program
with many kernels; BEAM search once it exists).

Shown only where someone can see it: when the stream is a terminal (and, with min_total, only
for work of at least that many steps), or always when TINYGRAD_MLIR_PROGRESS=1 asks for it (=0
turns it off everywhere). Redraws in place with "\\r" and ends with a newline on close(), so
logs stay readable."""
import os
import sys

ENV_PROGRESS = "TINYGRAD_MLIR_PROGRESS"
WIDTH = 30


def requested():
    """True/False when TINYGRAD_MLIR_PROGRESS says, None when it is unset."""
    env = os.environ.get(ENV_PROGRESS, "")
    return None if env == "" else env != "0"


def enabled(stream):
    asked = requested()
    if asked is not None:
        return asked
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class ProgressBar:
    def __init__(self, label, stream=None, force=None, min_total=0):
        self.label, self.stream = label, stream if stream is not None else sys.stderr
        self.shown = enabled(self.stream) if force is None else force
        # asked for explicitly: every job; a terminal by default: only long ones
        self.min_total = 0 if force or requested() else min_total
        self.drawn = False

    def render(self, stage, done, total):
        frac = done / total if total else 1.0
        fill = int(round(frac * WIDTH))
        return f"{self.label} {stage:<8} [{'#' * fill}{'.' * (WIDTH - fill)}] {done}/{total}"

    def update(self, stage, done, total):
        if not self.shown or (not self.drawn and total < self.min_total):
            return
        self.stream.write("\r" + self.render(stage, done, total))
        self.stream.flush()
        self.drawn = True

    def close(self):
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
