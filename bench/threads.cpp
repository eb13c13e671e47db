// The split threshold (detail::min_bytes_per_thread in src/threads/split.cpp): for outputs of
// 64 KiB to 16 MiB, DIAGONAL_MATRIX (a write-only kernel at memset speed) on one thread against
// the same call cut in two on the default pool, and memset of the same bytes both ways. Where the
// split rows overtake the single-thread rows is where a second thread starts to pay. Run with
// every call split, or execute() keeps the small ones on one thread:
//
//   REFOPS_MIN_BYTES_PER_THREAD=1 build/bench/bench/refops_bench --benchmark_filter=split_threshold
#include <benchmark/benchmark.h>

#include <cstring>

#include <refops/refops.hpp>

#include "bench_support.hpp"

namespace {

using namespace refops;
using namespace refops::bench;

void memset_parts(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<std::size_t>(state.range(1));
  PageBuffer buffer(bytes);
  for (auto _ : state) {
    default_thread_pool().parallel_for(threads, [&](std::size_t i) {
      const std::size_t first = bytes * i / threads / 64 * 64, last = i + 1 == threads ? bytes : bytes * (i + 1) / threads / 64 * 64;
      std::memset(buffer.data() + first, 0, last - first);
    });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void diagonal_matrix_threads(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const TensorDesc out{DataType::float32, {static_cast<std::uint32_t>(bytes / 4096), 1024}, {}, 0};
  PageBuffer buffer(bytes);
  ExecuteOptions options;
  options.max_threads = static_cast<std::size_t>(state.range(1));
  for (auto _ : state) {
    execute(DiagonalMatrixDesc{out, 0, 1.0f}, Out(buffer.data(), bytes), options);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

// What a split costs by itself: waking the pool's threads for empty tasks and waiting for them.
void empty_parts(benchmark::State& state) {
  const auto threads = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) default_thread_pool().parallel_for(threads, [](std::size_t) {});
}

void sizes_and_threads(benchmark::internal::Benchmark* b) {
  for (std::int64_t kib = 64; kib <= 16384; kib *= 2)
    for (std::int64_t threads : {1, 2}) b->Args({kib * 1024, threads});
  b->ArgNames({"bytes", "threads"})->UseRealTime();
}

BENCHMARK(empty_parts)->Name("split_threshold/empty_tasks")->Arg(2)->ArgName("threads")->UseRealTime();
BENCHMARK(memset_parts)->Name("split_threshold/memset")->Apply(sizes_and_threads);
BENCHMARK(diagonal_matrix_threads)->Name("split_threshold/diagonal_matrix")->Apply(sizes_and_threads);

}  // namespace
