// Running models (refops::model::run): dispatch through execute() with DirectML's defaults,
// bindings with elementOffset, print and writeFile as DxDispatch writes them, diagnostics at
// their JSON paths, and nothing written after a failure.
#include <sstream>

#include "model/npy.hpp"
#include "model_test_support.hpp"
#include "support/catch.hpp"

using namespace refops;
using namespace refops::model;
using namespace refops::model::test;

namespace {

// ONE_HOT example 1 with `extra` commands after the dispatch.
std::string one_hot_model(const std::string& commands, const std::string& indices_sizes = "[1, 1, 3, 1]") {
  return R"({
    "resources": {
      "indices": { "initialValuesDataType": "UINT32", "initialValues": [0, 3, 2] },
      "values":  { "initialValuesDataType": "FLOAT32", "initialValues": [0, 1] },
      "output":  { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 12, "value": 7 } } },
    "dispatchables": { "oh": { "type": "DML_OPERATOR_ONE_HOT", "desc": {
      "IndicesTensor": { "DataType": "UINT32", "Sizes": )" + indices_sizes + R"( },
      "ValuesTensor":  { "DataType": "FLOAT32", "Sizes": [1, 1, 1, 2] },
      "OutputTensor":  { "DataType": "FLOAT32", "Sizes": [1, 1, 3, 4] }, "Axis": 3 } } },
    "commands": [ )" + commands + "] }";
}

const std::string dispatch_oh =
    R"({ "type": "dispatch", "dispatchable": "oh", "bindings": { "IndicesTensor": "indices", "ValuesTensor": "values", "OutputTensor": "output" } })";

std::vector<Problem> invalid(const Model& m, const RunOptions& o = {}) {
  try {
    run(m, o);
  } catch (const InvalidError& e) {
    return e.problems();
  }
  return {};
}

}  // namespace

TEST_CASE("run: ONE_HOT example 1 through execute()", "[model][run]") {
  const auto buffers = run(parse_model(one_hot_model(dispatch_oh)));
  CHECK(values_of<float>(buffers.at("output")) == std::vector<float>{1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0});
  CHECK(values_of<std::uint32_t>(buffers.at("indices")) == std::vector<std::uint32_t>{0, 3, 2});
  CHECK(buffers.at("output").type == DataType::float32);
}

TEST_CASE("run: elementOffset and elementSizeInBytes place a binding inside a buffer", "[model][run]") {
  // Two HARDMAX rows in one buffer of 8 floats: the second run reads and writes 4 elements in.
  const std::string model = R"({
    "resources": { "x": { "initialValuesDataType": "FLOAT32", "initialValues": [1, 5, 2, 0, 9, 1, 1, 3] },
                   "y": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 8, "value": -1 } } },
    "dispatchables": { "h": { "type": "ACTIVATION_HARDMAX", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [1, 4] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [1, 4] } } } },
    "commands": [
      { "type": "dispatch", "dispatchable": "h", "bindings": { "InputTensor": "x", "OutputTensor": "y" } },
      { "type": "dispatch", "dispatchable": "h", "bindings": { "InputTensor": { "name": "x", "elementOffset": 4 },
                                                              "OutputTensor": { "name": "y", "elementOffset": 16, "elementSizeInBytes": 1 } } } ] })";
  CHECK(values_of<float>(run(parse_model(model)).at("y")) == std::vector<float>{0, 1, 0, 0, 1, 0, 0, 0});
}

TEST_CASE("run: HARDMAX's NaN rule is DirectML's unless the options say propagate", "[model][run]") {
  const std::string model = R"({
    "resources": { "x": { "initialValuesDataType": "FLOAT32", "initialValues": [1, "nan", 3, 2] },
                   "y": { "initialValuesDataType": "FLOAT32", "initialValues": [0, 0, 0, 0] } },
    "dispatchables": { "h": { "type": "ACTIVATION_HARDMAX1", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [4] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [4] },
      "AxisCount": 1, "Axes": [0] } } },
    "commands": [ { "type": "dispatch", "dispatchable": "h", "bindings": { "InputTensor": "x", "OutputTensor": "y" } } ] })";
  CHECK(values_of<float>(run(parse_model(model)).at("y")) == std::vector<float>{0, 0, 1, 0});
  RunOptions propagate;
  propagate.nan_mode = NanMode::propagate;
  CHECK(values_of<float>(run(parse_model(model), propagate).at("y")) == std::vector<float>{0, 1, 0, 0});
  RunOptions old_level;
  old_level.feature_level = FeatureLevel::level_5_0;
  const auto problems = invalid(parse_model(model), old_level);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == "dispatchables.h.type (FeatureLevel)");
}

