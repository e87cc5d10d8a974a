/*
 * tinygrad-c: the tinygrad-mlir compiler as a C library (C99).
 *
 * What an embedder (a framework, a Python binding, an editor tool) calls
 * instead of running tinygrad-opt / tinygrad-compile: import a tinygrad
 * graph or MLIR text into a module, run passes on it and read the IR, and
 * compile a kernel AST for the CPU into an ELF object plus tinygrad's
 * launch metadata (ProgramInfo). Running the object is the runtime's job:
 * this header includes tinygrad-rt/runtime.h (devices, buffers, programs,
 * queues, signals; libTinygradRuntime.so, which libTinygradCAPI.so links, and
 * TinygradMLIR::CAPI brings along), plus two helpers that load and launch a
 * compiled kernel with the right argument order.
 *
 * A tensor program (tinygrad's realize(): a tensor graph whose SINK lists
 * the tensors to realize) runs in-process through tgc_program_*: scheduled,
 * each kernel compiled as tgc_compile_kernel_cpu does, run on the runtime's
 * CPU device on buffers the caller fills, outputs read back as dense bytes.
 *
 * Kernels also compile for GPU targets (tgc_compile_kernel); programs run
 * on the CPU only.
 *
 * Conventions
 *  - Every function returns a tgc_status. On anything but TGC_OK,
 *    tgc_last_error() gives the calling thread's message: the compiler's
 *    diagnostics, one per line, each with its location ("k.mlir:5:6:
 *    error: ...", or "node 12 (k.json:1:1347): error: ..." for a JSON
 *    graph's node), or what was wrong with the arguments. Out-parameters are written
 *    only on success.
 *  - Bad input (NULL handles or out-pointers, malformed JSON or MLIR, graphs
 *    the verifiers reject, unknown passes, kernels the compiler cannot
 *    lower) is an error, never a crash. No C++ exception crosses this
 *    interface; an internal assertion of the compiler (a bug) can still end
 *    the process.
 *
 * Threads
 *  - A context is internally locked: calls on one context (and on the
 *    modules made from it) from different threads are serialized. A
 *    compiled kernel is immutable and independent of its context; its
 *    functions may be called from any thread. Work on different contexts
 *    runs in parallel, CPU kernel compiles (tgc_compile_kernel) included;
 *    GPU targets' kernel compiles, BEAM searches and tgc_program_create's
 *    compiles run one at a time process-wide. One context per thread gives
 *    the most parallelism.
 *  - A program (tgc_program) takes its context's lock for every call,
 *    tgc_program_run included: programs of one context run one at a time.
 *  - Callbacks run on the calling thread, during the call, with the
 *    context's lock held: they must not call back into the same context.
 *
 * Ownership
 *  - Every handle returned through an out-parameter (context, module,
 *    kernel, program) is owned by the caller and released exactly once with
 *    the matching tgc_*_destroy. Modules and programs keep their context
 *    alive, kernels do not need it, a program does not need the module it
 *    was made from: handles may be released in any order.
 *  - Strings and arrays returned through `const` out-pointers (names, IR
 *    text kept in a kernel, the object bytes, tgc_kernel_info's and
 *    tgc_tensor_info's arrays) are owned by the object they came from and
 *    valid until it is destroyed.
 *  - Strings returned through `char **` out-pointers are malloc'ed for the
 *    caller, NUL-terminated, and released with tgc_string_free.
 *  - tgc_last_error's string is owned by the library and valid until the
 *    calling thread's next failing call.
 *  - Pointers passed in (text, option structs, arrays) are only read during
 *    the call.
 */
#ifndef TINYGRAD_C_TINYGRAD_H
#define TINYGRAD_C_TINYGRAD_H

#include <stddef.h>
#include <stdint.h>

#include "tinygrad-rt/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header. Option and info structs carry an api_version
 * field that must be set to this value; tgc_api_version() returns the
 * library's. A library accepts structs of its own version only. */
#define TGC_API_VERSION 3

#if defined(_WIN32)
#define TGC_API
#else
#define TGC_API __attribute__((visibility("default")))
#endif

