//===- Program.cpp - loading programs and launching them ------------------===//
//
// What every driver shares: the program's declared interface, argument
// checks, and synchronous launches (one device command run to completion).
// The driver loads the binary and checks what only it knows (the local size
// a SPIR-V module fixes, the launch limits of the hardware).
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include <cstring>

using namespace tgrt;

namespace {

const char *formatName(uint32_t format) {
  switch (format) {
  case TGRT_FORMAT_ELF: return "ELF";
  case TGRT_FORMAT_SPIRV: return "SPIR-V";
  case TGRT_FORMAT_CUBIN: return "cubin";
  case TGRT_FORMAT_PTX: return "PTX";
  case TGRT_FORMAT_HSACO: return "HSACO";
  default: return "unknown";
  }
}

Status createProgram(const char *function, tgrt_device *device, const tgrt_program_desc &desc,
                     const char *binaryName, tgrt_program **out) {
  TGRT_RETURN_IF_ERROR(checkOpenDevice(device, function));
  TGRT_RETURN_IF_ERROR(checkOut(out, function, "out_program"));
  if (!desc.binary)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %s is NULL", function, binaryName);
  if (desc.format < TGRT_FORMAT_ELF || desc.format > TGRT_FORMAT_HSACO)
    return failf(TGRT_INVALID_ARGUMENT, "%s: unknown program format %u", function, desc.format);
  bool kernelParams = desc.format == TGRT_FORMAT_CUBIN || desc.format == TGRT_FORMAT_PTX ||
                      desc.format == TGRT_FORMAT_HSACO;
  if (kernelParams && desc.offsets_word)
    return failf(TGRT_INVALID_ARGUMENT, "%s: a %s program takes views as addresses, not offset words",
                 function, formatName(desc.format));
  if (desc.num_buffers > TGRT_MAX_ARGS || desc.num_scalars > TGRT_MAX_ARGS ||
      desc.num_buffers + desc.num_scalars > TGRT_MAX_ARGS)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %u buffers and %u scalars, at most %d arguments",
                 function, desc.num_buffers, desc.num_scalars, TGRT_MAX_ARGS);
  if (desc.num_scalars && !desc.scalar_bytes)
    return failf(TGRT_INVALID_ARGUMENT, "%s: scalar_bytes is NULL but num_scalars is %u", function,
                 desc.num_scalars);
  for (uint32_t i = 0; i < desc.num_scalars; ++i)
    if (desc.scalar_bytes[i] != 4 && desc.scalar_bytes[i] != 8)
      return failf(TGRT_INVALID_ARGUMENT, "%s: scalar %u is %u bytes, not 4 or 8", function, i,
                   desc.scalar_bytes[i]);
  Ref<tgrt_program> prog = Ref<tgrt_program>::adopt(new tgrt_program);
  prog->format = desc.format;
  prog->numBuffers = desc.num_buffers;
  if (desc.num_scalars)
    prog->scalarBytes.assign(desc.scalar_bytes, desc.scalar_bytes + desc.num_scalars);
  prog->offsetsWord = desc.offsets_word != 0;
  std::memcpy(prog->localSize, desc.local_size, sizeof prog->localSize);
  TGRT_RETURN_IF_ERROR(device->driver->loadProgram(desc, prog->impl));
  prog->device = Ref<tgrt_device>::share(device);
  *out = prog.leak();
  return TGRT_OK;
}

} // namespace

Status tgrt::checkArgumentKinds(const char *function, const tgrt_program &program, const Launch &launch) {
  uint32_t nbuf = program.numBuffers, nscalar = static_cast<uint32_t>(program.scalarBytes.size());
  if (launch.numArgs != nbuf + nscalar)
    return failf(TGRT_INVALID_ARGUMENT, "%s: the program takes %u buffers and %u scalars, not %u arguments",
                 function, nbuf, nscalar, launch.numArgs);
  for (uint32_t i = 0; i < launch.numArgs; ++i)
    if ((launch.args[i].kind == TGRT_ARG_BUFFER) != (i < nbuf))
      return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u must be %s", function, i,
                   i < nbuf ? "a buffer" : "an integer");
  return TGRT_OK;
}

