// Reading DxDispatch models (refops::model::parse_model): every initializer form, enum and
// desc spelling DxDispatch takes, and each malformed input refused with its JSON path.
#include <cmath>
#include <cstdint>
#include <limits>

#include "model/npy.hpp"
#include "model_test_support.hpp"
#include "support/catch.hpp"

using namespace refops;
using namespace refops::model;
using namespace refops::model::test;

namespace {

// A model with these resources and no dispatchable, run; the buffers come back.
std::map<std::string, Buffer> buffers_of(const std::string& resources, const std::filesystem::path& folder = ".") {
  return run(parse_model("{\"resources\": {" + resources + "}, \"dispatchables\": {}, \"commands\": []}", folder));
}

// The ModelError that reading `json` throws: "path: message".
std::string model_error(const std::string& json, const std::filesystem::path& folder = ".") {
  try {
    run(parse_model(json, folder));
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string resource_error(const std::string& resources, const std::filesystem::path& folder = ".") {
  return model_error("{\"resources\": {" + resources + "}, \"dispatchables\": {}, \"commands\": []}", folder);
}

const char* one_hot_desc = R"({
  "IndicesTensor": { "DataType": "UINT32", "Sizes": [1, 3, 1] },
  "ValuesTensor": { "DataType": "FLOAT32", "Sizes": [1, 1, 2] },
  "OutputTensor": { "DataType": "FLOAT32", "Sizes": [1, 3, 4] }, "Axis": 2 })";

}  // namespace

TEST_CASE("initializer: an array, nan/inf strings in any case, sizes rounded up to 4 bytes", "[model][read]") {
  auto b = buffers_of(R"("f": { "initialValuesDataType": "FLOAT32", "initialValues": [1.5, "NaN", "inf", "-INF", -0.0] },
                         "h": { "initialValuesDataType": "FLOAT16", "initialValues": [1, "nan", 65520, 0.1] },
                         "u8": { "initialValuesDataType": "UINT8", "initialValues": [1, 255, 7] },
                         "i64": { "initialValuesDataType": "INT64", "initialValues": [-9223372036854775808, 9223372036854775807] },
                         "u64": { "initialValuesDataType": "UINT64", "initialValues": [18446744073709551615] })");
  const auto f = values_of<float>(b.at("f"));
  CHECK(f.size() == 5);
  CHECK(f[0] == 1.5f);
  CHECK(std::bit_cast<std::uint32_t>(f[1]) == 0x7FC00000u);
  CHECK(f[2] == std::numeric_limits<float>::infinity());
  CHECK(f[3] == -std::numeric_limits<float>::infinity());
  CHECK(std::bit_cast<std::uint32_t>(f[4]) == 0x80000000u);
  // FLOAT16: 8 bytes of data, already a multiple of 4; 65520 rounds to infinity; 0.1 -> 0x2E66.
  CHECK(values_of<std::uint16_t>(b.at("h")) == std::vector<std::uint16_t>{0x3C00, 0x7E00, 0x7C00, 0x2E66});
  CHECK(b.at("u8").bytes.size() == 4);  // 3 bytes rounded up to 4; the padding is zero
  CHECK(values_of<std::uint8_t>(b.at("u8")) == std::vector<std::uint8_t>{1, 255, 7, 0});
  CHECK(b.at("u8").initial_bytes == 3);
  CHECK(values_of<std::int64_t>(b.at("i64")) == std::vector<std::int64_t>{INT64_MIN, INT64_MAX});
  CHECK(values_of<std::uint64_t>(b.at("u64")) == std::vector<std::uint64_t>{UINT64_MAX});
}

