// When an output is large enough that streaming (non-temporal) stores pay: writing around the
// cache saves the read-for-ownership of every line, but evicts nothing useful only when the
// output is far larger than the last-level cache (research/peers.md section 7).
#pragma once

#include <refops/kernels/abi.hpp>

#include <cstddef>
#include <cstdlib>

#if defined(__unix__)
#include <unistd.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// Bytes of the last-level cache as the OS reports it; 32 MiB when it does not say.
inline std::size_t last_level_cache_bytes() {
  static const std::size_t bytes = [] {
    long best = 0;
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    best = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (best <= 0) best = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return best > 0 ? static_cast<std::size_t>(best) : std::size_t{32} << 20;
  }();
  return bytes;
}

// Outputs of at least this many bytes use streaming stores: twice the last-level cache, or
// the value of the environment variable REFOPS_STREAMING_THRESHOLD (bytes; 0 turns streaming
// off), read once.
inline std::size_t streaming_threshold_bytes() {
  static const std::size_t bytes = [] {
    if (const char* env = std::getenv("REFOPS_STREAMING_THRESHOLD")) {
      char* end = nullptr;
      unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env && *end == '\0') return v == 0 ? ~std::size_t{0} : static_cast<std::size_t>(v);
    }
    return 2 * last_level_cache_bytes();
  }();
  return bytes;
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
