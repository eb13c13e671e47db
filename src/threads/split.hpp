// Splitting one validated call into parts that run on the options' thread pool. Each operator
// cuts one dimension of its output into ranges and runs the unchanged per-Arch kernel on each
// sub-problem (src/threads/split_calls.cpp), so the parts write disjoint elements with the
// same code as an unsplit call: results are bit-identical whatever the pool and thread count.
// HARDMAX(1) with too few kept positions cuts its reduced rows instead, in two phases
// (src/threads/split_reduced.hpp), with the same ranges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

#include <refops/arch.hpp>
#include <refops/dims.hpp>

namespace refops::detail {

// Bytes (read + written) each thread must get for a split to beat the cost of waking it
// (measured: docs/performance.md, "Threads"). The environment variable
// REFOPS_MIN_BYTES_PER_THREAD overrides it (read once; the tests set 1 to split every call).
std::uint64_t min_bytes_per_thread();

// One dimension cut into `parts` ranges of whole granules.
struct Split {
  std::size_t parts = 1;    // 1: run the call as it is on the calling thread; the pool is untouched
  std::size_t dim = 0;      // the dimension cut
  std::size_t size = 0;     // its size
  std::size_t granule = 1;  // range boundaries are multiples of this many elements
  ThreadPool* pool = nullptr;

  // Part i's range [first, second) along `dim`.
  std::pair<std::size_t, std::size_t> range(std::size_t i) const;
};

// What an operator tells plan_split about its call.
struct SplitShape {
  std::uint64_t bytes = 0;        // bytes the call reads and writes
  const Dims* sizes = nullptr;    // the output's sizes
  const Dims* strides = nullptr;  // the output's effective strides (elements)
  std::size_t element_bytes = 1;  // the output's element size
  unsigned candidates = 0;        // bit d set: dimension d may be cut
  std::size_t min_granule = 1;    // range boundaries are multiples of at least this many elements
};

// How to split the call: into min(pool threads, max_threads, bytes / min_bytes_per_thread())
// parts along the outermost candidate dimension that has that many granules (else the one
// with the most). A dimension whose output stride is 1 is cut at page (4 KiB) multiples, so no
// two threads write the same line and every part's rows are at least a page long. Small calls
// and max_threads 1 return parts 1 without looking at the pool (the default pool is not even
// started).
Split plan_split(const SplitShape&, const ExecuteOptions&);

// Runs part(i, first, second) for every part i of `split` on its pool, and returns when all
// have returned. Only for split.parts >= 2.
void run_parts(const Split& split, const std::function<void(std::size_t, std::size_t, std::size_t)>& part);

// The product of `sizes`.
inline std::uint64_t element_count(const Dims& sizes) {
  std::uint64_t n = 1;
  for (std::uint32_t s : sizes) n *= s;
  return n;
}

// p advanced by `first` steps of `stride` elements of `bytes` bytes.
template <class P>
P advanced(P p, std::size_t first, std::size_t stride, std::size_t bytes) {
  return p + first * stride * bytes;
}

}  // namespace refops::detail
