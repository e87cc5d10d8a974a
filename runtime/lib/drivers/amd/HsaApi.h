//===- HsaApi.h - the HSA runtime functions the AMD driver calls --*- C++ -*-===//
//
// libhsa-runtime64 (ROCm's HSA runtime: agents, memory pools, AQL queues,
// signals, code-object loading) is opened with dlopen when an AMD device is
// first opened (TGRT_HSA_LIBRARY names another file) and never linked, so
// the runtime builds and runs where ROCm is absent. hsa.h / hsa_ext_amd.h
// are not needed either: the types, constants and entry points used are
// declared here with those headers' values (HSA 1.1 / ROCm 5+).
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVERS_AMD_HSAAPI_H
#define TGRT_LIB_DRIVERS_AMD_HSAAPI_H

#include "Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tgrt::hsa {

using hsa_status_t = int;
struct hsa_agent_t { uint64_t handle; };
struct hsa_signal_t { uint64_t handle; };
struct hsa_amd_memory_pool_t { uint64_t handle; };
struct hsa_executable_t { uint64_t handle; };
struct hsa_executable_symbol_t { uint64_t handle; };
struct hsa_code_object_reader_t { uint64_t handle; };
struct hsa_loaded_code_object_t { uint64_t handle; };

/// hsa_queue_t: a ring of 64-byte AQL packets and its doorbell.
struct hsa_queue_t {
  uint32_t type;
  uint32_t features;
  void *base_address;
  hsa_signal_t doorbell_signal;
  uint32_t size; // packets
  uint32_t reserved1;
  uint64_t id;
};

/// hsa_kernel_dispatch_packet_t (AQL).
struct hsa_kernel_dispatch_packet_t {
  uint16_t header;
  uint16_t setup;
  uint16_t workgroup_size_x, workgroup_size_y, workgroup_size_z;
  uint16_t reserved0;
  uint32_t grid_size_x, grid_size_y, grid_size_z; // in work-items
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  void *kernarg_address;
  uint64_t reserved2;
  hsa_signal_t completion_signal;
};
static_assert(sizeof(hsa_kernel_dispatch_packet_t) == 64, "an AQL packet is 64 bytes");

enum : int {
  HSA_STATUS_SUCCESS = 0,
  HSA_STATUS_INFO_BREAK = 1,
  HSA_STATUS_ERROR_OUT_OF_RESOURCES = 4104,
  HSA_STATUS_ERROR_INVALID_ISA = 4111,
  HSA_STATUS_ERROR_INVALID_CODE_OBJECT = 4112,
  HSA_STATUS_ERROR_INVALID_SYMBOL_NAME = 4115,
  HSA_AGENT_INFO_NAME = 0,          // char[64], the ISA name ("gfx942")
  HSA_AGENT_INFO_PROFILE = 4,
  HSA_AGENT_INFO_WAVEFRONT_SIZE = 6,
  HSA_AGENT_INFO_WORKGROUP_MAX_DIM = 7,  // uint16_t[3]
  HSA_AGENT_INFO_WORKGROUP_MAX_SIZE = 8, // uint32_t
  HSA_AGENT_INFO_GRID_MAX_DIM = 9,       // uint32_t[3]
  HSA_AGENT_INFO_QUEUE_MAX_SIZE = 14,
  HSA_AGENT_INFO_DEVICE = 17,
  HSA_AMD_AGENT_INFO_PRODUCT_NAME = 40969, // char[64]
  HSA_DEVICE_TYPE_CPU = 0,
  HSA_DEVICE_TYPE_GPU = 1,
  HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,
  HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,
  HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,
  HSA_AMD_SEGMENT_GLOBAL = 0,
  HSA_AMD_SEGMENT_GROUP = 3,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
  HSA_QUEUE_TYPE_SINGLE = 1,
  HSA_SIGNAL_CONDITION_LT = 2,
  HSA_WAIT_STATE_ACTIVE = 1,
  HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT = 0,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE = 11,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE = 13,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE = 14,
  HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT = 22,
  HSA_PACKET_TYPE_INVALID = 1,
  HSA_PACKET_TYPE_KERNEL_DISPATCH = 2,
  HSA_PACKET_HEADER_TYPE = 0,
  HSA_PACKET_HEADER_BARRIER = 8,
  HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE = 9,
  HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE = 11,
  HSA_FENCE_SCOPE_SYSTEM = 2,
  HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS = 0,
};

using AgentCallback = hsa_status_t (*)(hsa_agent_t, void *);
using PoolCallback = hsa_status_t (*)(hsa_amd_memory_pool_t, void *);
using QueueCallback = void (*)(hsa_status_t, hsa_queue_t *, void *);