TEST_CASE("initializer: constant and sequence (the delta added in the element type)", "[model][read]") {
  auto b = buffers_of(R"("c": { "initialValuesDataType": "INT16", "initialValues": { "valueCount": 3, "value": -2 } },
                         "c1": { "initialValuesDataType": "INT8", "initialValues": { "valueCount": 1, "value": 5 } },
                         "s": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueStart": 0, "valueDelta": 0.1, "valueCount": 4 } },
                         "w": { "initialValuesDataType": "UINT8", "initialValues": { "valueStart": 254, "valueDelta": 1, "valueCount": 4 } },
                         "i": { "initialValuesDataType": "INT32", "initialValues": { "valueStart": 2147483647, "valueDelta": 1, "valueCount": 2 } },
                         "h": { "initialValuesDataType": "FLOAT16", "initialValues": { "valueStart": 2048, "valueDelta": 1, "valueCount": 3 } })");
  CHECK(values_of<std::int16_t>(b.at("c")) == std::vector<std::int16_t>{-2, -2, -2, 0});
  CHECK(values_of<std::int8_t>(b.at("c1")) == std::vector<std::int8_t>{5, 0, 0, 0});
  // 0.1f added three times is not 3 * 0.1f: DxDispatch's running sum.
  float x = 0;
  std::vector<float> want;
  for (int i = 0; i < 4; ++i, x += 0.1f) want.push_back(x);
  CHECK(values_of<float>(b.at("s")) == want);
  CHECK(values_of<std::uint8_t>(b.at("w")) == std::vector<std::uint8_t>{254, 255, 0, 1});
  CHECK(values_of<std::int32_t>(b.at("i")) == std::vector<std::int32_t>{INT32_MAX, INT32_MIN});
  // In FLOAT16, 2048 + 1 rounds back to 2048 every time.
  CHECK(values_of<std::uint16_t>(b.at("h")) == std::vector<std::uint16_t>{0x6800, 0x6800, 0x6800, 0});
}

TEST_CASE("initializer: .npy and raw files, beside the model first, then the current directory", "[model][read]") {
  TempDir dir;
  const std::uint64_t shape[] = {3};
  dir.write("x.npy", npy_header(DataType::int32, shape) + raw<std::int32_t>({7, -1, 3}));
  dir.write("b.bin", raw<std::uint16_t>({1, 2, 3}));
  dir.write("d.dat", raw<std::int8_t>({-5}));
  dir.write("i.png", "\x89PNG");
  std::string big = "{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }";
  big.append(64 - (10 + big.size() + 1) % 64, ' ');
  big += '\n';
  dir.write("be.npy", std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(big.size()) + '\0' + big + std::string("\x01\x02\x03\x04", 4));
  auto b = buffers_of(R"("n": { "initialValues": { "sourcePath": "x.npy" } },
                         "typed": { "initialValuesDataType": "INT32", "initialValues": { "sourcePath": "x.npy" } },
                         "raw": { "initialValuesDataType": "UINT16", "initialValues": { "sourcePath": "b.bin" } },
                         "be": { "initialValues": { "sourcePath": "be.npy" } })",
                      dir.path());
  CHECK(b.at("n").type == DataType::int32);
  CHECK(values_of<std::int32_t>(b.at("n")) == std::vector<std::int32_t>{7, -1, 3});
  CHECK(values_of<std::int32_t>(b.at("typed")) == std::vector<std::int32_t>{7, -1, 3});
  CHECK(values_of<std::uint16_t>(b.at("raw")) == std::vector<std::uint16_t>{1, 2, 3, 0});
  CHECK(values_of<std::uint16_t>(b.at("be")) == std::vector<std::uint16_t>{0x0102, 0x0304});
  CHECK(values_of<std::int8_t>(buffers_of(R"("d": { "initialValuesDataType": "INT8", "initialValues": { "sourcePath": "d.dat" } })",
                                          dir.path()).at("d")) == std::vector<std::int8_t>{-5, 0, 0, 0});
  CHECK_THAT(resource_error(R"("p": { "initialValuesDataType": "UINT8", "initialValues": { "sourcePath": "i.png" } })", dir.path()),
             Catch::Matchers::Contains("image initializers are not supported"));
  // An absolute path (as the current directory's would be) is found too.
  auto abs = buffers_of(R"("n": { "initialValues": { "sourcePath": ")" + (dir.path() / "x.npy").string() + R"(" } })");
  CHECK(values_of<std::int32_t>(abs.at("n")) == std::vector<std::int32_t>{7, -1, 3});

  CHECK_THAT(resource_error(R"("n": { "initialValuesDataType": "FLOAT32", "initialValues": { "sourcePath": "x.npy" } })", dir.path()),
             Catch::Matchers::Contains("resources.n.initialValues: the .npy file holds INT32 values; \"initialValuesDataType\" says FLOAT32"));
  CHECK_THAT(resource_error(R"("r": { "initialValues": { "sourcePath": "b.bin" } })", dir.path()),
             Catch::Matchers::Contains("resources.r.initialValues: a raw file's values need \"initialValuesDataType\""));
  CHECK_THAT(resource_error(R"("m": { "initialValues": { "sourcePath": "missing.npy" } })", dir.path()),
             Catch::Matchers::Contains("resources.m.initialValues.sourcePath: the file \"missing.npy\" was not found"));
  std::string fortran = npy_header(DataType::float32, std::vector<std::uint64_t>{1}) + "1234";
  fortran.replace(fortran.find("False"), 5, "True ");
  dir.write("f.npy", fortran);
  CHECK_THAT(resource_error(R"("f": { "initialValues": { "sourcePath": "f.npy" } })", dir.path()),
             Catch::Matchers::Contains("Fortran order"));
}

