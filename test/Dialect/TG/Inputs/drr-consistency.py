"""Each DRR canonicalization of TGCanonicalization.td is also a rule of the
symbolic engine: on an instance of the pattern, `--canonicalize` must change
the graph (the pattern fires) and `--tg-symbolic-simple` must give the same
result. A pattern without an instance here fails the test."""
import re, subprocess, sys

opt, translate, td = sys.argv[1:4]
VARS = {
    "a": '%a = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "a", addrspace = alu> shape(%s : !tg.void)',
    "b": '%b = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "b", addrspace = alu> shape(%s : !tg.void)',
    "p": '%p = tg.param <slot = -1, dtype = i1, vmin_vmax = [false, true], multiple_of = 1, name = "p", addrspace = alu> shape(%s : !tg.void)',
    "q": '%q = tg.param <slot = -1, dtype = i1, vmin_vmax = [false, true], multiple_of = 1, name = "q", addrspace = alu> shape(%s : !tg.void)',
    "f": '%f = tg.param <slot = -1, dtype = f32, vmin_vmax = [-1.0, 1.0], name = "f", addrspace = alu> shape(%s : !tg.void)',
}
I, B = "si32", "i1"
# name -> (body lines, type of the root %r)
INSTANCES = {
    "AddZero": (["%z = tg.const 0 : si32", f"%r = tg.add %a, %z : {I}, {I}"], I),
    "XorZero": (["%z = tg.const 0 : si32", f"%r = tg.xor %a, %z : {I}, {I}"], I),
    "OrZero": (["%z = tg.const 0 : si32", f"%r = tg.or %a, %z : {I}, {I}"], I),
    "ShlZero": (["%z = tg.const 0 : si32", f"%r = tg.shl %a, %z : {I}, {I}"], I),
    "ShrZero": (["%z = tg.const 0 : si32", f"%r = tg.shr %a, %z : {I}, {I}"], I),
    "MulOne": (["%o = tg.const 1 : si32", f"%r = tg.mul %a, %o : {I}, {I}"], I),
    "FloorDivSelf": ([f"%r = tg.floordiv %a, %a : {I}, {I}"], I),
    "FloorDivOne": (["%o = tg.const 1 : si32", f"%r = tg.floordiv %a, %o : {I}, {I}"], I),
    "FloorDivMinusOne": (["%o = tg.const -1 : si32", f"%r = tg.floordiv %a, %o : {I}, {I}"], I),
    "XorXorY0": ([f"%x = tg.xor %a, %b : {I}, {I}", f"%r = tg.xor %x, %b : {I}, {I}"], I),
    "XorXorY1": ([f"%x = tg.xor %b, %a : {I}, {I}", f"%r = tg.xor %x, %b : {I}, {I}"], I),
    "XorXorY2": ([f"%x = tg.xor %a, %b : {I}, {I}", f"%r = tg.xor %b, %x : {I}, {I}"], I),
    "XorXorY3": ([f"%x = tg.xor %b, %a : {I}, {I}", f"%r = tg.xor %b, %x : {I}, {I}"], I),
    "ModModY": ([f"%x = tg.floormod %a, %b : {I}, {I}", f"%r = tg.floormod %x, %b : {I}, {I}"], I),
    "BoolAndTrue": (["%t = tg.const true : i1", f"%r = tg.and %p, %t : {B}, {B}"], B),
    "BoolOrTrue": (["%t = tg.const true : i1", f"%r = tg.or %p, %t : {B}, {B}"], B),
    "BoolNeFalse": (["%t = tg.const false : i1", f"%r = tg.cmpne %p, %t : {B}, {B}"], B),
    "OrSelf": ([f"%r = tg.or %a, %a : {I}, {I}"], I),
    "AndSelf": ([f"%r = tg.and %a, %a : {I}, {I}"], I),
    "MaxSelf": ([f"%r = tg.max %a, %a : {I}, {I}"], I),
    "BoolNotNot": (["%t = tg.const true : i1", f"%n = tg.cmpne %p, %t : {B}, {B}", f"%r = tg.cmpne %n, %t : {B}, {B}"], B),
    "WhereTrueFalse": (["%t = tg.const true : i1", "%e = tg.const false : i1", f"%r = tg.where %p, %t, %e : {B}, {B}, {B}"], B),
    "WhereFalseTrue": (["%t = tg.const true : i1", "%e = tg.const false : i1", f"%r = tg.where %p, %e, %t : {B}, {B}, {B}"], B),
    "TruncInt": ([f"%r = tg.trunc %a : {I}"], I),
    "LtSelf": ([f"%r = tg.cmplt %a, %a : {I}, {I}"], B),
    "ModSelf": ([f"%r = tg.floormod %a, %a : {I}, {I}"], I),
    "XorSelf": ([f"%r = tg.xor %a, %a : {I}, {I}"], I),
    "AndZero": (["%z = tg.const 0 : si32", f"%r = tg.and %a, %z : {I}, {I}"], I),
    "NeSelf": ([f"%r = tg.cmpne %a, %a : {I}, {I}"], B),
    "BoolMulToAnd": ([f"%r = tg.mul %p, %q : {B}, {B}"], B),
    "BoolAddToOr": ([f"%r = tg.add %p, %q : {B}, {B}"], B),
    "BoolMaxToOr": ([f"%r = tg.max %p, %q : {B}, {B}"], B),
    "WhereSame": ([f"%r = tg.where %p, %a, %a : {B}, {I}, {I}"], I),
    "WhereTrueCond": (["%t = tg.const true : i1", f"%r = tg.where %t, %a, %b : {B}, {I}, {I}"], I),
    "WhereFalseCond": (["%t = tg.const false : i1", f"%r = tg.where %t, %a, %b : {B}, {I}, {I}"], I),
}

def render(text, passes):
    p1 = subprocess.run([opt, "-"] + passes, input=text, capture_output=True, text=True)
    if p1.returncode:
        return "ERROR " + p1.stderr.strip()
    p2 = subprocess.run([translate, "--export-tinygrad-render"], input=p1.stdout, capture_output=True, text=True)
    return p2.stdout.strip() if p2.returncode == 0 else "ERROR " + p2.stderr.strip()

patterns = re.findall(r"^def (\w+) : Pat<", open(td).read(), re.M)
bad = 0
for name in patterns:
    if name not in INSTANCES:
        print(f"FAIL {name}: no instance in drr-consistency.py"); bad += 1; continue
    body, ty = INSTANCES[name]
    text = "\n".join(["%s = tg.stack()"] + [VARS[v] for v in VARS if re.search(rf"%{v}\b", "\n".join(body))] +
                     body + [f"%root = tg.sink(%r) : {ty}"]) + "\n"
    before, canon, engine = render(text, []), render(text, ["--canonicalize"]), render(text, ["--tg-symbolic-simple"])
    if canon == before:
        print(f"FAIL {name}: --canonicalize did not rewrite {before}"); bad += 1
    elif canon != engine:
        print(f"FAIL {name}: canonicalize gives {canon!r}, the engine {engine!r}"); bad += 1
for name in INSTANCES:
    if name not in patterns:
        print(f"FAIL {name}: instance of a pattern that no longer exists"); bad += 1
print(f"drr patterns: {len(patterns)}, consistent with the engine: {len(patterns) - bad}")
sys.exit(1 if bad else 0)
