/*
 * tinygrad-rt: the tinygrad-mlir runtime, C API (C99).
 *
 * A plain C library (no MLIR, no LLVM) modelled on tinygrad's HCQ runtime and
 * IREE's HAL: devices, buffers, programs, and HCQ-style command queues
 * ordered by timeline signals. Devices are opened by name through drivers:
 * "CPU" (kernels are in-memory ELF objects run on a thread pool) and
 * "VULKAN" / "VULKAN:<n>" (SPIR-V compute shaders on the n-th Vulkan
 * physical device, through the Vulkan loader found at run time),
 * "CUDA:<n>" (cubin or PTX kernels on the n-th NVIDIA GPU, through the CUDA
 * driver library libcuda.so.1 found at run time) and "AMD:<n>" (HSACO code
 * objects on the n-th AMD GPU agent of the HSA runtime, libhsa-runtime64.so.1,
 * found at run time). A driver
 * whose library or hardware is missing is an error status naming it
 * (TGRT_UNAVAILABLE), never a crash.
 *
 * Conventions
 *  - Every function returns a tgrt_status. On anything but TGRT_OK,
 *    tgrt_last_error() gives a message for the calling thread. Out-parameters
 *    are written only on success.
 *  - Bad input (NULL handles or out-pointers, wrong sizes, out-of-range
 *    copies, corrupt objects) is reported as an error, never a crash. The
 *    runtime cannot detect a handle that was already released (use after
 *    free) or a pointer that is not a handle at all.
 *  - No C++ exception or abort crosses this interface. Kernels run in this
 *    process: a kernel that faults takes the process down, which the
 *    runtime cannot prevent.
 *  - All functions are thread-safe unless noted.
 *
 * Ownership
 *  - Every handle returned through an out-parameter (device, buffer,
 *    program, signal, queue) is owned by the caller, who releases it with the
 *    matching tgrt_*_close / _free / _destroy exactly once.
 *  - Objects are reference counted inside the runtime: a buffer view keeps
 *    its parent buffer alive, every object keeps its device alive, and
 *    commands recorded in a queue (and submitted work still in flight) keep
 *    the programs, buffers and signals they name alive. Releasing a handle
 *    therefore never invalidates memory still in use; the memory goes away
 *    when the last user lets go. After release the caller must not use the
 *    handle again.
 *  - tgrt_device_close ends the device's threads. Its other objects stay
 *    valid to release, but calls that need the device's threads (launch,
 *    submit) then fail with TGRT_FAILED_PRECONDITION.
 *  - Strings returned by the runtime (tgrt_last_error, names) are owned by
 *    the runtime. tgrt_last_error's string is valid until the calling
 *    thread's next failing call; names live as long as their object.
 *  - Pointers passed in (object bytes, argument arrays, option structs,
 *    copy sources) are only read during the call and may be reused after it.
 */
#ifndef TINYGRAD_RT_RUNTIME_H
#define TINYGRAD_RT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header. Structs that carry an api_version field must have
 * it set to this value; tgrt_api_version() returns the library's. */
#define TGRT_API_VERSION 1

#if defined(_WIN32)
#define TGRT_API
#else
#define TGRT_API __attribute__((visibility("default")))
#endif

typedef enum tgrt_status {
  TGRT_OK = 0,
  TGRT_INVALID_ARGUMENT = 1,  /* NULL handle/pointer, bad size, bad index    */
  TGRT_OUT_OF_RANGE = 2,      /* offset+size past the end of a buffer         */
  TGRT_OUT_OF_MEMORY = 3,     /* allocation or mapping failed                 */
  TGRT_NOT_FOUND = 4,         /* unknown device, entry or undefined symbol    */
  TGRT_UNSUPPORTED = 5,       /* valid but not handled (relocation type, ...) */
  TGRT_INVALID_OBJECT = 6,    /* malformed or truncated ELF object            */
  TGRT_TIMEOUT = 7,           /* a wait did not complete in time              */
  TGRT_ABORTED = 8,           /* submitted work was abandoned (device close)  */
  TGRT_FAILED_PRECONDITION = 9, /* object in the wrong state (closed device)  */
  TGRT_INTERNAL = 10,         /* a bug or an unexpected system error          */
  TGRT_UNAVAILABLE = 11       /* the driver's library or hardware is absent   */
} tgrt_status;

