#include <refops/diagnostics.hpp>

namespace refops {

std::string to_string(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += d.field;
    text += ": ";
    text += d.message;
  }
  return text;
}

Error::Error(std::vector<Diagnostic> diagnostics)
    : std::invalid_argument(to_string(diagnostics)), diagnostics_(std::move(diagnostics)) {}

}  // namespace refops
