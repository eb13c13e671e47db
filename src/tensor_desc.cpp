#include <refops/tensor_desc.hpp>

#include <vector>

#include <refops/diagnostics.hpp>

#include "validation/tensor_rules.hpp"

namespace refops {

// The validator's own rules for a buffer size (check_buffer_size), with fields that name no
// tensor ("Sizes[1]"): one rule, one message, whichever way it is reached.
std::uint64_t calc_buffer_tensor_size(const TensorDesc& desc) {
  std::vector<Diagnostic> diagnostics;
  const std::uint64_t bytes = detail::check_buffer_size(desc, "", diagnostics);
  detail::throw_if_any(std::move(diagnostics));
  return bytes;
}

}  // namespace refops
