// NumPy .npy files: the header of a file to read, and the header of a file to write. Debian 12
// packages no C++ .npy library that takes float16 or version 2.0/3.0 headers (libcnpy is not
// packaged), so this is the one small reader/writer (docs/decisions.md, refops-run).
//
// Read: versions 1.0, 2.0 and 3.0; C order only; every refops type, little- or big-endian
// ('<', '>', '=', '|'), bool as UINT8. Refused with a message: Fortran order, object,
// structured, string and complex arrays. The data is not read here: the caller reads
// `data_bytes` bytes at `data_offset` straight into its own buffer (no copy).
// Write: version 1.0 (2.0 when the header needs more than 65535 bytes), little-endian, C order.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <refops/data_type.hpp>

namespace refops::model {

class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NpyHeader {
  DataType type = DataType::float32;
  bool big_endian = false;             // the data must be byte-swapped after reading
  std::vector<std::uint64_t> shape;    // empty: a 0-d array of one element
  std::uint64_t data_offset = 0;       // bytes before the data
  std::uint64_t data_bytes = 0;        // elements x element size
};

// Parses the header at the start of `file_start` (at least the first 12 bytes of the file;
// more when the header is longer: `npy_header_length` says how many). `file_size` is the whole
// file's size, to check the data is all there. Throws NpyError.
NpyHeader parse_npy_header(std::string_view file_start, std::uint64_t file_size);
// The whole header's length (magic, version, length field and dictionary) from the first 12
// bytes of a file. Throws NpyError when they are not a .npy preamble.
std::uint64_t npy_header_length(std::string_view first_12_bytes);

// The header of a little-endian C-order array of `type` and `shape`, padded to 64 bytes.
std::string npy_header(DataType type, std::span<const std::uint64_t> shape);

// Reverses the bytes of each `element_size`-byte element in place (big-endian data).
void byte_swap(std::span<std::byte> data, std::size_t element_size);

}  // namespace refops::model