TEST_CASE("resources: sizeInBytes as given, initialValuesOffsetInBytes, and their errors", "[model][read]") {
  auto b = buffers_of(R"("s": { "initialValuesDataType": "UINT8", "initialValues": [1, 2], "sizeInBytes": 7, "initialValuesOffsetInBytes": 3 })");
  CHECK(b.at("s").bytes.size() == 7);
  CHECK(values_of<std::uint8_t>(b.at("s")) == std::vector<std::uint8_t>{0, 0, 0, 1, 2, 0, 0});
  CHECK_THAT(resource_error(R"("s": { "initialValuesDataType": "UINT32", "initialValues": [1, 2], "sizeInBytes": 7 })"),
             Catch::Matchers::Contains("resources.s: sizeInBytes 7 is too small for the 8 bytes of initial values at offset 0"));
  CHECK_THAT(resource_error(R"("s": { "initialValuesDataType": "UINT32", "initialValues": [] })"),
             Catch::Matchers::Contains("resources.s.initialValues: the initial values are empty"));
}

TEST_CASE("initial values out of their type's range or of the wrong kind name the element", "[model][read]") {
  CHECK(resource_error(R"("x": { "initialValuesDataType": "UINT8", "initialValues": [1, 256] })") ==
        "resources.x.initialValues[1]: expected an unsigned integer from 0 to 255, found 256");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "INT32", "initialValues": [1.5] })") ==
        "resources.x.initialValues[0]: expected an integer, found 1.5");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "UINT32", "initialValues": [-1] })") ==
        "resources.x.initialValues[0]: expected an unsigned integer from 0 to 4294967295, found -1");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "FLOAT32", "initialValues": ["infinity"] })") ==
        "resources.x.initialValues[0]: expected a number or \"nan\", \"inf\", \"-inf\", found the string \"infinity\"");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "FLOAT33", "initialValues": [1] })") ==
        "resources.x.initialValuesDataType: \"FLOAT33\" is not a DML_TENSOR_DATA_TYPE");
  CHECK(resource_error(R"("x": { "initialValues": [1] })") ==
        "resources.x: the field \"initialValuesDataType\" is required for these initial values");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "INT8", "initialValues": { "valueCount": 2 } })") ==
        "resources.x.initialValues: expected \"value\", \"valueStart\" or \"sourcePath\" (a constant, a sequence or a file)");
  CHECK(resource_error(R"("x": { "initialValuesDataType": "INT8", "initialValues": "deferred" })") ==
        "resources.x.initialValues: deferred buffers are for ONNX dispatchables, which refops-run does not run");
}

