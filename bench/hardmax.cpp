// HARDMAX1 benchmarks: reads and writes the same number of bytes, so memcpy of the output's
// bytes in the same run is the bound (../shared/research/peers.md section 7).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include <refops/kernels/hardmax_full_width_rows.hpp>
#include <refops/kernels/hardmax_rows.hpp>
#include <refops/kernels/hardmax_rows_in_a_vector.hpp>
#include <refops/refops.hpp>

#include "bench_support.hpp"
#include "ops/hardmax_tuning.hpp"

namespace refops::bench {
namespace {

// Input values: uniform in [-1000, 1000], or in [-1000, 0) as log-probabilities are (every
// maximum negative: the rows' raw-bits path does not apply, docs/performance.md).
enum class Values { mixed, negative };

// A case over packed tensors of `sizes` reduced over `axes`, with pseudo-random input values
// (a fixed xorshift sequence: ties are rare, as in real activations). `out_offset`: bytes past a
// 64-byte boundary (numpy_offset).
Case hardmax_case(std::string name, DataType type, Dims sizes, Dims axes, std::size_t out_offset = 0,
                  Values values = Values::mixed) {
  std::size_t elements = 1;
  for (std::uint32_t s : sizes) elements *= s;
  const std::size_t bytes = elements * size_of(type);
  Case c;
  c.name = "hardmax/" + std::move(name) + (out_offset ? numpy_offset_suffix : "");
  c.bytes_written = bytes;
  c.bytes_read = bytes;
  c.baseline = Baseline::memcpy;
  // Whether the rows stream is the host's call as much as ONE_HOT's: rows of 16 at +16 bytes
  // ran at 0.87-0.92 of the copy streamed in 16-byte pieces on Zen 3 and 0.35-0.43 on Zen 1,
  // where plain stores reached 0.67 (docs/performance.md, "A second host").
  c.compare_stores = true;
  // A kept last axis takes the columns path, whose rows per pass and prefetches depend on where
  // the input is (kernels/hardmax_columns.hpp, passes_for): prefetch 1 never, 2 always.
  if (std::find(axes.begin(), axes.end(), sizes.size() - 1) == axes.end()) {
    c.choices.push_back({"pass_rows", {2, 4}, detail::force_hardmax_pass_rows});
    c.choices.push_back({"columns_prefetch", {1, 2}, detail::force_hardmax_columns_prefetch});
    c.choices.push_back({"columns_fold", {1, 2}, detail::force_hardmax_columns_fold});
  }
  const bool last_axis_only = axes.size() == 1 && axes[0] == sizes.size() - 1;
  const std::size_t row = sizes[sizes.size() - 1];
  // Large packed rows whose blocks stream as whole lines prefetch or not by the host
  // (kernels/hardmax_rows.hpp, whole_line_prefetch): 1 never, 2 always.
  if (last_axis_only && kernels::hardmax_detail::whole_line_rows(row, size_of(type)) && bytes > (std::size_t{64} << 20))
    c.choices.push_back({"line_prefetch", {1, 2}, detail::force_hardmax_line_prefetch});
  // FLOAT32 medium and long rows, and rows of 2 to 16, on AVX-512 take one of two loops by the
  // host (kernels/hardmax_full_width_rows.hpp, full_width_loop; hardmax_rows_in_a_vector.hpp):
  // 1 Rows' loops, 2 the full-width ones.
  if (last_axis_only && kernels::hardmax_detail::host_chooses_rows_loop(row, size_of(type)))
    c.choices.push_back({"rows_loop", {1, 2}, detail::force_hardmax_rows_loop});
  // AVX-512's FLOAT32 long rows on a dense output, and interleaved groups (axes {0, 2}), are read
  // side by side by the host (kernels/hardmax_rows.hpp, reads_rows_side_by_side): 1 one row, 2
  // rows_read_at_once.
  if ((last_axis_only && kernels::hardmax_detail::side_by_side_rows(row, size_of(type))) ||
      kernels::hardmax_detail::interleaved_groups(sizes, axes))
    c.choices.push_back({"side_by_side", {1, 2}, detail::force_hardmax_rows_side_by_side});
  // Those long rows, by plain stores, store their zeros beside their reads by where the input is
  // (kernels/hardmax_full_width_rows.hpp, zeros_beside_reads): 1 lines built a row behind, 2
  // zeros beside the reads. Only in cache-resident cases: the large ones stream (their plain
  // rows ran at half the streamed rate), where the choice does not arise.
  if (last_axis_only && kernels::hardmax_detail::zeros_beside_rows(row, size_of(type)) && bytes < large_case_bytes)
    c.choices.push_back({"zeros_beside", {1, 2}, detail::force_hardmax_rows_zeros_beside});
  c.prepare = [=]() -> KernelRun {
    auto in = std::make_shared<PageBuffer>(bytes);
    auto out = std::make_shared<PageBuffer>(bytes, 0x5A, out_offset);
    const std::uint32_t range = values == Values::mixed ? 2000001 : 1000000;  // thousandths from -1000
    std::uint32_t x = 2463534242u;
    for (std::size_t i = 0; i < elements; ++i) {
      x ^= x << 13; x ^= x >> 17; x ^= x << 5;
      const float v = static_cast<float>(x % range) / 1000.0f - 1000.0f;
      if (type == DataType::float16) {
        const float16 h(v);
        std::memcpy(in->data() + 2 * i, &h, 2);
      } else {
        std::memcpy(in->data() + 4 * i, &v, 4);
      }
    }
    const Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes, NanMode::propagate};
    return {[=](const ExecuteOptions& options) { execute(desc, In(in->data(), bytes), Out(out->data(), bytes), options); },
            {out->data(), bytes},
            {in->data(), bytes}};
  };
  return c;
}

REFOPS_BENCH_CASE(hardmax_case("f32_65536x1024_axis_last", DataType::float32, {65536, 1024}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_65536x1024_axis_last", DataType::float32, {65536, 1024}, {1}, numpy_offset));
REFOPS_BENCH_CASE(hardmax_case("f32_65536x1024_axis_0", DataType::float32, {65536, 1024}, {0}));
REFOPS_BENCH_CASE(hardmax_case("f32_16384x4096_axis_0", DataType::float32, {16384, 4096}, {0}));
REFOPS_BENCH_CASE(hardmax_case("f32_256x1024x256_axes_0_2", DataType::float32, {256, 1024, 256}, {0, 2}));
REFOPS_BENCH_CASE(hardmax_case("f32_256x1024x256_axes_0_2", DataType::float32, {256, 1024, 256}, {0, 2}, numpy_offset));
REFOPS_BENCH_CASE(hardmax_case("f16_65536x1024_axis_last", DataType::float16, {65536, 1024}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f16_65536x1024_axis_0", DataType::float16, {65536, 1024}, {0}));
REFOPS_BENCH_CASE(hardmax_case("f32_512x1024_axis_last_2MiB", DataType::float32, {512, 1024}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_512x1024_axis_0_2MiB", DataType::float32, {512, 1024}, {0}));
// At +16 bytes (NumPy's grid, and a large std::vector's): streamed, each 1 is written with
// its whole line, which is off the rows' grid then (Columns::stream_one_lines).
REFOPS_BENCH_CASE(hardmax_case("f32_512x1024_axis_0_2MiB", DataType::float32, {512, 1024}, {0}, numpy_offset));
REFOPS_BENCH_CASE(hardmax_case("f32_32x64x256_axes_0_2_2MiB", DataType::float32, {32, 64, 256}, {0, 2}));
// The listed shapes at 1 MiB as well: the 2 MiB cases read 2 MiB and write 2 MiB, twice a 2 MiB
// L2 (the Intel Xeon guests); these read and write one L2 together, its edge: on the model 207
// guest a good share of both buffers is in L3 after a call, and the time of one call depends on
// what ran before it (docs/performance.md, "1 MiB is not in L2 from one call to the next"). On a
// host whose L2 is 512 KiB (Zen 1, Zen 3) both sizes are in L3.
REFOPS_BENCH_CASE(hardmax_case("f32_256x1024_axis_last_1MiB", DataType::float32, {256, 1024}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_256x1024_axis_0_1MiB", DataType::float32, {256, 1024}, {0}));
// FLOAT16 has twice the groups per byte, and so twice the winners to find per byte
// (Columns::resolve_passes).
REFOPS_BENCH_CASE(hardmax_case("f16_512x1024_axis_0_1MiB", DataType::float16, {512, 1024}, {0}));
REFOPS_BENCH_CASE(hardmax_case("f16_1024x1024_axis_0_2MiB", DataType::float16, {1024, 1024}, {0}));
REFOPS_BENCH_CASE(hardmax_case("f32_16x64x256_axes_0_2_1MiB", DataType::float32, {16, 64, 256}, {0, 2}));
REFOPS_BENCH_CASE(hardmax_case("f32_16384x16_rows_of_16_1MiB", DataType::float32, {16384, 16}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_4194304x16_rows_of_16", DataType::float32, {4194304, 16}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_4194304x16_rows_of_16", DataType::float32, {4194304, 16}, {1}, numpy_offset));
REFOPS_BENCH_CASE(hardmax_case("f32_32768x16_rows_of_16_2MiB", DataType::float32, {32768, 16}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_4194304x16_rows_of_16_negative", DataType::float32, {4194304, 16}, {1}, 0, Values::negative));
REFOPS_BENCH_CASE(hardmax_case("f32_32768x16_rows_of_16_negative_2MiB", DataType::float32, {32768, 16}, {1}, 0, Values::negative));
// Rows that are not whole vectors: 10, 40, 100, 250 and 1000 classes (FLOAT16: 20), and rows
// shorter than a vector (16 bytes: four FLOAT32, eight FLOAT16; 8 bytes: two FLOAT32). Rows of
// 250 FLOAT32 (1000 bytes) are near the longest the medium-row loop takes (a 1 KiB block).
// Rows of 10 at +16 bytes start their whole-line blocks six rows in (hardmax_rows.hpp,
// stream_block_lines).
REFOPS_BENCH_CASE(hardmax_case("f32_6710886x10_rows_of_10", DataType::float32, {6710886, 10}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_6710886x10_rows_of_10", DataType::float32, {6710886, 10}, {1}, numpy_offset));
REFOPS_BENCH_CASE(hardmax_case("f32_52428x10_rows_of_10_2MiB", DataType::float32, {52428, 10}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_671088x100_rows_of_100", DataType::float32, {671088, 100}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_5242x100_rows_of_100_2MiB", DataType::float32, {5242, 100}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_268435x250_rows_of_250", DataType::float32, {268435, 250}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_1677721x40_rows_of_40", DataType::float32, {1677721, 40}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_67108x1000_rows_of_1000", DataType::float32, {67108, 1000}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_16777216x4_rows_of_4", DataType::float32, {16777216, 4}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f16_6710886x20_rows_of_20", DataType::float16, {6710886, 20}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f16_52428x20_rows_of_20_2MiB", DataType::float16, {52428, 20}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f16_16777216x8_rows_of_8", DataType::float16, {16777216, 8}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f32_131072x4_rows_of_4_2MiB", DataType::float32, {131072, 4}, {1}));
// Two classes (a binary choice): rows of 8 bytes (FLOAT32) and 4 bytes (FLOAT16), several to a
// vector (RowsInAVector on AVX-512, Rows::packed_rows on AVX2).
REFOPS_BENCH_CASE(hardmax_case("f32_33554432x2_rows_of_2", DataType::float32, {33554432, 2}, {1}));
REFOPS_BENCH_CASE(hardmax_case("f16_67108864x2_rows_of_2", DataType::float16, {67108864, 2}, {1}));

}  // namespace
}  // namespace refops::bench
