// The tensor rules of SPEC section 1, shared by every operator's validator and execute().
// Each broken rule appends one Diagnostic whose field uses DirectML's words
// ("OutputTensor.Strides[2]") and whose message says what was expected and what was found.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <refops/diagnostics.hpp>
#include <refops/tensor_desc.hpp>

namespace refops::detail {

enum class TensorRole { input, output };

// "IndicesTensor" + ".Sizes[1]".
std::string field(std::string_view tensor, std::string_view member);
std::string field(std::string_view tensor, std::string_view member, std::size_t index);

// The description alone: a valid DataType, 1 to 8 dimensions, every size >= 1, one stride per
// dimension, at most 2^32-1 elements, no 64-bit overflow, TotalTensorSizeInBytes (when set) >=
// calc_buffer_tensor_size, and for an output, no two coordinates on one element. Returns false
// when the sizes are unusable, so callers skip shape rules that would only repeat the error.
bool check_tensor(const TensorDesc&, std::string_view tensor, TensorRole,
                  std::vector<Diagnostic>&);

// The subset of those rules that gives a description a buffer size, and that size
// (calc_buffer_tensor_size, which passes an empty `tensor`: fields "Sizes[1]"); 0 when a rule
// is broken.
std::uint64_t check_buffer_size(const TensorDesc&, std::string_view tensor, std::vector<Diagnostic>&);

// The buffer bound to a valid description: large enough for every addressed byte (and for
// TotalTensorSizeInBytes when the description sets it), and aligned to the element size.
void check_binding(const TensorDesc&, std::string_view tensor, std::span<const std::byte> buffer,
                   std::vector<Diagnostic>&);

// A valid description, its name and the buffer execute() was given for it.
struct Binding {
  const TensorDesc& desc;
  std::string_view tensor;
  std::span<const std::byte> buffer;
};

// The output's first-to-last addressed bytes must not overlap the input's (both valid and bound
// to buffers that hold them).
void check_no_overlap(const Binding& output, const Binding& input, std::vector<Diagnostic>&);

// Each tensor's addressed bytes (first to last addressed byte: addressed_bytes, tensor_extent.hpp),
// the output's first, then the inputs' in the order they are bound; 0 until computed (a valid
// tensor addresses at least one byte).
inline constexpr std::size_t max_inputs = 4;
using AddressedBytes = std::array<std::uint64_t, 1 + max_inputs>;

// check_binding for every buffer; then, when all hold their tensors, the output's first-to-last
// addressed bytes must not overlap any input's. `addressed` is kept with the description
// (validated_once.hpp): computed on its first call, read on the next.
void check_bindings(const Binding& output, std::initializer_list<Binding> inputs, AddressedBytes& addressed,
                    std::vector<Diagnostic>&);

// Same DimensionCount and Sizes as a reference tensor ("must have the same ... as OutputTensor").
void check_same_sizes(const TensorDesc&, std::string_view tensor, const TensorDesc& reference,
                      std::string_view reference_tensor, std::vector<Diagnostic>&);
// Same DataType as a reference tensor.
void check_same_type(const TensorDesc&, std::string_view tensor, const TensorDesc& reference,
                     std::string_view reference_tensor, std::vector<Diagnostic>&);

// Throws Error with the diagnostics, if there are any.
void throw_if_any(std::vector<Diagnostic> diagnostics);

// "{1,1,3,4}"
std::string to_text(const Dims&);

}  // namespace refops::detail