typedef enum tgc_status {
  TGC_OK = 0,
  TGC_INVALID_ARGUMENT = 1, /* NULL handle/pointer, bad option, wrong api_version */
  TGC_PARSE_ERROR = 2,      /* malformed JSON / MLIR, unknown op or pass name;
                               a JSON graph a verifier rejects                     */
  TGC_VERIFY_ERROR = 3,     /* parsed MLIR or a kernel AST a verifier rejects      */
  TGC_PASS_FAILED = 4,      /* a pass of a pipeline failed                         */
  TGC_COMPILE_FAILED = 5,   /* the kernel cannot be compiled for the target       */
  TGC_RUNTIME_ERROR = 6,    /* a tgrt_* call failed (message from the runtime)     */
  TGC_INTERNAL = 7          /* a bug or an unexpected system error (out of memory) */
} tgc_status;

/* The library's TGC_API_VERSION (compare with the header's). */
TGC_API uint32_t tgc_api_version(void);
/* A static name for a status ("TGC_OK", ...; "TGC_UNKNOWN" otherwise). */
TGC_API const char *tgc_status_string(tgc_status status);
/* Message of the calling thread's most recent failing call ("" if none).
 * Never NULL. */
TGC_API const char *tgc_last_error(void);
/* Releases a string the library returned through a char ** (NULL is a no-op). */
TGC_API void tgc_string_free(char *str);

typedef struct tgc_context tgc_context;
typedef struct tgc_module tgc_module;
typedef struct tgc_kernel tgc_kernel;
typedef struct tgc_program tgc_program;

/* ---- contexts ----------------------------------------------------------- */

/* A compiler context (an MLIRContext with the tinygrad dialects and the
 * upstream dialects it lowers through loaded). */
TGC_API tgc_status tgc_context_create(tgc_context **out_context);
/* Releases the caller's handle; the context lives on while modules made
 * from it do. */
TGC_API tgc_status tgc_context_destroy(tgc_context *context);

/* ---- modules ------------------------------------------------------------ */

/* Imports a tinygrad UOp graph in the corpus JSON format ({"nodes": [...],
 * "root": n}; see shared/corpus/README.md) from text[0..size). Lines that
 * start with "//" are ignored. graph_path selects the graph inside a record
 * (dot-separated keys such as "ast" or "expected.graph"); NULL or "" uses
 * the top level if it has "nodes", else the first of input / ast /
 * tensor_graph / graph. buffer_name (NULL: "<json>") names the text in
 * diagnostics. The module holds one op per node, the root last, and has
 * been verified. */
TGC_API tgc_status tgc_module_import_json(tgc_context *context, const char *text, size_t size,
                                          const char *buffer_name, const char *graph_path,
                                          tgc_module **out_module);
/* Parses and verifies MLIR text[0..size) (any of the registered dialects). */
TGC_API tgc_status tgc_module_parse_mlir(tgc_context *context, const char *text, size_t size,
                                         const char *buffer_name, tgc_module **out_module);
TGC_API tgc_status tgc_module_destroy(tgc_module *module);
/* The module as MLIR text (generic_form != 0: MLIR's generic op syntax). */
TGC_API tgc_status tgc_module_print(tgc_module *module, int generic_form, char **out_text);
/* The module's graph in the corpus JSON format (its ops in order are the
 * nodes, the last one is the root). Fails on ops that are not UOps. */
TGC_API tgc_status tgc_module_export_json(tgc_module *module, char **out_json);

/* Called after each pass with the pass's argument name (e.g. "tg-symbolic";
 * the class name for passes without one) and the whole module printed
 * after it (ir[0..size), NUL-terminated, valid during the call only). */
typedef void (*tgc_ir_callback)(const char *pass_name, const char *ir, size_t size,
                                void *user_data);

typedef struct tgc_pass_options {
  uint32_t api_version;         /* TGC_API_VERSION                          */
  uint32_t verify_each;         /* != 0: verify the IR after every pass     */
  tgc_ir_callback after_pass;   /* NULL: no per-pass IR                     */
  void *user_data;              /* passed to after_pass                     */
} tgc_pass_options;

#define TGC_PASS_OPTIONS_DEFAULT {TGC_API_VERSION, 1, NULL, NULL}