/* The library's TGRT_API_VERSION (compare with the header's). */
TGRT_API uint32_t tgrt_api_version(void);
/* A static name for a status ("TGRT_OK", ...; "TGRT_UNKNOWN" otherwise). */
TGRT_API const char *tgrt_status_string(tgrt_status status);
/* Message of the calling thread's most recent failing call ("" if none).
 * Never NULL. */
TGRT_API const char *tgrt_last_error(void);

typedef struct tgrt_device tgrt_device;
typedef struct tgrt_buffer tgrt_buffer;
typedef struct tgrt_program tgrt_program;
typedef struct tgrt_signal tgrt_signal;
typedef struct tgrt_queue tgrt_queue;

/* ---- devices ------------------------------------------------------------ */

typedef struct tgrt_device_options {
  uint32_t api_version; /* TGRT_API_VERSION */
  uint32_t num_threads; /* kernel threads; 0 = every core this process may use */
} tgrt_device_options;

#define TGRT_DEVICE_OPTIONS_DEFAULT {TGRT_API_VERSION, 0}

/* Opens a device by name: "CPU", "VULKAN" (= "VULKAN:0"), "VULKAN:<n>",
 * "CUDA[:<n>]", "AMD[:<n>]".
 * options may be NULL (defaults); num_threads only applies to the CPU.
 * TGRT_NOT_FOUND for an unknown driver name, TGRT_UNAVAILABLE when the
 * driver's library or a device with that index is absent. */
TGRT_API tgrt_status tgrt_device_open(const char *name, const tgrt_device_options *options,
                                      tgrt_device **out_device);
/* Waits for submitted work, stops the device's threads and releases the
 * caller's handle. If queued work is blocked in a wait that nothing on the
 * device can satisfy any more, that work is abandoned and TGRT_ABORTED is
 * returned (the handle is released either way). */
TGRT_API tgrt_status tgrt_device_close(tgrt_device *device);
/* The name the device was opened with; valid while the device lives. */
TGRT_API tgrt_status tgrt_device_name(const tgrt_device *device, const char **out_name);
/* What a device is and what it can do. */
enum {
  TGRT_FEATURE_FLOAT16 = 1u << 0,  /* 16-bit float arithmetic and storage */
  TGRT_FEATURE_FLOAT64 = 1u << 1,
  TGRT_FEATURE_INT8 = 1u << 2,     /* 8-bit integer arithmetic and storage */
  TGRT_FEATURE_INT16 = 1u << 3,
  TGRT_FEATURE_INT64 = 1u << 4,
  TGRT_FEATURE_HOST_MEMORY = 1u << 5, /* buffers have host pointers       */
  /* Queue timestamps are taken on the device, in stream order, and
   * converted to the host clock; without it the engine stamps the host time
   * once the work before the timestamp has completed. */
  TGRT_FEATURE_DEVICE_TIMESTAMPS = 1u << 6
};
typedef struct tgrt_device_info {
  uint32_t api_version;            /* TGRT_API_VERSION, set by the caller      */
  char driver[16];                 /* "CPU", "VULKAN", "CUDA", "AMD"           */
  char description[128];           /* e.g. the Vulkan device name              */
  uint32_t features;               /* TGRT_FEATURE_* bits                      */
  uint32_t max_workgroup_size[3];  /* GPU launch limits (1 on the CPU)         */
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_count[3];
  uint32_t shared_memory_bytes;    /* workgroup memory per workgroup           */
  uint32_t subgroup_size;          /* 1 on the CPU                             */
  uint32_t buffer_offset_alignment;/* a view's offset that binds directly      */
  char arch[16];                   /* "sm_90", "gfx942"; "" for CPU and VULKAN */
} tgrt_device_info;
/* Fills *out_info (whose api_version the caller sets). */
TGRT_API tgrt_status tgrt_device_query(const tgrt_device *device, tgrt_device_info *out_info);
/* Number of threads a launch runs on in parallel (>= 1). */
TGRT_API tgrt_status tgrt_device_thread_count(const tgrt_device *device, uint32_t *out_count);
/* Blocks until every submission made before the call has completed.
 * timeout_ms as in tgrt_signal_wait. If submitted work failed since the last
 * report (a device error, or a queue wait that timed out), returns that
 * failure once. */
