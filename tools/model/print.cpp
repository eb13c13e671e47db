// The print command's text, as DxDispatch's Executor prints a buffer.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <string>

#include "model.hpp"

namespace refops::model {

// "Resource 'name': 1, 0, 0": the initial values' element count, so the 4-byte padding is
// not shown (DxDispatch trims it). Verbose: "[index] value (0xBITS)" lines. Values print as
// C++ streams print them (6 significant digits); 8-bit integers as numbers, where DxDispatch
// prints them as characters.
void print_buffer(std::ostream& os, const std::string& name, const Buffer& b, bool verbose) {
  const std::size_t element = size_of(b.type);
  const std::uint64_t count = std::min(b.initial_bytes, b.bytes.size()) / element;
  os << "Resource '" << name << "':" << (verbose ? "\n" : " ");
  const std::size_t index_width = std::to_string(count).size();  // DxDispatch: floor(log10(count)) + 1
  visit_data_type(b.type, [&](auto tag) {
    using T = decltype(tag);
    for (std::uint64_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, b.bytes.data() + i * sizeof(T), sizeof(T));
      if (verbose) {
        const std::string index = std::to_string(i);
        os << '[' << std::string(index.size() < index_width ? index_width - index.size() : 0, ' ') << index << "] ";
      }
      if constexpr (std::is_same_v<T, float16>) os << static_cast<float>(v);
      else if constexpr (sizeof(T) == 1) os << static_cast<int>(v);
      else os << v;
      if (verbose) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof(T));
        char hex[32];
        std::snprintf(hex, sizeof hex, " (0x%0*llX)\n", static_cast<int>(2 * sizeof(T)), static_cast<unsigned long long>(bits));
        os << hex;
      } else if (i + 1 < count) {
        os << ", ";
      }
    }
  });
  if (!verbose) os << "\n";
}

}  // namespace refops::model
