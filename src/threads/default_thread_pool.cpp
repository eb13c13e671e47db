// default_thread_pool(): refops' own ThreadPool on a oneTBB task arena (docs/decisions.md says
// why oneTBB): TBB's work-stealing scheduler already lets several threads submit work to one
// arena at once and lets a task submit more work to its own arena (the submitting thread joins
// in instead of blocking), which are the two things API.md promises.
#include <refops/thread_pool.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#if defined(REFOPS_WITH_TBB)
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#endif

// ThreadSanitizer cannot see oneTBB's synchronization (libtbb is not instrumented), so under
// the tsan preset this file is compiled without instrumentation (TBB's header code included)
// and tells ThreadSanitizer the two edges every task has: the caller's work before
// parallel_for happens before the task, and the task happens before parallel_for returns.
#if defined(REFOPS_ANNOTATE_TSAN)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#define REFOPS_TSAN_RELEASE(addr) __tsan_release(addr)
#define REFOPS_TSAN_ACQUIRE(addr) __tsan_acquire(addr)
#else
#define REFOPS_TSAN_RELEASE(addr) (void)(addr)
#define REFOPS_TSAN_ACQUIRE(addr) (void)(addr)
#endif

namespace refops {
namespace {

#if defined(REFOPS_WITH_TBB)

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
    void* edge = const_cast<std::function<void(std::size_t)>*>(&task);
    REFOPS_TSAN_RELEASE(edge);
    arena_.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, count, 1),
          [&](const tbb::blocked_range<std::size_t>& r) {
            REFOPS_TSAN_ACQUIRE(edge);
            for (std::size_t i = r.begin(); i != r.end(); ++i) task(i);
            REFOPS_TSAN_RELEASE(edge);
          },
          tbb::simple_partitioner());
    });
    REFOPS_TSAN_ACQUIRE(edge);
  }

 private:
  std::size_t threads_;
  tbb::task_arena arena_;  // initialized (and its threads started) by the first execute()
};

ThreadPool* make_default_pool() { return new TbbThreadPool(default_thread_count()); }

#else

// Built without oneTBB (REFOPS_WITH_TBB=OFF, e.g. the aarch64 cross build, whose sysroot has no
// libtbb): the default pool is the calling thread, so execute() never splits on it. A lent
// pool (ExecuteOptions::thread_pool) still splits.
class CallerOnlyPool final : public ThreadPool {
 public:
  std::size_t num_threads() const override { return 1; }
  void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) override {
    for (std::size_t i = 0; i < count; ++i) task(i);
  }
};

ThreadPool* make_default_pool() { return new CallerOnlyPool; }

#endif

}  // namespace

ThreadPool& default_thread_pool() {
  // Never destroyed: execute() may still be called from other static destructors at exit.
  static ThreadPool& pool = *make_default_pool();
  return pool;
}

}  // namespace refops
