#include "validation/tensor_rules.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <initializer_list>

#include "tensor_extent.hpp"

namespace refops::detail {

std::string field(std::string_view tensor, std::string_view member) {
  std::string f(tensor);
  if (!f.empty()) f += '.';
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
  if (desc.strides.empty()) return;  // packed strides nest by construction
  const Dims& strides = desc.strides;
  // At most 8 dimensions: a stable insertion sort, where std::stable_sort would allocate.
  std::array<std::size_t, Dims::capacity> order{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < desc.sizes.size(); ++i) {
    if (desc.sizes[i] <= 1) continue;
    std::size_t k = n++;
    for (; k > 0 && strides[order[k - 1]] > strides[i]; --k) order[k] = order[k - 1];
    order[k] = i;
  }
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
                         ", so a step along it lands inside the elements the dimensions with smaller "
                         "strides already reach; expected a stride of at least " +
                         std::to_string(reach) + ", so that each step passes all of them"});
      return;
    }
    reach += std::uint64_t{strides[d]} * (desc.sizes[d] - 1);  // strides nest
  }
}

// DataType, DimensionCount, Sizes and the count of Strides. Returns false when the sizes or
// strides are unusable (a bad DataType alone leaves them usable).
bool check_shape(const TensorDesc& desc, std::string_view tensor, std::vector<Diagnostic>& out) {
  if (!is_valid(desc.data_type))
    out.push_back({field(tensor, "DataType"),
                   "expected a DML_TENSOR_DATA_TYPE from 1 (FLOAT32) to 11 (INT64), found " +
                       std::to_string(static_cast<std::uint32_t>(desc.data_type))});
  if (desc.sizes.empty())
    out.push_back({field(tensor, "DimensionCount"), "expected 1 to 8 dimensions, found 0"});
  bool usable = !desc.sizes.empty();
  for (std::size_t i = 0; i < desc.sizes.size(); ++i)
    if (desc.sizes[i] == 0) {
      out.push_back({field(tensor, "Sizes", i), "expected a size of at least 1, found 0"});
      usable = false;
    }
  if (!desc.strides.empty() && desc.strides.size() != desc.sizes.size()) {
    out.push_back({field(tensor, "Strides"),
                   "expected " + std::to_string(desc.sizes.size()) +
                       " strides (one per dimension; none for packed), found " +
                       std::to_string(desc.strides.size())});
    usable = false;
  }
  return usable;
}

// DMLCalcBufferTensorSize of a description that passed check_shape with a valid DataType, or
// 0 and a Diagnostic when the bytes it addresses do not fit in 64 bits.
std::uint64_t rounded_buffer_size(const TensorDesc& desc, std::string_view tensor, std::vector<Diagnostic>& out) {
  const std::uint64_t bytes = addressed_bytes(desc);
  if (bytes != 0 && bytes <= UINT64_MAX - 3) return (bytes + 3) & ~std::uint64_t{3};
  const std::string type(name_of(desc.data_type));
  if (desc.strides.empty())
    out.push_back({field(tensor, "Sizes"),
                   "the sizes " + to_text(desc.sizes) + " of " + type +
                       " elements make more than 2^64 bytes, so the buffer size has no 64-bit value "
                       "(DirectML's helper would wrap)"});
  else
    out.push_back({field(tensor, "Strides"),
                   "the strides " + to_text(desc.strides) + " with the sizes " + to_text(desc.sizes) + " (" +
                       type + ") put the end of the last element past byte 2^64 - 1, so the buffer size "
                       "has no 64-bit value (DirectML's helper would wrap)"});
  return 0;
}

// "1 byte", "3 bytes".
std::string bytes_text(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

}  // namespace

std::uint64_t check_buffer_size(const TensorDesc& desc, std::string_view tensor, std::vector<Diagnostic>& out) {
  if (!check_shape(desc, tensor, out) || !is_valid(desc.data_type)) return 0;
  return rounded_buffer_size(desc, tensor, out);
}

bool check_tensor(const TensorDesc& desc, std::string_view tensor, TensorRole role,
                  std::vector<Diagnostic>& out) {
  if (!check_shape(desc, tensor, out)) return false;
  const std::uint64_t count = element_count(desc.sizes);
  if (count == 0 || count > max_elements) {
    out.push_back({field(tensor, "Sizes"),
                   "a tensor may hold at most 4294967295 (2^32-1) elements; the sizes " +
                       to_text(desc.sizes) + " make " +
                       (count ? std::to_string(count) : std::string("more than 2^64"))});
    return false;
  }
  if (!is_valid(desc.data_type)) return false;  // no element size for what follows
  const std::uint64_t needed = rounded_buffer_size(desc, tensor, out);
  if (needed == 0) return false;
  if (desc.total_bytes != 0 && desc.total_bytes < needed)
    out.push_back({field(tensor, "TotalTensorSizeInBytes"),
                   "expected at least " + std::to_string(needed) +
                       " (DMLCalcBufferTensorSize of the sizes, strides and data type), found " +
                       std::to_string(desc.total_bytes)});
  if (role == TensorRole::output) check_unique(desc, tensor, out);
  return true;
}