TGRT_API tgrt_status tgrt_device_synchronize(tgrt_device *device, uint64_t timeout_ms);
/* How long a recorded queue wait (tgrt_queue_wait) may block the device's
 * engine before it gives up: the wait fails with TGRT_TIMEOUT naming the
 * signal and the value, the commands queued behind it on that engine are
 * dropped, and tgrt_device_synchronize / tgrt_device_close report it, as
 * tinygrad's HCQ waits do (HCQDEV_WAIT_TIMEOUT_MS). The default is
 * TGRT_WAIT_TIMEOUT_MS from the environment, else 30000 ms;
 * TGRT_WAIT_INFINITE turns the limit off. Applies to waits reached after
 * the call. */
TGRT_API tgrt_status tgrt_device_set_wait_timeout(tgrt_device *device, uint64_t timeout_ms);

/* ---- buffers ------------------------------------------------------------ */

/* Allocates size bytes (size 0 allowed), 64-byte aligned, zero-filled. */
TGRT_API tgrt_status tgrt_buffer_alloc(tgrt_device *device, size_t size, tgrt_buffer **out_buffer);
/* A view of parent's bytes [offset, offset+size) (views of views allowed).
 * The view shares the parent's memory and keeps it alive. Its address is
 * parent + offset, so it is only as aligned as the offset makes it. */
TGRT_API tgrt_status tgrt_buffer_view(tgrt_buffer *parent, size_t offset, size_t size,
                                      tgrt_buffer **out_view);
/* A buffer of the device over size bytes of host memory the caller owns
 * (host may be NULL only when size is 0): kernels and copies use that memory
 * in place, as tinygrad's CPU allocator's buffers are used by our graphs.
 * The runtime never frees it; the caller keeps it alive and unchanged in
 * place for as long as the buffer, or any recording, graph or submission
 * naming it, may still use it. Only devices whose memory is plain host
 * memory can do this (the CPU); others return TGRT_UNSUPPORTED. */
TGRT_API tgrt_status tgrt_buffer_import_host(tgrt_device *device, void *host, size_t size,
                                             tgrt_buffer **out_buffer);
/* Releases the caller's handle to a buffer or view. */
TGRT_API tgrt_status tgrt_buffer_free(tgrt_buffer *buffer);
TGRT_API tgrt_status tgrt_buffer_size(const tgrt_buffer *buffer, size_t *out_size);
/* Host address of the buffer's first byte: devices with
 * TGRT_FEATURE_HOST_MEMORY (CPU; Vulkan memory that is host-visible and
 * coherent). TGRT_UNSUPPORTED otherwise. */
TGRT_API tgrt_status tgrt_buffer_host_pointer(tgrt_buffer *buffer, void **out_ptr);
/* Synchronous host copies; TGRT_OUT_OF_RANGE unless offset+size <= size of
 * the buffer. They are not ordered against queued work: wait on a signal
 * (or tgrt_device_synchronize) first. */
TGRT_API tgrt_status tgrt_buffer_copy_in(tgrt_buffer *buffer, size_t offset, const void *src,
                                         size_t size);
TGRT_API tgrt_status tgrt_buffer_copy_out(const tgrt_buffer *buffer, size_t offset, void *dst,
                                          size_t size);

/* ---- programs ----------------------------------------------------------- */

/* Loads an x86-64 ELF relocatable object (ET_REL, as `clang -c -fPIC` or
 * `llc -filetype=obj` make it) from memory: maps its allocated sections,
 * applies relocations, resolves undefined symbols against an allow-list of
 * libm / compiler-rt functions in the host process. entry_name selects the
 * kernel; NULL means the first function in .text (tinygrad puts the kernel
 * at byte 0 of .text). The bytes are not referenced after the call. */
TGRT_API tgrt_status tgrt_program_load(tgrt_device *device, const void *object, size_t size,
                                       const char *entry_name, tgrt_program **out_program);
TGRT_API tgrt_status tgrt_program_free(tgrt_program *program);

/* A program of any driver's format, with what a GPU launch needs to know of
 * its interface. */
