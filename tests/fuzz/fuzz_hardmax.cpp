// Fuzz target for HARDMAX (HardmaxDesc) and HARDMAX1 (Hardmax1Desc). The first byte picks the
// operator; the rest decodes the description (input FLOAT32/FLOAT16 mostly or any type, ranks
// 0-8, layouts, TotalTensorSizeInBytes; an output of the input's sizes with its own layout and
// type, or free; HARDMAX1's axes: 0 to rank+1 of them, in range or not, duplicates allowed;
// both NaN modes), the feature level, the buffers (input data either raw bytes or bit patterns
// with many ties: +-0.0, +-1, +-inf, quiet and signalling NaNs with payloads and sign, the
// largest finite value, the smallest subnormal; the input sometimes inside the output's
// allocation) and a forced path.
// Checks (fuzz_operator.hpp): an Error leaves every byte as it was and is what validate()
// said (or a binding / path problem); a success is what validate() allowed, is the scalar
// path's bytes exactly, and for outputs of up to 4096 elements equals the tests' oracle
// (tests/hardmax_oracle.hpp) over the whole output window, padding included.
#include <refops/hardmax.hpp>

#include <algorithm>
#include <array>
#include <cstring>

#include "fuzz/fuzz_check.hpp"
#include "fuzz/fuzz_input.hpp"
#include "fuzz/fuzz_operator.hpp"
#include "hardmax_oracle.hpp"

namespace {

using namespace refops;
using fuzz::CallBuffers;
using fuzz::FuzzInput;

constexpr std::uint64_t oracle_elements = 4096;
constexpr std::array<DataType, 2> float_types{DataType::float32, DataType::float16};

// Overwrites every whole element of the window with one of twelve bit patterns (one byte each).
void tie_heavy_floats(FuzzInput& in, Out window, std::size_t element_bytes) {
  static constexpr std::array<std::uint16_t, 12> half{0x0000, 0x8000, 0x3C00, 0xBC00, 0x4000, 0x7C00,
                                                      0xFC00, 0x7E00, 0x7D01, 0xFE03, 0x7BFF, 0x0001};
  static constexpr std::array<std::uint32_t, 12> single{0x00000000, 0x80000000, 0x3F800000, 0xBF800000,
                                                        0x40000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                                        0x7F800001, 0xFFC00003, 0x7F7FFFFF, 0x00000001};
  for (std::size_t at = 0; at + element_bytes <= window.size(); at += element_bytes) {
    const std::uint8_t pick = in.byte() % 12;
    if (element_bytes == 2) std::memcpy(window.data() + at, &half[pick], 2);
    else if (element_bytes == 4) std::memcpy(window.data() + at, &single[pick], 4);
  }
}

struct Decoded {
  TensorDesc input, output;
  Dims axes;
  NanMode nan_mode;
};

Decoded decode(FuzzInput& in, bool with_axes) {
  Decoded d;
  d.input.data_type = in.flag() ? in.data_type_in(float_types) : in.data_type();
  d.input.sizes = in.sizes(in.in_range(0, 8));
  in.strides_and_total(d.input);
  if (in.byte() % 4 != 0) {  // the input's sizes, its type mostly, a layout of its own
    d.output = {in.flag() ? d.input.data_type : in.data_type(), d.input.sizes, {}, 0};
    in.strides_and_total(d.output);
  } else {
    d.output = in.tensor();
  }
  // 0 to rank+1 axes, at most the 8 a Dims holds.
  const auto max_axes = static_cast<std::uint32_t>(std::min<std::size_t>(d.input.sizes.size() + 1, Dims::capacity));
  if (with_axes)
    for (std::size_t i = 0, n = in.in_range(0, max_axes); i < n; ++i)
      d.axes.push_back(in.axis(d.input.sizes.size()));
  d.nan_mode = in.flag() ? NanMode::ignore : NanMode::propagate;
  return d;
}

// Decodes, runs and checks one call of either operator; `Desc` is HardmaxDesc or Hardmax1Desc.
template <class Desc>
void fuzz_hardmax(FuzzInput& in, const char* name) {
  const FeatureLevel level = in.level();
  const Decoded d = decode(in, std::is_same_v<Desc, Hardmax1Desc>);
  Desc desc;
  desc.input = d.input;
  desc.output = d.output;
  desc.nan_mode = d.nan_mode;
  if constexpr (std::is_same_v<Desc, Hardmax1Desc>) desc.axes = d.axes;

  CallBuffers buffers;
  const std::size_t output = buffers.add(in, desc.output, false);
  const std::size_t input = buffers.add_maybe_inside(in, desc.input, true, output);
  if (in.flag() && is_valid(desc.input.data_type))
    tie_heavy_floats(in, buffers.out(input), size_of(desc.input.data_type));
  const ExecuteOptions options{level, fuzz::any_arch(in)};

  const std::string what = std::string(name) + " input " + fuzz::describe(desc.input) + ", output " +
                           fuzz::describe(desc.output) + ", axes " + detail::to_text(d.axes) +
                           (d.nan_mode == NanMode::ignore ? ", ignore" : ", propagate") + ", level " +
                           std::string(name_of(level));
  const CallBuffers before = buffers.copy();
  const auto run = [&](CallBuffers& b, const ExecuteOptions& o) { execute(desc, b.in(input), b.out(output), o); };
  if (!fuzz::check_execute(validate(desc, level), buffers, before, options, run, what)) return;
  if (fuzz::element_count(desc.output.sizes, oracle_elements) > oracle_elements) return;

  // HARDMAX is HARDMAX1 over the last dimension.
  Hardmax1Desc as_hardmax1{desc.input, desc.output, d.axes, desc.nan_mode};
  if constexpr (std::is_same_v<Desc, HardmaxDesc>)
    as_hardmax1.axes = {static_cast<std::uint32_t>(desc.input.sizes.size() - 1)};
  const test::Buffer expected =
      test::hardmax_oracle(as_hardmax1, before.to_test_buffer(input), before.to_test_buffer(output));
  fuzz::check_window(buffers, output, expected.data(), expected.size(), what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  if (in.flag()) fuzz_hardmax<Hardmax1Desc>(in, "HARDMAX1");
  else fuzz_hardmax<HardmaxDesc>(in, "HARDMAX");
  return 0;
}
