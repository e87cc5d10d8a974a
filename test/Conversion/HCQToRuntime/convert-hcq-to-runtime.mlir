// RUN: tinygrad-opt %s -split-input-file -convert-hcq-to-runtime -verify-diagnostics | FileCheck %s

// Each hcq op becomes the call of its tgrt_hcq_* function; the schedule's
// objects come from the `objects` array, its variables from `vars`.
// CHECK: llvm.func @schedule(%[[ST:.*]]: !llvm.ptr, %[[OBJ:.*]]: !llvm.ptr, %[[VARS:.*]]: !llvm.ptr)
// CHECK: %[[DEVP:.*]] = llvm.getelementptr %[[OBJ]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[DEV:.*]] = llvm.load %[[DEVP]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[OBJ]][1]
// CHECK: llvm.getelementptr %[[OBJ]][2]
// CHECK: llvm.getelementptr %[[OBJ]][3]
// CHECK: %[[NP:.*]] = llvm.getelementptr %[[VARS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[N:.*]] = llvm.load %[[NP]] : !llvm.ptr -> i64
// CHECK: %[[Q:.*]] = llvm.call @tgrt_hcq_queue(%[[ST]], %[[DEV]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32) -> !llvm.ptr
// CHECK: %[[S:.*]] = llvm.call @tgrt_hcq_new_signal(%[[ST]], %[[DEV]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
// CHECK: llvm.call @tgrt_hcq_memory_barrier(%[[ST]], %[[Q]])
// CHECK: llvm.call @tgrt_hcq_copy(%[[ST]], %[[Q]], {{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
// The exec's arguments go to the stack as (kind, value) pairs: a buffer
// (kind 1) by address, the variable (kind 0) as is; then the six dims.
// CHECK: %[[ARGS:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK: llvm.ptrtoint
// CHECK: llvm.store %[[N]], %{{.*}} : i64, !llvm.ptr
// CHECK: %[[DIMS:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK: llvm.call @tgrt_hcq_exec(%[[ST]], %[[Q]], %{{.*}}, %[[ARGS]], %{{.*}}, %[[DIMS]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> ()
// CHECK: llvm.call @tgrt_hcq_signal(%[[ST]], %[[Q]], %[[S]], %{{.*}})
// CHECK: llvm.call @tgrt_hcq_wait(%[[ST]], %[[Q]], %[[S]], %{{.*}})
// CHECK: llvm.call @tgrt_hcq_timestamp(%[[ST]], %[[Q]], %[[S]])
// CHECK: llvm.call @tgrt_hcq_submit(%[[ST]], %[[Q]], %[[DEV]])
// CHECK: llvm.call @tgrt_hcq_host_wait(%[[ST]], %[[S]], %{{.*}})
// CHECK: llvm.return
// CHECK-NOT: hcq.
func.func @schedule(%dev: !hcq.device, %a: !hcq.buffer, %b: !hcq.buffer, %k: !hcq.executable, %n: i64) {
  %q = hcq.queue %dev <compute>
  %s = hcq.new_signal %dev value 0
  hcq.memory_barrier %q
  hcq.copy %q, %b, %a, 64
  %c0 = arith.constant 0 : i64
  hcq.exec %q, %k(%b, %n, %c0) global [4, 1, 1] local [1, 1, 1] {core_id_arg = 2 : i32} : !hcq.buffer, i64, i64
  %c1 = arith.constant 1 : i64
  hcq.signal %q, %s, %c1 : i64
  hcq.wait %q, %s, %c1 : i64
  hcq.timestamp %q, %s
  hcq.submit %q to %dev
  hcq.host_wait %s, %c1 : i64
  return
}

// -----

// A schedule takes its objects; opening or allocating inside is not mapped.
func.func @opens(%n: i64) {
  // expected-error @+1 {{convert-hcq-to-runtime: 'hcq.device' has no runtime call}}
  %dev = hcq.device "CPU"
  return
}

// -----

// expected-error @+1 {{convert-hcq-to-runtime: argument 1 is 'f32', not an hcq object or an i64 variable}}
func.func @float_arg(%dev: !hcq.device, %x: f32) {
  return
}

// -----

func.func @narrow_value(%dev: !hcq.device) {
  %v = arith.constant 1 : i32
  %q = hcq.queue %dev <compute>
  %s = hcq.new_signal %dev value 0
  // expected-error @+1 {{convert-hcq-to-runtime: an integer operand is 'i32', not i64}}
  hcq.signal %q, %s, %v : i32
  return
}