typedef enum tgrt_program_format {
  TGRT_FORMAT_ELF = 1,   /* CPU: x86-64 ELF relocatable object (as above)      */
  TGRT_FORMAT_SPIRV = 2, /* VULKAN: a SPIR-V module with a GLCompute entry     */
  TGRT_FORMAT_CUBIN = 3, /* CUDA: an ELF cubin for the device's sm_XX          */
  TGRT_FORMAT_PTX = 4,   /* CUDA: PTX text, compiled by the driver at load     */
  TGRT_FORMAT_HSACO = 5  /* AMD: an ELF code object (HSACO) for the gfx chip   */
} tgrt_program_format;
typedef struct tgrt_program_desc {
  uint32_t api_version;   /* TGRT_API_VERSION                                  */
  uint32_t format;        /* tgrt_program_format                               */
  const void *binary;
  size_t size;
  const char *entry_name; /* NULL: the ELF's first function; required for GPUs */
  /* GPU interface: the kernel takes num_buffers buffers, then num_scalars
   * integers of scalar_bytes[i] (4 or 8) bytes each. SPIR-V (the Vulkan
   * driver's convention): buffer i is the storage buffer at (set 0,
   * binding i); when num_scalars > 0 or offsets_word is set, binding
   * num_buffers is a storage buffer of 32-bit words holding the scalars in
   * order (8-byte ones as two words, low first), followed, when offsets_word
   * is nonzero, by one word per buffer: the byte offset of the view inside
   * the 16-byte (buffer_offset_alignment) aligned binding the driver made for
   * it, so that views at any offset can be passed. CUBIN, PTX and HSACO (the
   * kernel-parameter convention of tinygrad's CUDA and AMD backends): the
   * kernel's parameters are the buffers' device addresses (a view's offset
   * added), then the scalars, each of its size; offsets_word must be 0. */
  uint32_t num_buffers;
  uint32_t num_scalars;
  const uint8_t *scalar_bytes;
  uint32_t offsets_word;  /* 1: the word pack ends with the buffers' offsets    */
  uint32_t local_size[3]; /* the workgroup size the binary was compiled for
                           * (CUDA, AMD: all 0 = any size the kernel allows)   */
} tgrt_program_desc;
/* Creates a program on the device from desc (copied; the bytes are not
 * referenced after the call). TGRT_INVALID_OBJECT for a binary the driver
 * rejects, TGRT_UNSUPPORTED for a format the device cannot run. */
TGRT_API tgrt_status tgrt_program_create(tgrt_device *device, const tgrt_program_desc *desc,
                                         tgrt_program **out_program);
/* The entry symbol's name ("" if it has none); valid while the program lives. */
TGRT_API tgrt_status tgrt_program_entry_name(const tgrt_program *program, const char **out_name);

/* One kernel argument. tinygrad's CPU convention passes every argument as a
 * 64-bit integer: a buffer as its host address, an int in a 64-bit slot
 * (the kernel may declare it int32). */
typedef enum tgrt_arg_kind { TGRT_ARG_BUFFER = 1, TGRT_ARG_INT = 2 } tgrt_arg_kind;

typedef struct tgrt_arg {
  uint32_t kind;       /* tgrt_arg_kind                 */
  uint32_t reserved;   /* 0                             */
  tgrt_buffer *buffer; /* TGRT_ARG_BUFFER                */
  uint64_t value;      /* TGRT_ARG_INT (two's complement) */
} tgrt_arg;

static inline tgrt_arg tgrt_arg_buffer(tgrt_buffer *buffer) {
  tgrt_arg a;
  a.kind = TGRT_ARG_BUFFER; a.reserved = 0; a.buffer = buffer; a.value = 0;
  return a;
}
static inline tgrt_arg tgrt_arg_int(int64_t value) {
  tgrt_arg a;
  a.kind = TGRT_ARG_INT; a.reserved = 0; a.buffer = NULL; a.value = (uint64_t)value;
  return a;
}

/* The most arguments a kernel may take (tinygrad's MAX_ARGS). */
#define TGRT_MAX_ARGS 63

