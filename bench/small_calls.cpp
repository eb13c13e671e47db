// Small calls: the whole of execute() (validation, buffer checks, dispatch, kernel) on the
// documented examples, where the fixed cost of a call is all there is to measure. Rows in ns
// per call, best path (no forced Arch: what a caller who sets no option gets).
#include <refops/refops.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <vector>

namespace {

using namespace refops;

// ONE_HOT example 1 (SPEC section 2): indices {0,3,2} as a 1x1x3x1 UINT32 tensor, values {0,1},
// a 1x1x3x4 FLOAT32 output along axis 3.
void one_hot_example_1(benchmark::State& state) {
  const std::vector<std::uint32_t> indices{0, 3, 2};
  const std::vector<float> values{0, 1};
  std::vector<float> output(12);
  const OneHotDesc desc{{DataType::uint32, {1, 1, 3, 1}, {}, 0},
                        {DataType::float32, {1, 1, 1, 2}, {}, 0},
                        {DataType::float32, {1, 1, 3, 4}, {}, 0},
                        3};
  for (auto _ : state) {
    execute(desc, std::as_bytes(std::span(indices)), std::as_bytes(std::span(values)),
            std::as_writable_bytes(std::span(output)));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(one_hot_example_1)->Name("small_calls/one_hot_example_1");

// DIAGONAL_MATRIX: a 3x3 FLOAT32 identity.
void diagonal_matrix_3x3(benchmark::State& state) {
  std::vector<float> output(9);
  const DiagonalMatrixDesc desc{{DataType::float32, {3, 3}, {}, 0}, 0, 1.0f};
  for (auto _ : state) {
    execute(desc, std::as_writable_bytes(std::span(output)));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(diagonal_matrix_3x3)->Name("small_calls/diagonal_matrix_3x3");

// HARDMAX: one FLOAT32 row of 4.
void hardmax_1x4(benchmark::State& state) {
  const std::vector<float> input{0.5f, 2.0f, -1.0f, 2.0f};
  std::vector<float> output(4);
  const HardmaxDesc desc{{DataType::float32, {1, 4}, {}, 0}, {DataType::float32, {1, 4}, {}, 0}};
  for (auto _ : state) {
    execute(desc, std::as_bytes(std::span(input)), std::as_writable_bytes(std::span(output)));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(hardmax_1x4)->Name("small_calls/hardmax_1x4");

}  // namespace
