// Fuzz target for the SPEC section 1 tensor rules every operator validates with
// (src/validation/tensor_rules.hpp) and for calc_buffer_tensor_size. For any description:
//  - neither calc_buffer_tensor_size nor check_tensor crashes, and the only exception either
//    may throw is refops::Error;
//  - check_tensor returns false only with a diagnostic, and every diagnostic names a field of
//    the tensor and says something;
//  - a description check_tensor accepts has a calc_buffer_tensor_size, which is its addressed
//    bytes (computed here in 128-bit arithmetic, and by brute force for small tensors)
//    rounded up to 4, and is at most total_bytes when that is set;
//  - an output it accepts has no two coordinates on one element (brute force, small tensors);
//  - check_binding accepts a buffer only if it holds the addressed bytes and total_bytes and
//    is aligned to the element size, rejects it otherwise, and never writes to it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <refops/diagnostics.hpp>
#include <refops/tensor_desc.hpp>

#include "fuzz/fuzz_check.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/buffers.hpp"
#include "validation/tensor_rules.hpp"

namespace {

using namespace refops;
using refops::fuzz::u128;

constexpr std::uint64_t brute_force_elements = 4096;

void check_diagnostics_name_the_tensor(const std::vector<Diagnostic>& diagnostics, const TensorDesc& desc) {
  for (const Diagnostic& d : diagnostics)
    FUZZ_CHECK(d.field.rfind("T.", 0) == 0 && d.field.size() > 2 && !d.message.empty(),
               "a diagnostic without a field of T or without a message for " + fuzz::describe(desc) + ":\n" +
                   to_string(diagnostics));
}

// Element offsets of every coordinate, by the definition (sum of coordinate * stride).
std::vector<std::uint64_t> element_offsets(const TensorDesc& desc) {
  const Dims strides = effective_strides(desc);
  std::vector<std::uint64_t> offsets;
  test::for_each_coordinate(desc.sizes, [&](const Dims& c) {
    std::uint64_t offset = 0;
    for (std::size_t i = 0; i < c.size(); ++i) offset += std::uint64_t{c[i]} * strides[i];
    offsets.push_back(offset);
  });
  return offsets;
}

void check_accepted(const TensorDesc& desc, detail::TensorRole role, std::optional<std::uint64_t> calc) {
  FUZZ_CHECK(calc.has_value(), "check_tensor accepts a description calc_buffer_tensor_size rejects: " + fuzz::describe(desc));

  u128 count = 1;
  for (std::uint32_t s : desc.sizes) count *= s;
  FUZZ_CHECK(count >= 1 && count <= 0xFFFFFFFFu, "accepted with more than 2^32-1 elements: " + fuzz::describe(desc));

  const u128 addressed = fuzz::FuzzInput::addressed_bytes_128(desc);
  FUZZ_CHECK(addressed > 0 && addressed <= *calc && *calc - addressed < 4 && *calc % 4 == 0,
             "calc_buffer_tensor_size " + std::to_string(*calc) + " is not the addressed bytes " +
                 std::to_string(static_cast<std::uint64_t>(addressed)) + " rounded up to 4: " + fuzz::describe(desc));
  FUZZ_CHECK(desc.total_bytes == 0 || desc.total_bytes >= *calc,
             "accepted a TotalTensorSizeInBytes below calc_buffer_tensor_size: " + fuzz::describe(desc));

  if (count > brute_force_elements) return;
  std::vector<std::uint64_t> offsets = element_offsets(desc);
  const std::uint64_t last = *std::max_element(offsets.begin(), offsets.end());
  FUZZ_CHECK((last + 1) * size_of(desc.data_type) == addressed,
             "the largest element offset disagrees with the addressed bytes: " + fuzz::describe(desc));
  if (role == detail::TensorRole::output) {
    std::sort(offsets.begin(), offsets.end());
    FUZZ_CHECK(std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end(),
               "an accepted output addresses one element from two coordinates: " + fuzz::describe(desc));
  }
}

void check_binding_of(const TensorDesc& desc, fuzz::FuzzBuffer& buffer) {
  std::vector<Diagnostic> diagnostics;
  detail::check_binding(desc, "T", buffer.in(), diagnostics);
  check_diagnostics_name_the_tensor(diagnostics, desc);
  const std::uint64_t needed = fuzz::FuzzInput::bytes_to_allocate(desc);
  const bool aligned = reinterpret_cast<std::uintptr_t>(buffer.data()) % size_of(desc.data_type) == 0;
  const bool fits = buffer.size() >= needed;
  FUZZ_CHECK(diagnostics.empty() == (fits && aligned),
             "check_binding " + std::string(diagnostics.empty() ? "accepted" : "rejected") + " a buffer of " +
                 std::to_string(buffer.size()) + " bytes at offset " + std::to_string(buffer.offset()) +
                 " for " + fuzz::describe(desc) + to_string(diagnostics));
  FUZZ_CHECK(buffer.untouched(), "check_binding wrote to the buffer");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  const auto role = in.flag() ? detail::TensorRole::output : detail::TensorRole::input;
  const TensorDesc desc = in.tensor();

  std::optional<std::uint64_t> calc;
  try {
    calc = calc_buffer_tensor_size(desc);
  } catch (const Error& e) {
    // It applies the validator's size rules, so it reports every one the description breaks.
    FUZZ_CHECK(!e.diagnostics().empty(), "calc_buffer_tensor_size threw without a diagnostic");
  }

  std::vector<Diagnostic> diagnostics;
  const bool usable = detail::check_tensor(desc, "T", role, diagnostics);
  FUZZ_CHECK(usable || !diagnostics.empty(), "check_tensor returned false without a diagnostic: " + fuzz::describe(desc));
  check_diagnostics_name_the_tensor(diagnostics, desc);
  if (!diagnostics.empty()) return 0;

  check_accepted(desc, role, calc);
  fuzz::FuzzBuffer buffer = in.buffer(desc);
  check_binding_of(desc, buffer);
  return 0;
}
