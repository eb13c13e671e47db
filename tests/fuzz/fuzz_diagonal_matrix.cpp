// Fuzz target for DIAGONAL_MATRIX (DiagonalMatrixDesc) and DIAGONAL_MATRIX1
// (DiagonalMatrix1Desc). The first byte picks the operator; the rest decodes the description
// (output of any type, ranks 0-5, layouts, TotalTensorSizeInBytes; Offset, or
// DiagonalFillBegin/End, near the matrix or at the int32 extremes; Value as raw bits, NaN
// payloads and -0.0 included, of the output's type or another; an optional input of the
// output's sizes or any), the feature level, the buffers (input with data, inside the
// output's allocation or not; outputs short or misaligned) and a forced path.
// Checks (fuzz_operator.hpp): an Error leaves every byte as it was and is what validate()
// said (or a binding / path problem); a success is what validate() allowed, is the scalar
// path's bytes exactly, and for outputs of up to 4096 elements equals a dense loop here over
// the whole output window, padding included.
#include <refops/diagonal_matrix.hpp>

#include <array>
#include <cstring>
#include <optional>

#include <refops/value_cast.hpp>

#include "fuzz/fuzz_check.hpp"
#include "fuzz/fuzz_input.hpp"
#include "fuzz/fuzz_operator.hpp"

namespace {

using namespace refops;
using fuzz::CallBuffers;
using fuzz::FuzzInput;

constexpr std::uint64_t oracle_elements = 4096;
constexpr std::size_t max_rank = 5;  // 2 to 4 are valid

// The band as SPEC writes it, in 64-bit: Begin <= x - y < End, or outside [End, Begin) when
// Begin > End.
bool in_band(std::int64_t x, std::int64_t y, std::int64_t begin, std::int64_t end) {
  const std::int64_t d = x - y;
  return begin <= end ? begin <= d && d < end : d < end || d >= begin;
}

// The expected output window: `before` with every output element set to `value_bits` in the
// band, else the input's element (bytes copied), else zero bytes.
std::vector<std::byte> oracle(const TensorDesc& output, const std::byte* before, std::size_t window,
                              const std::optional<TensorDesc>& input, const std::byte* input_bytes,
                              const std::byte* value_bits, std::int64_t begin, std::int64_t end) {
  std::vector<std::byte> expected(before, before + window);
  const std::size_t bytes = size_of(output.data_type), r = output.sizes.size();
  test::for_each_coordinate(output.sizes, [&](const Dims& c) {
    std::byte* at = expected.data() + test::byte_offset(output, c);
    if (in_band(c[r - 1], c[r - 2], begin, end)) std::memcpy(at, value_bits, bytes);
    else if (input) std::memcpy(at, input_bytes + test::byte_offset(*input, c), bytes);
    else std::memset(at, 0, bytes);
  });
  return expected;
}

void check_output(const CallBuffers& buffers, std::size_t output, const std::vector<std::byte>& expected,
                  const std::string& what) {
  fuzz::check_window(buffers, output, expected.data(), expected.size(), what);
}

void fuzz_diagonal_matrix(FuzzInput& in) {
  DiagonalMatrixDesc desc;
  const FeatureLevel level = in.level();
  desc.output = in.tensor(max_rank);
  desc.offset = in.offset();
  desc.value = in.flag() ? in.raw<float>() : static_cast<float>(in.offset());

  CallBuffers buffers;
  const std::size_t output = buffers.add(in, desc.output, false);
  const ExecuteOptions options{level, fuzz::any_arch(in)};
  const std::string what = "DIAGONAL_MATRIX output " + fuzz::describe(desc.output) + ", offset " +
                           std::to_string(desc.offset) + ", value " + std::to_string(desc.value) + ", level " +
                           std::string(name_of(level));
  const CallBuffers before = buffers.copy();
  const auto run = [&](CallBuffers& b, const ExecuteOptions& o) { execute(desc, b.out(output), o); };
  if (!fuzz::check_execute(validate(desc, level), buffers, before, options, run, what)) return;
  if (fuzz::element_count(desc.output.sizes, oracle_elements) > oracle_elements) return;

  std::array<std::byte, 8> value_bits{};
  visit_data_type(desc.output.data_type, [&](auto tag) {
    const auto v = value_cast<decltype(tag)>(desc.value);
    std::memcpy(value_bits.data(), &v, sizeof(v));
  });
  check_output(buffers, output,
               oracle(desc.output, before.in(output).data(), before.in(output).size(), std::nullopt, nullptr,
                      value_bits.data(), desc.offset, std::int64_t{desc.offset} + 1),
               what);
}

void fuzz_diagonal_matrix1(FuzzInput& in) {
  DiagonalMatrix1Desc desc;
  const FeatureLevel level = in.level();
  desc.output = in.tensor(max_rank);
  switch (in.byte() % 4) {
    case 0: break;  // no input
    case 1: desc.input = in.tensor(max_rank); break;
    default: {  // the output's sizes, the output's type mostly, a layout of its own
      TensorDesc t{in.flag() ? desc.output.data_type : in.data_type(), desc.output.sizes, {}, 0};
      in.strides_and_total(t);
      desc.input = t;
    }
  }
  std::array<std::byte, 8> bits;
  for (auto& b : bits) b = std::byte{in.byte()};
  desc.value = Scalar::from_union_bytes(in.flag() ? desc.output.data_type : in.data_type(), bits);
  desc.fill_begin = in.offset();
  desc.fill_end = in.offset();

  CallBuffers buffers;
  const std::size_t output = buffers.add(in, desc.output, false);
  const std::size_t input =
      desc.input ? buffers.add_maybe_inside(in, *desc.input, true, output) : buffers.add(in, TensorDesc{}, false);
  const ExecuteOptions options{level, fuzz::any_arch(in)};
  const std::string what = "DIAGONAL_MATRIX1 output " + fuzz::describe(desc.output) + ", input " +
                           (desc.input ? fuzz::describe(*desc.input) : std::string("none")) + ", value type " +
                           std::to_string(static_cast<std::uint32_t>(desc.value.type())) + ", begin " +
                           std::to_string(desc.fill_begin) + ", end " + std::to_string(desc.fill_end) + ", level " +
                           std::string(name_of(level));
  const CallBuffers before = buffers.copy();
  const auto run = [&](CallBuffers& b, const ExecuteOptions& o) { execute(desc, b.in(input), b.out(output), o); };
  if (!fuzz::check_execute(validate(desc, level), buffers, before, options, run, what)) return;
  if (fuzz::element_count(desc.output.sizes, oracle_elements) > oracle_elements) return;

  // Value has the output's type (validate checked): its bits are the union's low bytes.
  check_output(buffers, output,
               oracle(desc.output, before.in(output).data(), before.in(output).size(), desc.input,
                      before.in(input).data(), desc.value.union_bytes().data(), desc.fill_begin, desc.fill_end),
               what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  if (in.flag()) fuzz_diagonal_matrix1(in);
  else fuzz_diagonal_matrix(in);
  return 0;
}
