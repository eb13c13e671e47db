#include "threads/split.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include <refops/thread_pool.hpp>

namespace refops::detail {
namespace {

// docs/performance.md, "Threads": a split costs ~1 us with the pool's threads awake and tens of
// microseconds to wake them; one thread writes 1 MiB in 50-100 us (10-20 GB/s), so from 1 MiB
// per thread the split costs at most a fraction of a part. Below 256 KiB two threads measured
// slower than one.
constexpr std::uint64_t measured_min_bytes_per_thread = std::uint64_t{1} << 20;

std::uint64_t read_min_bytes_per_thread() {
  if (const char* env = std::getenv("REFOPS_MIN_BYTES_PER_THREAD")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0' && v > 0) return v;
  }
  return measured_min_bytes_per_thread;
}

// Elements per page (4 KiB) for a dimension with output stride 1, else 1. Not a cache line:
// parts that cut every row into pieces narrower than a page ran slower together than one
// thread on whole rows (HARDMAX axis 0 of 65536 x 1024 FLOAT16 on the 2-core Zen 3 host:
// 6.5 GB/s on two threads, 9.7 on one; a single thread on half-rows reached half of its
// whole-row speed), so such a dimension is left whole and another, or none, is cut.
std::size_t granule_of(const SplitShape& shape, std::size_t d) {
  if ((*shape.strides)[d] != 1) return shape.min_granule;
  return std::max<std::size_t>(shape.min_granule, 4096 / shape.element_bytes);
}

}  // namespace

std::uint64_t min_bytes_per_thread() {
  static const std::uint64_t bytes = read_min_bytes_per_thread();
  return bytes;
}

std::pair<std::size_t, std::size_t> Split::range(std::size_t i) const {
  const std::size_t granules = size / granule;
  auto boundary = [&](std::size_t k) { return k == parts ? size : granules * k / parts * granule; };
  return {boundary(i), boundary(i + 1)};
}

Split plan_split(const SplitShape& shape, const ExecuteOptions& options) {
  Split split;
  const std::uint64_t by_bytes = shape.bytes / min_bytes_per_thread();
  if (options.max_threads == 1 || by_bytes < 2) return split;
  ThreadPool& pool = options.thread_pool ? *options.thread_pool : default_thread_pool();
  std::uint64_t wanted = std::min<std::uint64_t>(pool.num_threads(), by_bytes);
  if (options.max_threads > 0) wanted = std::min<std::uint64_t>(wanted, options.max_threads);
  if (wanted < 2) return split;

  std::size_t best = 0, best_granules = 0;
  for (std::size_t d = 0; d < shape.sizes->size(); ++d) {
    if (((shape.candidates >> d) & 1u) == 0) continue;
    const std::size_t granules = (*shape.sizes)[d] / granule_of(shape, d);
    if (granules > best_granules) {
      best = d;
      best_granules = granules;
    }
    if (granules >= wanted) break;  // the outermost dimension that gives every thread a part
  }
  const std::size_t parts = static_cast<std::size_t>(std::min<std::uint64_t>(wanted, best_granules));
  if (parts < 2) return split;
  split.parts = parts;
  split.dim = best;
  split.size = (*shape.sizes)[best];
  split.granule = granule_of(shape, best);
  split.pool = &pool;
  return split;
}

void run_parts(const Split& split, const std::function<void(std::size_t, std::size_t, std::size_t)>& part) {
  // Explicit happens-before edges from the caller to every part and from every part back to
  // the caller. A correct pool provides them already; these make them visible to
  // ThreadSanitizer even when the pool's own synchronization is in an uninstrumented library.
  std::atomic<std::size_t> handoff{0};
  handoff.store(split.parts, std::memory_order_release);
  split.pool->parallel_for(split.parts, [&](std::size_t i) {
    (void)handoff.load(std::memory_order_acquire);
    const auto [first, last] = split.range(i);
    part(i, first, last);
    handoff.fetch_sub(1, std::memory_order_acq_rel);
  });
  (void)handoff.load(std::memory_order_acquire);
}

}  // namespace refops::detail