TEST_CASE("dispatchables: type/Type, desc/Desc, short and full names, long tensor descs", "[model][read]") {
  for (const char* type_key : {"type", "Type"})
    for (const char* desc_key : {"desc", "Desc"})
      for (const char* name : {"DML_OPERATOR_ONE_HOT", "ONE_HOT"}) {
        const Dispatchable d = parse_dispatchable("{\"" + std::string(type_key) + "\": \"" + name + "\", \"" + desc_key +
                                                  "\": " + one_hot_desc + "}");
        CHECK(d.type == "DML_OPERATOR_ONE_HOT");
        const auto& oh = std::get<OneHotDesc>(d.desc);
        CHECK(oh.axis == 2);
        CHECK(oh.output.sizes == Dims{1, 3, 4});
        CHECK(minimum_feature_level(d) == refops::minimum_feature_level(oh));
        CHECK(minimum_feature_level(d).has_value());
      }
  // The long form {Type, Desc}, strides, TotalTensorSizeInBytes, DimensionCount, Flags.
  const Dispatchable d = parse_dispatchable(R"({"type": "ACTIVATION_HARDMAX", "desc": {
      "InputTensor": { "Type": "DML_TENSOR_TYPE_BUFFER", "Desc": { "DataType": "DML_TENSOR_DATA_TYPE_FLOAT16", "Sizes": [2, 3],
                       "Strides": [1, 2], "DimensionCount": 2, "TotalTensorSizeInBytes": 64, "Flags": "DML_TENSOR_FLAG_NONE",
                       "GuaranteedBaseOffsetAlignment": 16 } },
      "OutputTensor": { "DataType": "FLOAT16", "Sizes": [2, 3] } }})");
  const auto& h = std::get<HardmaxDesc>(d.desc);
  CHECK(h.input.data_type == DataType::float16);
  CHECK(h.input.strides == Dims{1, 2});
  CHECK(h.input.total_bytes == 64);
  CHECK(h.output.total_bytes == 0);  // calc_buffer_tensor_size when bound
  CHECK(h.nan_mode == NanMode::ignore);
  CHECK(d.json_path({"InputTensor.Sizes[1]", ""}) == "desc.InputTensor.Desc.Sizes[1]");
  CHECK(d.json_path({"OutputTensor.DataType", ""}) == "desc.OutputTensor.DataType");
}

TEST_CASE("DML_SCALAR_UNION: a number or the member's object; FLOAT16 as raw bits", "[model][read]") {
  auto value_of = [](const std::string& type, const std::string& value) {
    return std::get<DiagonalMatrix1Desc>(parse_dispatchable(R"({"type": "DIAGONAL_MATRIX1", "desc": {
        "OutputTensor": { "DataType": ")" + type + R"(", "Sizes": [2, 2] }, "ValueDataType": ")" + type +
                                                            R"(", "Value": )" + value +
                                                            R"(, "DiagonalFillBegin": 0, "DiagonalFillEnd": 1 }})")
                                             .desc)
        .value;
  };
  CHECK(value_of("FLOAT32", "2.5").as<float>() == 2.5f);
  CHECK(value_of("FLOAT32", R"({"Float32": -3})").as<float>() == -3.0f);
  CHECK(std::isnan(value_of("FLOAT32", R"({"Float32": "nan"})").as<float>()));
  CHECK(value_of("FLOAT16", "1").union_bytes()[1] == std::byte{0x3C});
  CHECK(value_of("FLOAT16", R"({"UInt16": 15360})").as<float16>() == float16(1.0f));
  CHECK(value_of("INT8", R"({"Int8": -128})").as<std::int8_t>() == -128);
  CHECK(value_of("UINT64", "18446744073709551615").as<std::uint64_t>() == UINT64_MAX);
  CHECK(value_of("FLOAT64", R"({"Float64": 0.1})").as<double>() == 0.1);
  CHECK_THROWS_WITH(value_of("FLOAT32", "\"nan\""), Catch::Matchers::Contains("desc.Value: expected a number or an object naming"));
  CHECK_THROWS_WITH(value_of("INT8", R"({"Float32": 1})"), "desc.Value: the field \"Int8\" is required");
  CHECK_THROWS_WITH(value_of("INT8", "300"), "desc.Value: expected an integer from -128 to 127, found 300");
}

TEST_CASE("problems refops's descriptions cannot hold are diagnostics, with DirectML's fields", "[model][read]") {
  const Dispatchable d = parse_dispatchable(R"({"type": "ACTIVATION_HARDMAX1", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      "OutputTensor": { "DataType": "FLOAT32", "Sizes": [2, 3], "DimensionCount": 3 },
      "AxisCount": 2, "Axes": [1] }})");
  const auto diags = validate(d);
  REQUIRE(diags.size() == 3);
  CHECK(diags[0].field == "InputTensor.Sizes");
  CHECK(diags[1].field == "OutputTensor.DimensionCount");
  CHECK(diags[1].message == "expected 2 (the length of Sizes), found 3");
  CHECK(diags[2].field == "AxisCount");
  CHECK_FALSE(minimum_feature_level(d));
  // UINT4 is DirectML's but not refops's: an invalid description, not a malformed model.
  const Dispatchable u = parse_dispatchable(std::string(R"({"type": "ONE_HOT", "desc": {
      "IndicesTensor": { "DataType": "UINT4", "Sizes": [1, 3, 1] },)") + std::string(one_hot_desc).substr(std::string(one_hot_desc).find("\"ValuesTensor")) + "}");
  REQUIRE_FALSE(validate(u).empty());
  CHECK(validate(u)[0].field == "IndicesTensor.DataType");
}