/* Runs a pass pipeline on the module in place. pipeline is MLIR's textual
 * form: either anchored ("builtin.module(tg-symbolic,canonicalize)") or a
 * comma-separated list run on the module ("tg-symbolic,cse"); a registered
 * pipeline name ("tg-lower-to-llvm-cpu") is one element. Available: every
 * tinygrad pass and pipeline (tinygrad-opt --help lists them) plus
 * canonicalize, cse, inline, sccp and symbol-dce. options may be NULL. On
 * TGC_PASS_FAILED the module holds the IR as the failing pass left it.
 * Scheduling a tensor program is the "tg-schedule" pipeline: a module
 * imported from a tinygrad tensor graph becomes the LINEAR of kernel CALLs
 * over the program's buffers (each kernel then compiles with
 * tgc_compile_kernel_cpu). */
TGC_API tgc_status tgc_module_run_pipeline(tgc_module *module, const char *pipeline,
                                           const tgc_pass_options *options);

/* ---- compiling a kernel for the CPU ------------------------------------- */

typedef struct tgc_cpu_options {
  uint32_t api_version;       /* TGC_API_VERSION                                 */
  uint32_t max_threads;       /* cores the thread split may use; 0: the host's  */
  uint32_t keep_mlir;         /* != 0: keep the IR after tg-lower-kernel         */
  uint32_t keep_llvm_ir;      /* != 0: keep the optimized LLVM IR                */
  uint32_t keep_asm;          /* != 0: keep the assembly                         */
  tgc_ir_callback after_pass; /* NULL, or called with the IR after the kernel
                                 lowering ("tg-lower-kernel") and after every
                                 pass of the lowering to the llvm dialect      */
  void *user_data;
} tgc_cpu_options;

#define TGC_CPU_OPTIONS_DEFAULT {TGC_API_VERSION, 0, 0, 0, 0, NULL, NULL}

/* Compiles the kernel AST in module (its last op is the SINK carrying
 * #tg.kernel_info, as tinygrad hands kernels to full_rewrite_to_sink, e.g.
 * imported from a corpus kernel's "ast") for the host CPU: tinygrad's
 * spec check, its symbolic rules, the CPU thread split and decompositions,
 * the lowering, LLVM O3, an ELF object in tinygrad's CPU calling convention
 * (buffers in globals order, then the scalar vars, core_id among them).
 * The module is not changed. options may be NULL. */
TGC_API tgc_status tgc_compile_kernel_cpu(tgc_module *module, const tgc_cpu_options *options,
                                          tgc_kernel **out_kernel);
/* ---- targets ---------------------------------------------------------- */

/* What the compiler knows of a target (its target description), for a front
 * end that schedules for it without compiling: tinygrad's Renderer fields
 * (has_local, local_max, ...) and the dtypes the compiler can lower for it.
 * A device may have fewer (its driver's features, tgrt_device_query): use
 * what both have. Strings belong to the library and live as long as it. */
typedef struct tgc_target_info {
  uint32_t api_version;       /* set by the caller: TGC_API_VERSION           */
  const char *name;           /* canonical: "cpu", "vulkan", "cuda:sm_90", ... */
  const char *arch;           /* "sm_90", "gfx942", "vulkan1.2", the host CPU  */
  const char *device;         /* the runtime device its kernels run on:
                                 "CPU", "VULKAN", "CUDA" or "AMD"             */
  const char *const *dtypes;  /* dtype names it computes in ("float32", ...)   */
  size_t num_dtypes;
  int32_t has_local;          /* workgroups and local ids (LOCAL/GROUP opts)   */
  int32_t has_shared;         /* workgroup memory                             */
  int32_t has_threads;        /* the CPU's THREAD opt                         */
  int64_t global_max[3];      /* per dimension (cpu: threads)                  */
  int64_t local_max[3];       /* per dimension, 0 without workgroups           */
  int64_t local_prod_max;     /* threads per workgroup, 0: no limit            */
  int64_t shared_max_bytes;   /* workgroup memory per workgroup                */
  uint32_t subgroup_size;
  uint32_t offsets_word;      /* 1: a kernel's scalar words end with each
                                 buffer view's byte offset (Vulkan), as
                                 tgrt_program_desc.offsets_word                */
} tgc_target_info;

/* Fills *out_info for `target` (the strings tgc_compile_kernel takes);
 * out_info->api_version must be TGC_API_VERSION. An unknown target or arch
 * is TGC_INVALID_ARGUMENT, tgc_last_error naming it. */
