// Reading RapidJSON values with their JSON path, so every ModelError says where it is:
// "resources.indices.initialValues[3]: expected an unsigned integer, found -1".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "model.hpp"

namespace refops::model {

// DxDispatch's parse flags (JsonParsers.cpp): `//` and `/* */` comments, trailing commas, full
// double precision, and nothing after the root value is read. No NaN/Infinity literals: as in
// DxDispatch, non-finite values are the strings "nan", "inf", "-inf". Ours add rapidjson's
// iterative parser: the recursive one overflowed the stack on a file of 200000 `[` (a crash,
// not a message; found by fuzzing with a small stack). And rapidjson hands us each number's
// text instead of converting it: RapidJSON 1.1.0's conversion reads past its table of powers
// of ten for some long numbers with large exponents (Tencent/rapidjson#1251; found by fuzzing
// under UBSan), so parse_json converts them with std::from_chars, correctly rounded.
inline constexpr unsigned json_parse_flags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseCommentsFlag |
                                             rapidjson::kParseTrailingCommasFlag | rapidjson::kParseStopWhenDoneFlag |
                                             rapidjson::kParseIterativeFlag;

// Parses `text` into `doc`; a syntax error is a ModelError naming the line and column.
void parse_json(rapidjson::Document& doc, std::string_view text);

class Json {
 public:
  Json(const rapidjson::Value& value, std::string path) : v_(&value), path_(std::move(path)) {}

  const rapidjson::Value& value() const { return *v_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& message) const;

  // Objects: members by name. Every object read is checked for duplicate keys once (first
  // call of `members`, `find` or `get`), an error since DxDispatch silently takes the first.
  bool is_object() const { return v_->IsObject(); }
  std::vector<std::pair<std::string, Json>> members() const;
  std::optional<Json> find(std::string_view key) const;
  // `key` or its other spelling (type/Type, desc/Desc); both present is an error.
  std::optional<Json> find_either(std::string_view key, std::string_view other) const;
  Json get(std::string_view key) const;  // required
  // Names of members not in `known`, as warnings "path.key: ..." (DxDispatch ignores them).
  void warn_unknown(const std::vector<std::string_view>& known, std::vector<std::string>& warnings) const;

  std::vector<Json> elements() const;  // an array's
  std::string string() const;
  bool boolean() const;
  std::string describe() const;  // "the string \"x\"", "-1", "an object": for messages

  // An integer of type T: integral and in range.
  template <class T>
  T integer() const;
  // A floating-point field: a number, or "nan", "inf", "-inf" (any case).
  double floating() const;
  // An element of `type` as DxDispatch reads initial values and scalars (floats: number or
  // the strings; integers: integral and in range), as its 8 little-endian union bytes.
  std::array<std::byte, 8> element(DataType type) const;
  std::vector<std::uint32_t> uint32_array() const;

 private:
  void check_duplicates() const;
  const rapidjson::Value* v_;
  std::string path_;
};

// DML_TENSOR_DATA_TYPE in DxDispatch's spellings: "FLOAT32" or "DML_TENSOR_DATA_TYPE_FLOAT32".
// UNKNOWN, UINT4 and INT4 are DirectML's but not refops's: they come back as their
// DML_TENSOR_DATA_TYPE numbers (0, 12, 13), which refops's validation names as invalid.
DataType data_type(const Json&);

}  // namespace refops::model
