#include "json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <strings.h>

#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

namespace refops::model {

namespace {

// Forwards rapidjson's events to a Document, converting each number's text itself (see
// json_parse_flags for why). rapidjson has checked the text against JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
class NumbersConverted {
 public:
  explicit NumbersConverted(rapidjson::Document& doc) : doc_(doc) {}
  const char* error() const { return error_; }

  // The reader's template names every event; with json_parse_flags a number only ever arrives
  // as RawNumber, so Int through Double are there to compile, and forward as the rest do.
  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(d); }
  bool String(const char* s, rapidjson::SizeType n, bool copy) { return doc_.String(s, n, copy); }
  bool StartObject() { return doc_.StartObject(); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return doc_.Key(s, n, copy); }
  bool EndObject(rapidjson::SizeType members) { return doc_.EndObject(members); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return doc_.EndArray(elements); }

  // As rapidjson would store it: an integer when it is one that fits 64 bits, else a double.
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view text(s, n);
    const char* end = s + n;
    if (text.find_first_of(".eE") == std::string_view::npos) {
      if (text.front() == '-') {
        std::int64_t i;
        if (std::from_chars(s, end, i).ec == std::errc{}) return doc_.Int64(i);
      } else {
        std::uint64_t u;
        if (std::from_chars(s, end, u).ec == std::errc{}) return doc_.Uint64(u);
      }
    }
    double d;
    const auto [ptr, ec] = std::from_chars(s, end, d);
    if (ec == std::errc{} && ptr == end) return doc_.Double(d);
    if (ec != std::errc::result_out_of_range || ptr != end) {
      error_ = "a number rapidjson read that std::from_chars did not";  // not expected: the grammar is the same
      return false;
    }
    if (decimal_exponent(text) > 0) {
      error_ = "Number too big to be stored in double.";  // rapidjson's own words for 1e400
      return false;
    }
    return doc_.Double(text.front() == '-' ? -0.0 : 0.0);  // below half the least subnormal: rounds to zero
  }

 private:
  // The power of ten of the number's leading digit (0 for 5, 2 for 123.4, -3 for 0.002e0), or
  // of zero's only digit. Only its sign is used: to tell overflow from underflow.
  static long long decimal_exponent(std::string_view text) {
    const std::size_t e = std::min(text.find_first_of("eE"), text.size());
    long long exponent = 0;
    if (e < text.size()) {
      const std::string_view digits = text.substr(e + 1);
      const bool minus = digits.front() == '-';
      for (char c : digits.substr(digits.front() == '-' || digits.front() == '+'))
        exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000'000LL);  // saturates: the sign is all we need
      if (minus) exponent = -exponent;
    }
    const std::string_view mantissa = text.substr(text.front() == '-', e - (text.front() == '-'));
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_of("123456789");
    if (first == std::string_view::npos) return 0;
    const long long lead = first < point ? static_cast<long long>(point - first - 1) : -static_cast<long long>(first - point);
    return exponent + lead;
  }

  rapidjson::Document& doc_;
  const char* error_ = nullptr;
};

}  // namespace

void parse_json(rapidjson::Document& doc, std::string_view text) {
  rapidjson::Reader reader;
  const char* conversion_error = nullptr;
  auto parse = [&](rapidjson::Document& handler) {
    // A memory stream reads `size` bytes: a string_view need not end with a NUL.
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> stream(bytes);
    NumbersConverted numbers(handler);
    const bool ok = !reader.Parse<json_parse_flags>(stream, numbers).IsError();
    conversion_error = numbers.error();
    return ok;
  };
  doc.Populate(parse);
  if (!reader.HasParseError()) return;
  const std::size_t offset = std::min(reader.GetErrorOffset(), text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else ++column;
  }
  const char* message = conversion_error ? conversion_error : rapidjson::GetParseError_En(reader.GetParseErrorCode());
  throw ModelError("line " + std::to_string(line) + ", column " + std::to_string(column),
                   std::string("JSON syntax: ") + message);
}

void Json::fail(const std::string& message) const { throw ModelError(path_, message); }

std::string Json::describe() const {
  const auto& v = *v_;
  if (v.IsString()) {
    std::string s(v.GetString(), v.GetStringLength());
    if (s.size() > 40) {  // in place: GCC 12 warns of substr() + "..." (-Warray-bounds, a false alarm)
      s.resize(40);
      s += "...";
    }
    return "the string \"" + s + "\"";
  }
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsNull()) return "null";
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "an array";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.GetDouble());
  return buf;
}

void Json::check_duplicates() const {
  if (!v_->IsObject()) fail("expected an object, found " + describe());
  std::set<std::string_view> seen;
  for (auto it = v_->MemberBegin(); it != v_->MemberEnd(); ++it) {
    std::string_view key(it->name.GetString(), it->name.GetStringLength());
    if (!seen.insert(key).second) fail("the key \"" + std::string(key) + "\" appears twice");
  }
}

std::vector<std::pair<std::string, Json>> Json::members() const {
  check_duplicates();
  std::vector<std::pair<std::string, Json>> out;
  for (auto it = v_->MemberBegin(); it != v_->MemberEnd(); ++it) {
    std::string key(it->name.GetString(), it->name.GetStringLength());
    out.emplace_back(key, Json(it->value, path_.empty() ? key : path_ + "." + key));
  }
  return out;
}