namespace {

// The messages of the buffer rules, out of line: execute() runs the rules on every call, the
// messages almost never.
[[gnu::cold, gnu::noinline]] void report_small_buffer(const TensorDesc& desc, std::string_view tensor,
                                                      std::uint64_t addressed, std::uint64_t needed,
                                                      std::size_t found, std::vector<Diagnostic>& out) {
  const char* why = desc.total_bytes > addressed ? " (its TotalTensorSizeInBytes)"
                                                 : " (every byte its sizes and strides address)";
  out.push_back({field(tensor, "Binding.SizeInBytes"), "expected a buffer of at least " + std::to_string(needed) +
                                                           " bytes" + why + ", found " + std::to_string(found)});
}

[[gnu::cold, gnu::noinline]] void report_misaligned(const TensorDesc& desc, std::string_view tensor, std::size_t align,
                                                    std::uintptr_t past, std::vector<Diagnostic>& out) {
  out.push_back({field(tensor, "Binding.Offset"),
                 "expected the data pointer aligned to " + bytes_text(align) + " (the " +
                     std::string(name_of(desc.data_type)) + " element size), found an address " + bytes_text(past) +
                     " past a multiple of " + std::to_string(align)});
}

[[gnu::cold, gnu::noinline]] void report_overlap(const Binding& output, std::uint64_t out_bytes, const Binding& input,
                                                 std::uint64_t in_bytes, std::vector<Diagnostic>& out) {
  // Where the input lies, in bytes from the output's first byte (negative: before it).
  const auto in_start = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(input.buffer.data()) -
                                                  reinterpret_cast<std::uintptr_t>(output.buffer.data()));
  const auto in_end = in_start + static_cast<std::int64_t>(in_bytes);
  out.push_back({field(output.tensor, "Binding"),
                 "expected no byte shared with " + std::string(input.tensor) +
                     " (these operators do not run in place), found the byte ranges from first to last "
                     "addressed element overlapping: " + std::string(output.tensor) + " spans bytes 0 to " +
                     std::to_string(out_bytes) + " and " + std::string(input.tensor) + " bytes " +
                     std::to_string(in_start) + " to " + std::to_string(in_end) + ", counted from " +
                     std::string(output.tensor) + "'s first byte (whole ranges are compared, so an input "
                     "lying in the output's padding between elements counts as overlapping)"});
}

// check_no_overlap with both tensors' addressed bytes known.
void check_no_overlap(const Binding& output, std::uint64_t out_bytes, const Binding& input, std::uint64_t in_bytes,
                      std::vector<Diagnostic>& out) {
  const auto out_begin = reinterpret_cast<std::uintptr_t>(output.buffer.data());
  const auto in_begin = reinterpret_cast<std::uintptr_t>(input.buffer.data());
  if (out_begin < in_begin + in_bytes && in_begin < out_begin + out_bytes)
    report_overlap(output, out_bytes, input, in_bytes, out);
}

// check_binding, given the tensor's addressed bytes.
void check_binding(const TensorDesc& desc, std::uint64_t addressed, std::string_view tensor,
                   std::span<const std::byte> buffer, std::vector<Diagnostic>& out) {
  const std::uint64_t needed = std::max<std::uint64_t>(addressed, desc.total_bytes);
  if (buffer.size() < needed) return report_small_buffer(desc, tensor, addressed, needed, buffer.size(), out);
  const std::size_t align = size_of(desc.data_type);  // a power of two
  const std::uintptr_t past = reinterpret_cast<std::uintptr_t>(buffer.data()) & (align - 1);
  if (past != 0) report_misaligned(desc, tensor, align, past, out);
}

}  // namespace

void check_binding(const TensorDesc& desc, std::string_view tensor, std::span<const std::byte> buffer,
                   std::vector<Diagnostic>& out) {
  check_binding(desc, addressed_bytes(desc), tensor, buffer, out);
}

void check_no_overlap(const Binding& output, const Binding& input, std::vector<Diagnostic>& out) {
  check_no_overlap(output, addressed_bytes(output.desc), input, addressed_bytes(input.desc), out);
}

void check_bindings(const Binding& output, std::initializer_list<Binding> inputs, AddressedBytes& addressed,
                    std::vector<Diagnostic>& out) {
  // Each tensor's addressed bytes once per description: computing them on every call was a
  // sixth of a small ONE_HOT call (docs/performance.md, "Small calls").
  assert(inputs.size() <= max_inputs);
  if (addressed[0] == 0) {
    addressed[0] = addressed_bytes(output.desc);
    for (std::size_t i = 1; const Binding& input : inputs) addressed[i++] = addressed_bytes(input.desc);
  }
  const std::size_t before = out.size();
  for (std::size_t i = 1; const Binding& input : inputs)
    check_binding(input.desc, addressed[i++], input.tensor, input.buffer, out);
  check_binding(output.desc, addressed[0], output.tensor, output.buffer, out);
  if (out.size() != before) return;  // overlaps are only meaningful for buffers that hold their tensors
  for (std::size_t i = 1; const Binding& input : inputs)
    check_no_overlap(output, addressed[0], input, addressed[i++], out);
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
