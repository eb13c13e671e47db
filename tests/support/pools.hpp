// ThreadPools for tests: a pool that counts what execute() asks of it, running the tasks either
// on the caller in reverse order (so a result that depended on the order of the parts would
// differ) or on threads of its own (so ThreadSanitizer sees real concurrency).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include <refops/thread_pool.hpp>

namespace refops::test {

class CountingPool final : public ThreadPool {
 public:
  enum class Run { reversed_on_caller, on_threads };
  explicit CountingPool(std::size_t threads, Run run = Run::reversed_on_caller) : threads_(threads), run_(run) {}

  std::size_t num_threads() const override { return threads_; }
  void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) override {
    calls_.fetch_add(1);
    tasks_.fetch_add(count);
    if (run_ == Run::reversed_on_caller) {
      for (std::size_t i = count; i-- > 0;) task(i);
      return;
    }
    std::vector<std::thread> threads;
    for (std::size_t i = 1; i < count; ++i) threads.emplace_back([&task, i] { task(i); });
    if (count > 0) task(0);
    for (auto& t : threads) t.join();
  }

  std::size_t calls() const { return calls_.load(); }  // parallel_for calls so far
  std::size_t tasks() const { return tasks_.load(); }  // tasks over all calls

 private:
  std::size_t threads_;
  Run run_;
  std::atomic<std::size_t> calls_{0}, tasks_{0};
};

// The pool every test's ExecuteOptions use (support/archs.hpp `on`): none (the default pool),
// or, when the environment variable REFOPS_TEST_POOL is a thread count N, a CountingPool of N
// threads that runs the parts in reverse order. CMake runs the generated tests that way with
// REFOPS_MIN_BYTES_PER_THREAD=1, so every generated case is split (tests/CMakeLists.txt).
inline ThreadPool* pool_from_environment() {
  static CountingPool* pool = [] {
    const char* n = std::getenv("REFOPS_TEST_POOL");
    return n && std::atoi(n) > 0 ? new CountingPool(static_cast<std::size_t>(std::atoi(n))) : nullptr;
  }();
  return pool;
}

}  // namespace refops::test
