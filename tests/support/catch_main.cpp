// Catch2 2.x's implementation and main() for a cross build, which cannot link the host's
// prebuilt libCatch2WithMain.a; every other build links Catch2WithMain (tests/CMakeLists.txt).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
