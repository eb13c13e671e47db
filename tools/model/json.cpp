#include "json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <strings.h>

#include <rapidjson/error/en.h>

namespace refops::model {

void parse_json(rapidjson::Document& doc, std::string_view text) {
  // rapidjson reads up to a NUL; a string_view need not end with one.
  std::string copy(text);
  doc.Parse<json_parse_flags>(copy.c_str(), copy.size());
  if (!doc.HasParseError()) return;
  const std::size_t offset = std::min(doc.GetErrorOffset(), copy.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (copy[i] == '\n') ++line, column = 1;
    else ++column;
  }
  throw ModelError("line " + std::to_string(line) + ", column " + std::to_string(column),
                   std::string("JSON syntax: ") + rapidjson::GetParseError_En(doc.GetParseError()));
}

void Json::fail(const std::string& message) const { throw ModelError(path_, message); }

std::string Json::describe() const {
  const auto& v = *v_;
  if (v.IsString()) {
    std::string s(v.GetString(), v.GetStringLength());
    if (s.size() > 40) s = s.substr(0, 40) + "...";
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
  j.fail("\"" + j.string() + "\" is not a DML_TENSOR_DATA_TYPE");
}

}  // namespace refops::model
