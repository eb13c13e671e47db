# The instruction sets this build compiles kernels for, and the flags of each. Every file in
# REFOPS_ARCH_SOURCES is compiled once per Arch into an object library refops_arch_<name>.

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(REFOPS_ARCHS scalar sse2 avx2 avx512)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_X86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(REFOPS_ARCHS scalar neon)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_NEON)
else()
  set(REFOPS_ARCHS scalar)
  set(REFOPS_ARCH_FAMILY_DEFINE REFOPS_BUILD_SCALAR_ONLY)
endif()

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
    string(TOUPPER "${arch}" ARCH)
    add_library(refops_arch_${arch} OBJECT ${REFOPS_ARCH_SOURCES})
    target_compile_options(refops_arch_${arch} PRIVATE ${REFOPS_FLAGS_${arch}} ${REFOPS_WARNINGS})
    target_compile_definitions(refops_arch_${arch} PRIVATE REFOPS_ARCH_${ARCH}=1 ${REFOPS_ARCH_FAMILY_DEFINE})
    target_include_directories(refops_arch_${arch} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(refops_arch_${arch} PRIVATE refops_kernels)
    set_target_properties(refops_arch_${arch} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:refops_arch_${arch}>)
  endforeach()
endfunction()
