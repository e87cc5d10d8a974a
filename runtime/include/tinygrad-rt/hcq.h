/*===- tinygrad-rt/hcq.h - the runtime calls of compiled hcq schedules ---===*
 *
 * What a schedule compiled from the `hcq` dialect (convert-hcq-to-runtime)
 * calls: one function per hcq op, each the runtime call of runtime.h the op
 * stands for (IREE's HAL import table idea). They share a state that holds
 * the first failure (every later call does nothing, so the compiled code
 * needs no branch per call) and owns the queues and signals the schedule
 * creates. A compiled schedule is
 *
 *   void NAME(tgrt_hcq_state *state, void *const *objects, const int64_t *vars);
 *
 * objects: the function's devices, buffers and programs in argument order;
 * vars: its bound variables. Afterwards tgrt_hcq_state_status says whether
 * it ran. A state made with capture set records the queues but does not
 * submit them (nor wait): tgrt_hcq_state_capture makes a graph of them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TINYGRAD_RT_HCQ_H
#define TINYGRAD_RT_HCQ_H

#include "tinygrad-rt/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgrt_hcq_state tgrt_hcq_state;

/* host_wait_timeout_ms bounds every hcq.host_wait. */
TGRT_API tgrt_status tgrt_hcq_state_create(int capture, uint64_t host_wait_timeout_ms,
                                           tgrt_hcq_state **out_state);
/* Releases the state's queues and signals (work submitted still runs). */
TGRT_API void tgrt_hcq_state_destroy(tgrt_hcq_state *state);
/* TGRT_OK, or the first failure; *out_message (may be NULL) names the op. */
TGRT_API tgrt_status tgrt_hcq_state_status(const tgrt_hcq_state *state, const char **out_message);
/* Capture states: a graph of the queues hcq.submit named, in that order. */
TGRT_API tgrt_status tgrt_hcq_state_capture(tgrt_hcq_state *state, tgrt_graph **out_graph);

/* One per op. kind: 0 compute, 1 copy (hcq.queue_kind). */
TGRT_API tgrt_queue *tgrt_hcq_queue(tgrt_hcq_state *state, tgrt_device *device, uint32_t kind);
TGRT_API tgrt_signal *tgrt_hcq_new_signal(tgrt_hcq_state *state, tgrt_device *device, uint64_t value);
/* args: num_args pairs (kind, value) of tgrt_arg_kind and the buffer's
 * address or the integer; dims: global[3] then local[3]. */
TGRT_API void tgrt_hcq_exec(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_program *program,
                            const uint64_t *args, uint32_t num_args, const int64_t *dims,
                            int32_t core_id_arg_index);
TGRT_API void tgrt_hcq_copy(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_buffer *dst, tgrt_buffer *src,
                            uint64_t size);
TGRT_API void tgrt_hcq_wait(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal, uint64_t value);
TGRT_API void tgrt_hcq_signal(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal, uint64_t value);
TGRT_API void tgrt_hcq_timestamp(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal);
TGRT_API void tgrt_hcq_memory_barrier(tgrt_hcq_state *state, tgrt_queue *queue);
TGRT_API void tgrt_hcq_submit(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_device *device);
TGRT_API void tgrt_hcq_host_wait(tgrt_hcq_state *state, tgrt_signal *signal, uint64_t value);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TINYGRAD_RT_HCQ_H */