std::optional<Json> Json::find(std::string_view key) const {
  check_duplicates();
  for (auto it = v_->MemberBegin(); it != v_->MemberEnd(); ++it)
    if (std::string_view(it->name.GetString(), it->name.GetStringLength()) == key)
      return Json(it->value, (path_.empty() ? "" : path_ + ".") + std::string(key));
  return std::nullopt;
}

std::optional<Json> Json::find_either(std::string_view key, std::string_view other) const {
  auto a = find(key), b = find(other);
  if (a && b) fail("has both \"" + std::string(key) + "\" and \"" + std::string(other) + "\"; give one");
  return a ? a : b;
}

Json Json::get(std::string_view key) const {
  auto j = find(key);
  if (!j) fail("the field \"" + std::string(key) + "\" is required");
  return *j;
}

void Json::warn_unknown(const std::vector<std::string_view>& known, std::vector<std::string>& warnings) const {
  for (auto& [key, value] : members())
    if (std::find(known.begin(), known.end(), key) == known.end())
      warnings.push_back(value.path() + ": unknown field, ignored (as DxDispatch does)");
}

std::vector<Json> Json::elements() const {
  if (!v_->IsArray()) fail("expected an array, found " + describe());
  std::vector<Json> out;
  out.reserve(v_->Size());
  for (rapidjson::SizeType i = 0; i < v_->Size(); ++i)
    out.emplace_back((*v_)[i], path_ + "[" + std::to_string(i) + "]");
  return out;
}

std::string Json::string() const {
  if (!v_->IsString()) fail("expected a string, found " + describe());
  return std::string(v_->GetString(), v_->GetStringLength());
}

bool Json::boolean() const {
  if (!v_->IsBool()) fail("expected true or false, found " + describe());
  return v_->GetBool();
}

template <class T>
T Json::integer() const {
  static_assert(std::is_integral_v<T>);
  const auto& v = *v_;
  constexpr bool is_signed = std::is_signed_v<T>;
  const char* kind = is_signed ? "an integer" : "an unsigned integer";
  if (!v.IsNumber()) fail(std::string("expected ") + kind + ", found " + describe());
  if (!v.IsInt64() && !v.IsUint64()) fail(std::string("expected ") + kind + ", found " + describe());
  bool fits;
  if (v.IsInt64()) {
    const std::int64_t x = v.GetInt64();
    fits = x >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
           (x < 0 || static_cast<std::uint64_t>(x) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
    if (fits) return static_cast<T>(x);
  } else {
    const std::uint64_t x = v.GetUint64();
    fits = x <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (fits) return static_cast<T>(x);
  }
  fail(std::string("expected ") + kind + " from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
       std::to_string(std::numeric_limits<T>::max()) + ", found " + describe());
}

template std::int8_t Json::integer<std::int8_t>() const;
template std::int16_t Json::integer<std::int16_t>() const;
template std::int32_t Json::integer<std::int32_t>() const;
template std::int64_t Json::integer<std::int64_t>() const;
template std::uint8_t Json::integer<std::uint8_t>() const;
template std::uint16_t Json::integer<std::uint16_t>() const;
template std::uint32_t Json::integer<std::uint32_t>() const;
template std::uint64_t Json::integer<std::uint64_t>() const;

double Json::floating() const {
  const auto& v = *v_;
  if (v.IsNumber()) return v.GetDouble();
  if (v.IsString()) {
    const char* s = v.GetString();
    if (!strcasecmp(s, "nan")) return std::numeric_limits<double>::quiet_NaN();
    if (!strcasecmp(s, "inf")) return std::numeric_limits<double>::infinity();
    if (!strcasecmp(s, "-inf")) return -std::numeric_limits<double>::infinity();
  }
  fail("expected a number or \"nan\", \"inf\", \"-inf\", found " + describe());
}

std::array<std::byte, 8> Json::element(DataType type) const {
  std::array<std::byte, 8> bytes{};
  if (!is_valid(type)) fail("values of type " + std::to_string(static_cast<unsigned>(type)) + " are not supported");
  visit_data_type(type, [&](auto tag) {
    using T = decltype(tag);
    T x;
    if constexpr (std::is_same_v<T, float16>) x = float16(static_cast<float>(floating()));  // double -> float -> half
    else if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(floating());
    else x = integer<T>();
    std::memcpy(bytes.data(), &x, sizeof x);
  });
  return bytes;
}

std::vector<std::uint32_t> Json::uint32_array() const {
  std::vector<std::uint32_t> out;
  for (const Json& e : elements()) out.push_back(e.integer<std::uint32_t>());
  return out;
}

DataType data_type(const Json& j) {
  std::string s = j.string();
  if (s.starts_with("DML_TENSOR_DATA_TYPE_")) s = s.substr(21);
  if (s == "UNKNOWN") return static_cast<DataType>(0);
  if (s == "UINT4") return static_cast<DataType>(12);
  if (s == "INT4") return static_cast<DataType>(13);
  for (DataType t : all_data_types)
    if (name_of(t) == s) return t;
  // Named: on "..." + a temporary string, GCC 12 -O2 draws a false -Wstringop-overflow.
  const std::string name = j.string();
  j.fail("\"" + name + "\" is not a DML_TENSOR_DATA_TYPE");
}

}  // namespace refops::model
