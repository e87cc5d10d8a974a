// The conformance suite's scalar kernel for the Vulkan driver:
// buf[i] = buf[i] * 3 + (lo(k) ^ hi(k)) for i < n, in 32-bit wrapping
// integer arithmetic, where n is a 4-byte scalar and k an 8-byte one. The
// word pack (binding 1) holds n, k's low word, k's high word, then the byte
// offset of buf's view. Applying it with different k values in sequence
// gives a result that depends on the order, which the ordering tests read.
// kernels/conformance.c has the same kernel for the CPU.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @pack bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @cts_affine() "None" {
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
    %klop = spirv.AccessChain %packp[%zero, %one] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %klo = spirv.Load "StorageBuffer" %klop : i32
    %khip = spirv.AccessChain %packp[%zero, %two] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %khi = spirv.Load "StorageBuffer" %khip : i32
    %obp = spirv.AccessChain %packp[%zero, %three] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %obb = spirv.Load "StorageBuffer" %obp : i32
    %ob0 = spirv.ShiftRightLogical %obb, %two : i32, i32
    %k = spirv.BitwiseXor %klo, %khi : i32
    %inb = spirv.ULessThan %x, %n : i32
    spirv.mlir.selection {
      spirv.BranchConditional %inb, ^then, ^merge
    ^then:
      %ib = spirv.IAdd %x, %ob0 : i32
      %bp = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %pb = spirv.AccessChain %bp[%zero, %ib] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
      %v = spirv.Load "StorageBuffer" %pb : i32
      %m = spirv.IMul %v, %three : i32
      %r = spirv.IAdd %m, %k : i32
      spirv.Store "StorageBuffer" %pb, %r : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @cts_affine, @gid
  spirv.ExecutionMode @cts_affine "LocalSize", 64, 1, 1
}
