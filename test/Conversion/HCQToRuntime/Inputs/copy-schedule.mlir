// A schedule of two dependent copies across the copy and compute queues
// (what tg-schedule-to-hcq builds for copy-only LINEARs).
func.func @copies(%dev: !hcq.device, %src: !hcq.buffer, %mid: !hcq.buffer, %dst: !hcq.buffer) {
  %cq = hcq.queue %dev <copy>
  %cs = hcq.new_signal %dev value 0
  %q = hcq.queue %dev <compute>
  %s = hcq.new_signal %dev value 0
  hcq.memory_barrier %q
  hcq.copy %cq, %mid, %src, 256
  %c1 = arith.constant 1 : i64
  hcq.signal %cq, %cs, %c1 : i64
  hcq.wait %q, %cs, %c1 : i64
  hcq.copy %q, %dst, %mid, 256
  %c2 = arith.constant 2 : i64
  hcq.signal %q, %s, %c2 : i64
  hcq.submit %cq to %dev
  hcq.submit %q to %dev
  hcq.host_wait %s, %c2 : i64
  return
}
