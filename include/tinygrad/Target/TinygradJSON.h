//===- TinygradJSON.h - tinygrad UOp graph JSON <-> MLIR --------*- C++ -*-===//
//
// Interop with tinygrad's UOp graphs in the corpus JSON format
// ({"nodes": [{id, op, dtype, src, arg, tag}, ...], "root": n}, see
// shared/corpus/README.md):
//
//  * importTinygradJSON builds a module whose body holds one op per node, in
//    node order (shared nodes are one SSA value), and verifies it. Every op is
//    located at `loc("node <id>")`.
//  * exportTinygradJSON is the inverse: the module's ops in order become the
//    nodes, the last op is the root.
//  * renderUOp reproduces tinygrad's `UOp.render(simplify=False)` string.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_TINYGRADJSON_H
#define TINYGRAD_TARGET_TINYGRADJSON_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::tinygrad {

/// Parse `jsonText` (lines starting with `//` are ignored) and import the
/// graph it holds. `graphPath` selects the
/// graph inside a record: a dot-separated key path such as "input",
/// "expected.graph" or "tensor_graph"; when empty the top level is used if it
/// has "nodes", else the first of input/ast/tensor_graph/graph found. Errors
/// (malformed JSON, unknown op, bad dtype/arg/src, verifier failures) are
/// reported through the context's diagnostic handler and yield null.
OwningOpRef<ModuleOp> importTinygradJSON(llvm::StringRef jsonText,
                                         MLIRContext *context,
                                         llvm::StringRef bufferName = "<json>",
                                         llvm::StringRef graphPath = "");

/// Import an already-parsed graph object (or record, with `graphPath`).
/// `fileLoc`, when given, is attached under every node location (e.g. the
/// line of a JSONL file); with the parsed `text` as well, node locations
/// point at the node's `"id"` in it.
OwningOpRef<ModuleOp>
importTinygradJSONValue(const llvm::json::Value &value, MLIRContext *context,
                        llvm::StringRef graphPath = "",
                        std::optional<Location> fileLoc = std::nullopt,
                        llvm::StringRef text = "");

/// `text` with every line that starts with `//` (lit RUN/CHECK lines)
/// blanked out, so that line/column positions stay valid.
std::string blankJSONComments(llvm::StringRef text);

/// Build the JSON graph object for the UOps in `root` (a module; its body's
/// ops are the nodes, the last one is the root). Fails with a diagnostic on
/// ops that are not UOps or operands that are not results of earlier ops.
FailureOr<llvm::json::Value> exportTinygradJSONValue(Operation *root);
LogicalResult exportTinygradJSON(Operation *root, llvm::raw_ostream &os);

/// tinygrad's `UOp.render()` (without the initial simplify) for `value`.
std::string renderUOp(Value value);
/// tinygrad's `repr(uop)` (its pretty_print, `xN:=` names for shared nodes).
std::string reprUOp(Value value);
/// The root value of a module (the result of its last op), or null.
Value getTinygradRoot(ModuleOp module);

/// Python's repr() of a float (shortest round-trip, "1.0", "1e-05", "inf").
std::string pyFloatRepr(double d);

/// Register --import-tinygrad-json, --export-tinygrad-json,
/// --export-tinygrad-render and --tinygrad-json-roundtrip with MLIR's
/// translation registry.
void registerTinygradJSONTranslations();

} // namespace mlir::tinygrad

#endif
