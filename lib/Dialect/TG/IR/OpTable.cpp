//===- OpTable.cpp - tinygrad Ops member <-> MLIR op name -----------------===//
#include "tinygrad/Dialect/TG/IR/OpTable.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir::tinygrad;

// tinygrad's enum order (a9069c17). Internal members without an op:
// REWRITE_ERROR (tracer-only), PYLITERAL (UPat compiler IR), FUNCTION
// (deleted in seed 004; CALL with a TUPLE body replaces it).
static constexpr UOpName kNames[] = {
    {"SPECIAL", "tgk.special"},
    {"BUFFER", "tg.buffer"},
    {"NOOP", "tg.noop"},
    {"PARAM", "tg.param"},
    {"CALL", "tg.call"},
    {"PROGRAM", "hcq.program"},
    {"LINEAR", "hcq.linear"},
    {"SOURCE", "hcq.source"},
    {"BINARY", "hcq.binary"},
    {"SINK", "tg.sink"},
    {"AFTER", "tg.after"},
    {"GROUP", "tg.group"},
    {"STACK", "tg.stack"},
    {"TUPLE", "tg.tuple"},
    {"GETTUPLE", "tg.gettuple"},
    {"GETADDR", "hcq.getaddr"},
    {"INDEX", "tgk.index"},
    {"SHRINK", "tgt.shrink"},
    {"LOAD", "tgk.load"},
    {"STORE", "tgk.store"},
    {"WMMA", "tgk.wmma"},
    {"CAST", "tg.cast"},
    {"BITCAST", "tg.bitcast"},
    {"EXP2", "tg.exp2"},
    {"LOG2", "tg.log2"},
    {"SIN", "tg.sin"},
    {"SQRT", "tg.sqrt"},
    {"RECIPROCAL", "tg.reciprocal"},
    {"NEG", "tg.neg"},
    {"TRUNC", "tg.trunc"},
    {"ADD", "tg.add"},
    {"MUL", "tg.mul"},
    {"SHL", "tg.shl"},
    {"SHR", "tg.shr"},
    {"CDIV", "tg.cdiv"},
    {"MAX", "tg.max"},
    {"CMOD", "tg.cmod"},
    {"CMPLT", "tg.cmplt"},
    {"CMPNE", "tg.cmpne"},
    {"CMPEQ", "tg.cmpeq"},
    {"XOR", "tg.xor"},
    {"OR", "tg.or"},
    {"AND", "tg.and"},
    {"THREEFRY", "tg.threefry"},
    {"SUB", "tg.sub"},
    {"FDIV", "tg.fdiv"},
    {"POW", "tg.pow"},
    {"FLOORDIV", "tg.floordiv"},
    {"FLOORMOD", "tg.floormod"},
    {"WHERE", "tg.where"},
    {"MULACC", "tg.mulacc"},
    {"BARRIER", "tgk.barrier"},
    {"RANGE", "tgk.range"},
    {"IF", "tgk.if"},
    {"END", "tgk.end"},
    {"ENDIF", "tgk.endif"},
    {"WAIT", "hcq.wait"},
    {"CONST", "tg.const"},
    {"CUSTOM", "tg.custom"},
    {"CUSTOMI", "tg.customi"},
    {"INS", "hcq.ins"},
    {"CONTIGUOUS", "tgt.contiguous"},
    {"CONTIGUOUS_BACKWARD", "tgt.contiguous_backward"},
    {"DETACH", "tgt.detach"},
    {"STAGE", "tgt.stage"},
    {"COPY", "tgt.copy"},
    {"MSELECT", "tgt.mselect"},
    {"MSTACK", "tgt.mstack"},
    {"CUSTOM_FUNCTION", "hcq.custom_function"},
    {"RESHAPE", "tgt.reshape"},
    {"PERMUTE", "tgt.permute"},
    {"EXPAND", "tgt.expand"},
    {"PAD", "tgt.pad"},
    {"FLIP", "tgt.flip"},
    {"UNSHARD", "tgt.unshard"},
    {"REDUCE", "tgt.reduce"},
    {"ALLREDUCE", "tgt.allreduce"},
};

llvm::ArrayRef<UOpName> mlir::tinygrad::getUOpNames() { return kNames; }

namespace {
struct Maps {
  llvm::StringMap<llvm::StringRef> toTinygrad, toMLIR;
  Maps() {
    for (const UOpName &n : kNames) {
      toTinygrad[n.mlir] = n.tinygrad;
      toMLIR[n.tinygrad] = n.mlir;
    }
  }
};
const Maps &maps() {
  static const Maps m;
  return m;
}
} // namespace

llvm::StringRef mlir::tinygrad::getTinygradOpName(llvm::StringRef mlirName) {
  return maps().toTinygrad.lookup(mlirName);
}

llvm::StringRef mlir::tinygrad::getMLIROpName(llvm::StringRef tinygradName) {
  return maps().toMLIR.lookup(tinygradName);
}
