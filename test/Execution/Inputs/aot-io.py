"""aot-driver.c's data: `inputs RECORD OUT [SEED]` writes a schedules.jsonl record's input values as
little-endian bytes (the header's input order: the record's inputs), then, with SEED, tinygrad's RNG
state after Tensor.manual_seed(SEED) (the key [sha256(int32 0) mod 2^32, SEED], the counter [0, 0]: the
two PYTHON-device buffers a random program creates, as tinygrad-run fills them); `check RECORD OUT [OFFSET]`
compares the driver's output bytes with the record's outputs (plus OFFSET: a program run with a bound
variable other than the record's) (integers exactly, floats within 1e-5
relative + 1e-6 absolute, NaN equal to NaN) and prints "AOT MATCH: n values"."""
import json
import math
import struct
import sys

FMT = {"float32": "f", "float64": "d", "float16": "e", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H",
       "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q", "bool": "?"}


def value(v):
    return float(v) if isinstance(v, str) else v  # "nan", "inf" as the corpus writes them


def main(mode, record, path, extra=None):
    rec = json.loads(open(record).read().splitlines()[0])
    if mode == "inputs":
        with open(path, "wb") as f:
            for t in rec["inputs"]:
                f.write(struct.pack("<%d%s" % (len(t["values"]), FMT[t["dtype"]]), *map(value, t["values"])))
            if extra is not None:  # the seed
                f.write(struct.pack("<4I", 347607321, int(extra), 0, 0))
        return 0
    data, at, n, bad = open(path, "rb").read(), 0, 0, []
    for k, t in enumerate(rec["outputs"]):
        fmt = FMT[t["dtype"]]
        size = struct.calcsize(fmt) * len(t["values"])
        got = struct.unpack("<%d%s" % (len(t["values"]), fmt), data[at:at + size])
        at += size
        offset = float(extra) if extra is not None else 0
        for i, (g, w) in enumerate(zip(got, (value(v) + offset for v in t["values"]))):
            n += 1
            same = (g == w or (math.isnan(g) and math.isnan(w)) or abs(g - w) <= 1e-5 * abs(w) + 1e-6) \
                if isinstance(w, float) or fmt in "fde" else g == w
            if not same:
                bad.append(f"output {k}[{i}]: {g} vs {w}")
    if at != len(data):
        bad.append(f"{len(data)} bytes written, the outputs have {at}")
    print("AOT MISMATCH: " + "; ".join(bad[:5]) if bad else f"AOT MATCH: {n} values")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