#define TGRT_HSA_FUNCTIONS(X)                                                                      \
  X(hsa_init, hsa_status_t())                                                                      \
  X(hsa_status_string, hsa_status_t(hsa_status_t, const char **))                                  \
  X(hsa_iterate_agents, hsa_status_t(AgentCallback, void *))                                       \
  X(hsa_agent_get_info, hsa_status_t(hsa_agent_t, int, void *))                                    \
  X(hsa_amd_agent_iterate_memory_pools, hsa_status_t(hsa_agent_t, PoolCallback, void *))           \
  X(hsa_amd_memory_pool_get_info, hsa_status_t(hsa_amd_memory_pool_t, int, void *))                \
  X(hsa_amd_memory_pool_allocate, hsa_status_t(hsa_amd_memory_pool_t, size_t, uint32_t, void **))  \
  X(hsa_amd_memory_pool_free, hsa_status_t(void *))                                                \
  X(hsa_amd_agents_allow_access,                                                                   \
    hsa_status_t(uint32_t, const hsa_agent_t *, const uint32_t *, const void *))                   \
  X(hsa_amd_memory_fill, hsa_status_t(void *, uint32_t, size_t))                                   \
  X(hsa_memory_copy, hsa_status_t(void *, const void *, size_t))                                   \
  X(hsa_queue_create,                                                                              \
    hsa_status_t(hsa_agent_t, uint32_t, uint32_t, QueueCallback, void *, uint32_t, uint32_t,       \
                 hsa_queue_t **))                                                                  \
  X(hsa_queue_destroy, hsa_status_t(hsa_queue_t *))                                                \
  X(hsa_queue_add_write_index_screlease, uint64_t(const hsa_queue_t *, uint64_t))                  \
  X(hsa_queue_load_read_index_scacquire, uint64_t(const hsa_queue_t *))                            \
  X(hsa_signal_create, hsa_status_t(int64_t, uint32_t, const hsa_agent_t *, hsa_signal_t *))       \
  X(hsa_signal_destroy, hsa_status_t(hsa_signal_t))                                                \
  X(hsa_signal_store_relaxed, void(hsa_signal_t, int64_t))                                         \
  X(hsa_signal_store_screlease, void(hsa_signal_t, int64_t))                                       \
  X(hsa_signal_wait_scacquire, int64_t(hsa_signal_t, int, int64_t, uint64_t, int))                 \
  X(hsa_code_object_reader_create_from_memory,                                                     \
    hsa_status_t(const void *, size_t, hsa_code_object_reader_t *))                                \
  X(hsa_code_object_reader_destroy, hsa_status_t(hsa_code_object_reader_t))                        \
  X(hsa_executable_create_alt, hsa_status_t(int, int, const char *, hsa_executable_t *))           \
  X(hsa_executable_load_agent_code_object,                                                         \
    hsa_status_t(hsa_executable_t, hsa_agent_t, hsa_code_object_reader_t, const char *,            \
                 hsa_loaded_code_object_t *))                                                      \
  X(hsa_executable_freeze, hsa_status_t(hsa_executable_t, const char *))                           \
  X(hsa_executable_destroy, hsa_status_t(hsa_executable_t))                                        \
  X(hsa_executable_get_symbol_by_name,                                                             \
    hsa_status_t(hsa_executable_t, const char *, const hsa_agent_t *, hsa_executable_symbol_t *))  \
  X(hsa_executable_symbol_get_info, hsa_status_t(hsa_executable_symbol_t, int, void *))

struct Api {
#define TGRT_HSA_DECLARE(name, type) std::add_pointer_t<type> name = nullptr;
  TGRT_HSA_FUNCTIONS(TGRT_HSA_DECLARE)
#undef TGRT_HSA_DECLARE
};

/// Opens the HSA runtime (TGRT_HSA_LIBRARY, else libhsa-runtime64.so.1,
/// else /opt/rocm/lib/libhsa-runtime64.so.1) and calls hsa_init, once per
/// process. TGRT_UNAVAILABLE with a message when it is missing or fails.
Status load(const Api *&out);

/// "HSA_STATUS_ERROR_INVALID_ISA (4111): ..." for messages.
std::string describe(const Api &api, hsa_status_t s);
/// TGRT_OK for HSA_STATUS_SUCCESS, else a status naming the call.
Status check(const Api &api, hsa_status_t s, const char *call);

} // namespace tgrt::hsa

#define TGRT_HSA_CHECK(api, call) TGRT_RETURN_IF_ERROR(::tgrt::hsa::check((api), (api).call, #call))

#endif // TGRT_LIB_DRIVERS_AMD_HSAAPI_H