TEST_CASE("run: every forced path gives the same bytes", "[model][run]") {
  for (Arch arch : available_archs()) {
    RunOptions o;
    o.arch = arch;
    o.threads = 1;
    CHECK(values_of<float>(run(parse_model(one_hot_model(dispatch_oh)), o).at("output")) ==
          std::vector<float>{1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0});
  }
}

TEST_CASE("print: DxDispatch's line, padding trimmed; verbose adds index and bits", "[model][run]") {
  std::ostringstream out;
  RunOptions o;
  o.print = &out;
  const std::string model = R"({
    "resources": { "u": { "initialValuesDataType": "INT8", "initialValues": [-1, 2, 65] },
                   "f": { "initialValuesDataType": "FLOAT32", "initialValues": [0.1, -0.0, "inf", 1e20] },
                   "d": { "initialValuesDataType": "FLOAT64", "initialValues": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } },
    "dispatchables": {},
    "commands": [ { "type": "print", "resource": "u" }, { "type": "print", "resource": "f" },
                  { "type": "print", "resource": "u", "verbose": true },
                  { "type": "Print", "resource": "d", "verbose": true } ] })";
  run(parse_model(model), o);
  CHECK(out.str() ==
        "Resource 'u': -1, 2, 65\n"
        "Resource 'f': 0.1, -0, inf, 1e+20\n"
        "Resource 'u':\n[0] -1 (0xFF)\n[1] 2 (0x02)\n[2] 65 (0x41)\n"
        "Resource 'd':\n"
        "[ 0] 1 (0x3FF0000000000000)\n[ 1] 2 (0x4000000000000000)\n[ 2] 3 (0x4008000000000000)\n"
        "[ 3] 4 (0x4010000000000000)\n[ 4] 5 (0x4014000000000000)\n[ 5] 6 (0x4018000000000000)\n"
        "[ 6] 7 (0x401C000000000000)\n[ 7] 8 (0x4020000000000000)\n[ 8] 9 (0x4022000000000000)\n"
        "[ 9] 10 (0x4024000000000000)\n[10] 11 (0x4026000000000000)\n");
}

TEST_CASE("writeFile: .npy of the initializer's type (1-D with padding, or dimensions) and raw .bin", "[model][run]") {
  TempDir dir;
  const std::string model = R"({
    "resources": { "h": { "initialValuesDataType": "FLOAT16", "initialValues": [1, 2, 3] } },
    "dispatchables": {},
    "commands": [ { "type": "writeFile", "resource": "h", "targetPath": ")" + (dir.path() / "flat.npy").string() + R"(" },
                  { "type": "writeFile", "resource": "h", "targetPath": ")" + (dir.path() / "sub/shaped.NPY").string() + R"(", "dimensions": [1, 3] },
                  { "type": "writeFile", "resource": "h", "targetPath": ")" + (dir.path() / "raw.bin").string() + R"(" } ] })";
  run(parse_model(model));
  const std::string data = raw<std::uint16_t>({0x3C00, 0x4000, 0x4200, 0});
  const std::uint64_t flat[] = {4}, shaped[] = {1, 3};
  CHECK(dir.read("flat.npy") == npy_header(DataType::float16, flat) + data);
  CHECK(dir.read("sub/shaped.NPY") == npy_header(DataType::float16, shaped) + data.substr(0, 6));
  CHECK(dir.read("raw.bin") == data);
  std::vector<std::string> files = dir.files();
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"flat.npy", "raw.bin", "sub", "sub/shaped.NPY"});
  // write_files = false (Python's run_model) writes nothing.
  TempDir none;
  RunOptions o;
  o.write_files = false;
  run(parse_model(R"({"resources": {"h": {"initialValuesDataType": "INT8", "initialValues": [1]}}, "dispatchables": {},
      "commands": [{"type": "writeFile", "resource": "h", "targetPath": ")" + (none.path() / "x.npy").string() + R"("}]})"), o);
  CHECK(none.files().empty());
}

