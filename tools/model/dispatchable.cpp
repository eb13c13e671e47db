// Dispatchables: DirectML operator descriptions in DxDispatch's JSON, read into refops's
// descriptions (JsonParsersGenerated.cpp's fields for our five operators).
#include <algorithm>
#include <cstring>
#include <strings.h>

#include "json.hpp"
#include "model.hpp"
#include "read.hpp"

namespace refops::model {

namespace {

constexpr const char* operators_we_have =
    "DML_OPERATOR_ONE_HOT, DML_OPERATOR_DIAGONAL_MATRIX, DML_OPERATOR_DIAGONAL_MATRIX1, "
    "DML_OPERATOR_ACTIVATION_HARDMAX, DML_OPERATOR_ACTIVATION_HARDMAX1";

// Keys of a dispatchable object besides its desc (DxDispatch reads or ignores each).
const std::vector<std::string_view> dispatchable_fields = {"type", "Type", "desc", "Desc", "executionFlags",
                                                           "dmlCompileType", "bindings"};

class DescReader {
 public:
  // `inline_desc`: the desc's fields are the dispatchable's own (no "desc" object), so its
  // keys "type", "executionFlags"... are not unknown.
  DescReader(Dispatchable& d, const Json& desc, bool inline_desc, std::vector<std::string>& warnings)
      : d_(d), desc_(desc), inline_desc_(inline_desc), warnings_(warnings) {}

  TensorDesc tensor(const char* field) { return read_tensor(desc_.get(field), field); }
  std::optional<TensorDesc> optional_tensor(const char* field) {
    auto j = desc_.find(field);
    if (!j) return std::nullopt;
    return read_tensor(*j, field);
  }
  template <class T>
  T integer(const char* field) { return desc_.get(field).integer<T>(); }
  float float32(const char* field) { return static_cast<float>(desc_.get(field).floating()); }

  Scalar scalar(const char* field, DataType type) {
    const Json j = desc_.get(field);
    if (!is_valid(type)) {
      d_.read_diagnostics.push_back({"ValueDataType", "expected one of refops's 11 data types, found DML_TENSOR_DATA_TYPE " +
                                                          std::to_string(static_cast<unsigned>(type))});
      return Scalar();
    }
    std::array<std::byte, 8> bytes{};
    if (j.is_object()) {
      // DML_SCALAR_UNION's member for the type; FLOAT16 is its raw bits in UInt16 (DxDispatch).
      static const char* members[] = {"", "Float32", "UInt16", "UInt32", "UInt16", "UInt8", "Int32",
                                      "Int16", "Int8", "Float64", "UInt64", "Int64"};
      const char* member = members[static_cast<unsigned>(type)];
      const Json m = j.get(member);
      bytes = type == DataType::float16 ? m.element(DataType::uint16) : m.element(type);
      j.warn_unknown({member}, warnings_);
    } else if (j.value().IsNumber()) {
      bytes = j.element(type);
    } else {
      j.fail("expected a number or an object naming the DML_SCALAR_UNION member (such as {\"" +
             std::string(type == DataType::float16 ? "UInt16" : "Float32") + "\": ...}), found " + j.describe());
    }
    return Scalar::from_union_bytes(type, bytes);
  }

  void done(std::vector<std::string_view> fields) {
    if (inline_desc_) fields.insert(fields.end(), dispatchable_fields.begin(), dispatchable_fields.end());
    desc_.warn_unknown(fields, warnings_);
  }

