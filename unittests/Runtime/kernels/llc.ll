; What the MLIR pipeline hands to llc: an LLVM IR kernel in tinygrad's ABI
; (one pointer per buffer, ints as i32), built with
; `llc -O2 -relocation-model=pic -filetype=obj`. llc adds an .eh_frame
; (SHT_X86_64_UNWIND, with relocations) that the loader must skip, and
; lowers llvm.exp2 to a libm call.
define void @llc_kernel(ptr noalias %out, ptr noalias %a, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %idx = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %idx
  %x = load float, ptr %pa, align 4
  %e = call float @llvm.exp2.f32(float %x)
  %y = fmul float %e, 0x3FE8000000000000 ; 0.75
  %po = getelementptr inbounds float, ptr %out, i64 %idx
  store float %y, ptr %po, align 4
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
declare float @llvm.exp2.f32(float)
