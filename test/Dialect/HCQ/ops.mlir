// RUN: tinygrad-opt %s | tinygrad-opt | FileCheck %s
// RUN: tinygrad-opt %s -mlir-print-op-generic | tinygrad-opt | FileCheck %s

// Program artefacts, HCQ2 UOps and the HWQueue vocabulary round trip.

//===----------------------------------------------------------------------===//
// PROGRAM / LINEAR / SOURCE / BINARY / GETADDR / INS / CUSTOM_FUNCTION
//===----------------------------------------------------------------------===//

// CHECK: %[[C:.*]] = tg.const 16 : !tg.weakint
// CHECK: %[[BUF:.*]] = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%[[C]] : !tg.weakint)
%c = tg.const 16 : !tg.weakint
%buf = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c : !tg.weakint)
// CHECK: %[[SINK:.*]] = tg.sink(%[[BUF]]) {arg = #tg.kernel_info<name = "E_16", axis_types = [], applied_opts = []>} : tensor<16xf32, #tg.addrspace<global>>
%sink = tg.sink(%buf) {arg = #tg.kernel_info<name = "E_16", axis_types = [], applied_opts = []>} : tensor<16xf32, #tg.addrspace<global>>
// CHECK: %[[LIN:.*]] = hcq.linear(%[[SINK]]) : !tg.void
%lin = hcq.linear(%sink) : !tg.void
// CHECK: hcq.linear() {arg = "schedule"}
%lin0 = hcq.linear() {arg = "schedule"}
// CHECK: %[[SRC:.*]] = hcq.source "void E_16(float* data0) {}"
%src = hcq.source "void E_16(float* data0) {}"
// BINARY is uint8 with one element per byte.
// CHECK: %[[BIN:.*]] = hcq.binary "\7FELF"
// CHECK-NEXT: tg.sink(%[[BIN]]) : tensor<4xui8>
%bin = hcq.binary "\7FELF"
%bin_type = tg.sink(%bin) : tensor<4xui8>
// CHECK: hcq.binary ""
// CHECK-NEXT: tg.sink(%{{.*}}) : tensor<0xui8>
%bin0 = hcq.binary ""
%bin0_type = tg.sink(%bin0) : tensor<0xui8>
// CHECK: hcq.program %[[SINK]], %[[LIN]], %[[SRC]], %[[BIN]] {arg = {global_size = [16, 1, 1]}} : !tg.void, !tg.void, !tg.void, tensor<4xui8>
%prog = hcq.program %sink, %lin, %src, %bin {arg = {global_size = [16, 1, 1]}} : !tg.void, !tg.void, !tg.void, tensor<4xui8>
// CHECK: %[[PB:.*]] = hcq.program %[[BUF]] : tensor<16xf32, #tg.addrspace<global>>
%progbuf = hcq.program %buf : tensor<16xf32, #tg.addrspace<global>>
// GETADDR is a uint64 scalar.
// CHECK: %[[GA:.*]] = hcq.getaddr %[[BUF]] on("CPU") : tensor<16xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[GA]]) : ui64
%ga = hcq.getaddr %buf on("CPU") : tensor<16xf32, #tg.addrspace<global>>
%ga_type = tg.sink(%ga) : ui64
// CHECK: hcq.getaddr %[[BUF]] on(["CPU:0", "CPU:1"])
%ga2 = hcq.getaddr %buf on(["CPU:0", "CPU:1"]) : tensor<16xf32, #tg.addrspace<global>>
// CHECK: %[[INS:.*]] = hcq.ins("exec") %[[GA]], %[[PB]] : (ui64, !tg.void) -> !tg.void
%ins = hcq.ins("exec") %ga, %progbuf : (ui64, !tg.void) -> !tg.void
// CHECK: hcq.ins(["v_add_f32", 3]) : () -> f32
%ins0 = hcq.ins(["v_add_f32", 3]) : () -> f32
// CHECK: tg.group(%[[INS]]) : !tg.void
%g = tg.group(%ins) : !tg.void
// CHECK: %[[CF:.*]] = hcq.custom_function "encdec"(%[[BUF]] : tensor<16xf32, #tg.addrspace<global>>)
%cf = hcq.custom_function "encdec"(%buf : tensor<16xf32, #tg.addrspace<global>>)
// CHECK: hcq.custom_function "nop"{{$}}
%cf0 = hcq.custom_function "nop"
// CHECK: tg.call %[[CF]](%[[BUF]]) : (!tg.void, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void
%call = tg.call %cf(%buf) : (!tg.void, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void

//===----------------------------------------------------------------------===//
// HWQueue vocabulary
//===----------------------------------------------------------------------===//

// CHECK: %[[DEV:.*]] = hcq.device "CUDA:0"
// CHECK: %[[Q:.*]] = hcq.queue %[[DEV]] <compute>
// CHECK: %[[CQ:.*]] = hcq.queue %[[DEV]] <copy>
// CHECK: %[[SIG:.*]] = hcq.new_signal %[[DEV]] value 0
// CHECK: %[[A:.*]] = hcq.alloc %[[DEV]] size 64
// CHECK: %[[B:.*]] = hcq.alloc %[[DEV]] size 64
// CHECK: %[[EXE:.*]] = hcq.load_program %[[DEV]] "E_16" binary "\7FELF"
// CHECK: %[[V:.*]] = arith.constant 1 : i64
// CHECK: hcq.wait %[[Q]], %[[SIG]], %[[V]] : i64
// CHECK: hcq.memory_barrier %[[Q]]
// CHECK: hcq.exec %[[Q]], %[[EXE]](%[[A]], %[[B]]) global [16, 1, 1] local [1] : !hcq.buffer, !hcq.buffer
// CHECK: hcq.exec %[[Q]], %[[EXE]]() global [1] local [1, 1, 1]{{$}}
// CHECK: hcq.timestamp %[[Q]], %[[SIG]]
// CHECK: hcq.signal %[[Q]], %[[SIG]], %[[V]] : i64
// CHECK: hcq.copy %[[CQ]], %[[B]], %[[A]], 64
// CHECK: hcq.copy %[[CQ]], %[[B]], %[[A]], 0
// CHECK: hcq.submit %[[Q]] to %[[DEV]]
// CHECK: hcq.host_wait %[[SIG]], %[[V]] : i64
// CHECK: hcq.host_wait %[[SIG]], %{{.*}} : i32
%dev = hcq.device "CUDA:0"
%q = hcq.queue %dev <compute>
%cq = hcq.queue %dev <copy>
%sig = hcq.new_signal %dev value 0
%a = hcq.alloc %dev size 64
%b = hcq.alloc %dev size 64
%exe = hcq.load_program %dev "E_16" binary "\7FELF"
%v = arith.constant 1 : i64
hcq.wait %q, %sig, %v : i64
hcq.memory_barrier %q
hcq.exec %q, %exe(%a, %b) global [16, 1, 1] local [1] : !hcq.buffer, !hcq.buffer
hcq.exec %q, %exe() global [1] local [1, 1, 1]
hcq.timestamp %q, %sig
hcq.signal %q, %sig, %v : i64
hcq.copy %cq, %b, %a, 64
hcq.copy %cq, %b, %a, 0
hcq.submit %q to %dev
hcq.host_wait %sig, %v : i64
%v32 = arith.constant 2 : i32
hcq.host_wait %sig, %v32 : i32
// The queue-vocabulary types spelled out.
// CHECK: tg.sink() {kinds = [#hcq.queue_kind<compute>, #hcq.queue_kind<copy>], types = [!hcq.device, !hcq.queue, !hcq.signal, !hcq.buffer, !hcq.executable]}
%types = tg.sink() {kinds = [#hcq.queue_kind<compute>, #hcq.queue_kind<copy>], types = [!hcq.device, !hcq.queue, !hcq.signal, !hcq.buffer, !hcq.executable]}
