//===- Program.cpp - loading and releasing programs -----------------------===//

#include "Program.h"

using namespace tgrt;

extern "C" {

tgrt_status tgrt_program_load(tgrt_device *device, const void *object, size_t size,
                              const char *entry_name, tgrt_program **out_program) {
  return apiCall("tgrt_program_load", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(device, "tgrt_program_load", "device"));
    TGRT_RETURN_IF_ERROR(checkOut(out_program, "tgrt_program_load", "out_program"));
    if (!object)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_load: object is NULL");
    {
      std::shared_lock<std::shared_mutex> lock(device->lifecycle);
      TGRT_RETURN_IF_ERROR(checkNotClosed(device, "tgrt_program_load"));
    }
    Ref<tgrt_program> prog = Ref<tgrt_program>::adopt(new tgrt_program);
    TGRT_RETURN_IF_ERROR(loadElfObject(object, size, entry_name, prog->image));
    prog->device = Ref<tgrt_device>::share(device);
    *out_program = prog.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_program_free(tgrt_program *program) {
  return apiCall("tgrt_program_free", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(program, "tgrt_program_free", "program"));
    program->release();
    return TGRT_OK;
  });
}

tgrt_status tgrt_program_entry_name(const tgrt_program *program, const char **out_name) {
  return apiCall("tgrt_program_entry_name", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(program, "tgrt_program_entry_name", "program"));
    TGRT_RETURN_IF_ERROR(checkOut(out_name, "tgrt_program_entry_name", "out_name"));
    *out_name = program->image.entryName().c_str();
    return TGRT_OK;
  });
}

} // extern "C"