TGC_API tgc_status tgc_target_describe(const char *target, tgc_target_info *out_info);

/* Compiles the kernel AST in module for `target`: "cpu" (exactly
 * tgc_compile_kernel_cpu), "vulkan" (SPIR-V for the runtime's Vulkan
 * driver), "cuda:sm_<N>" (a cubin; "cuda:sm_<N>:ptx" asks for the PTX
 * text instead, TGRT_FORMAT_PTX, and ":cubin" is the default said
 * explicitly) or "amd:gfx<N>" (an HSACO); the codegen
 * steps, the gpu.module emission and the target's upstream pipeline
 * (docs/Design.md, "Targets"). tgc_kernel_object gives the binary and
 * tgc_kernel_format its format. A GPU kernel's interface:
 *  - buffers: tgc_kernel_info.globals, in binding / parameter order;
 *  - scalars: vars with var_dtypes (a 64-bit dtype is 8 bytes, every other
 *    4); Vulkan: binding num_globals holds them as 32-bit words (8-byte ones
 *    as two, low first), then one word per buffer, its view's byte offset
 *    (tgrt_program_desc.offsets_word = 1); cuda/amd: kernel parameters after
 *    the buffers;
 *  - launch: global_size workgroups of local_size threads (local_size is
 *    constant, global_size may depend on vars: value -1 and the expression
 *    in global_size_expr, or in TGC_TEXT_UOPS's "global_size" as a graph);
 *  - entry: tgc_kernel_info.name.
 * options: keep_mlir keeps the emitted gpu.module (TGC_TEXT_MLIR),
 * keep_llvm_ir the module after the target's pipeline (TGC_TEXT_LLVM_IR:
 * spirv or llvm+nvvm/rocdl dialect); after_pass sees every pass of the
 * target's pipeline; max_threads is CPU only. An unknown target, or a kernel over the target's threads or
 * workgroup memory or with a dtype it lacks, is TGC_COMPILE_FAILED naming
 * the target and the limit. */
TGC_API tgc_status tgc_compile_kernel(tgc_module *module, const char *target, const tgc_cpu_options *options,
                                      tgc_kernel **out_kernel);
/* The format of tgc_kernel_object's bytes, as tgrt_program_format:
 * TGRT_FORMAT_ELF (cpu), _SPIRV, _CUBIN, _PTX or _HSACO. */
TGC_API tgc_status tgc_kernel_format(const tgc_kernel *kernel, uint32_t *out_format);
TGC_API tgc_status tgc_kernel_destroy(tgc_kernel *kernel);

/* tinygrad's ProgramInfo for a compiled kernel. Sizes are given both as a
 * number and as expression text in tinygrad's render syntax; a size that
 * depends on variables has value -1 and its expression in the text (the CPU
 * target's sizes are always numbers today). Arrays and strings belong to
 * the kernel. */
typedef struct tgc_kernel_info {
  uint32_t api_version;           /* set by the caller: TGC_API_VERSION        */
  const char *name;               /* the function's symbol in the object       */
  int64_t global_size[3];
  int64_t local_size[3];
  const char *global_size_expr[3];
  const char *local_size_expr[3];
  const int64_t *globals;         /* buffer slots, in argument order           */
  size_t num_globals;
  const int64_t *global_elements; /* elements each of those buffers must have  */
  const int64_t *outs;            /* slots written                             */
  size_t num_outs;
  const int64_t *ins;             /* slots read                                */
  size_t num_ins;
  const char *const *vars;        /* scalar argument names, after the buffers  */
  const char *const *var_dtypes;  /* the dtype tinygrad's C declares each with
                                     ("int32", "int64", ...): a 64-bit one is a
                                     64-bit argument, every other a 32-bit one
                                     (each passed in a 64-bit slot)           */
  size_t num_vars;
  int32_t core_id_arg;            /* argument index of core_id, -1 if none     */
  double codegen_ms;              /* time in our passes                        */
  double llvm_ms;                 /* time in LLVM (O3 + object emission)       */
  /* tinygrad's Estimates (KernelInfo.estimates) of the kernel as compiled:
   * its ALU ops, bytes loaded and stored, and bytes of memory touched,
   * counted by tinygrad's Estimates.from_uops on the compiled program's
   * linear form (TGC_TEXT_UOPS). -1 where one depends on a variable; the
   * expression, in tinygrad's render syntax, is always in *_expr. */
  int64_t ops, lds, mem;
  const char *ops_expr, *lds_expr, *mem_expr;
} tgc_kernel_info;