/* Runs the kernel with args[0..num_args) in call order and returns when it
 * is done. With core_id_arg_index = -1 it is called once (nthreads must be
 * 0 or 1). With core_id_arg_index = i >= 0 it is called once per thread id
 * t in [0, nthreads) with argument i set to t (args[i] itself is ignored),
 * the calls running in parallel on the device's threads. */
TGRT_API tgrt_status tgrt_program_launch(tgrt_program *program, const tgrt_arg *args,
                                         uint32_t num_args, int32_t core_id_arg_index,
                                         uint32_t nthreads);

/* A launch in any driver's terms. GPU: global_size workgroups of local_size
 * threads (local_size must be the program's). CPU: global_size[0] threads,
 * each called with its id in argument core_id_arg_index (-1: none, then
 * global_size[0] must be 1); local_size is ignored. */
typedef struct tgrt_dispatch {
  uint32_t api_version;
  uint32_t global_size[3];
  uint32_t local_size[3];
  int32_t core_id_arg_index;
} tgrt_dispatch;
/* Runs the program with args and waits until it is done. */
TGRT_API tgrt_status tgrt_program_dispatch(tgrt_program *program, const tgrt_arg *args,
                                           uint32_t num_args, const tgrt_dispatch *dispatch);

/* ---- CUDA C source (NVRTC) ---------------------------------------------- */

/* Compiles CUDA C source to a cubin (format TGRT_FORMAT_CUBIN) or PTX
 * (TGRT_FORMAT_PTX, NUL-terminated) for arch ("sm_90"), as tinygrad's
 * CUDA backend does for the kernels users write as source. NVRTC is opened
 * at run time (TGRT_NVRTC_LIBRARY, else libnvrtc.so.13 / .12 on the
 * loader's path, else $CUDA_PATH, $CUDA_HOME or /usr/local/cuda lib64);
 * no GPU is needed. options (num_options strings, may be NULL when 0) are
 * passed to nvrtcCompileProgram after --gpu-architecture. On success
 * *out_binary (freed with tgrt_nvrtc_free) holds *out_size bytes.
 * TGRT_UNAVAILABLE without NVRTC; TGRT_INVALID_ARGUMENT with NVRTC's log
 * for source that does not compile or an arch it does not know. */
TGRT_API tgrt_status tgrt_nvrtc_compile(const char *source, const char *arch, uint32_t format,
                                        const char *const *options, uint32_t num_options,
                                        void **out_binary, size_t *out_size);
TGRT_API tgrt_status tgrt_nvrtc_free(void *binary);

/* ---- timeline signals --------------------------------------------------- */

/* A timeline signal holds a uint64 that only grows, plus a timestamp slot.
 * Values use all 64 bits on every driver (no wrap at 2^31 or 2^32). */
TGRT_API tgrt_status tgrt_signal_create(tgrt_device *device, uint64_t initial_value,
                                        tgrt_signal **out_signal);
TGRT_API tgrt_status tgrt_signal_destroy(tgrt_signal *signal);
/* Names the signal in error messages ("signal 'name'"; unnamed signals are
 * "signal #<n>", n unique in the process). The name is copied. */
TGRT_API tgrt_status tgrt_signal_set_name(tgrt_signal *signal, const char *name);
TGRT_API tgrt_status tgrt_signal_value(const tgrt_signal *signal, uint64_t *out_value);
/* Sets the value from the host. A value below the current one is rejected
 * (TGRT_INVALID_ARGUMENT) and leaves the signal unchanged. */
TGRT_API tgrt_status tgrt_signal_signal(tgrt_signal *signal, uint64_t value);
/* Nanoseconds of CLOCK_MONOTONIC (the host clock; std::chrono::steady_clock)
 * at which the last queue timestamp command ran on the device, in every
 * driver's case converted to the host clock; 0 if none ran yet. */
TGRT_API tgrt_status tgrt_signal_timestamp(const tgrt_signal *signal, uint64_t *out_ns);

#define TGRT_WAIT_INFINITE UINT64_MAX
/* Blocks until the signal's value is >= value. timeout_ms: 0 polls once,
 * TGRT_WAIT_INFINITE never times out. Returns TGRT_TIMEOUT if it ran out,
 * with a message naming the signal, the value and the value reached. */
