// How fast this host writes a large output each way, measured once per process and per
// instruction set, so that `auto` stores pick between "one memset of the background, then the
// sparse elements" (rep) and "every byte streamed once" (stream) by what the host does, not by
// a rule from one machine. Two AMD EPYC Zen 3 KVM guests gave opposite answers (issue 10):
// on one, memset(0) of 256 MiB ran at 31 GB/s against 19 for 32-byte streaming stores; on the
// other, 30-38 against 39-46 GB/s. No fixed rule is right on both (docs/decisions.md, "Store
// strategy").
//
// The measurement: a buffer of twice the last-level cache (16 to 64 MiB) is faulted in once,
// then filled with zeros by memset and by the Target's streaming stores, alternately, three times
// each, keeping each one's fastest pass; after each memset one element is stored every 4 KiB
// over its first half, lines that have left the cache, which prices one patch (a read for
// ownership of a line and usually a TLB miss). About 20-40 ms, once, on the first large call
// that has the choice; REFOPS_STORES or ExecuteOptions::stores skip it.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/simd.hpp>

namespace refops::simd::inline REFOPS_KERNEL_ABI {

struct StoreRates {
  double rep_bytes_per_ns = 0;     // memset of zeros
  double stream_bytes_per_ns = 0;  // the Target's streaming stores of zeros
  double patch_ns = 0;             // one store into a line that has left the cache
  std::size_t buffer_bytes = 0;    // what was measured on (0: nothing was)
};

// True when streaming every byte of `bytes` is predicted to beat one memset of them plus one
// patch per `bytes_per_sparse` bytes. Unmeasured rates keep rep (the issue-10 host's answer).
inline bool stream_beats_rep(const StoreRates& r, std::size_t bytes, std::size_t bytes_per_sparse) {
  if (r.buffer_bytes == 0 || r.rep_bytes_per_ns <= 0 || r.stream_bytes_per_ns <= 0) return false;
  const double b = static_cast<double>(bytes);
  const double patches = b / static_cast<double>(std::max<std::size_t>(bytes_per_sparse, 1));
  const double rep_ns = b / r.rep_bytes_per_ns + patches * r.patch_ns;
  const double stream_ns = b / r.stream_bytes_per_ns;
  return stream_ns < rep_ns;
}

namespace calibration_detail {

inline double elapsed_ns(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - since).count();
}

template <class Target>
StoreRates measure(std::size_t llc_bytes) {
  using U = std::uint64_t;
  constexpr std::size_t page = 4096;
  const std::size_t bytes = std::clamp<std::size_t>(2 * llc_bytes, std::size_t{16} << 20, std::size_t{64} << 20) / page * page;
  void* memory = std::aligned_alloc(page, bytes);
  if (memory == nullptr) return {};
  U* buffer = static_cast<U*>(memory);
  const std::size_t n = bytes / sizeof(U);
  std::memset(buffer, 0, bytes);  // faults the pages in: not timed
  double rep_ns = 1e300, stream_ns = 1e300, patch_ns = 1e300;
  for (int pass = 0; pass < 3; ++pass) {
    auto t = std::chrono::steady_clock::now();
    std::memset(buffer, 0, bytes);
    rep_ns = std::min(rep_ns, elapsed_ns(t));
    const std::size_t patches = bytes / 2 / page;
    t = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < patches; ++i) {
      volatile U* line = buffer + i * (page / sizeof(U)) + (i % (page / 64)) * (64 / sizeof(U));
      *line = i + 1;
    }
    patch_ns = std::min(patch_ns, elapsed_ns(t) / static_cast<double>(patches));
    t = std::chrono::steady_clock::now();
    fill_span<Target>(buffer, n, U{0}, StoreStrategy::stream);
    streaming_fence<Target>();
    stream_ns = std::min(stream_ns, elapsed_ns(t));
  }
  std::free(memory);
  const double b = static_cast<double>(bytes);
  return {b / rep_ns, b / stream_ns, patch_ns, bytes};
}

}  // namespace calibration_detail

// The rates of this host for Target, measured at the first call (thread-safe: concurrent first
// callers wait for the one measurement). Targets without streaming stores measure nothing.
template <class Target>
const StoreRates& store_rates() {
  static const StoreRates rates = [] {
    if constexpr (has_streaming_stores<Target>) return calibration_detail::measure<Target>(last_level_cache_bytes());
    return StoreRates{};
  }();
  return rates;
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