/* Fills *out_info; out_info->api_version must be TGC_API_VERSION. */
TGC_API tgc_status tgc_kernel_get_info(const tgc_kernel *kernel, tgc_kernel_info *out_info);
/* The binary, owned by the kernel: the ELF object (x86-64 ET_REL) of a CPU
 * kernel, a GPU kernel's SPIR-V, cubin or HSACO (tgc_kernel_format). */
TGC_API tgc_status tgc_kernel_object(const tgc_kernel *kernel, const void **out_data,
                                     size_t *out_size);

typedef enum tgc_text_kind {
  TGC_TEXT_MLIR = 0,
  TGC_TEXT_LLVM_IR = 1,
  TGC_TEXT_ASM = 2,
  TGC_TEXT_UOPS = 3,
  TGC_TEXT_PHASES = 4
} tgc_text_kind;
/* Text kept by tgc_cpu_options.keep_*; "" if it was not asked for. Owned by
 * the kernel. TGC_TEXT_UOPS is always there: JSON {"applied_opts": the opts
 * applied (tinygrad's KernelInfo.applied_opts), "linear": the compiled
 * program in tinygrad's linear form (what its PROGRAM's LINEAR lists: loops
 * as RANGE ... END, loads, stores, REDUCEs as REG accumulators) as a corpus
 * JSON graph rooted at a LINEAR, "lanes": the vector width of each of its
 * sources, "estimates": {"ops", "lds", "mem"}, each an int or the graph of
 * its expression}. TGC_TEXT_PHASES is always there too: JSON {phase: ms}
 * of where the compile's time went, in the order the phases ran. A GPU
 * kernel's: "codegen" (AST to the gpu.module), "lower" (the target's MLIR
 * pipeline), then SPIR-V's "serialize", or for cuda/amd "translate" (to
 * LLVM IR), "target_machine", "link_library" (libdevice / ocml / ockl,
 * when the kernel calls them), "optimize" (LLVM's pipeline), "llvm_codegen"
 * (PTX or the object) and "link_binary" (nvJitLink or ptxas; lld). A CPU
 * kernel's: "codegen" and "llvm" (codegen_ms and llvm_ms). */
TGC_API tgc_status tgc_kernel_text(const tgc_kernel *kernel, tgc_text_kind kind,
                                   const char **out_text, size_t *out_size);

/* ---- BEAM search ------------------------------------------------------ */

/* A timer replacing the runtime (tests, other devices): the seconds one run
 * of the kernel compiled with opts_json (a JSON array of {"op": "UPCAST",
 * "axis": 0, "arg": 4}) takes; a negative value fails that candidate. */
typedef double (*tgc_beam_timer)(const char *opts_json, void *user_data);

typedef struct tgc_beam_options {
  uint32_t api_version;  /* TGC_API_VERSION                                   */
  uint32_t beam;         /* the beam width (tinygrad's BEAM=N), at least 1    */
  uint32_t max_threads;  /* cores the kernels may use; 0: the host's          */
  uint32_t ignore_cache; /* != 0: search even on a cache hit, write nothing   */
  const char *cache_dir; /* NULL: TINYGRAD_MLIR_CACHE_DIR, else
                            $XDG_CACHE_HOME/tinygrad-mlir, ~/.cache/...; the
                            results go to beam/ under it                      */
  tgc_beam_timer timer;  /* NULL: each candidate runs on the target's runtime
                            device (the CPU's in a child process)             */
  void *user_data;       /* passed to timer                                   */
  const char *target;    /* as tgc_compile_kernel's ("vulkan"); NULL: "cpu"   */
  const char *device;    /* the runtime device candidates are timed on
                            ("VULKAN:1"); NULL: the target's ("VULKAN")        */
} tgc_beam_options;

#define TGC_BEAM_OPTIONS_DEFAULT {TGC_API_VERSION, 2, 0, 0, NULL, NULL, NULL, NULL, NULL}

