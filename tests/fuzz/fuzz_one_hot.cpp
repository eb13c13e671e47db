// Fuzz target for ONE_HOT (OneHotDesc) and OpenVINO OneHot-1 (OneHotV1Desc). The first byte
// picks the operator; the rest decodes its description (types valid and not, ranks 0-8,
// layouts, TotalTensorSizeInBytes, axis, feature level, depth, on/off values of any type,
// negative-index mode), its buffers (indices and values with data, mostly small indices;
// outputs short or misaligned, indices and values sometimes inside the output's allocation)
// and a forced path.
// Checks (fuzz_operator.hpp): an Error leaves every byte as it was and is what validate()
// said (or a binding / path problem); a success is what validate() allowed, is the scalar
// path's bytes exactly, and for outputs of up to 4096 elements equals the tests' dense oracle
// (tests/one_hot_oracle.hpp) over the whole output window, padding included.
#include <refops/one_hot.hpp>

#include <array>
#include <cstring>

#include "fuzz/fuzz_check.hpp"
#include "fuzz/fuzz_input.hpp"
#include "fuzz/fuzz_operator.hpp"
#include "one_hot_oracle.hpp"

namespace {

using namespace refops;
using fuzz::CallBuffers;
using fuzz::FuzzInput;

constexpr std::uint64_t oracle_elements = 4096;
constexpr std::array<DataType, 4> index_types{DataType::uint32, DataType::int32, DataType::uint64, DataType::int64};

// A type: one of the index types (flag set) or any value, valid or not.
DataType index_type(FuzzInput& in) { return in.flag() ? in.data_type_in(index_types) : in.data_type(); }

// A description of `rank` dimensions with the given sizes, then a decoded layout.
TensorDesc with_layout(FuzzInput& in, DataType type, const Dims& sizes) {
  TensorDesc t{type, sizes, {}, 0};
  in.strides_and_total(t);
  return t;
}

void check_output(const CallBuffers& buffers, std::size_t output, const test::Buffer& expected,
                  const std::string& what) {
  fuzz::check_window(buffers, output, expected.data(), expected.size(), what);
}

void fuzz_one_hot(FuzzInput& in) {
  OneHotDesc desc;
  const FeatureLevel level = in.level();
  desc.output = in.tensor();
  const std::size_t rank = desc.output.sizes.size();
  desc.axis = in.axis(rank);
  if (in.byte() % 4 == 0) {  // free shapes: mostly invalid together
    desc.indices = in.tensor();
    desc.values = in.tensor();
  } else {  // the shapes ONE_HOT wants, other rules left to the decoded types and layouts
    Dims index_sizes = desc.output.sizes;
    if (desc.axis < rank) index_sizes[desc.axis] = 1;
    desc.indices = with_layout(in, index_type(in), index_sizes);
    Dims value_sizes;
    for (std::size_t i = 0; i + 1 < rank; ++i) value_sizes.push_back(1);
    if (rank) value_sizes.push_back(in.flag() ? 2 : in.size_value());
    desc.values = with_layout(in, in.flag() ? desc.output.data_type : in.data_type(), value_sizes);
  }

  CallBuffers buffers;
  const std::size_t output = buffers.add(in, desc.output, false);
  const std::size_t indices = buffers.add_maybe_inside(in, desc.indices, true, output);
  if (in.flag() && is_valid(desc.indices.data_type))
    fuzz::small_integers(in, buffers.out(indices), size_of(desc.indices.data_type));
  const std::size_t values = buffers.add_maybe_inside(in, desc.values, true, output);
  ExecuteOptions options{level, fuzz::any_arch(in)};

  const std::string what = "ONE_HOT indices " + fuzz::describe(desc.indices) + ", values " +
                           fuzz::describe(desc.values) + ", output " + fuzz::describe(desc.output) + ", axis " +
                           std::to_string(desc.axis) + ", level " + std::string(name_of(level));
  const CallBuffers before = buffers.copy();
  const auto run = [&](CallBuffers& b, const ExecuteOptions& o) {
    execute(desc, b.in(indices), b.in(values), b.out(output), o);
  };
  if (!fuzz::check_execute(validate(desc, level), buffers, before, options, run, what)) return;
  if (fuzz::element_count(desc.output.sizes, oracle_elements) > oracle_elements) return;
  check_output(buffers, output,
               test::one_hot_oracle(desc.indices, before.to_test_buffer(indices), desc.values,
                                    before.to_test_buffer(values), desc.output, before.to_test_buffer(output),
                                    desc.axis),
               what);
}

// depth: 1..6 mostly, sometimes 0, negative, at or past the 2^32 - 1 limit, or large.
std::int64_t depth(FuzzInput& in) {
  static constexpr std::array<std::int64_t, 8> edges{0, -1, 0xFFFFFFFF, 0x100000000, INT64_MIN, INT64_MAX, 64, 65536};
  const std::uint8_t b = in.byte();
  return b < 248 ? 1 + b % 6 : edges[b - 248u];
}

// An on/off value: a valid type (flag set) or any, and 8 raw union bytes.
Scalar value(FuzzInput& in, DataType type) {
  std::array<std::byte, 8> bytes;
  for (auto& b : bytes) b = std::byte{in.byte()};
  return Scalar::from_union_bytes(type, bytes);
}

void fuzz_one_hot_v1(FuzzInput& in) {
  OneHotV1Desc desc;
  const DataType type = index_type(in);
  desc.indices = with_layout(in, type, in.sizes(in.in_range(0, 8)));
  desc.depth = depth(in);
  const DataType on_type = in.flag() ? in.data_type_in(std::span(all_data_types)) : in.data_type();
  desc.on_value = value(in, on_type);
  desc.off_value = value(in, in.flag() ? on_type : in.data_type());
  desc.axis = in.signed_axis(desc.indices.sizes.size());
  desc.negative_indices = in.flag() ? NegativeIndices::normalize : NegativeIndices::ignore;

  // What execute() binds: a rank-0 index is one element; the output is packed.
  const TensorDesc index_tensor =
      desc.indices.sizes.empty() ? TensorDesc{type, Dims{1}, {}, desc.indices.total_bytes} : desc.indices;
  const std::vector<Diagnostic> validated = validate(desc);
  TensorDesc output_tensor;
  if (validated.empty()) output_tensor = output_desc(desc);

  CallBuffers buffers;
  const std::size_t output = buffers.add(in, output_tensor, false);
  const std::size_t indices = buffers.add_maybe_inside(in, index_tensor, true, output);
  if (in.flag() && is_valid(type)) fuzz::small_integers(in, buffers.out(indices), size_of(type));
  ExecuteOptions options;
  options.arch = fuzz::any_arch(in);

  const std::string what = "OneHot-1 indices " + fuzz::describe(desc.indices) + ", depth " +
                           std::to_string(desc.depth) + ", on type " +
                           std::to_string(static_cast<std::uint32_t>(desc.on_value.type())) + ", off type " +
                           std::to_string(static_cast<std::uint32_t>(desc.off_value.type())) + ", axis " +
                           std::to_string(desc.axis) +
                           (desc.negative_indices == NegativeIndices::normalize ? ", normalize" : ", ignore");
  const CallBuffers before = buffers.copy();
  const auto run = [&](CallBuffers& b, const ExecuteOptions& o) { execute(desc, b.in(indices), b.out(output), o); };
  if (!fuzz::check_execute(validated, buffers, before, options, run, what)) return;
  if (fuzz::element_count(output_tensor.sizes, oracle_elements) > oracle_elements) return;

  check_output(buffers, output,
               test::one_hot_v1_oracle(desc, before.to_test_buffer(indices), before.to_test_buffer(output)), what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  if (in.flag()) fuzz_one_hot_v1(in);
  else fuzz_one_hot(in);
  return 0;
}
