//===- Program.cpp - loading and releasing programs -----------------------===//

#include "Program.h"

using namespace tgrt;

extern "C" {

tgrt_status tgrt_program_load(tgrt_device *device, const void *object, size_t size,
                              const char *entry_name, tgrt_program **out_program) {
  return apiCall("tgrt_program_load", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, "tgrt_program_load"));
    TGRT_RETURN_IF_ERROR(checkOut(out_program, "tgrt_program_load", "out_program"));
    if (!object)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_load: object is NULL");
    Ref<tgrt_program> prog = Ref<tgrt_program>::adopt(new tgrt_program);
    TGRT_RETURN_IF_ERROR(loadElfObject(object, size, entry_name, prog->image));
    prog->device = Ref<tgrt_device>::share(device);
    *out_program = prog.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_program_free(tgrt_program *program) {
  return apiRelease("tgrt_program_free", program);
}

tgrt_status tgrt_program_entry_name(const tgrt_program *program, const char **out_name) {
  return apiQuery("tgrt_program_entry_name", program, out_name, "out_name",
                  [](const tgrt_program &p) { return p.image.entryName().c_str(); });
}

} // extern "C"
