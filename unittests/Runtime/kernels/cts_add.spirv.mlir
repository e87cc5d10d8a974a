// The conformance suite's add for the Vulkan driver: out[i] = a[i] + b[i]
// for i < n (floats), in the driver's convention (tgrt_program_desc):
// buffers out, a, b at bindings 0-2, and the word pack at binding 3 holding
// n, then the byte offsets of the three views inside their bindings.
// kernels/conformance.c has the same kernel for the CPU.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @a bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @pack bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @cts_add() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %three = spirv.Constant 3 : i32
    %gidp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %gidp : vector<3xi32>
    %x = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %packp = spirv.mlir.addressof @pack : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %np = spirv.AccessChain %packp[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %n = spirv.Load "StorageBuffer" %np : i32
    %oop = spirv.AccessChain %packp[%zero, %one] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %oob = spirv.Load "StorageBuffer" %oop : i32
    %oap = spirv.AccessChain %packp[%zero, %two] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %oab = spirv.Load "StorageBuffer" %oap : i32
    %obp = spirv.AccessChain %packp[%zero, %three] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %obb = spirv.Load "StorageBuffer" %obp : i32
    %oo0 = spirv.ShiftRightLogical %oob, %two : i32, i32
    %oa0 = spirv.ShiftRightLogical %oab, %two : i32, i32
    %ob0 = spirv.ShiftRightLogical %obb, %two : i32, i32
    %inb = spirv.ULessThan %x, %n : i32
    spirv.mlir.selection {
      spirv.BranchConditional %inb, ^then, ^merge
    ^then:
      %io = spirv.IAdd %x, %oo0 : i32
      %ia = spirv.IAdd %x, %oa0 : i32
      %ib = spirv.IAdd %x, %ob0 : i32
      %op = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %ap = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %bp = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %po = spirv.AccessChain %op[%zero, %io] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %pa = spirv.AccessChain %ap[%zero, %ia] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %pb = spirv.AccessChain %bp[%zero, %ib] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %va = spirv.Load "StorageBuffer" %pa : f32
      %vb = spirv.Load "StorageBuffer" %pb : f32
      %vc = spirv.FAdd %va, %vb : f32
      spirv.Store "StorageBuffer" %po, %vc : f32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @cts_add, @gid
  spirv.ExecutionMode @cts_add "LocalSize", 64, 1, 1
}
