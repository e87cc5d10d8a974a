//===- ArgCodec.h - tinygrad arg encoding <-> MLIR attributes ---*- C++ -*-===//
//
// Internal to the TinygradJSON target: converts the corpus "arg encoding"
// (README section 1) to attributes and back. Generic positions map
//   null -> UnitAttr, bool -> BoolAttr, int -> IntegerAttr(i64), str ->
//   StringAttr, array -> ArrayAttr, float -> FloatAttr(f64), Invalid ->
//   #tg.invalid, DType -> TypeAttr, AxisType/AddrSpace/OptOps -> enum attrs,
//   ParamArg/KernelInfo/Opt/Estimates/CallInfo/BufferizeOpts -> #tg.* attrs,
//   any other object (Ops, bytes, UOp, unserializable) -> DictionaryAttr of
//   its fields (recursively), which exports back to the same object.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TARGET_TINYGRADJSON_ARGCODEC_H
#define LIB_TARGET_TINYGRADJSON_ARGCODEC_H

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::tinygrad::json_codec {

/// Decoding: every function returns a null attribute / nullopt on failure
/// and then sets `err` to a message naming the position ("arg.slot: ...").
struct Decoder {
  MLIRContext *ctx;
  std::string err;

  Attribute fail(const llvm::Twine &path, const llvm::Twine &msg);

  Attribute generic(const llvm::json::Value &v, const llvm::Twine &path);
  /// {"kind":"float","value":V} -> FloatAttr f64.
  Attribute floatValue(const llvm::json::Object &o, const llvm::Twine &path);
  /// A dtype name -> element type (strict: canonical names only).
  Type dtype(const llvm::json::Value &v, const llvm::Twine &path);
  std::optional<int64_t> integer(const llvm::json::Value &v,
                                 const llvm::Twine &path);
  std::optional<int64_t> optInteger(const llvm::json::Object &o,
                                    llvm::StringRef key,
                                    const llvm::Twine &path);
  std::optional<bool> boolean(const llvm::json::Object &o, llvm::StringRef key,
                              const llvm::Twine &path);
  /// Present string -> StringAttr, null/absent -> a null StringAttr (ok=true).
  bool optString(const llvm::json::Object &o, llvm::StringRef key,
                 const llvm::Twine &path, StringAttr &out);
  /// Generic attribute, null/absent -> null Attribute (ok=true).
  bool optGeneric(const llvm::json::Object &o, llvm::StringRef key,
                  const llvm::Twine &path, Attribute &out);
  const llvm::json::Object *tagged(const llvm::json::Value &v,
                                   llvm::StringRef kind,
                                   const llvm::Twine &path);

  Attribute paramArg(const llvm::json::Value &v, const llvm::Twine &path);
  Attribute kernelInfo(const llvm::json::Object &o, const llvm::Twine &path);
  Attribute opt(const llvm::json::Value &v, const llvm::Twine &path);
  Attribute estimates(const llvm::json::Object &o, const llvm::Twine &path);
  Attribute callInfo(const llvm::json::Object &o, const llvm::Twine &path);
  Attribute bufferizeOpts(const llvm::json::Value &v, const llvm::Twine &path);
  std::optional<tg::AxisType> axisType(const llvm::json::Value &v,
                                       const llvm::Twine &path);
  std::optional<tg::AddrSpace> addrSpace(const llvm::json::Value &v,
                                         const llvm::Twine &path);
  std::optional<tg::OptOps> optOps(const llvm::json::Value &v,
                                   const llvm::Twine &path);
};

/// Encoding into a JSON stream. Returns false (with `err`) for attributes
/// that have no tinygrad arg encoding.
struct Encoder {
  llvm::json::OStream &j;
  std::string err;

  bool generic(Attribute attr);
  void floatValue(double d);
  void dtype(Type t);
  bool paramArg(tg::ParamAttr p);
  bool kernelInfo(tg::KernelInfoAttr k);
  bool opt(tg::OptAttr o);
  bool estimates(tg::EstimatesAttr e);
  bool callInfo(tg::CallInfoAttr c);
  bool bufferizeOpts(tg::BufferizeOptsAttr b);
  /// null attribute -> JSON null, otherwise generic().
  bool optGeneric(Attribute attr);
};

/// Python-style enum member names: "GROUP_REDUCE" <-> AxisType::GroupReduce.
std::string upper(llvm::StringRef s);
std::string lower(llvm::StringRef s);

} // namespace mlir::tinygrad::json_codec

#endif