/* tinygrad's beam_search (codegen/opt/search.py) for the kernel AST in
 * module (as tgc_compile_kernel_cpu takes it), with our compiler and
 * runtime, for any target: each candidate's opts are compiled for the
 * target as opts_to_apply and timed on its runtime device (a GPU kernel in
 * this process, its launch dims at the variables' middle values);
 * one that fails to compile, faults or runs past BEAM_TIMEOUT_SEC is listed
 * in "failures" and skipped. The BEAM_* variables of search.py are read from
 * the environment. Results are cached on disk (key: the AST, the width, the
 * target, the device), so a second search of a kernel reads a file.
 * Beyond tinygrad's search, the kernel as it compiles without BEAM (the
 * heuristic's) is timed first and seeds the search (BEAM_HEURISTIC=0: off).
 * *out_json (tgc_string_free): {"opts": [...] (the opts_to_apply, as the
 * timer's), "opts_repr": tinygrad's repr of them, "heuristic" (true: the
 * kernel without BEAM was the fastest; compile it with no opts_to_apply,
 * "opts" are what its heuristic applies), "heuristic_s" (its time, null
 * unless timed), "cached", "searched"
 * (false: the kernel is tagged or names its own opts_to_apply, which are
 * "opts"), "rounds", "compiled", "deduped" (candidates not compiled: their
 * kernel AST was an earlier candidate's), "timed", "cut_off" (candidates stopped
 * past count x the early stop, ranked inf), "best_s" (null unless searched),
 * "search_s" (of it "compile_s" compiling and "time_s" timing candidates),
 * "key", "device" (where candidates were timed), "timing_child_starts"
 * (CPU: timing processes this search forked; one is kept per process for
 * every search, with its device and buffers), "failures": [{"opts",
 * "stage", "error"}]}. An unknown target is TGC_INVALID_ARGUMENT; a device
 * that does not open fails every candidate ("failures" says why). */
TGC_API tgc_status tgc_beam_search(tgc_module *module, const tgc_beam_options *options, char **out_json);

/* tgc_beam_search, and *out_kernel (tgc_kernel_destroy) the kernel its
 * "opts" compile to, which a caller would otherwise compile next: on the
 * CPU, when the search timed a candidate, the winning candidate's own
 * compile (the same kernel tgc_compile_kernel_cpu gives for the AST with
 * "opts" as its opts_to_apply, or without any where "heuristic"); NULL
 * otherwise (cached, not searched, a GPU target). */
TGC_API tgc_status tgc_beam_search_kernel(tgc_module *module, const tgc_beam_options *options, char **out_json,
                                          tgc_kernel **out_kernel);

/* ---- running a compiled kernel through tinygrad-rt ---------------------- */

/* tgrt_program_load of the kernel's object and entry symbol (a GPU kernel:
 * tgrt_program_create with its interface, see tgc_compile_kernel). The
 * program is the caller's (tgrt_program_free); it does not reference the
 * kernel. */
TGC_API tgc_status tgc_kernel_load(const tgc_kernel *kernel, tgrt_device *device,
                                   tgrt_program **out_program);
/* Launches program (loaded from a CPU kernel; a GPU kernel is dispatched
 * with tgrt_program_dispatch, its global_size evaluated by the caller for
 * its vars, as tinygrad does) and waits for it: buffers[i] is the
 * buffer for globals[i] (num_buffers == num_globals, each at least
 * global_elements[i] elements; the byte size is not checked against the
 * dtype), var_values[j] the value of vars[j] (num_vars values; the entry
 * for core_id is ignored: every thread gets its own). Runs on global_size[0]
 * threads when the kernel has core_id. */
TGC_API tgc_status tgc_kernel_launch(const tgc_kernel *kernel, tgrt_program *program,
                                     tgrt_buffer *const *buffers, size_t num_buffers,
                                     const int64_t *var_values, size_t num_var_values);

/* ---- tensor programs: schedule, compile, run (the CPU, or a target) ----- */

/* Called as long work advances: stage "schedule" (done = total = 1) once
 * the program is scheduled, then "compile" after each of its `total`
 * distinct kernels is compiled and loaded. */
typedef void (*tgc_progress_callback)(const char *stage, uint64_t done, uint64_t total,
                                      void *user_data);

