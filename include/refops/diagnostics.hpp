// Diagnostics: why a description is invalid, in DirectML's words.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace refops {

struct Diagnostic {
  std::string field;    // DirectML's words: "IndicesTensor.Sizes[1]", "Axis", "ValuesTensor.DataType"
  std::string message;  // what was expected and what was found
};

// One line per diagnostic: "field: message".
inline std::string to_string(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += d.field;
    text += ": ";
    text += d.message;
  }
  return text;
}

// Thrown by execute() (and the few helpers that cannot return diagnostics) before anything is
// written. what() is to_string(diagnostics()). Defined here, so that the header-only kernels
// (whose Dims throws it) need no library.
class Error : public std::invalid_argument {
 public:
  explicit Error(std::vector<Diagnostic> diagnostics)
      : std::invalid_argument(to_string(diagnostics)), diagnostics_(std::move(diagnostics)) {}
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace refops
