#include "validation/tensor_rules.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "tensor_extent.hpp"

namespace refops::detail {

std::string field(std::string_view tensor, std::string_view member) {
  std::string f(tensor);
  f += '.';
  f += member;
  return f;
}

std::string field(std::string_view tensor, std::string_view member, std::size_t index) {
  return field(tensor, member) + '[' + std::to_string(index) + ']';
}

std::string to_text(const Dims& dims) {
  std::string text = "{";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) text += ',';
    text += std::to_string(dims[i]);
  }
  return text + '}';
}

namespace {

constexpr std::uint64_t max_elements = 0xFFFFFFFFu;  // DirectML: at most 2^32 - 1 elements

// Output uniqueness: taken in increasing stride order, each dimension of size > 1 must step
// past the last element the faster dimensions reach (a nesting of the dimensions exists), so
// every coordinate has its own element. The reach is the faster dimensions' last element + 1,
// not stride x size: every other column of an odd-width matrix (NumPy's a[:, ::2], strides
// {5, 2} for sizes {4, 3}) is unique and accepted. It rejects a few exotic interleavings that
// happen to be unique too, and says so in the message.
void check_unique(const TensorDesc& desc, std::string_view tensor, std::vector<Diagnostic>& out) {
  const Dims strides = effective_strides(desc);
  std::array<std::size_t, Dims::capacity> order{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i)
    if (desc.sizes[i] > 1) order[n++] = i;
  std::stable_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n),
                   [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
  std::uint64_t reach = 1;  // last element the faster dimensions address, + 1
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order[k];
    if (strides[d] == 0) {
      out.push_back({field(tensor, "Strides", d),
                     "an output must not address one element twice: dimension " + std::to_string(d) +
                         " has size " + std::to_string(desc.sizes[d]) +
                         " and stride 0 (broadcast is for inputs only); expected a stride of at least " +
                         std::to_string(reach)});
      return;
    }
    if (strides[d] < reach) {
      out.push_back({field(tensor, "Strides", d),
                     "an output must not address one element twice: dimension " + std::to_string(d) +
                         " (size " + std::to_string(desc.sizes[d]) + ") has stride " +
                         std::to_string(strides[d]) +
                         ", inside the span of the dimensions with smaller strides; expected a stride of at least " +
                         std::to_string(reach) + " (the dimensions must nest)"});
      return;
    }
    reach += std::uint64_t{strides[d]} * (desc.sizes[d] - 1);  // strides nest
  }
}

}  // namespace

bool check_tensor(const TensorDesc& desc, std::string_view tensor, TensorRole role,
                  std::vector<Diagnostic>& out) {
  const std::size_t before = out.size();
  if (!is_valid(desc.data_type))
    out.push_back({field(tensor, "DataType"),
                   "expected a DML_TENSOR_DATA_TYPE from 1 (FLOAT32) to 11 (INT64), found " +
                       std::to_string(static_cast<std::uint32_t>(desc.data_type))});
  if (desc.sizes.empty())
    out.push_back({field(tensor, "DimensionCount"), "expected 1 to 8 dimensions, found 0"});
  bool sizes_usable = !desc.sizes.empty();
  for (std::size_t i = 0; i < desc.sizes.size(); ++i)
    if (desc.sizes[i] == 0) {
      out.push_back({field(tensor, "Sizes", i), "expected a size of at least 1, found 0"});
      sizes_usable = false;
    }
  if (!desc.strides.empty() && desc.strides.size() != desc.sizes.size()) {
    out.push_back({field(tensor, "Strides"),
                   "expected " + std::to_string(desc.sizes.size()) +
                       " strides (one per dimension; none for packed), found " +
                       std::to_string(desc.strides.size())});
    return false;
  }
  if (!sizes_usable) return false;

  auto count = element_count(desc.sizes);
  if (!count || *count > max_elements) {
    out.push_back({field(tensor, "Sizes"),
                   "a tensor may hold at most 4294967295 (2^32-1) elements; the sizes " +
                       to_text(desc.sizes) + " make " +
                       (count ? std::to_string(*count) : std::string("more than 2^64"))});
    return false;
  }
  if (out.size() != before) return false;  // bad DataType: no element size for what follows

  auto bytes = addressed_bytes(desc);
  if (!bytes || *bytes > UINT64_MAX - 3) {
    out.push_back({field(tensor, "Strides"),
                   "the strides " + to_text(desc.strides) + " with the sizes " + to_text(desc.sizes) +
                       " address bytes beyond 2^64"});
    return false;
  }
  const std::uint64_t needed = calc_buffer_tensor_size(desc);
  if (desc.total_bytes != 0 && desc.total_bytes < needed)
    out.push_back({field(tensor, "TotalTensorSizeInBytes"),
                   "expected at least " + std::to_string(needed) +
                       " (DMLCalcBufferTensorSize of the sizes, strides and data type), found " +
                       std::to_string(desc.total_bytes)});
  if (role == TensorRole::output) check_unique(desc, tensor, out);
  return true;
}

