"""Prints the bench cases of a device-check bundle for local-half-bench.test: each case's kernels and
the buffers they take (its files there, cubins' ELF e_flags naming the sm), generator specs, reference."""
import json
import os
import struct
import sys

EM_CUDA = 190


def cubin_sm(path):
    """The sm of an ELF cubin: e_machine EM_CUDA, the arch in e_flags' low byte (or bits 8-15 for
    the 64-bit-address cubins LLVM/ptxas write with ABI version >= 7)."""
    data = open(path, "rb").read(64)
    assert data[:4] == b"\x7fELF" and data[4] == 2, f"{path}: not a 64-bit ELF"
    machine, = struct.unpack_from("<H", data, 18)
    flags, = struct.unpack_from("<I", data, 48)
    assert machine == EM_CUDA, f"{path}: e_machine {machine}"
    sm = (flags >> 8) & 0xff if data[8] >= 7 else flags & 0xff
    return f"sm_{sm}"


def main():
    root = sys.argv[1]
    n = 0
    for name in json.load(open(os.path.join(root, "manifest.json")))["cases"]:
        d = os.path.join(root, "cases", name)
        case = json.load(open(os.path.join(d, "case.json")))
        if case.get("kind") != "bench":
            continue
        n += 1
        sms = {cubin_sm(os.path.join(d, k["binary"])) for k in case["kernels"]}
        for k in case["kernels"]:
            assert os.path.getsize(os.path.join(d, k["ptx"])) > 0
        ref = case["reference"]
        print(f"{name} {case['opts']} {ref['op']} {ref['dtype']} kernels={len(case['kernels'])} cubins={','.join(sorted(sms))}")
        for i, k in enumerate(case["kernels"]):
            print(f"  k{i} args={','.join(k['args'])}")
        for b in case["buffers"]:
            g = b["generate"]
            if g:
                print(f"  {b['id']} {g['distribution']} seed={g['seed']} {g['shape']} {g['dtype']}")
        tol = case["tolerance"]
        print(f"  reference {ref['op']}({', '.join(ref['inputs'])}) -> {ref['output']} {ref['output_shape']} "
              f"rtol={tol['rtol']} atol={tol['atol']} flops={case['bench']['flops']}")
    print(f"{n} bench cases")


if __name__ == "__main__":
    main()
