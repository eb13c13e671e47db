// DIAGONAL_MATRIX and DIAGONAL_MATRIX1 against a dense oracle, bit-exact over the whole output
// buffer (padding must keep the sentinel), on every available arch: all 11 types, ranks 2-4,
// row lengths around the vector widths and long enough for the run path, bands inside and
// outside the matrix (INT32_MIN/INT32_MAX included), inverted and empty bands, packed /
// padded / transposed outputs and inputs that broadcast through zero strides.
#include <refops/refops.hpp>

#include <climits>
#include <limits>
#include <optional>

#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/forced_choice.hpp"
#include "support/layouts.hpp"
#include "support/random.hpp"
#include "ops/diagonal_matrix_tuning.hpp"
#include "validation/tensor_rules.hpp"

using namespace refops;
using namespace refops::test;

namespace {

// The oracle: a dense loop over coordinates with the band written as an interval test (not
// SPEC's XOR form), so the two are independent.
bool oracle_in_band(std::int64_t x, std::int64_t y, std::int64_t begin, std::int64_t end) {
  const std::int64_t top_x = x - y;
  if (begin <= end) return begin <= top_x && top_x < end;
  return !(end <= top_x && top_x < begin);  // inverted: Value outside [End, Begin)
}

template <class T>
Buffer oracle(const TensorDesc& out_desc, const Buffer& before, const std::optional<TensorDesc>& in_desc,
              const Buffer* input, T value, std::int64_t begin, std::int64_t end) {
  Buffer expected(before.size());
  std::memcpy(expected.data(), before.data(), before.size());
  const std::size_t r = out_desc.sizes.size();
  for_each_coordinate(out_desc.sizes, [&](const Dims& c) {
    T v = T(0);
    if (oracle_in_band(c[r - 1], c[r - 2], begin, end)) v = value;
    else if (in_desc) v = get<T>(*input, *in_desc, c);
    set<T>(expected, out_desc, c, v);
  });
  return expected;
}

Dims random_sizes(TestRng& rng) {
  const std::size_t rank = rng.between(2, 4);
  Dims sizes;
  for (std::size_t d = 0; d + 2 < rank; ++d) sizes.push_back(static_cast<std::uint32_t>(rng.between(1, 3)));
  static constexpr std::uint32_t widths[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
  sizes.push_back(static_cast<std::uint32_t>(rng.between(1, 9)));
  const bool long_row = rng.chance(0.15);  // reaches the run path of every type and arch
  sizes.push_back(long_row ? static_cast<std::uint32_t>(rng.between(1024, 1100))
                           : widths[rng.between(0, std::size(widths) - 1)]);
  if (long_row) sizes[rank - 2] = std::min<std::uint32_t>(sizes[rank - 2], 3);
  return sizes;
}

// Begin and End: near the matrix, far outside it, the int32 extremes, equal, inverted.
std::pair<std::int32_t, std::int32_t> random_band(TestRng& rng, const Dims& sizes) {
  const auto span = static_cast<std::int64_t>(sizes[sizes.size() - 1] + sizes[sizes.size() - 2]) + 2;
  auto pick = [&]() -> std::int32_t {
    switch (rng.between(0, 5)) {
      case 0: return INT32_MIN;
      case 1: return INT32_MAX;
      case 2: return static_cast<std::int32_t>(rng.chance(0.5) ? span + 5 : -span - 5);
      default: return static_cast<std::int32_t>(rng.between_signed(-span, span));
    }
  };
  std::int32_t begin = pick(), end = pick();
  if (rng.chance(0.1)) end = begin;
  return {begin, end};
}

template <class T>
void check_diagonal_matrix1(TestRng& rng) {
  const Dims sizes = random_sizes(rng);
  const TensorDesc out_desc{data_type_v<T>, sizes,
                            make_strides(sizes, output_layouts[rng.between(0, 2)], rng), 0};
  std::optional<TensorDesc> in_desc;
  if (rng.chance(0.7))
    in_desc = TensorDesc{data_type_v<T>, sizes, make_strides(sizes, input_layouts[rng.between(0, 3)], rng), 0};
  const auto [begin, end] = random_band(rng, sizes);
  const T value = rng.chance(0.1) ? T(0) : rng.nonzero_value<T>();  // 0: the single-fill rows
  INFO("type " << name_of(data_type_v<T>) << " sizes " << detail::to_text(sizes) << " out strides "
               << detail::to_text(out_desc.strides) << " input "
               << (in_desc ? detail::to_text(in_desc->strides) : std::string("none")) << " begin " << begin
               << " end " << end);

  Buffer input = in_desc ? Buffer::for_tensor(*in_desc, rng.between(0, 3) * sizeof(T)) : Buffer(0);
  if (in_desc) for_each_coordinate(sizes, [&](const Dims& c) { set<T>(input, *in_desc, c, rng.nonzero_value<T>()); });
  const DiagonalMatrix1Desc desc{in_desc, out_desc, Scalar::of(value), begin, end};
  Buffer output = Buffer::for_tensor(out_desc, rng.between(0, 3) * sizeof(T));
  const Buffer expected = oracle<T>(out_desc, output, in_desc, &input, value, begin, end);

  for_each_arch_and_stores([&](const ExecuteOptions& options) {
    output.fill(sentinel);
    execute(desc, input.in(), output.out(), options);
    CHECK(output.bytes() == expected.bytes());
  });

  // The typed layer (the including TU's default arch) gives the same bytes.
  output.fill(sentinel);
  std::optional<TensorView<const T>> in_view;
  if (in_desc)
    in_view = make_view(reinterpret_cast<const T*>(input.data()), sizes, effective_strides(*in_desc));
  kernels::diagonal_matrix1<T>(in_view, make_view(reinterpret_cast<T*>(output.data()), sizes, effective_strides(out_desc)),
                               value, begin, end);
  CHECK(output.bytes() == expected.bytes());
}

// DIAGONAL_MATRIX(offset, value) into `output` on every arch with every store strategy forced,
// against the oracle; returns the oracle's bytes.
template <class T>
Buffer check_diagonal_matrix_everywhere(const TensorDesc& out_desc, std::int32_t offset, float value, Buffer& output) {
  // DIAGONAL_MATRIX(Offset) is the band [Offset, Offset + 1) without input.
  Buffer expected = oracle<T>(out_desc, output, std::nullopt, nullptr, value_cast<T>(value), offset,
                              std::int64_t{offset} + 1);
  for_each_arch_and_stores([&](const ExecuteOptions& options) {
    output.fill(sentinel);
    execute(DiagonalMatrixDesc{out_desc, offset, value}, output.out(), options);
    CHECK(output.bytes() == expected.bytes());
  });
  return expected;
}

template <class T>
void check_diagonal_matrix(TestRng& rng) {
  const Dims sizes = random_sizes(rng);
  const TensorDesc out_desc{data_type_v<T>, sizes,
                            make_strides(sizes, output_layouts[rng.between(0, 2)], rng), 0};
  const std::int32_t offset = random_band(rng, sizes).first;
  // Fractions of both signs, values beyond every integer range, NaN and -0.0.
  static constexpr float specials[] = {std::numeric_limits<float>::quiet_NaN(), 1e10f, -1e10f, -0.0f, 65520.0f};
  const float value = rng.chance(0.25) ? specials[rng.between(0, std::size(specials) - 1)]
                                       : static_cast<float>(rng.between_signed(-400, 400)) * 0.75f + 0.1f;
  INFO("type " << name_of(data_type_v<T>) << " sizes " << detail::to_text(sizes) << " strides "
               << detail::to_text(out_desc.strides) << " offset " << offset << " value " << value);
  Buffer output = Buffer::for_tensor(out_desc, rng.between(0, 3) * sizeof(T));
  const Buffer expected = check_diagonal_matrix_everywhere<T>(out_desc, offset, value, output);
  output.fill(sentinel);
  kernels::diagonal_matrix<T>(make_view(reinterpret_cast<T*>(output.data()), sizes, effective_strides(out_desc)),
                              offset, value);
  CHECK(output.bytes() == expected.bytes());
}

}  // namespace

TEST_CASE("DIAGONAL_MATRIX1 matches the oracle on every arch, type, layout and band", "[diagonal_matrix]") {
  REFOPS_TEST_RNG(rng);
  for (int i = 0; i < 24; ++i)
    for (DataType t : all_data_types) visit_data_type(t, [&](auto tag) { check_diagonal_matrix1<decltype(tag)>(rng); });
}

TEST_CASE("DIAGONAL_MATRIX matches the oracle on every arch, type, layout and offset", "[diagonal_matrix]") {
  REFOPS_TEST_RNG(rng);
  for (int i = 0; i < 12; ++i)
    for (DataType t : all_data_types) visit_data_type(t, [&](auto tag) { check_diagonal_matrix<decltype(tag)>(rng); });
}

// Each store strategy's head and tail handling on the run path (rows of 1030-4133 elements: a
// streamed copy longer than 4 KiB and two lines is written in two halves, simd::copy_span),
// the blend path (rows of 8-100) and batches of small matrices (up to 45 KiB), with and without an input,
// at output bases 0-3 elements past the buffer's alignment, on every arch with every strategy
// forced (the generated cases above are too small for the automatic choice to leave plain).
TEST_CASE("DIAGONAL_MATRIX1: every store strategy writes the oracle's bytes", "[diagonal_matrix]") {
  REFOPS_TEST_RNG(rng);
  static constexpr std::uint32_t widths[] = {8, 9, 17, 33, 100, 1030, 1031, 1100, 2100, 4133};
  for (int i = 0; i < 32; ++i) {
    const std::uint32_t width = widths[i % std::size(widths)];
    // Batches of narrow matrices are 21-45 KiB: past the 16 KiB block the first matrix is
    // copied into, so the rest is repeated from it (copy_batch_slices, simd::repeat_span).
    const Dims sizes = i % 3 == 0 ? Dims{width < 64 ? 41u : 5u, 16, width} : Dims{3, width};
    const TensorDesc out_desc{DataType::float32, sizes, make_strides(sizes, i % 2 ? Layout::padded : Layout::packed, rng), 0};
    const TensorDesc in_desc{DataType::float32, sizes, make_strides(sizes, input_layouts[i % 4], rng), 0};
    const bool with_input = i % 4 == 1 || i % 4 == 2;
    const auto [begin, end] = i % 5 == 0 ? std::pair<std::int32_t, std::int32_t>{0, 1} : random_band(rng, sizes);
    const float value = i % 7 == 3 ? 0.0f : rng.nonzero_value<float>();
    INFO("sizes " << detail::to_text(sizes) << " strides " << detail::to_text(out_desc.strides) << " input "
                  << (with_input ? detail::to_text(in_desc.strides) : std::string("none")) << " begin " << begin
                  << " end " << end);
    Buffer input = Buffer::for_tensor(in_desc, 4);
    for_each_coordinate(sizes, [&](const Dims& c) { set<float>(input, in_desc, c, rng.nonzero_value<float>()); });
    const std::optional<TensorDesc> input_desc = with_input ? std::optional(in_desc) : std::nullopt;
    for (std::size_t misalign = 0; misalign < 4; ++misalign) {
      Buffer output = Buffer::for_tensor(out_desc, 4 * misalign);
      const Buffer expected = oracle<float>(out_desc, output, input_desc, &input, value, begin, end);
      INFO("base +" << misalign << " elements");
      for_each_arch_and_stores([&](const ExecuteOptions& options) {
        output.fill(sentinel);
        execute(DiagonalMatrix1Desc{input_desc, out_desc, Scalar::of(value), begin, end}, input.in(), output.out(),
                options);
        CHECK(output.bytes() == expected.bytes());
      });
    }
  }
}

// One diagonal without an input over a packed output whose rows break cache lines, streamed as
// one run of rows (diagonal_matrix.hpp, stream_diagonal_run): rows of one line and more, not a
// whole number of lines or starting off the line grid (bases 0, 1 and 2 elements and 16 bytes
// past the buffer's alignment), in batches (the run crosses slices) and alone, for every element
// size; offsets that give every row its Value (the run) and some that do not (the row loops),
// on every arch with every strategy forced.
template <class T>
void check_streamed_diagonal(TestRng& rng, std::uint32_t width) {
  const std::uint32_t height = static_cast<std::uint32_t>(rng.between(1, std::min<std::uint32_t>(width, 40)));
  const Dims sizes = rng.chance(0.5) ? Dims{height, width} : Dims{static_cast<std::uint32_t>(rng.between(2, 3)), height, width};
  const TensorDesc out_desc{data_type_v<T>, sizes, make_strides(sizes, Layout::packed, rng), 0};
  const std::int32_t most = static_cast<std::int32_t>(width - height);
  const std::int32_t offset = rng.chance(0.8) ? static_cast<std::int32_t>(rng.between(0, static_cast<std::size_t>(most)))
                                              : (rng.chance(0.5) ? -1 : most + 1);
  const float value = static_cast<float>(rng.between_signed(1, 100)) * (rng.chance(0.5) ? 1.0f : -1.0f);
  const std::size_t misaligns[] = {0, sizeof(T), 2 * sizeof(T), 16};
  for (std::size_t misalign : misaligns) {
    INFO("type " << name_of(data_type_v<T>) << " sizes " << detail::to_text(sizes) << " offset " << offset
                 << " value " << value << " base +" << misalign << " bytes");
    Buffer output = Buffer::for_tensor(out_desc, misalign);
    check_diagonal_matrix_everywhere<T>(out_desc, offset, value, output);
  }
}

TEST_CASE("DIAGONAL_MATRIX: a diagonal streamed as one run of rows writes the oracle's bytes", "[diagonal_matrix]") {
  REFOPS_TEST_RNG(rng);
  static constexpr std::uint32_t widths[] = {64, 65, 80, 100, 129, 191, 1030};
  for (int i = 0; i < 14; ++i) {
    const std::uint32_t width = widths[i % std::size(widths)];
    check_streamed_diagonal<float>(rng, width);
    check_streamed_diagonal<float16>(rng, width);
    check_streamed_diagonal<std::uint64_t>(rng, width);
    if (width <= 191) check_streamed_diagonal<std::int8_t>(rng, width);  // INT8 positions fit 8 bits
  }
}

// Rows of 8 to 22 KiB whose copied runs (most of a row, or a third) stream as parts read side by side
// (simd::copy_streamed_in_parts: 2 parts of 4 KiB and more, up to 4, each a whole number of
// 4-vector groups, with a head to the first line and a tail), for every element size, with the
// read streams forced to 1-4 (1 is the one-pass copy), output bases 0, 1 and 2 elements and 16
// bytes past the buffer's alignment, input bases 0-3 elements, on every arch with every strategy
// forced.
template <class T>
void check_copy_in_parts(TestRng& rng) {
  const std::uint32_t width = static_cast<std::uint32_t>(rng.between(8192, 22528) / sizeof(T));
  const Dims sizes{static_cast<std::uint32_t>(rng.between(2, 3)), width};
  const TensorDesc out_desc{data_type_v<T>, sizes, make_strides(sizes, rng.chance(0.5) ? Layout::padded : Layout::packed, rng), 0};
  const TensorDesc in_desc{data_type_v<T>, sizes, make_strides(sizes, rng.chance(0.5) ? Layout::padded : Layout::packed, rng), 0};
  // A Trilu (Value right of a diagonal, the input copied left of it: runs of most of a row) or
  // a narrow band of Value inside the row (the copies either side of it).
  const auto w = static_cast<std::int32_t>(width);
  const auto [begin, end] = rng.chance(0.5) ? std::pair<std::int32_t, std::int32_t>{INT32_MIN, static_cast<std::int32_t>(rng.between_signed(-w / 4, w))}
                                            : std::pair<std::int32_t, std::int32_t>{w / 3, w / 3 + static_cast<std::int32_t>(rng.between(1, 200))};
  const T value = rng.nonzero_value<T>();
  Buffer input = Buffer::for_tensor(in_desc, rng.between(0, 3) * sizeof(T));
  for_each_coordinate(sizes, [&](const Dims& c) { set<T>(input, in_desc, c, rng.nonzero_value<T>()); });
  const DiagonalMatrix1Desc desc{in_desc, out_desc, Scalar::of(value), begin, end};
  const std::size_t misaligns[] = {0, sizeof(T), 2 * sizeof(T), 16};
  for (std::size_t misalign : misaligns) {
    Buffer output = Buffer::for_tensor(out_desc, misalign);
    const Buffer expected = oracle<T>(out_desc, output, in_desc, &input, value, begin, end);
    for (std::size_t streams = 1; streams <= 4; ++streams) {
      INFO("type " << name_of(data_type_v<T>) << " sizes " << detail::to_text(sizes) << " out strides "
                   << detail::to_text(out_desc.strides) << " in strides " << detail::to_text(in_desc.strides)
                   << " begin " << begin << " end " << end << " base +" << misalign << " bytes, read streams "
                   << streams);
      const ForcedChoice forced(detail::force_diagonal_read_streams, streams);
      for_each_arch_and_stores([&](const ExecuteOptions& options) {
        output.fill(sentinel);
        execute(desc, input.in(), output.out(), options);
        CHECK(output.bytes() == expected.bytes());
      });
    }
  }
}

TEST_CASE("DIAGONAL_MATRIX1: a long copied run read in parts side by side writes the oracle's bytes", "[diagonal_matrix]") {
  REFOPS_TEST_RNG(rng);
  for (int i = 0; i < 3; ++i) {
    check_copy_in_parts<float>(rng);
    check_copy_in_parts<float16>(rng);
    check_copy_in_parts<std::uint64_t>(rng);
    check_copy_in_parts<std::int8_t>(rng);
  }
}