void check_binding(const TensorDesc& desc, std::string_view tensor, std::span<const std::byte> buffer,
                   std::vector<Diagnostic>& out) {
  const std::uint64_t addressed = *addressed_bytes(desc);
  const std::uint64_t needed = std::max<std::uint64_t>(addressed, desc.total_bytes);
  if (buffer.size() < needed) {
    std::string why = desc.total_bytes > addressed ? " (its TotalTensorSizeInBytes)"
                                                   : " (every byte its sizes and strides address)";
    out.push_back({field(tensor, "Binding.SizeInBytes"),
                   "expected a buffer of at least " + std::to_string(needed) + " bytes" + why +
                       ", found " + std::to_string(buffer.size())});
    return;
  }
  const std::size_t align = size_of(desc.data_type);
  if (reinterpret_cast<std::uintptr_t>(buffer.data()) % align != 0)
    out.push_back({field(tensor, "Binding.Offset"),
                   "expected the data pointer aligned to " + std::to_string(align) + " bytes (the " +
                       std::string(name_of(desc.data_type)) + " element size), found an address " +
                       std::to_string(reinterpret_cast<std::uintptr_t>(buffer.data()) % align) +
                       " bytes past a multiple"});
}

void check_no_overlap(const TensorDesc& output, std::string_view output_tensor,
                      std::span<const std::byte> output_buffer, const TensorDesc& input,
                      std::string_view input_tensor, std::span<const std::byte> input_buffer,
                      std::vector<Diagnostic>& out) {
  const auto out_begin = reinterpret_cast<std::uintptr_t>(output_buffer.data());
  const auto in_begin = reinterpret_cast<std::uintptr_t>(input_buffer.data());
  const std::uintptr_t out_end = out_begin + *addressed_bytes(output);
  const std::uintptr_t in_end = in_begin + *addressed_bytes(input);
  if (out_begin < in_end && in_begin < out_end)
    out.push_back({field(output_tensor, "Binding"),
                   "expected an output that shares no byte with " + std::string(input_tensor) +
                       " (these operators do not run in place), found their addressed bytes overlapping"});
}

void check_same_sizes(const TensorDesc& desc, std::string_view tensor, const TensorDesc& reference,
                      std::string_view reference_tensor, std::vector<Diagnostic>& out) {
  if (desc.sizes.size() != reference.sizes.size()) {
    out.push_back({field(tensor, "DimensionCount"),
                   "expected " + std::to_string(reference.sizes.size()) + " (the DimensionCount of " +
                       std::string(reference_tensor) + "), found " + std::to_string(desc.sizes.size())});
    return;
  }
  for (std::size_t i = 0; i < desc.sizes.size(); ++i)
    if (desc.sizes[i] != reference.sizes[i])
      out.push_back({field(tensor, "Sizes", i),
                     "expected " + std::to_string(reference.sizes[i]) + " (" +
                         std::string(reference_tensor) + ".Sizes[" + std::to_string(i) + "]), found " +
                         std::to_string(desc.sizes[i])});
}

void check_same_type(const TensorDesc& desc, std::string_view tensor, const TensorDesc& reference,
                     std::string_view reference_tensor, std::vector<Diagnostic>& out) {
  if (desc.data_type != reference.data_type)
    out.push_back({field(tensor, "DataType"),
                   "expected " + std::string(name_of(reference.data_type)) + " (the DataType of " +
                       std::string(reference_tensor) + "), found " +
                       std::string(name_of(desc.data_type))});
}

void throw_if_any(std::vector<Diagnostic> diagnostics) {
  if (!diagnostics.empty()) throw Error(std::move(diagnostics));
}

}  // namespace refops::detail
