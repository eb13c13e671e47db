#include "threads/split_calls.hpp"

#include <refops/tensor_desc.hpp>

#include "threads/split.hpp"
#include "threads/split_reduced.hpp"

namespace refops::detail {
namespace {

// Runs the call whole, or its parts on the pool. `slice(call, dim, first, last)` returns the
// sub-call of the elements with coordinate [first, last) along dim.
//
// Store strategy (issue 10): every part carries the whole call's output bytes (call_bytes), so
// its kernel makes the decision the unsplit call would.
template <class Call, class Slice>
void run_whole_or_parts(const Call& call, void (*entry)(const Call&), const Split& split, Slice slice) {
  if (split.parts < 2) return entry(call);
  run_parts(split, [&](std::size_t, std::size_t first, std::size_t last) {
    entry(slice(call, split.dim, first, last));
  });
}

}  // namespace

void run_split(const OneHotCall& call, void (*entry)(const OneHotCall&), const ExecuteOptions& options) {
  const std::uint64_t elements = element_count(call.sizes);
  const std::size_t index_bytes = size_of(call.index_type);
  const std::uint64_t sequences = call.sizes[call.axis] ? elements / call.sizes[call.axis] : 0;
  const SplitShape shape{elements * call.value_bytes + sequences * index_bytes, &call.sizes,
                         &call.output_strides, call.value_bytes, ~(1u << call.axis)};
  const Split split = plan_split(shape, options);
  run_whole_or_parts(call, entry, split, [&](OneHotCall part, std::size_t d, std::size_t first, std::size_t last) {
    part.call_bytes = static_cast<std::size_t>(elements * call.value_bytes);
    part.sizes[d] = static_cast<std::uint32_t>(last - first);
    part.output = advanced(part.output, first, call.output_strides[d], call.value_bytes);
    part.indices = advanced(part.indices, first, call.indices_strides[d], index_bytes);
    return part;
  });
}

void run_split(const DiagonalMatrixCall& call, void (*entry)(const DiagonalMatrixCall&),
               const ExecuteOptions& options) {
  const std::size_t rank = call.sizes.size();
  const std::size_t row_dim = rank - 2;  // validation: rank >= 2
  const std::uint64_t out_bytes = element_count(call.sizes) * call.element_bytes;
  const SplitShape shape{call.input ? 2 * out_bytes : out_bytes, &call.sizes, &call.output_strides,
                         call.element_bytes, (1u << (row_dim + 1)) - 1};  // batch dimensions and rows
  const Split split = plan_split(shape, options);
  run_whole_or_parts(call, entry, split, [&](DiagonalMatrixCall part, std::size_t d, std::size_t first,
                                             std::size_t last) {
    part.call_bytes = static_cast<std::size_t>(out_bytes);
    part.sizes[d] = static_cast<std::uint32_t>(last - first);
    part.output = advanced(part.output, first, call.output_strides[d], call.element_bytes);
    if (part.input) part.input = advanced(part.input, first, call.input_strides[d], call.element_bytes);
    if (d == row_dim) {  // 64-bit: |Begin|, |End| <= 2^31 and first < 2^32 cannot overflow
      part.fill_begin += static_cast<std::int64_t>(first);
      part.fill_end += static_cast<std::int64_t>(first);
    }
    return part;
  });
}

void run_split(const HardmaxCall& call, void (*entry)(const HardmaxCall&), const ExecuteOptions& options) {
  const std::size_t bytes = call.type == HardmaxType::float16 ? 2 : 4;
  unsigned kept = (1u << call.sizes.size()) - 1;
  for (std::uint32_t a : call.axes) kept &= ~(1u << a);
  const SplitShape shape{2 * element_count(call.sizes) * bytes, &call.sizes, &call.output_strides, bytes, kept};
  const Split split = plan_split(shape, options);
  if (run_reduced_split(call, entry, options, split.parts)) return;
  run_whole_or_parts(call, entry, split, [&](HardmaxCall part, std::size_t d, std::size_t first, std::size_t last) {
    part.call_bytes = static_cast<std::size_t>(element_count(call.sizes) * bytes);
    part.sizes[d] = static_cast<std::uint32_t>(last - first);
    part.input = advanced(part.input, first, call.input_strides[d], bytes);
    part.output = advanced(part.output, first, call.output_strides[d], bytes);
    return part;
  });
}

}  // namespace refops::detail