tgrt_dispatch tgrt::cpuDispatch(int32_t coreIdArg, uint32_t nthreads) {
  tgrt_dispatch d{};
  d.api_version = TGRT_API_VERSION;
  d.global_size[0] = coreIdArg >= 0 ? nthreads : (nthreads == 0 ? 1 : nthreads);
  d.global_size[1] = d.global_size[2] = 1;
  d.local_size[0] = d.local_size[1] = d.local_size[2] = 1;
  d.core_id_arg_index = coreIdArg;
  return d;
}

Status tgrt::prepareLaunch(const char *function, const tgrt_program *program, const tgrt_arg *args,
                           uint32_t numArgs, const tgrt_dispatch &dispatch, Launch &launch,
                           std::vector<Ref<tgrt_buffer>> *keep) {
  TGRT_RETURN_IF_ERROR(checkHandle(program, function, "program"));
  if (dispatch.api_version != TGRT_API_VERSION)
    return failf(TGRT_INVALID_ARGUMENT, "%s: dispatch.api_version is %u, this runtime is version %u",
                 function, dispatch.api_version, TGRT_API_VERSION);
  if (numArgs > TGRT_MAX_ARGS)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %u arguments, at most %d are supported", function,
                 numArgs, TGRT_MAX_ARGS);
  if (numArgs && !args)
    return failf(TGRT_INVALID_ARGUMENT, "%s: args is NULL but num_args is %u", function, numArgs);
  int32_t coreIdArg = dispatch.core_id_arg_index;
  uint32_t nthreads = dispatch.global_size[0];
  if (coreIdArg < -1 || (coreIdArg >= 0 && static_cast<uint32_t>(coreIdArg) >= numArgs))
    return failf(TGRT_INVALID_ARGUMENT, "%s: core_id_arg_index %d is not -1 or an index below %u",
                 function, coreIdArg, numArgs);
  if (program->format == TGRT_FORMAT_ELF) {
    if (coreIdArg < 0 && nthreads > 1)
      return failf(TGRT_INVALID_ARGUMENT,
                   "%s: nthreads is %u but there is no core_id argument to tell the threads apart",
                   function, nthreads);
    if (coreIdArg >= 0 && (nthreads == 0 || nthreads > INT32_MAX))
      return failf(TGRT_INVALID_ARGUMENT, "%s: nthreads %u must be in [1, 2^31)", function, nthreads);
  } else {
    if (coreIdArg >= 0)
      return failf(TGRT_INVALID_ARGUMENT, "%s: a %s program has no core_id argument", function,
                   formatName(program->format));
    for (int d = 0; d < 3; ++d)
      if (dispatch.global_size[d] == 0 || dispatch.local_size[d] == 0)
        return failf(TGRT_INVALID_ARGUMENT, "%s: dispatch size %ux%ux%u of %ux%ux%u has a zero",
                     function, dispatch.global_size[0], dispatch.global_size[1],
                     dispatch.global_size[2], dispatch.local_size[0], dispatch.local_size[1],
                     dispatch.local_size[2]);
  }
  launch.numArgs = numArgs;
  launch.args.assign(numArgs, tgrt_arg{});
  launch.coreIdArg = coreIdArg;
  for (int d = 0; d < 3; ++d) {
    launch.global[d] = dispatch.global_size[d];
    launch.local[d] = dispatch.local_size[d];
  }
  if (program->format == TGRT_FORMAT_ELF)
    launch.global[0] = coreIdArg >= 0 ? nthreads : 1;
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (static_cast<int32_t>(i) == coreIdArg) {
      launch.args[i] = tgrt_arg_int(0);
      continue;
    }
    const tgrt_arg &a = args[i];
    switch (a.kind) {
    case TGRT_ARG_INT:
      launch.args[i] = a;
      break;
    case TGRT_ARG_BUFFER: {
      if (!a.buffer)
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is a NULL buffer", function, i);
      if (a.buffer->magic() != tgrt_buffer::kMagic)
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is not a valid buffer handle", function, i);
      if (a.buffer->device.get() != program->device.get())
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is a buffer of another device", function, i);
      launch.args[i] = a;
      if (keep)
        keep->push_back(Ref<tgrt_buffer>::share(a.buffer));
      break;
    }
    default:
      return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u has unknown kind %u", function, i, a.kind);
    }
  }
  return program->device->driver->checkLaunch(function, *program, launch);
}