TEST_CASE("numbers: long, tiny and huge ones convert correctly rounded, or are a message", "[model][read]") {
  // The first three broke RapidJSON 1.1.0's own conversion under UBSan: it read past its table
  // of powers of ten (Tencent/rapidjson#1251), or overflowed an int adding exponents. The
  // expected values are strtod's, in the C locale.
  const std::vector<std::string> texts = {"128.74836467836484838364836483643636483648e-336",
                                          "0.0000074836628E-300",
                                          "0.0000074836628E-2147483636",
                                          "1e-400",
                                          "-1e-400",
                                          "2.4703282292062328e-324",
                                          "2.4703282292062327e-324",
                                          "1.7976931348623157e308",
                                          "0.1",
                                          "-0.0",
                                          "18446744073709551616",
                                          "-9223372036854775809",
                                          "123456789012345678901234567890e-30"};
  std::string list;
  for (const auto& t : texts) list += (list.empty() ? "" : ", ") + t;
  const auto b = buffers_of(R"("d": { "initialValuesDataType": "FLOAT64", "initialValues": [)" + list + "] }");
  const auto d = values_of<double>(b.at("d"));
  REQUIRE(d.size() == texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    INFO(texts[i]);
    CHECK(std::bit_cast<std::uint64_t>(d[i]) == std::bit_cast<std::uint64_t>(std::strtod(texts[i].c_str(), nullptr)));
  }
  CHECK(std::signbit(d[4]));
  CHECK(d[5] > 0.0);
  CHECK(d[6] == 0.0);
  // Integers as RapidJSON stores them: 64-bit when they fit, else a double, which no integer type takes.
  CHECK(values_of<std::int64_t>(buffers_of(R"("i": { "initialValuesDataType": "INT64", "initialValues": [-0, -1, 7] })").at("i")) ==
        std::vector<std::int64_t>{0, -1, 7});
  CHECK(resource_error(R"("u": { "initialValuesDataType": "UINT64", "initialValues": [18446744073709551616] })") ==
        "resources.u.initialValues[0]: expected an unsigned integer, found 1.8446744073709552e+19");
  CHECK(resource_error(R"("u": { "initialValuesDataType": "UINT64", "initialValues": [1.0] })") ==
        "resources.u.initialValues[0]: expected an unsigned integer, found 1");
  // Too big for a double: rapidjson's check (an exponent past 308) and ours (the value past
  // DBL_MAX), each at the number's first character.
  CHECK(resource_error(R"("d": { "initialValuesDataType": "FLOAT64", "initialValues": [1e400] })") ==
        "line 1, column 77: JSON syntax: Number too big to be stored in double.");
  CHECK(resource_error(R"("d": { "initialValuesDataType": "FLOAT64", "initialValues": [0, 1.8e308] })") ==
        "line 1, column 80: JSON syntax: Number too big to be stored in double.");
}

TEST_CASE("deeply nested JSON is a message, not a stack overflow", "[model][read]") {
  // 200000 levels: the recursive parser needed more than 8 MiB of stack for them under ASan.
  const std::string deep(200000, '[');
  CHECK_THAT(model_error(deep), Catch::Matchers::StartsWith("line 1, column"));
  const std::string nested = std::string(R"({"resources": {"a": {"initialValuesDataType": "INT8", "initialValues": )") +
                             std::string(100000, '[') + "1" + std::string(100000, ']') + "}}, \"dispatchables\": {}, \"commands\": []}";
  CHECK(model_error(nested).find("resources.a.initialValues") != std::string::npos);
}

