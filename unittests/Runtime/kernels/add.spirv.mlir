spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @c bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @pack bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @add() "None" {
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
    %oap = spirv.AccessChain %packp[%zero, %one] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %oab = spirv.Load "StorageBuffer" %oap : i32
    %obp = spirv.AccessChain %packp[%zero, %two] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %obb = spirv.Load "StorageBuffer" %obp : i32
    %ocp = spirv.AccessChain %packp[%zero, %three] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %ocb = spirv.Load "StorageBuffer" %ocp : i32
    %oa0 = spirv.ShiftRightLogical %oab, %two : i32, i32
    %ob0 = spirv.ShiftRightLogical %obb, %two : i32, i32
    %oc0 = spirv.ShiftRightLogical %ocb, %two : i32, i32
    %inb = spirv.ULessThan %x, %n : i32
    spirv.mlir.selection {
      spirv.BranchConditional %inb, ^then, ^merge
    ^then:
      %ia = spirv.IAdd %x, %oa0 : i32
      %ib = spirv.IAdd %x, %ob0 : i32
      %ic = spirv.IAdd %x, %oc0 : i32
      %ap = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %bp = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %cp = spirv.mlir.addressof @c : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %pa = spirv.AccessChain %ap[%zero, %ia] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %pb = spirv.AccessChain %bp[%zero, %ib] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %pc = spirv.AccessChain %cp[%zero, %ic] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %va = spirv.Load "StorageBuffer" %pa : f32
      %vb = spirv.Load "StorageBuffer" %pb : f32
      %vc = spirv.FAdd %va, %vb : f32
      spirv.Store "StorageBuffer" %pc, %vc : f32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @add, @gid
  spirv.ExecutionMode @add "LocalSize", 64, 1, 1
}
