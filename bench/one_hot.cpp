// ONE_HOT benchmarks: each case against memset of the same bytes in the same run (memset of 0
// when OffValue is 0, of a non-zero byte when it is not) and against the scalar path. Indices
// are uniform in [0, L), so every sequence has its OnValue.
#include <refops/refops.hpp>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "bench_support.hpp"

namespace {

using namespace refops;
using namespace refops::bench;

struct Problem {
  const char* name;
  DataType type;
  std::uint32_t rows, length;  // output {rows, length} for axis 1, {length, rows} for axis 0
  std::uint32_t axis;
  bool off_zero;
  std::size_t out_offset = 0;  // bytes past a 64-byte boundary (numpy_offset)
  DataType index_type = DataType::uint32;  // UINT32, or INT64 (ONNX's OneHot)
};

Case one_hot_case(const Problem& p) {
  const std::size_t elements = std::size_t{p.rows} * p.length;
  const std::size_t bytes = elements * size_of(p.type);
  Case c;
  c.name = std::string("one_hot/") + p.name + (p.out_offset ? numpy_offset_suffix : "");
  c.bytes_written = bytes;
  c.bytes_read = std::size_t{p.rows} * size_of(p.index_type);
  c.baseline = p.off_zero ? Baseline::memset_zero : Baseline::memset_nonzero;
  c.compare_stores = true;
  c.prepare = [p, bytes]() -> KernelRun {
    const Dims out_sizes = p.axis == 1 ? Dims{p.rows, p.length} : Dims{p.length, p.rows};
    const Dims index_sizes = p.axis == 1 ? Dims{p.rows, 1} : Dims{1, p.rows};
    auto indices = std::make_shared<std::vector<std::byte>>(std::size_t{p.rows} * size_of(p.index_type));
    std::mt19937 rng(20261121);
    for (std::size_t k = 0; k < p.rows; ++k) {
      const std::uint32_t i = std::uniform_int_distribution<std::uint32_t>(0, p.length - 1)(rng);
      if (p.index_type == DataType::int64) {
        const auto wide = static_cast<std::int64_t>(i);
        std::memcpy(indices->data() + 8 * k, &wide, 8);
      } else {
        std::memcpy(indices->data() + 4 * k, &i, 4);
      }
    }
    // OffValue, OnValue: 0 or 0.5 (or the integer 3), then 1.
    auto values = std::make_shared<std::vector<std::byte>>(2 * size_of(p.type));
    visit_data_type(p.type, [&](auto t) {
      using T = decltype(t);
      const T off = p.off_zero ? T(0) : T(std::is_floating_point_v<T> ? 0.5 : 3), on = T(1);
      std::memcpy(values->data(), &off, sizeof(T));
      std::memcpy(values->data() + sizeof(T), &on, sizeof(T));
    });
    auto output = std::make_shared<PageBuffer>(bytes, 0x5A, p.out_offset);
    const OneHotDesc desc{{p.index_type, index_sizes, {}, 0},
                          {p.type, {1, 2}, {}, 0},
                          {p.type, out_sizes, {}, 0},
                          p.axis};
    return {[=](const ExecuteOptions& options) {
              execute(desc, *indices, *values, {output->data(), output->size()}, options);
            },
            {output->data(), output->size()},
            {}};
  };
  return c;
}

constexpr Problem problems[] = {
    {"f32_65536x1024_axis_last", DataType::float32, 65536, 1024, 1, true},        // 256 MiB
    {"f32_65536x1024_axis_last", DataType::float32, 65536, 1024, 1, true, numpy_offset},
    {"f32_65536x1024_axis_last_off_0.5", DataType::float32, 65536, 1024, 1, false},
    {"f32_4194304x16_depth16", DataType::float32, 4194304, 16, 1, true},          // 256 MiB
    {"f32_4194304x16_depth16", DataType::float32, 4194304, 16, 1, true, numpy_offset},
    {"f32_16x4194304_axis0", DataType::float32, 4194304, 16, 0, true},            // 256 MiB
    {"f32_16x4194304_axis0", DataType::float32, 4194304, 16, 0, true, numpy_offset},
    // INT64 indices, ONNX's OneHot: wider than the output's elements, so made into positions.
    {"f32_16x4194304_axis0_int64", DataType::float32, 4194304, 16, 0, true, 0, DataType::int64},
    {"i8_65536x1024_axis_last", DataType::int8, 65536, 1024, 1, true},            // 64 MiB
    {"f32_512x1024_axis_last_2MiB", DataType::float32, 512, 1024, 1, true},       // cache-resident
    {"f32_512x1024_axis_last_2MiB_off_0.5", DataType::float32, 512, 1024, 1, false},
    {"f32_32768x16_depth16_2MiB", DataType::float32, 32768, 16, 1, true},
    {"f32_16x32768_axis0_2MiB", DataType::float32, 32768, 16, 0, true},
    {"f32_16x32768_axis0_2MiB_int64", DataType::float32, 32768, 16, 0, true, 0, DataType::int64},
    {"i8_2048x1024_axis_last_2MiB", DataType::int8, 2048, 1024, 1, true},
};

const bool registered = [] {
  for (const Problem& p : problems) add_case(one_hot_case(p));
  return true;
}();

}  // namespace