typedef struct tgc_program_options {
  uint32_t api_version;           /* TGC_API_VERSION                             */
  uint32_t max_threads;           /* cores each kernel's thread split may use; 0:
                                     the host's                                  */
  tgc_progress_callback progress; /* NULL: no progress reports                   */
  tgc_ir_callback after_pass;     /* NULL, or the IR after each pass of every
                                     kernel's compile (as tgc_cpu_options)       */
  void *user_data;                /* passed to both callbacks                    */
} tgc_program_options;

#define TGC_PROGRAM_OPTIONS_DEFAULT {TGC_API_VERSION, 0, NULL, NULL, NULL}

/* Schedules the tensor program in module (a tinygrad tensor graph imported
 * with tgc_module_import_json: its root is the SINK of the tensors to
 * realize, its inputs BUFFERs on a device) the way tinygrad's realize()
 * does (the scheduler tinygrad-run and tinygrad-schedule use), compiles
 * every kernel of the schedule for the host CPU and loads it on the
 * runtime's CPU device, and allocates the program's buffers (zeroed). The
 * module is not changed. options may be NULL. A graph the scheduler
 * rejects is TGC_PASS_FAILED, a kernel that cannot be compiled
 * TGC_COMPILE_FAILED, both with the reason. */
TGC_API tgc_status tgc_program_create(tgc_module *module, const tgc_program_options *options,
                                      tgc_program **out_program);
/* The same for a target (tgc_compile_kernel's strings): "cpu" is
 * tgc_program_create; "vulkan" compiles every kernel to SPIR-V and runs the
 * program on the runtime's Vulkan device (its buffers live there; set and
 * read them as on the CPU). A target that does not parse is
 * TGC_COMPILE_FAILED; a device the runtime cannot open, TGC_RUNTIME_ERROR,
 * both with the reason. */
TGC_API tgc_status tgc_program_create_for_target(tgc_module *module, const char *target,
                                                 const tgc_program_options *options,
                                                 tgc_program **out_program);
TGC_API tgc_status tgc_program_destroy(tgc_program *program);

typedef struct tgc_program_info {
  uint32_t api_version; /* set by the caller: TGC_API_VERSION                  */
  size_t num_buffers;   /* the tensor graph's device BUFFERs, by slot          */
  size_t num_outputs;   /* the SINK's sources                                  */
  uint32_t num_kernels; /* kernel launches in the schedule                     */
  uint32_t num_copies;  /* copies in the schedule                              */
  double schedule_ms, compile_ms;
  double run_ms;        /* the last tgc_program_run (0 before one)             */
} tgc_program_info;

TGC_API tgc_status tgc_program_get_info(const tgc_program *program, tgc_program_info *out_info);

/* A buffer the caller fills, or a realized tensor it reads. The strings and
 * the shape array belong to the program. */
typedef struct tgc_tensor_info {
  uint32_t api_version;  /* set by the caller: TGC_API_VERSION                 */
  int64_t slot;          /* a buffer's BUFFER slot; -1 for an output           */
  const char *dtype;     /* tinygrad's dtype name: "float32", "uint8", ...     */
  const char *device;    /* a buffer's device ("CPU"; "PYTHON" for tinygrad's
                            RNG state); "" for an output                      */
  const int64_t *shape;  /* a buffer: {elements}; an output: its shape         */
  size_t ndim;
  size_t bytes;          /* what tgc_program_set_buffer / _read_output move    */
} tgc_tensor_info;

/* Buffers are in slot order: a program's inputs were realized before it
 * was built, so they come first. */
TGC_API tgc_status tgc_program_buffer_info(const tgc_program *program, size_t index,
                                           tgc_tensor_info *out_info);
TGC_API tgc_status tgc_program_output_info(const tgc_program *program, size_t index,
                                           tgc_tensor_info *out_info);
/* Copies data[0..size) into buffer `index`; size must be its `bytes`. */
TGC_API tgc_status tgc_program_set_buffer(tgc_program *program, size_t index, const void *data,
                                          size_t size);
/* Runs the schedule once, in order, and waits. May be called again (after
 * new inputs, say); buffers keep their contents between runs. */
TGC_API tgc_status tgc_program_run(tgc_program *program);
/* Writes output `index` to dst[0..size) as dense row-major elements of its
 * dtype (size must be its `bytes`), read through the output's views. */
TGC_API tgc_status tgc_program_read_output(tgc_program *program, size_t index, void *dst,
                                           size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TINYGRAD_C_TINYGRAD_H */
