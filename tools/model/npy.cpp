#include "npy.hpp"

#include "checked.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace refops::model {

namespace {

constexpr std::string_view magic = "\x93NUMPY";

std::uint64_t little_endian(std::string_view bytes) {
  std::uint64_t v = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) v = v << 8 | static_cast<unsigned char>(bytes[i]);
  return v;
}

// The header dictionary is a Python literal: {'descr': '<f4', 'fortran_order': False,
// 'shape': (3, 4), }. This reads exactly that subset: quoted strings, True/False, tuples of
// non-negative integers.
struct Literal {
  enum Kind { string, boolean, tuple } kind = string;
  std::string text;
  bool flag = false;
  std::vector<std::uint64_t> numbers;
};

class DictParser {
 public:
  explicit DictParser(std::string_view s) : s_(s) {}

  std::map<std::string, Literal> parse() {
    std::map<std::string, Literal> dict;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') { ++pos_; break; }
      std::string key = quoted();
      expect(':');
      if (dict.count(key)) fail("the key '" + key + "' appears twice");
      dict[key] = value();
      skip_space();
      if (peek() == ',') { ++pos_; continue; }
      expect('}');
      break;
    }
    return dict;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw NpyError("the .npy header dictionary is not one refops-run reads (" + what + ")");
  }
  void skip_space() { while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_; }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string quoted() {
    skip_space();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const std::size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("an unterminated string");
    std::string text(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return text;
  }
  std::uint64_t number() {
    skip_space();
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a dimension");
    std::uint64_t v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const auto d = static_cast<std::uint64_t>(s_[pos_++] - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) fail("a dimension past 2^64");
      v = v * 10 + d;
    }
    if (peek() == 'L') ++pos_;  // Python 2 longs
    return v;
  }
  Literal value() {
    skip_space();
    Literal lit;
    if (peek() == '\'' || peek() == '"') {
      lit.text = quoted();
    } else if (s_.substr(pos_, 4) == "True") {
      lit.kind = Literal::boolean, lit.flag = true, pos_ += 4;
    } else if (s_.substr(pos_, 5) == "False") {
      lit.kind = Literal::boolean, pos_ += 5;
    } else if (peek() == '(') {
      lit.kind = Literal::tuple;
      ++pos_;
      while (true) {
        skip_space();
        if (peek() == ')') { ++pos_; break; }
        lit.numbers.push_back(number());
        skip_space();
        if (peek() == ',') { ++pos_; continue; }
        expect(')');
        break;
      }
    } else {
      fail("a value that is not a string, True, False or a tuple");
    }
    return lit;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

struct Descr {
  DataType type;
  bool big_endian;
};

Descr parse_descr(const std::string& d) {
  if (d.size() >= 2 && d[1] == 'O')
    throw NpyError("the .npy file holds Python objects (dtype '" + d + "'); refops-run reads only numeric arrays");
  if (d.size() < 3) throw NpyError("the .npy dtype '" + d + "' is not one of refops's types");
  const char order = d[0];
  const std::string kind = d.substr(1);
  static const std::pair<const char*, DataType> kinds[] = {
      {"f4", DataType::float32}, {"f2", DataType::float16}, {"f8", DataType::float64},
      {"u1", DataType::uint8},   {"b1", DataType::uint8},   {"u2", DataType::uint16},
      {"u4", DataType::uint32},  {"u8", DataType::uint64},  {"i1", DataType::int8},
      {"i2", DataType::int16},   {"i4", DataType::int32},   {"i8", DataType::int64}};
  for (auto [name, type] : kinds) {
    if (kind != name) continue;
    if (order != '<' && order != '>' && order != '=' && order != '|')
      throw NpyError("the .npy dtype '" + d + "' has no byte order refops-run knows");
    // '|' (not applicable) only for one-byte types; '=' is native, little-endian on every
    // target refops builds for.
    return {type, order == '>' && size_of(type) > 1};
  }
  throw NpyError("the .npy dtype '" + d + "' is not one of refops's types (float16/32/64, int/uint 8-64, bool)");
}

}  // namespace

