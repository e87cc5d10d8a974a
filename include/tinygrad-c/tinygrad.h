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
 * Not here yet: scheduling a tensor program (tinygrad's schedule step; the
 * library has no scheduler yet) and targets other than the host CPU.
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
 *    runs in parallel, except the LLVM back end of tgc_compile_kernel_cpu,
 *    which is serialized process-wide (it shares one host TargetMachine).
 *    One context per thread gives the most parallelism.
 *  - Callbacks run on the calling thread, during the call, with the
 *    context's lock held: they must not call back into the same context.
 *
 * Ownership
 *  - Every handle returned through an out-parameter (context, module,
 *    kernel) is owned by the caller and released exactly once with the
 *    matching tgc_*_destroy. Modules keep their context alive and kernels
 *    do not need it: handles may be released in any order.
 *  - Strings and arrays returned through `const` out-pointers (names, IR
 *    text kept in a kernel, the object bytes, tgc_kernel_info's arrays) are
 *    owned by the object they came from and valid until it is destroyed.
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
#define TGC_API_VERSION 1

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
  size_t num_vars;
  int32_t core_id_arg;            /* argument index of core_id, -1 if none     */
  double codegen_ms;              /* time in our passes                        */
  double llvm_ms;                 /* time in LLVM (O3 + object emission)       */
} tgc_kernel_info;

/* Fills *out_info; out_info->api_version must be TGC_API_VERSION. */
TGC_API tgc_status tgc_kernel_get_info(const tgc_kernel *kernel, tgc_kernel_info *out_info);
/* The ELF object (x86-64 ET_REL), owned by the kernel. */
TGC_API tgc_status tgc_kernel_object(const tgc_kernel *kernel, const void **out_data,
                                     size_t *out_size);

typedef enum tgc_text_kind { TGC_TEXT_MLIR = 0, TGC_TEXT_LLVM_IR = 1, TGC_TEXT_ASM = 2 } tgc_text_kind;
/* Text kept by tgc_cpu_options.keep_*; "" if it was not asked for. Owned by
 * the kernel. */
TGC_API tgc_status tgc_kernel_text(const tgc_kernel *kernel, tgc_text_kind kind,
                                   const char **out_text, size_t *out_size);

/* ---- running a compiled kernel through tinygrad-rt ---------------------- */

/* tgrt_program_load of the kernel's object and entry symbol. The program is
 * the caller's (tgrt_program_free); it does not reference the kernel. */
TGC_API tgc_status tgc_kernel_load(const tgc_kernel *kernel, tgrt_device *device,
                                   tgrt_program **out_program);
/* Launches program (loaded from kernel) and waits for it: buffers[i] is the
 * buffer for globals[i] (num_buffers == num_globals, each at least
 * global_elements[i] elements; the byte size is not checked against the
 * dtype), var_values[j] the value of vars[j] (num_vars values; the entry
 * for core_id is ignored: every thread gets its own). Runs on global_size[0]
 * threads when the kernel has core_id. */
TGC_API tgc_status tgc_kernel_launch(const tgc_kernel *kernel, tgrt_program *program,
                                     tgrt_buffer *const *buffers, size_t num_buffers,
                                     const int64_t *var_values, size_t num_var_values);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TINYGRAD_C_TINYGRAD_H */
