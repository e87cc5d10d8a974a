# Thin wrappers in the style of CIRCT's AddCIRCT.cmake. Everything links the
# packaged libMLIR.so + libLLVM.so only; mixing in static MLIR archives gives
# "option registered more than once" at start-up.

# tg_add_dialect(<Name> <ns>): ops/types/dialect tablegen plus generated docs.
function(tg_add_dialect name ns)
  add_mlir_dialect(${name} ${ns})
  add_mlir_doc(${name} ${name} Dialects/ -gen-dialect-doc -dialect=${ns})
  add_dependencies(tinygrad-headers MLIR${name}IncGen)
endfunction()

# tg_add_passes(<td stem> <group>): a Passes.td's declarations
# (<stem>.h.inc, registerTinygrad<group>Passes) as the target
# Tinygrad<group>PassIncGen, and its generated doc Tinygrad<group>Passes.md.
function(tg_add_passes stem group)
  set(LLVM_TARGET_DEFINITIONS ${stem}.td)
  mlir_tablegen(${stem}.h.inc -gen-pass-decls -name Tinygrad${group})
  add_public_tablegen_target(Tinygrad${group}PassIncGen)
  add_dependencies(tinygrad-headers Tinygrad${group}PassIncGen)
  add_mlir_doc(${stem} Tinygrad${group}Passes ./ -gen-pass-doc)
endfunction()

# tg_add_library(<name> srcs... [DEPENDS ...] [LINK_LIBS ...])
function(tg_add_library name)
  add_mlir_library(${name} ${ARGN} DISABLE_INSTALL)
  target_link_libraries(${name} PUBLIC MLIR)
  add_dependencies(${name} tinygrad-headers)
  # Installed and exported by cmake/TinygradInstall.cmake.
  set_property(GLOBAL APPEND PROPERTY TINYGRAD_LIBRARIES ${name})
endfunction()

function(tg_add_tool name)
  add_llvm_executable(${name} ${ARGN})
  llvm_update_compile_flags(${name})
  set_property(GLOBAL APPEND PROPERTY TINYGRAD_TOOLS ${name})
endfunction()