std::uint64_t npy_header_length(std::string_view first) {
  if (first.size() < 10 || first.substr(0, 6) != magic)
    throw NpyError("not a .npy file (it does not start with \\x93NUMPY)");
  const int major = static_cast<unsigned char>(first[6]);
  if (major == 1) return 10 + little_endian(first.substr(8, 2));
  if (major == 2 || major == 3) {
    if (first.size() < 12) throw NpyError("the .npy file ends inside its header");
    return 12 + little_endian(first.substr(8, 4));
  }
  throw NpyError("the .npy format version " + std::to_string(major) + " is not 1, 2 or 3");
}

NpyHeader parse_npy_header(std::string_view file, std::uint64_t file_size) {
  const std::uint64_t length = npy_header_length(file);
  if (length > file.size() || length > file_size) throw NpyError("the .npy file ends inside its header");
  const std::size_t dict_start = static_cast<unsigned char>(file[6]) == 1 ? 10 : 12;
  const auto dict = DictParser(file.substr(dict_start, length - dict_start)).parse();

  auto field = [&](const char* key, Literal::Kind kind) -> const Literal& {
    auto it = dict.find(key);
    if (it == dict.end()) throw NpyError(std::string("the .npy header has no '") + key + "'");
    if (it->second.kind != kind) throw NpyError(std::string("the .npy header's '") + key + "' has the wrong kind of value");
    return it->second;
  };
  if (field("fortran_order", Literal::boolean).flag)
    throw NpyError("the .npy array is in Fortran order; refops-run reads C order only "
                   "(save it with numpy.ascontiguousarray)");
  auto descr_it = dict.find("descr");
  if (descr_it != dict.end() && descr_it->second.kind != Literal::string)
    throw NpyError("the .npy dtype is structured; refops-run reads plain numeric arrays only");
  const Descr descr = parse_descr(field("descr", Literal::string).text);

  NpyHeader h;
  h.type = descr.type;
  h.big_endian = descr.big_endian;
  h.shape = field("shape", Literal::tuple).numbers;
  h.data_offset = length;
  h.data_bytes = size_of(h.type);
  for (std::uint64_t d : h.shape) {
    const auto bytes = checked_product(h.data_bytes, d);
    if (!bytes) throw NpyError("the .npy shape holds more than 2^64 bytes");
    h.data_bytes = *bytes;
  }
  if (file_size - length < h.data_bytes)
    throw NpyError("the .npy file holds " + std::to_string(file_size - length) + " data bytes; its shape needs " +
                   std::to_string(h.data_bytes));
  return h;
}

std::string npy_header(DataType type, std::span<const std::uint64_t> shape) {
  static const std::map<DataType, const char*> descr = {
      {DataType::float32, "<f4"}, {DataType::float16, "<f2"}, {DataType::float64, "<f8"},
      {DataType::uint8, "|u1"},   {DataType::uint16, "<u2"},  {DataType::uint32, "<u4"},
      {DataType::uint64, "<u8"},  {DataType::int8, "|i1"},    {DataType::int16, "<i2"},
      {DataType::int32, "<i4"},   {DataType::int64, "<i8"}};
  std::string dict = "{'descr': '" + std::string(descr.at(type)) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dict += ',';  // (3,) as NumPy writes it
  dict += "), }";
  const bool v1 = dict.size() + 11 <= 65535;
  const std::size_t preamble = v1 ? 10 : 12;
  std::size_t total = preamble + dict.size() + 1;  // + '\n'
  total = (total + 63) / 64 * 64;
  dict.append(total - preamble - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(magic);
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  const std::uint64_t n = dict.size();
  for (std::size_t i = 0; i < (v1 ? 2u : 4u); ++i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + dict;
}

void byte_swap(std::span<std::byte> data, std::size_t element_size) {
  for (std::size_t i = 0; i + element_size <= data.size(); i += element_size)
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(i), data.begin() + static_cast<std::ptrdiff_t>(i + element_size));
}

}  // namespace refops::model
