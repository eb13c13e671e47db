// The thread pool execute() may split large calls across (API.md, "Threads"): refops' own
// default pool, or the caller's runtime's pool lent through ExecuteOptions::thread_pool.
#pragma once

#include <cstddef>
#include <functional>

namespace refops {

// A pool that execute() may split large work across. Implement it to lend refops your
// runtime's own pool (as XNNPACK takes a pthreadpool and oneDNN a threadpool_iface).
class ThreadPool {
 public:
  virtual ~ThreadPool() = default;
  // Threads that may run tasks at once, the caller included.
  virtual std::size_t num_threads() const = 0;
  // Calls task(i) exactly once for each i in [0, count), on any of its threads (the caller's
  // too), and returns when every call has returned. It may be called from several threads at
  // once and from inside one of its own tasks (execute() does both when its callers do).
  virtual void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) = 0;
};

// refops' own pool (oneTBB underneath; docs/decisions.md), started on first use: as many
// threads as the process may run on (std::thread::hardware_concurrency(), or fewer when its
// CPU affinity allows fewer), capped by the environment variable REFOPS_NUM_THREADS (read
// once). Safe to use from any thread, and from inside its own tasks.
ThreadPool& default_thread_pool();

}  // namespace refops
