// Diagnostics: why a description is invalid, in DirectML's words.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace refops {

struct Diagnostic {
  std::string field;    // DirectML's words: "IndicesTensor.Sizes[1]", "Axis", "ValuesTensor.DataType"
  std::string message;  // what was expected and what was found
};

// One line per diagnostic: "field: message".
std::string to_string(const std::vector<Diagnostic>&);

// Thrown by execute() (and the few helpers that cannot return diagnostics) before anything is
// written. what() is to_string(diagnostics()).
class Error : public std::invalid_argument {
 public:
  explicit Error(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace refops
