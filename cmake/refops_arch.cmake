# The instruction sets this build compiles kernels for, and the flags of each. The list itself
# is src/dispatch/isa_list.hpp (one X(name, family, ...) line per instruction set); this file
# keeps those of the target processor's family and adds each one's compiler flags. Every file
# in REFOPS_ARCH_SOURCES is compiled once per instruction set into an object library
# refops_arch_<name>, with REFOPS_ISA=<name>.

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(REFOPS_ARCH_FAMILY X86)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_X86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(REFOPS_ARCH_FAMILY NEON)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_NEON)
else()
  set(REFOPS_ARCH_FAMILY NONE)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_SCALAR_ONLY)
endif()

file(READ ${CMAKE_CURRENT_LIST_DIR}/../src/dispatch/isa_list.hpp _refops_isa_list)
string(REGEX MATCHALL "\n  X\\([a-z0-9_]+, [A-Z0-9]+," _refops_isa_entries "${_refops_isa_list}")
set(REFOPS_ARCHS "")
set(_refops_all_isas "")
foreach(entry IN LISTS _refops_isa_entries)
  string(REGEX REPLACE "^\n  X\\(([a-z0-9_]+), ([A-Z0-9]+),$" "\\1" _name "${entry}")
  string(REGEX REPLACE "^\n  X\\(([a-z0-9_]+), ([A-Z0-9]+),$" "\\2" _family "${entry}")
  list(APPEND _refops_all_isas ${_name})
  if(_family STREQUAL "ANY" OR _family STREQUAL REFOPS_ARCH_FAMILY)
    list(APPEND REFOPS_ARCHS ${_name})
  endif()
endforeach()
if(NOT REFOPS_ARCHS)
  message(FATAL_ERROR "no instruction set read from src/dispatch/isa_list.hpp")
endif()
# REFOPS_ISAS: compile fewer of them, e.g. "scalar;avx2" for a smaller library or a faster
# sanitizer build (the tsan preset); dispatch then never offers the others. scalar is always
# needed; names of another family's instruction sets are skipped, so one list can serve x86 and
# Arm builds ("scalar;avx2;neon").
set(REFOPS_ISAS "" CACHE STRING "Instruction sets to compile kernels for (scalar and some of the family's; empty: all)")
if(REFOPS_ISAS)
  set(_refops_chosen "")
  foreach(isa IN LISTS REFOPS_ISAS)
    if(NOT isa IN_LIST _refops_all_isas)
      message(FATAL_ERROR "REFOPS_ISAS: ${isa} is no instruction set of src/dispatch/isa_list.hpp (${_refops_all_isas})")
    elseif(isa IN_LIST REFOPS_ARCHS)
      list(APPEND _refops_chosen ${isa})
    endif()
  endforeach()
  if(NOT "scalar" IN_LIST _refops_chosen)
    message(FATAL_ERROR "REFOPS_ISAS must include scalar, the path every CPU can take")
  endif()
  set(REFOPS_ARCHS ${_refops_chosen})
endif()
message(STATUS "refops: kernels for ${REFOPS_ARCHS}")
# What the library, its per-ISA objects and the tests are compiled with: the family
# (REFOPS_BUILD_X86, ...) and, for every instruction set of the list, whether this build has
# it (REFOPS_BUILT_<name>=1 or 0, dispatch/isa_list.hpp's REFOPS_IF_BUILT).
set(REFOPS_ARCH_DEFINES ${REFOPS_ARCH_FAMILY_DEFINE})
foreach(isa IN LISTS _refops_all_isas)
  if(isa IN_LIST REFOPS_ARCHS)
    list(APPEND REFOPS_ARCH_DEFINES REFOPS_BUILT_${isa}=1)
  else()
    list(APPEND REFOPS_ARCH_DEFINES REFOPS_BUILT_${isa}=0)
  endif()
endforeach()

# "scalar" means scalar: the compiler may not vectorize it behind our back, so the speed-up
# the benchmarks report over it is the vector paths' own.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(REFOPS_FLAGS_scalar -fno-vectorize -fno-slp-vectorize)
else()
  set(REFOPS_FLAGS_scalar -fno-tree-vectorize)
endif()
set(REFOPS_FLAGS_sse2 -msse2)
set(REFOPS_FLAGS_avx2 -mavx2 -mfma)
set(REFOPS_FLAGS_avx512 -mavx2 -mfma -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl)
set(REFOPS_FLAGS_neon "")

function(refops_add_arch_objects target)
  foreach(arch IN LISTS REFOPS_ARCHS)
    if(NOT DEFINED REFOPS_FLAGS_${arch})
      message(FATAL_ERROR "cmake/refops_arch.cmake: set REFOPS_FLAGS_${arch} for the instruction set ${arch}")
    endif()
    add_library(refops_arch_${arch} OBJECT ${REFOPS_ARCH_SOURCES})
    target_compile_options(refops_arch_${arch} PRIVATE ${REFOPS_FLAGS_${arch}} ${REFOPS_WARNINGS})
    target_compile_definitions(refops_arch_${arch} PRIVATE REFOPS_ISA=${arch} ${REFOPS_ARCH_DEFINES})
    target_include_directories(refops_arch_${arch} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(refops_arch_${arch} PRIVATE refops_kernels)
    set_target_properties(refops_arch_${arch} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    # UBSan's pointer-overflow check (an address computation that wraps) took a quarter of the
    # kernels' compile time under ASan + UBSan (the AVX2 HARDMAX file: 98 s of CPU, 73 s
    # without); ASan still checks every access, and the typed-layer tests' kernels and the
    # rest of the library keep the check (docs/decisions.md, "One sanitizer build in CI").
    if(REFOPS_SANITIZE MATCHES "undefined")
      target_compile_options(refops_arch_${arch} PRIVATE -fno-sanitize=pointer-overflow)
    endif()
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:refops_arch_${arch}>)
  endforeach()
endfunction()
