// FUZZ_CHECK: a fuzz target's assertion. A broken property prints what broke and aborts, so
// libFuzzer (or the replay driver) reports the input as a crash and keeps it as an artifact.
// Active in every build type: fuzz targets must never compile their checks away.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <refops/diagnostics.hpp>
#include <refops/tensor_desc.hpp>

#include "validation/tensor_rules.hpp"

namespace refops::fuzz {

[[noreturn]] inline void check_failed(const char* condition, const std::string& what, const char* file,
                                      int line) {
  std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: %s\n", file, line, condition, what.c_str());
  std::abort();
}

// "DataType 1 sizes {2,3} strides {3,1} total_bytes 24": what a failure message shows.
inline std::string describe(const TensorDesc& t) {
  return "DataType " + std::to_string(static_cast<std::uint32_t>(t.data_type)) + " sizes " +
         detail::to_text(t.sizes) + " strides " + detail::to_text(t.strides) + " total_bytes " +
         std::to_string(t.total_bytes);
}

}  // namespace refops::fuzz

#define FUZZ_CHECK(condition, what) \
  ((condition) ? void(0) : ::refops::fuzz::check_failed(#condition, (what), __FILE__, __LINE__))
