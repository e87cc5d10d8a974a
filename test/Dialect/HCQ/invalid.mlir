// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics

// One case per verifier / inference error of the hcq dialect.

// expected-error @+1 {{needs at least its SINK (or the buffer holding the program)}}
%0 = "hcq.program"() : () -> !tg.void

// -----

%c = tg.const 4 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c : !tg.weakint)
// expected-error @+1 {{violates spec rule 'spec_hcq.getaddr': device must be a string or an array of strings}}
%0 = hcq.getaddr %b on(0) : tensor<4xf32, #tg.addrspace<global>>

// -----

%v = tg.stack()
// expected-error @+1 {{violates spec rule 'spec_hcq.getaddr': operand #0 must be a buffer}}
%0 = hcq.getaddr %v on("CPU") : !tg.void

// -----

%c = tg.const 4 : !tg.weakint
// GETADDR is always uint64.
// expected-error @+2 {{'hcq.getaddr' op inferred type(s) 'ui64' are incompatible with return type(s) of operation 'si64'}}
// expected-error @+1 {{'hcq.getaddr' op failed to infer returned types}}
%0 = "hcq.getaddr"(%c) <{device = "CPU"}> : (!tg.weakint) -> si64

// -----

// BINARY is uint8 with one element per byte.
// expected-error @+2 {{'hcq.binary' op inferred type(s) 'tensor<3xui8>' are incompatible with return type(s) of operation 'tensor<4xui8>'}}
// expected-error @+1 {{'hcq.binary' op failed to infer returned types}}
%0 = "hcq.binary"() <{data = "abc"}> : () -> tensor<4xui8>

// -----

%d = hcq.device "CPU"
// expected-error @+1 {{size must be positive, got 0}}
%0 = hcq.alloc %d size 0

// -----

%d = hcq.device "CPU"
// expected-error @+1 {{size must be positive, got -8}}
%0 = hcq.alloc %d size -8

// -----

%d = hcq.device "CPU"
%q = hcq.queue %d <compute>
%e = hcq.load_program %d "k" binary ""
// expected-error @+1 {{launch dims need 1 to 3 entries, got 0}}
hcq.exec %q, %e() global [] local [1]

// -----

%d = hcq.device "CPU"
%q = hcq.queue %d <compute>
%e = hcq.load_program %d "k" binary ""
// expected-error @+1 {{launch dims need 1 to 3 entries, got 4}}
hcq.exec %q, %e() global [1] local [1, 1, 1, 1]

// -----

%d = hcq.device "CPU"
%q = hcq.queue %d <compute>
%e = hcq.load_program %d "k" binary ""
// expected-error @+1 {{launch dims must be positive, got 0}}
hcq.exec %q, %e() global [4, 0] local [1]

// -----

%d = hcq.device "CPU"
%q = hcq.queue %d <copy>
%a = hcq.alloc %d size 4
// expected-error @+1 {{size must be non-negative, got -1}}
hcq.copy %q, %a, %a, -1

// -----

%d = hcq.device "CPU"
%q = hcq.queue %d <compute>
%s = hcq.new_signal %d value 0
%f = tg.const 1.0 : f32
// expected-error @+1 {{'hcq.wait' op operand #2 must be integer, but got 'f32'}}
"hcq.wait"(%q, %s, %f) : (!hcq.queue, !hcq.signal, f32) -> ()