 private:
  TensorDesc read_tensor(const Json& j, const std::string& field) {
    if (!j.is_object()) j.fail("expected a tensor description (an object), found " + j.describe());
    Json t = j;
    if (auto type = j.find("Type")) {
      const std::string s = type->string();
      if (s != "DML_TENSOR_TYPE_BUFFER" && s != "BUFFER")
        type->fail("\"" + s + "\": refops-run reads buffer tensors only (DML_TENSOR_TYPE_BUFFER)");
    }
    if (auto inner = j.find("Desc")) {
      j.warn_unknown({"Type", "Desc"}, warnings_);
      t = *inner;
      if (!t.is_object()) t.fail("expected a DML_BUFFER_TENSOR_DESC (an object), found " + t.describe());
    }
    d_.field_paths[field] = t.path();
    d_.tensors.push_back(field);

    TensorDesc desc;
    desc.data_type = data_type(t.get("DataType"));
    const auto sizes = t.get("Sizes").uint32_array();
    std::vector<std::uint32_t> strides;
    if (auto s = t.find("Strides")) strides = s->uint32_array();
    if (sizes.size() > Dims::capacity || strides.size() > Dims::capacity) {
      d_.read_diagnostics.push_back({field + (sizes.size() > Dims::capacity ? ".Sizes" : ".Strides"),
                                     "expected at most 8 dimensions (DML_TENSOR_DIMENSION_COUNT_MAX1), found " +
                                         std::to_string(std::max(sizes.size(), strides.size()))});
    } else {
      desc.sizes = Dims(sizes.begin(), sizes.end());
      desc.strides = Dims(strides.begin(), strides.end());
    }
    if (auto count = t.find("DimensionCount")) {
      const auto n = count->integer<std::uint32_t>();
      if (n != sizes.size())
        d_.read_diagnostics.push_back({field + ".DimensionCount", "expected " + std::to_string(sizes.size()) +
                                                                      " (the length of Sizes), found " + std::to_string(n)});
    }
    if (auto total = t.find("TotalTensorSizeInBytes")) desc.total_bytes = total->integer<std::uint64_t>();
    if (auto align = t.find("GuaranteedBaseOffsetAlignment")) (void)align->integer<std::uint32_t>();
    if (auto flags = t.find("Flags")) {  // DML_TENSOR_FLAGS change nothing on the CPU
      const auto& v = flags->value();
      if (!v.IsString() && !v.IsArray() && !v.IsUint64()) flags->fail("expected DML_TENSOR_FLAGS, found " + flags->describe());
    }
    t.warn_unknown({"DataType", "Sizes", "Strides", "DimensionCount", "TotalTensorSizeInBytes", "Flags",
                    "GuaranteedBaseOffsetAlignment", "Type"},
                   warnings_);
    return desc;
  }

