# Cross-build for 64-bit Arm Linux with Debian's GNU cross compiler (g++-aarch64-linux-gnu)
# and run what the build runs (ctest, catch_discover_tests) under qemu-aarch64 (qemu-user).
# The header-only dependencies (xsimd, Eigen, Catch2 2.13) are the host's: they have no
# compiled part, so /usr/include serves both targets.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(REFOPS_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${REFOPS_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${REFOPS_CROSS_TRIPLE}-g++)

# -L: the target's dynamic loader and libstdc++ live under /usr/aarch64-linux-gnu.
find_program(REFOPS_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${REFOPS_QEMU_AARCH64} -L /usr/${REFOPS_CROSS_TRIPLE})

# Libraries and programs: the target's under /usr/aarch64-linux-gnu first; headers and CMake
# packages may come from the host (header-only ones are architecture-independent).
set(CMAKE_FIND_ROOT_PATH /usr/${REFOPS_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
