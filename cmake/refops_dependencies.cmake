# Finds what refops builds with, on the system only: nothing is downloaded. A missing
# dependency stops configure with one line that names the Debian package to install.

function(refops_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "refops needs ${what}: install it with `apt-get install ${package}`")
  endif()
endfunction()

# xsimd: headers only. Debian's xsimd CMake package links a missing `xtl`, so it is not used.
find_path(REFOPS_XSIMD_INCLUDE_DIR xsimd/xsimd.hpp)
refops_require(REFOPS_XSIMD_INCLUDE_DIR "xsimd >= 8.1 (headers)" libxsimd-dev)
file(STRINGS "${REFOPS_XSIMD_INCLUDE_DIR}/xsimd/config/xsimd_config.hpp" _xsimd_major
     REGEX "#define XSIMD_VERSION_MAJOR")
string(REGEX REPLACE ".*MAJOR ([0-9]+).*" "\\1" _xsimd_major "${_xsimd_major}")
if(_xsimd_major LESS 8)
  message(FATAL_ERROR "refops needs xsimd >= 8.1, found ${_xsimd_major}: install `apt-get install libxsimd-dev`")
endif()

find_package(Eigen3 3.4 QUIET NO_MODULE)
refops_require(Eigen3_FOUND "Eigen 3.4 (for Eigen::half)" libeigen3-dev)

if(REFOPS_WITH_TBB)
  find_package(TBB 2021 QUIET CONFIG)
  refops_require(TBB_FOUND "oneTBB 2021 (the default thread pool; or configure with -DREFOPS_WITH_TBB=OFF)" libtbb-dev)
endif()

if(REFOPS_BUILD_TESTS)
  find_package(Catch2 QUIET)
  refops_require(Catch2_FOUND "Catch2 (2.13 or 3.x) for its tests" catch2)
endif()
if(REFOPS_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  refops_require(benchmark_FOUND "Google Benchmark for its benchmarks" libbenchmark-dev)
endif()
