//===- CudaApi.h - the CUDA driver API functions the driver calls -*- C++ -*-===//
//
// libcuda is never linked: it is opened with dlopen("libcuda.so.1") when a
// CUDA device is first opened (TGRT_CUDA_LIBRARY names another file, for
// tests). The toolkit's cuda.h is not needed to build either: the few types
// and constants used are declared here with cuda.h's values, and every entry
// point is listed once (X-macro) with the symbol the driver exports for it
// (cuda.h maps cuMemAlloc to cuMemAlloc_v2 and so on; the _v2 symbols have
// existed since CUDA 4 and are what CUDA 13's header still selects).
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVERS_CUDA_CUDAAPI_H
#define TGRT_LIB_DRIVERS_CUDA_CUDAAPI_H

#include "Status.h"

#include <cstddef>
#include <type_traits>

namespace tgrt::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

// cuda.h's values (CUDA 13.0; stable since they were introduced).
enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
};
enum : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2, // _Y = 3, _Z = 4
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,  // _Y = 6, _Z = 7
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DISABLE_TIMING = 2,
};

#define TGRT_CUDA_FUNCTIONS(X)                                                                     \
  X(cuInit, "cuInit", CUresult(unsigned))                                                          \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult(int *))                                     \
  X(cuGetErrorName, "cuGetErrorName", CUresult(CUresult, const char **))                           \
  X(cuGetErrorString, "cuGetErrorString", CUresult(CUresult, const char **))                       \
  X(cuDeviceGetCount, "cuDeviceGetCount", CUresult(int *))                                         \
  X(cuDeviceGet, "cuDeviceGet", CUresult(CUdevice *, int))                                         \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult(char *, int, CUdevice))                           \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult(int *, int, CUdevice))                  \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult(CUcontext *, CUdevice))         \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult(CUdevice))                 \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", CUresult(CUcontext))                                  \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", CUresult(CUcontext *))                                  \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult())                                              \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult(CUdeviceptr *, size_t))                                  \
  X(cuMemFree, "cuMemFree_v2", CUresult(CUdeviceptr))                                              \
  X(cuMemsetD8, "cuMemsetD8_v2", CUresult(CUdeviceptr, unsigned char, size_t))                     \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult(CUdeviceptr, const void *, size_t))                  \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult(void *, CUdeviceptr, size_t))                        \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", CUresult(CUdeviceptr, CUdeviceptr, size_t, CUstream)) \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                                      \
    CUresult(CUmodule *, const void *, unsigned, int *, void **))                                  \
  X(cuModuleUnload, "cuModuleUnload", CUresult(CUmodule))                                          \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult(CUfunction *, CUmodule, const char *))    \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult(int *, int, CUfunction))                    \
  X(cuLaunchKernel, "cuLaunchKernel",                                                              \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,     \
             CUstream, void **, void **))                                                          \
  X(cuStreamCreate, "cuStreamCreate", CUresult(CUstream *, unsigned))                              \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult(CUstream))                                     \
  X(cuEventCreate, "cuEventCreate", CUresult(CUevent *, unsigned))                                 \
  X(cuEventRecord, "cuEventRecord", CUresult(CUevent, CUstream))                                   \
  X(cuEventQuery, "cuEventQuery", CUresult(CUevent))                                               \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult(CUevent))

/// The driver's entry points, resolved once per process.
struct Api {
#define TGRT_CUDA_DECLARE(name, symbol, type) std::add_pointer_t<type> name = nullptr;
  TGRT_CUDA_FUNCTIONS(TGRT_CUDA_DECLARE)
#undef TGRT_CUDA_DECLARE
};

/// Opens libcuda (TGRT_CUDA_LIBRARY, else libcuda.so.1, else libcuda.so)
/// and calls cuInit(0), once per process. TGRT_UNAVAILABLE, with a message
/// saying which, when the library is missing, lacks an entry point, is the
/// toolkit's stub (cuInit: CUDA_ERROR_STUB_LIBRARY), finds no device or is
/// older than the driver the binary needs.
Status load(const Api *&out);

/// "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access ..." for messages.
std::string describe(const Api &api, CUresult r);
/// TGRT_OK for CUDA_SUCCESS, else a status naming the call and the error.
Status check(const Api &api, CUresult r, const char *call);

} // namespace tgrt::cuda

#define TGRT_CU_CHECK(api, call) TGRT_RETURN_IF_ERROR(::tgrt::cuda::check((api), (api).call, #call))

#endif // TGRT_LIB_DRIVERS_CUDA_CUDAAPI_H