TGRT_API tgrt_status tgrt_signal_wait(const tgrt_signal *signal, uint64_t value,
                                      uint64_t timeout_ms);

/* ---- HCQ-style queues --------------------------------------------------- */

/* A queue records commands; submitting hands a copy of the recording to the
 * device engine of the queue's type, which runs the commands in order,
 * asynchronously, after everything submitted to that engine before.
 * Different engines (and devices) run concurrently and are ordered only by
 * signals. Like tinygrad's HWQueue, the recording stays after submit (it can
 * be submitted again) until tgrt_queue_reset. Recording calls validate their
 * arguments at once (bounds, argument counts) and are not thread-safe
 * against other calls on the same queue. */
typedef enum tgrt_queue_type { TGRT_QUEUE_COMPUTE = 0, TGRT_QUEUE_COPY = 1 } tgrt_queue_type;

TGRT_API tgrt_status tgrt_queue_create(tgrt_device *device, tgrt_queue_type type,
                                       tgrt_queue **out_queue);
/* Releases the queue; work already submitted still runs. */
TGRT_API tgrt_status tgrt_queue_destroy(tgrt_queue *queue);
/* Records a kernel launch (compute queues only); arguments as in
 * tgrt_program_launch, copied at record time. */
TGRT_API tgrt_status tgrt_queue_exec(tgrt_queue *queue, tgrt_program *program, const tgrt_arg *args,
                                     uint32_t num_args, int32_t core_id_arg_index,
                                     uint32_t nthreads);
/* Records a launch in any driver's terms (tgrt_dispatch). */
TGRT_API tgrt_status tgrt_queue_dispatch(tgrt_queue *queue, tgrt_program *program,
                                         const tgrt_arg *args, uint32_t num_args,
                                         const tgrt_dispatch *dispatch);
/* Records a copy of size bytes (overlapping ranges allowed), bounds-checked
 * now. */
TGRT_API tgrt_status tgrt_queue_copy(tgrt_queue *queue, tgrt_buffer *dst, size_t dst_offset,
                                     tgrt_buffer *src, size_t src_offset, size_t size);
/* Records "after all prior commands, set signal to value" (a value below the
 * signal's current one leaves it unchanged: timelines never go back). */
TGRT_API tgrt_status tgrt_queue_signal(tgrt_queue *queue, tgrt_signal *signal, uint64_t value);
/* Records "block this engine until signal >= value". */
TGRT_API tgrt_status tgrt_queue_wait(tgrt_queue *queue, tgrt_signal *signal, uint64_t value);
/* Records "after all prior commands, write the time into signal's
 * timestamp slot". */
TGRT_API tgrt_status tgrt_queue_timestamp(tgrt_queue *queue, tgrt_signal *signal);
/* Records "make prior writes visible to later commands". The CPU engine
 * already runs commands in order with full ordering, so this only keeps the
 * recording 1:1 with hcq.memory_barrier / HWQueue.memory_barrier. */
TGRT_API tgrt_status tgrt_queue_memory_barrier(tgrt_queue *queue);
TGRT_API tgrt_status tgrt_queue_submit(tgrt_queue *queue);
/* Drops the recorded commands (submitted copies are unaffected). */
TGRT_API tgrt_status tgrt_queue_reset(tgrt_queue *queue);
TGRT_API tgrt_status tgrt_queue_command_count(const tgrt_queue *queue, size_t *out_count);

/* ---- graphs (captured schedules, replayed) ------------------------------ */

/* A graph is tinygrad's TinyJit/HCQGraph: the recordings of one or more
 * queues of a device, captured once and launched again and again, with the
 * buffers and integer arguments that change between launches patched in
 * place (only what changed; the rest of the recording is reused as is).
 *
 * Signals the captured queues both signal and wait on are the graph's own:
 * each launch rebases their values, so launch k (from 0) uses
 * v + k * span where span is the largest value recorded for the signal
 * minus its value at capture. Other signals keep their recorded values.
 * Launches run in launch order; a graph's calls are not thread-safe against
 * other calls on the same graph. */
typedef struct tgrt_graph tgrt_graph;

/* Captures the current recordings of queues[0..num_queues) (all of one
 * device), which a launch submits in this order, each to its queue type's
 * engine. The queues stay usable and may be reset or destroyed; the graph
 * keeps what it captured (and the objects it names) alive. */
