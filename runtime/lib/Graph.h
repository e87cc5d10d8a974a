//===- Graph.h - captured queue recordings, replayed -------------*- C++ -*-===//
//
// tinygrad's TinyJit/HCQGraph on the runtime: a graph holds the command
// lists of one or more queues, captured once, and submits them again per
// launch. What changes between launches (input buffers, bound variables,
// launch dims that depend on them) is patched into the captured commands
// in place; a list still in flight is copied first, so a launch already
// made never sees a later patch. Signals the graph both signals and waits
// on are rebased per launch through the engines' submission epoch.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_GRAPH_H
#define TGRT_LIB_GRAPH_H

#include "Queue.h"

#include <unordered_map>

struct tgrt_graph final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x48475254; // "TRGH"
  static constexpr const char *kTypeName = "graph";

  tgrt_graph() : Object(kMagic, &Object::destroyAs<tgrt_graph>) {}

  /// One captured queue.
  struct Part {
    tgrt_queue_type type;
    std::shared_ptr<tgrt::CommandList> commands;
  };
  /// Where an exec or a buffer use sits.
  struct Site {
    uint32_t part;
    uint32_t command;
  };
  struct BufferUse {
    Site site;
    enum Kind { Arg, CopyDst, CopySrc } kind;
    uint32_t arg; // Arg: the argument index
  };
  struct CapturedBuffer {
    tgrt::Ref<tgrt_buffer> handle; // kept so its address stays its own
    size_t size;
    std::vector<BufferUse> uses;
  };

  tgrt::Ref<tgrt_device> device;
  std::vector<Part> parts;
  std::vector<Site> execs;
  std::unordered_map<const tgrt_buffer *, CapturedBuffer> buffers;
  /// Graphs spanning both engines: each launch ends with a tail on
  /// `tailType` that waits for the other engine's last part (`joins`) and
  /// raises `done`, which every part of the next launch waits for first.
  bool multiEngine = false;
  tgrt_queue_type tailType = TGRT_QUEUE_COMPUTE;
  std::vector<tgrt::Ref<tgrt_signal>> joins;
  tgrt::Ref<tgrt_signal> done;
  uint64_t launches = 0;

  /// The command at `site`, the list copied first if a launch holds it.
  tgrt::Command &mutableCommand(Site site);
};

#endif // TGRT_LIB_GRAPH_H