TEST_CASE("an invalid description: its JSON path and field, nothing run, no file", "[model][run][nothing_written]") {
  TempDir dir;
  const std::string write = R"({ "type": "writeFile", "resource": "values", "targetPath": ")" + (dir.path() / "before.npy").string() + R"(" })";
  const Model m = parse_model(one_hot_model(write + ", " + dispatch_oh, "[1, 1, 3, 2]"));
  const auto problems = invalid(m);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].path == "dispatchables.oh.desc.IndicesTensor.Sizes[3]");
  CHECK(problems[0].message == "expected 1 (the size at Axis), found 2");
  CHECK(dir.files().empty());
}

TEST_CASE("a buffer too small for its tensor: the binding's path and DirectML's binding field", "[model][run][nothing_written]") {
  TempDir dir;
  const std::string small = R"({ "type": "dispatch", "dispatchable": "oh", "bindings": { "IndicesTensor": "indices",
      "ValuesTensor": { "name": "values", "elementOffset": 1 }, "OutputTensor": { "name": "output", "elementOffset": 13 } } })";
  const std::string write = R"({ "type": "writeFile", "resource": "output", "targetPath": ")" + (dir.path() / "o.npy").string() + R"(" })";
  const auto problems = invalid(parse_model(one_hot_model(write + ", " + small)));
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].path == "commands[1].bindings.ValuesTensor (ValuesTensor.Binding.SizeInBytes)");
  CHECK(problems[0].message == "the tensor needs 8 bytes (TotalTensorSizeInBytes); \"values\" has 4 from byte offset 4");
  CHECK(problems[1].path == "commands[1].bindings.OutputTensor (OutputTensor.Binding.Offset)");
  CHECK(problems[1].message == "byte offset 52 is past the end of \"output\" (48 bytes)");
  CHECK(dir.files().empty());
}

TEST_CASE("a dispatch execute() refuses while running: no file from before or after it", "[model][run][nothing_written]") {
  TempDir dir;
  // The second dispatch binds the output as the indices too: the output overlaps an input.
  const std::string overlap = R"({ "type": "dispatch", "dispatchable": "oh", "bindings": { "IndicesTensor": "output", "ValuesTensor": "values", "OutputTensor": "output" } })";
  auto write = [&](const char* name) {
    return R"({ "type": "writeFile", "resource": "output", "targetPath": ")" + (dir.path() / "out" / name).string() + R"(" })";
  };
  const Model m = parse_model(one_hot_model(dispatch_oh + ", " + write("a.npy") + ", " + overlap + ", " + write("b.npy")));
  const auto problems = invalid(m);
  REQUIRE_FALSE(problems.empty());
  CHECK(problems[0].path.starts_with("commands[2].bindings."));
  CHECK(problems[0].path.find(".Binding") != std::string::npos);
  CHECK(dir.files().empty());  // the temporary a.npy and the folder made for it are gone
}

TEST_CASE("--threads reaches the execute options through one function", "[model][run]") {
  RunOptions o;
  o.feature_level = FeatureLevel::level_5_1;
  o.arch = Arch::scalar;
  o.threads = 3;
  const ExecuteOptions e = execute_options(o);
  CHECK(e.feature_level == FeatureLevel::level_5_1);
  CHECK(e.arch == Arch::scalar);
}

TEST_CASE("feature level names", "[model]") {
  CHECK(parse_feature_level("5_1") == FeatureLevel::level_5_1);
  CHECK(parse_feature_level("DML_FEATURE_LEVEL_6_4") == FeatureLevel::level_6_4);
  CHECK_FALSE(parse_feature_level("5.1"));
  CHECK_FALSE(parse_feature_level("latest"));
  CHECK(short_name(FeatureLevel::level_2_0) == "2_0");
}
