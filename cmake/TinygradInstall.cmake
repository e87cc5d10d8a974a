# `cmake --install <build> --prefix P`: libraries, headers, tools, the Python
# package and the CMake package P/lib/cmake/TinygradMLIR, so that
# find_package(TinygradMLIR) gives TinygradMLIR::CAPI (the C API, with
# TinygradMLIR::Runtime as its public dependency), TinygradMLIR::Runtime and
# the C++ libraries (TinygradMLIR::TinygradCodegen, ...; these link the
# packaged MLIR/LLVM, which the config finds).
include(CMakePackageConfigHelpers)

set(TG_INSTALL_CMAKEDIR lib/cmake/TinygradMLIR)
get_property(TG_LIBRARIES GLOBAL PROPERTY TINYGRAD_LIBRARIES)
get_property(TG_TOOLS GLOBAL PROPERTY TINYGRAD_TOOLS)

# Run paths: the same in the build tree and in an install, so installing
# rewrites none (a build run path padded for a longer install one has empty,
# i.e. current-directory, entries): the tools find our shared libraries in
# ../lib and the packaged LLVM/MLIR in its directory. libTinygradCAPI.so sets
# its own (lib/CAPI); libTinygradRuntime.so needs none.
set_target_properties(${TG_TOOLS} PROPERTIES
  BUILD_WITH_INSTALL_RPATH ON
  INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
set_target_properties(TinygradCAPI PROPERTIES EXPORT_NAME CAPI)
set_target_properties(TinygradRuntime PROPERTIES EXPORT_NAME Runtime)

install(TARGETS TinygradCAPI TinygradRuntime ${TG_LIBRARIES}
  EXPORT TinygradMLIRTargets
  LIBRARY DESTINATION lib
  ARCHIVE DESTINATION lib
  INCLUDES DESTINATION include)
install(TARGETS ${TG_TOOLS} RUNTIME DESTINATION bin)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tinygrad ${PROJECT_SOURCE_DIR}/include/tinygrad-c
  DESTINATION include
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/tinygrad DESTINATION include
  FILES_MATCHING PATTERN "*.inc")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/tinygrad-rt DESTINATION include)

# The Python package, told where the installed C API library is.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/tinygrad_mlir DESTINATION lib/python3/dist-packages
  PATTERN "__pycache__" EXCLUDE)
install(CODE "file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/python3/dist-packages/tinygrad_mlir/_installed.py\"
  \"# Written by cmake --install: the C API library and the compiler of this installation.\\nCAPI_LIBRARY = '\${CMAKE_INSTALL_PREFIX}/lib/libTinygradCAPI.so'\\nCOMPILER = '\${CMAKE_INSTALL_PREFIX}/bin/tinygrad-compile'\\n\")")

install(EXPORT TinygradMLIRTargets NAMESPACE TinygradMLIR:: DESTINATION ${TG_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/TinygradMLIRConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/TinygradMLIRConfig.cmake
  INSTALL_DESTINATION ${TG_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/TinygradMLIRConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/TinygradMLIRConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/TinygradMLIRConfigVersion.cmake
  DESTINATION ${TG_INSTALL_CMAKEDIR})