TEST_CASE("malformed models: each names its JSON path", "[model][read]") {
  CHECK(model_error("{\"resources\": {}, \"dispatchables\": {}}") == "the field \"commands\" is required");
  CHECK_THAT(model_error("{\"resources\": {}, // comment\n \"dispatchables\": {},\n \"commands\": [,]}"),
             Catch::Matchers::StartsWith("line 3, column"));
  CHECK(model_error(R"({"resources": {"a": {"initialValuesDataType": "INT8", "initialValues": [1]},
                                       "a": {"initialValuesDataType": "INT8", "initialValues": [2]}},
                        "dispatchables": {}, "commands": []})") == "resources: the key \"a\" appears twice");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {}, "commands": [{"type": "sleep"}]})") ==
        "commands[0].type: \"sleep\" is not a command (dispatch, print, writeFile)");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {}, "commands": [{"type": "print", "resource": "x"}]})") ==
        "commands[0].resource: there is no resource \"x\" in \"resources\"");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {}, "commands": [{"type": "dispatch", "dispatchable": "x", "bindings": {}}]})") ==
        "commands[0].dispatchable: there is no dispatchable \"x\" in \"dispatchables\"");
  const std::string oh = std::string(R"({"resources": {"b": {"initialValuesDataType": "FLOAT32", "initialValues": [0, 1]}},
      "dispatchables": {"oh": {"type": "ONE_HOT", "desc": )") + one_hot_desc + "}},";
  CHECK(model_error(oh + R"("commands": [{"type": "dispatch", "dispatchable": "oh", "bindings": {"IndicesTensor": "b", "ValuesTensor": "b"}}]})") ==
        "commands[0].bindings: the bind point \"OutputTensor\" has no buffer (bind: IndicesTensor, ValuesTensor, OutputTensor)");
  CHECK(model_error(oh + R"("commands": [{"type": "dispatch", "dispatchable": "oh", "bindings": {"InputTensor": "b"}}]})") ==
        "commands[0].bindings.InputTensor: \"InputTensor\" is not a bind point of DML_OPERATOR_ONE_HOT \"oh\" (its bind points: IndicesTensor, ValuesTensor, OutputTensor)");
  CHECK(model_error(oh + R"("commands": [{"type": "dispatch", "dispatchable": "oh", "bindings": {"IndicesTensor": ["b", "b"]}}]})") ==
        "commands[0].bindings.IndicesTensor: expected one buffer for this bind point, found 2");
  CHECK(model_error(oh + R"("commands": [{"type": "writeFile", "resource": "b", "targetPath": "x.npy", "dimensions": [3]}]})") ==
        "commands[0].dimensions: the dimensions hold more than the 2 FLOAT32 elements of \"b\"");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {"d": {"type": "DIAGONAL_MATRIX", "desc": {
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 2]}, "Offset": 2147483648, "Value": 1}}}, "commands": []})") ==
        "dispatchables.d.desc.Offset: expected an integer from -2147483648 to 2147483647, found 2147483648");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {"d": {"type": "DIAGONAL_MATRIX", "desc": {
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 2]}, "Offset": 0}}}, "commands": []})") ==
        "dispatchables.d.desc: the field \"Value\" is required");
  CHECK(model_error(R"({"resources": {}, "dispatchables": {"d": {"type": "ONE_HOT", "desc": {
        "IndicesTensor": {"Type": "DML_TENSOR_TYPE_INVALID"}}}}, "commands": []})") ==
        "dispatchables.d.desc.IndicesTensor.Type: \"DML_TENSOR_TYPE_INVALID\": refops-run reads buffer tensors only (DML_TENSOR_TYPE_BUFFER)");
  CHECK_THROWS_WITH(parse_dispatchable(R"({"type": "dmlSerializedGraph", "sourcePath": "g.bin"})"),
                    Catch::Matchers::StartsWith("type: \"dmlSerializedGraph\" dispatchables are not run by refops-run"));
  CHECK_THROWS_WITH(parse_dispatchable(R"({"type": "ONE_HOT", "Type": "ONE_HOT"})"), "has both \"type\" and \"Type\"; give one");
  CHECK(model_error("[1, 2]") == "a model is a JSON object with \"resources\", \"dispatchables\" and \"commands\"");
}

TEST_CASE("unknown fields are warnings, as DxDispatch ignores them", "[model][read]") {
  const Model m = parse_model(std::string(R"({"resources": {"b": {"initialValuesDataType": "FLOAT32", "initialValues": [1], "colour": 1}},
      "dispatchables": {"oh": {"type": "ONE_HOT", "executionFlags": "NONE", "desc": )") + one_hot_desc + R"(}},
      "commands": [], "version": 2})");
  CHECK(m.warnings == std::vector<std::string>{"resources.b.colour: unknown field, ignored (as DxDispatch does)",
                                                "version: unknown field, ignored (as DxDispatch does)"});
}