  Dispatchable& d_;
  Json desc_;
  bool inline_desc_;
  std::vector<std::string>& warnings_;
};

Desc read_desc(const std::string& type, Dispatchable& d, const Json& desc, bool inline_desc,
               std::vector<std::string>& warnings) {
  DescReader r(d, desc, inline_desc, warnings);
  if (type == "ONE_HOT") {
    OneHotDesc x;
    x.indices = r.tensor("IndicesTensor");
    x.values = r.tensor("ValuesTensor");
    x.output = r.tensor("OutputTensor");
    x.axis = r.integer<std::uint32_t>("Axis");
    r.done({"IndicesTensor", "ValuesTensor", "OutputTensor", "Axis"});
    return x;
  }
  if (type == "DIAGONAL_MATRIX") {
    DiagonalMatrixDesc x;
    x.output = r.tensor("OutputTensor");
    x.offset = r.integer<std::int32_t>("Offset");
    x.value = r.float32("Value");
    r.done({"OutputTensor", "Offset", "Value"});
    return x;
  }
  if (type == "DIAGONAL_MATRIX1") {
    DiagonalMatrix1Desc x;
    x.input = r.optional_tensor("InputTensor");
    x.output = r.tensor("OutputTensor");
    const DataType value_type = data_type(desc.get("ValueDataType"));
    x.value = r.scalar("Value", value_type);
    x.fill_begin = r.integer<std::int32_t>("DiagonalFillBegin");
    x.fill_end = r.integer<std::int32_t>("DiagonalFillEnd");
    r.done({"InputTensor", "OutputTensor", "ValueDataType", "Value", "DiagonalFillBegin", "DiagonalFillEnd"});
    return x;
  }
  if (type == "ACTIVATION_HARDMAX") {
    HardmaxDesc x;
    x.input = r.tensor("InputTensor");
    x.output = r.tensor("OutputTensor");
    x.nan_mode = NanMode::ignore;
    r.done({"InputTensor", "OutputTensor"});
    return x;
  }
  // ACTIVATION_HARDMAX1
  Hardmax1Desc x;
  x.input = r.tensor("InputTensor");
  x.output = r.tensor("OutputTensor");
  x.nan_mode = NanMode::ignore;
  const auto count = r.integer<std::uint32_t>("AxisCount");
  const auto axes = desc.get("Axes").uint32_array();
  if (count != axes.size())
    d.read_diagnostics.push_back({"AxisCount", "expected " + std::to_string(axes.size()) + " (the length of Axes), found " +
                                                   std::to_string(count)});
  if (axes.size() > Dims::capacity)
    d.read_diagnostics.push_back({"Axes", "expected at most 8 axes (one per dimension), found " + std::to_string(axes.size())});
  else
    x.axes = Dims(axes.begin(), axes.end());
  r.done({"InputTensor", "OutputTensor", "AxisCount", "Axes"});
  return x;
}

}  // namespace

Dispatchable read_dispatchable(const Json& j, const std::string& name, std::vector<std::string>& warnings) {
  Dispatchable d;
  d.name = name;
  d.path = j.path();
  if (!j.is_object()) j.fail("expected a dispatchable (an object), found " + j.describe());
  const auto type_json = j.find_either("type", "Type");
  if (!type_json) j.fail("the field \"type\" is required");
  const std::string type = type_json->string();
  for (const char* other : {"hlsl", "onnx", "dmlSerializedGraph"})
    if (!strcasecmp(type.c_str(), other))
      type_json->fail("\"" + type + "\" dispatchables are not run by refops-run: it runs the DirectML operators refops has (" +
                      operators_we_have + ")");
  std::string short_type = type.starts_with("DML_OPERATOR_") ? type.substr(13) : type;
  static const char* ours[] = {"ONE_HOT", "DIAGONAL_MATRIX", "DIAGONAL_MATRIX1", "ACTIVATION_HARDMAX", "ACTIVATION_HARDMAX1"};
  if (std::find(std::begin(ours), std::end(ours), short_type) == std::end(ours))
    type_json->fail("\"" + type + "\" is not one of the DirectML operators refops has (" + operators_we_have + ")");
  d.type = "DML_OPERATOR_" + short_type;

  // DxDispatch reads the desc from "Desc" or "desc", else from the dispatchable object itself.
  const auto desc_json = j.find_either("desc", "Desc");
  const Json desc = desc_json ? *desc_json : j;
  if (!desc.is_object()) desc.fail("expected the operator's description (an object), found " + desc.describe());
  d.desc_path = desc.path();
  if (desc_json) j.warn_unknown(dispatchable_fields, warnings);
  d.desc = read_desc(short_type, d, desc, !desc_json, warnings);
  return d;
}

Dispatchable parse_dispatchable(std::string_view json) {
  rapidjson::Document doc;
  parse_json(doc, json);
  std::vector<std::string> warnings;
  return read_dispatchable(Json(doc, ""), "", warnings);
}

std::string Dispatchable::json_path(const Diagnostic& diag) const {
  const std::string& field = diag.field;
  const std::string first = field.substr(0, field.find_first_of(".["));
  const std::string prefix = path.empty() ? "" : path + ".";
  if (first == "FeatureLevel") return prefix + "type (FeatureLevel)";
  if (auto it = field_paths.find(first); it != field_paths.end()) return it->second + field.substr(first.size());
  return desc_path.empty() ? field : desc_path + "." + field;
}

std::vector<Diagnostic> validate(const Dispatchable& d, FeatureLevel level) {
  if (!d.read_diagnostics.empty()) return d.read_diagnostics;
  return std::visit([&](const auto& desc) { return refops::validate(desc, level); }, d.desc);
}

std::optional<FeatureLevel> minimum_feature_level(const Dispatchable& d) {
  if (!d.read_diagnostics.empty()) return std::nullopt;
  return std::visit([&](const auto& desc) { return refops::minimum_feature_level(desc); }, d.desc);
}

}  // namespace refops::model
