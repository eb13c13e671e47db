// DIAGONAL_MATRIX(1) benchmarks: write-only identity matrices against memset of the same bytes
// (zero: the output is almost all zero bytes) and DIAGONAL_MATRIX1 with an input against
// memcpy, each on the best path and the scalar reference in the same run.
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>

#include <refops/refops.hpp>

#include "bench_support.hpp"
#include "ops/diagonal_matrix_tuning.hpp"

namespace {

using namespace refops;
using namespace refops::bench;

// DIAGONAL_MATRIX(Offset 0, Value 1) on a packed output of `sizes`.
// `out_offset`: bytes past a 64-byte boundary (numpy_offset).
Case identity(std::string name, DataType type, Dims sizes, std::size_t out_offset = 0) {
  const TensorDesc out{type, sizes, {}, 0};
  const std::size_t bytes = calc_buffer_tensor_size(out);
  if (out_offset) name += numpy_offset_suffix;
  return {std::move(name), bytes, 0, Baseline::memset_zero, [out, bytes, out_offset] {
            auto buffer = std::make_shared<PageBuffer>(bytes, 0x5A, out_offset);
            return KernelRun{[out, buffer](const ExecuteOptions& o) {
                               execute(DiagonalMatrixDesc{out, 0, 1.0f}, Out(buffer->data(), buffer->size()), o);
                             },
                             {buffer->data(), buffer->size()},
                             {}};
          },
          true,
          {}};
}

// DIAGONAL_MATRIX1 lower-triangle zeroing with an input (ORT's Trilu upper with k = 1: Begin
// INT32_MIN, End 1, Value 0): the part of each row right of the diagonal is copied, the rest
// filled. Only the copied elements are read, and only they count as bytes read (a 4096 x 8192
// output reads 75% of its input), so GB/s compares with memcpy's read + write honestly.
// `out_offset`: bytes past a 64-byte boundary (numpy_offset), so the rows' stores fall 16 bytes past
// their loads in page offset. Forced rows: the zeroed part's input lines skipped (64: only runs
// of a line are read) or read (1 MiB: every run), against the kernel's rule
// (read_through_gap_bytes); the copied runs read in one pass or as 4 parts side by side
// (copy_read_streams).
Case trilu(std::string name, Dims sizes, std::size_t out_offset = 0) {
  const TensorDesc desc{DataType::float32, sizes, {}, 0};
  const std::size_t bytes = calc_buffer_tensor_size(desc);
  std::size_t copied = 0;  // elements with x - y >= 1
  for (std::size_t y = 0; y < sizes[0]; ++y) copied += sizes[1] > y + 1 ? sizes[1] - (y + 1) : 0;
  return {std::move(name) + (out_offset ? numpy_offset_suffix : ""), bytes, copied * 4, Baseline::memcpy, [desc, bytes, out_offset] {
            auto input = std::make_shared<PageBuffer>(bytes, 0x3C);
            auto output = std::make_shared<PageBuffer>(bytes, 0x5A, out_offset);
            return KernelRun{[desc, input, output](const ExecuteOptions& o) {
                               execute(DiagonalMatrix1Desc{desc, desc, Scalar::of(0.0f), INT32_MIN, 1},
                                       In(input->data(), input->size()), Out(output->data(), output->size()), o);
                             },
                             {output->data(), output->size()},
                             {input->data(), input->size()}};
          },
          true,
          {KernelChoice{"read_gap_bytes", {64, 1 << 20}, detail::force_diagonal_read_gap_bytes},
           KernelChoice{"read_streams", {1, 4}, detail::force_diagonal_read_streams}}};
}

REFOPS_BENCH_CASE(identity("diagonal_matrix/f32_8192x8192", DataType::float32, {8192, 8192}));
REFOPS_BENCH_CASE(identity("diagonal_matrix/f32_8192x8192", DataType::float32, {8192, 8192}, numpy_offset));
REFOPS_BENCH_CASE(identity("diagonal_matrix/f32_65536x16x16", DataType::float32, {65536, 16, 16}));
REFOPS_BENCH_CASE(identity("diagonal_matrix/i8_8192x8192", DataType::int8, {8192, 8192}));
REFOPS_BENCH_CASE(identity("diagonal_matrix/f32_512x1024_2MiB", DataType::float32, {512, 1024}));
REFOPS_BENCH_CASE(identity("diagonal_matrix/f32_2048x16x16_1MiB", DataType::float32, {2048, 16, 16}));
REFOPS_BENCH_CASE(trilu("diagonal_matrix1/f32_4096x8192_trilu_input", {4096, 8192}));
REFOPS_BENCH_CASE(trilu("diagonal_matrix1/f32_4096x8192_trilu_input", {4096, 8192}, numpy_offset));
REFOPS_BENCH_CASE(trilu("diagonal_matrix1/f32_512x512_trilu_input_2MiB", {512, 512}));

}  // namespace