namespace {

Status launchNow(const char *function, tgrt_program *program, const tgrt_arg *args, uint32_t numArgs,
                 const tgrt_dispatch &dispatch) {
  Launch launch;
  TGRT_RETURN_IF_ERROR(prepareLaunch(function, program, args, numArgs, dispatch, launch, nullptr));
  tgrt_device *device = program->device.get();
  std::shared_lock<std::shared_mutex> lock(device->lifecycle);
  TGRT_RETURN_IF_ERROR(checkNotClosed(device, function));
  DeviceCommand c;
  c.op = DeviceCommand::Exec;
  c.program = program;
  c.launch = &launch;
  return device->driver->run(&c, 1);
}

} // namespace

extern "C" {

tgrt_status tgrt_program_load(tgrt_device *device, const void *object, size_t size,
                              const char *entry_name, tgrt_program **out_program) {
  return apiCall("tgrt_program_load", [&]() -> Status {
    tgrt_program_desc desc{};
    desc.api_version = TGRT_API_VERSION;
    desc.format = TGRT_FORMAT_ELF;
    desc.binary = object;
    desc.size = size;
    desc.entry_name = entry_name;
    return createProgram("tgrt_program_load", device, desc, "object", out_program);
  });
}

tgrt_status tgrt_program_create(tgrt_device *device, const tgrt_program_desc *desc,
                                tgrt_program **out_program) {
  return apiCall("tgrt_program_create", [&]() -> Status {
    if (!desc)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_create: desc is NULL");
    if (desc->api_version != TGRT_API_VERSION)
      return failf(TGRT_INVALID_ARGUMENT,
                   "tgrt_program_create: desc->api_version is %u, this runtime is version %u",
                   desc->api_version, TGRT_API_VERSION);
    return createProgram("tgrt_program_create", device, *desc, "desc->binary", out_program);
  });
}

tgrt_status tgrt_program_free(tgrt_program *program) {
  return apiRelease("tgrt_program_free", program);
}

tgrt_status tgrt_program_entry_name(const tgrt_program *program, const char **out_name) {
  return apiQuery("tgrt_program_entry_name", program, out_name, "out_name",
                  [](const tgrt_program &p) { return p.impl->entryName().c_str(); });
}

tgrt_status tgrt_program_launch(tgrt_program *program, const tgrt_arg *args, uint32_t num_args,
                                int32_t core_id_arg_index, uint32_t nthreads) {
  return apiCall("tgrt_program_launch", [&]() -> Status {
    return launchNow("tgrt_program_launch", program, args, num_args,
                     cpuDispatch(core_id_arg_index, nthreads));
  });
}

tgrt_status tgrt_program_dispatch(tgrt_program *program, const tgrt_arg *args, uint32_t num_args,
                                  const tgrt_dispatch *dispatch) {
  return apiCall("tgrt_program_dispatch", [&]() -> Status {
    if (!dispatch)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_dispatch: dispatch is NULL");
    return launchNow("tgrt_program_dispatch", program, args, num_args, *dispatch);
  });
}

} // extern "C"