TGRT_API tgrt_status tgrt_graph_create(tgrt_queue *const *queues, uint32_t num_queues,
                                       tgrt_graph **out_graph);
/* Releases the graph; launches in flight still complete. */
TGRT_API tgrt_status tgrt_graph_destroy(tgrt_graph *graph);
/* Number of exec commands captured, counted across the queues in order:
 * the exec_index of the update calls. */
TGRT_API tgrt_status tgrt_graph_exec_count(const tgrt_graph *graph, uint32_t *out_count);
/* Replaces every use of `captured` (a buffer handle the captured recording
 * names, as an exec argument or a copy's source or destination) by
 * `buffer`, of the same device and at least as large. Later launches use
 * it; launches already made are unaffected. */
TGRT_API tgrt_status tgrt_graph_update_buffer(tgrt_graph *graph, const tgrt_buffer *captured,
                                              tgrt_buffer *buffer);
/* Sets integer argument arg_index of exec exec_index (a bound variable). */
TGRT_API tgrt_status tgrt_graph_update_arg(tgrt_graph *graph, uint32_t exec_index,
                                           uint32_t arg_index, int64_t value);
/* Sets the global size of exec exec_index (launch dims that depend on a
 * variable), checked as a recorded dispatch is. */
TGRT_API tgrt_status tgrt_graph_update_dispatch(tgrt_graph *graph, uint32_t exec_index,
                                                const uint32_t global_size[3]);
/* Submits the graph. When signal is not NULL it is set to value once every
 * captured queue of this launch has completed. */
TGRT_API tgrt_status tgrt_graph_launch(tgrt_graph *graph, tgrt_signal *signal, uint64_t value);

/* ---- graph recorder (HCQGraph's queues and waits) ---------------------- */

/* Records a schedule for a graph as tinygrad's HCQGraph does: execs on the
 * device's compute queue, copies on its copy queue (the two engines run
 * concurrently), and between them only the waits the schedule's data
 * dependencies need: a command waits for the latest command of the other
 * queue that wrote memory it reads, or read or wrote memory it writes
 * (byte ranges of the same allocation, views included; on devices with host
 * memory, overlapping host addresses), never for work of its own queue
 * (queues run in order), and not again for what an earlier wait of its
 * queue already covers. The commands a wait names signal a timeline signal
 * of their queue that the graph owns (rebased per launch). */
typedef struct tgrt_graph_recorder tgrt_graph_recorder;

TGRT_API tgrt_status tgrt_graph_recorder_create(tgrt_device *device, tgrt_graph_recorder **out_recorder);
TGRT_API tgrt_status tgrt_graph_recorder_destroy(tgrt_graph_recorder *recorder);
/* Records an exec (arguments as tgrt_queue_dispatch). Bit i of
 * written_args set: the kernel writes buffer argument i (tinygrad's
 * ProgramSpec.outs); the other buffer arguments are only read. */
TGRT_API tgrt_status tgrt_graph_recorder_dispatch(tgrt_graph_recorder *recorder, tgrt_program *program,
                                                  const tgrt_arg *args, uint32_t num_args,
                                                  const tgrt_dispatch *dispatch, uint64_t written_args);
/* Records a copy (as tgrt_queue_copy) on the copy queue. */
TGRT_API tgrt_status tgrt_graph_recorder_copy(tgrt_graph_recorder *recorder, tgrt_buffer *dst,
                                              size_t dst_offset, tgrt_buffer *src, size_t src_offset,
                                              size_t size);
/* Cross-queue waits recorded so far (the commands a launch blocks on). A
 * recorder is not thread-safe against other calls on the same recorder. */
TGRT_API tgrt_status tgrt_graph_recorder_wait_count(const tgrt_graph_recorder *recorder,
                                                    uint32_t *out_count);
/* A graph of what was recorded (tgrt_graph_create over the copy queue, then
 * the compute queue); its exec indices count the execs in recording order.
 * The recorder stays usable. */
TGRT_API tgrt_status tgrt_graph_recorder_finish(tgrt_graph_recorder *recorder, tgrt_graph **out_graph);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TINYGRAD_RT_RUNTIME_H */
