// default_thread_pool(): refops' own ThreadPool on a oneTBB task arena (docs/decisions.md says
// why oneTBB): TBB's work-stealing scheduler already lets several threads submit work to one
// arena at once and lets a task submit more work to its own arena (the submitting thread joins
// in instead of blocking), which are the two things API.md promises.
#include <refops/thread_pool.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

namespace refops {
namespace {

// Threads the process may run on (TBB reads the CPU affinity mask and cgroup limits, so a
// container pinned to 4 of 64 CPUs gets 4), capped by REFOPS_NUM_THREADS: a positive integer.
// Anything else is ignored with a warning on stderr.
std::size_t default_thread_count() {
  const auto available = static_cast<std::size_t>(std::max(1, tbb::info::default_concurrency()));
  const char* cap = std::getenv("REFOPS_NUM_THREADS");
  if (!cap || !*cap) return available;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(cap, &end, 10);
  if (*end != '\0' || n == 0 || cap[0] == '-') {
    std::fprintf(stderr, "refops: ignoring REFOPS_NUM_THREADS=%s (expected a positive number of threads)\n", cap);
    return available;
  }
  return static_cast<std::size_t>(std::min<unsigned long long>(n, available));
}

class TbbThreadPool final : public ThreadPool {
 public:
  explicit TbbThreadPool(std::size_t threads) : threads_(threads), arena_(static_cast<int>(threads)) {}

  std::size_t num_threads() const override { return threads_; }

  void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) override {
    if (count <= 1 || threads_ == 1) {
      for (std::size_t i = 0; i < count; ++i) task(i);
      return;
    }
    // One TBB task per index (grain 1, no automatic chunking): execute() already cut the call
    // into parts of equal cost, one per thread.
    arena_.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, count, 1),
          [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) task(i);
          },
          tbb::simple_partitioner());
    });
  }

 private:
  std::size_t threads_;
  tbb::task_arena arena_;  // initialized (and its threads started) by the first execute()
};

}  // namespace

ThreadPool& default_thread_pool() {
  // Never destroyed: execute() may still be called from other static destructors at exit.
  static ThreadPool& pool = *new TbbThreadPool(default_thread_count());
  return pool;
}

}  // namespace refops
