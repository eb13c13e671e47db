// refops::model: DxDispatch's JSON models (../shared/research/dxdispatch.md) read into refops
// descriptions, validated, and run on refops::execute. refops-run is a thin command line over
// it; the Python module's validate(), minimum_feature_level() and run_model() use it too.
//
// Two kinds of failure, matching refops-run's exit statuses (API.md, "Command line"):
//  - ModelError (exit 2): the model itself is malformed: JSON syntax, a missing or mistyped
//    field, an unknown name or bind point, a missing or unreadable file, an operator type
//    refops does not have (HLSL and ONNX dispatchables included).
//  - InvalidError (exit 1): a description is invalid (refops's diagnostics), or a binding does
//    not fit its tensor. Each problem names the JSON path and DirectML's field.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <refops/refops.hpp>

namespace refops::model {

// ---- Errors -------------------------------------------------------------------------------

// One problem: where (a JSON path such as "dispatchables.oh.desc.IndicesTensor.Sizes[1]",
// "commands[0].bindings.OutputTensor" or an option such as "--arch") and what is wrong.
struct Problem {
  std::string path;
  std::string message;
};
std::string to_string(const std::vector<Problem>&);  // one "path: message" line each

class ModelError : public std::runtime_error {  // exit status 2
 public:
  ModelError(std::string path, std::string message);
  const Problem& problem() const { return problem_; }

 private:
  Problem problem_;
};

class InvalidError : public std::runtime_error {  // exit status 1
 public:
  explicit InvalidError(std::vector<Problem> problems);
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

// ---- Dispatchables ------------------------------------------------------------------------

using Desc = std::variant<OneHotDesc, DiagonalMatrixDesc, DiagonalMatrix1Desc, HardmaxDesc, Hardmax1Desc>;

struct Dispatchable {
  std::string name;  // its key under "dispatchables" (empty for parse_dispatchable)
  std::string path;  // JSON path of its object: "dispatchables.oh" (empty for parse_dispatchable)
  std::string type;  // the full operator name: "DML_OPERATOR_ONE_HOT"
  Desc desc;         // HARDMAX's nan_mode is NanMode::ignore (DirectML's); run() sets the option's
  // Tensor fields present in the desc, in DirectML's order: the bind points ("IndicesTensor").
  std::vector<std::string> tensors;
  // Problems refops's descriptions cannot hold, found while reading (more than 8 dimensions,
  // DimensionCount or AxisCount that disagree with their arrays, a ValueDataType that is not
  // a type): DirectML field and message, as refops's diagnostics are. validate() includes them.
  std::vector<Diagnostic> read_diagnostics;
  // JSON path of a diagnostic's DirectML field: "IndicesTensor.Sizes[1]" ->
  // "dispatchables.oh.desc.IndicesTensor.Sizes[1]" (through the long form's "Desc" when the
  // model uses it), "FeatureLevel" -> "dispatchables.oh.type (FeatureLevel)".
  std::string json_path(const Diagnostic&) const;

  std::map<std::string, std::string> field_paths;  // "IndicesTensor" -> its tensor desc's JSON path
  std::string desc_path;                           // JSON path of the desc object
};

// One dispatchable from its JSON text, {"type": "DML_OPERATOR_ONE_HOT", "desc": {...}} (what
// Python's validate(dict) passes, serialized). Throws ModelError.
Dispatchable parse_dispatchable(std::string_view json);

// refops's diagnostics at `level`, after read_diagnostics. Fields are DirectML's, as refops
// names them; json_path() places them in the model.
std::vector<Diagnostic> validate(const Dispatchable&, FeatureLevel = FeatureLevel::latest);
// The lowest level at which it is valid; nullopt if none is (or read_diagnostics is not empty).
std::optional<FeatureLevel> minimum_feature_level(const Dispatchable&);

// ---- Resources and commands ---------------------------------------------------------------

// Where a buffer's initial bytes come from. Large forms are generated or read straight into the
// buffer when the model runs, so reading a model never holds a second copy of them.
struct ListValues { std::vector<std::byte> bytes; };  // "initialValues": [...]
struct ConstantValues { std::array<std::byte, 8> value{}; std::uint64_t count = 0; };
struct SequenceValues { std::array<std::byte, 8> start{}, delta{}; std::uint64_t count = 0; };
struct FileValues {  // .npy data, or a .bin/.dat file's bytes
  std::filesystem::path file;
  std::uint64_t offset = 0;  // the .npy header's length; 0 for raw files
  bool byte_swap = false;    // big-endian .npy data
};
using Initializer = std::variant<ListValues, ConstantValues, SequenceValues, FileValues>;

struct Resource {
  std::string name, path;            // "indices", "resources.indices"
  DataType type{};                   // initialValuesDataType (or the .npy's type)
  std::uint64_t size_bytes = 0;      // sizeInBytes, or the initial data rounded up to 4
  std::uint64_t initial_offset = 0;  // initialValuesOffsetInBytes
  std::uint64_t initial_bytes = 0;   // bytes of initial data
  Initializer initializer;
};

struct Binding {
  std::string resource;
  std::uint64_t offset_bytes = 0;  // elementOffset x element size
  std::string path;                // "commands[0].bindings.OutputTensor"
};
struct DispatchCommand {
  std::string dispatchable;
  std::map<std::string, Binding> bindings;  // bind point -> buffer
};
struct PrintCommand {
  std::string resource;
  bool verbose = false;
};
struct WriteFileCommand {
  std::string resource;
  std::filesystem::path target;                       // as written: relative to the current directory
  std::optional<std::vector<std::uint64_t>> dimensions;  // .npy shape; absent: 1-D
};
struct Command {
  std::string path;  // "commands[2]"
  std::variant<DispatchCommand, PrintCommand, WriteFileCommand> what;
};

struct Model {
  std::vector<Resource> resources;
  std::vector<Dispatchable> dispatchables;
  std::vector<Command> commands;
  std::vector<std::string> warnings;  // fields DxDispatch ignores and so do we ("path: ...")

  const Resource* resource(std::string_view name) const;
  const Dispatchable* dispatchable(std::string_view name) const;
};

// Reads a model file; relative sourcePaths resolve against its folder, then the current
// directory. Throws ModelError (with InvalidError only from run()).
Model read_model(const std::filesystem::path& file);
// The same from JSON text; `folder` plays the model file's folder.
Model parse_model(std::string_view json, const std::filesystem::path& folder = ".");

// ---- Running ------------------------------------------------------------------------------

// A buffer of bytes from calloc: large buffers are zero pages the kernel maps lazily, and the
// Python module can take it over without a copy (release()).
class Bytes {
 public:
  Bytes() = default;
  explicit Bytes(std::uint64_t size);  // zeroed; throws std::bad_alloc
  std::byte* data() const { return data_.get(); }
  std::uint64_t size() const { return size_; }
  std::byte* release() { size_ = 0; return data_.release(); }  // free() it
  std::span<std::byte> span() const { return {data_.get(), static_cast<std::size_t>(size_)}; }

 private:
  struct Free { void operator()(std::byte* p) const; };
  std::unique_ptr<std::byte, Free> data_;
  std::uint64_t size_ = 0;
};

struct Buffer {
  DataType type{};                  // its initializer's type
  std::uint64_t initial_bytes = 0;  // bytes of initial data (print shows these)
  Bytes bytes;                      // sizeInBytes bytes
};

struct RunOptions {
  FeatureLevel feature_level = FeatureLevel::latest;  // validate every dispatch at this level
  std::optional<Arch> arch;                           // force one path
  std::size_t threads = 0;                            // at most this many threads; 0: all
  NanMode nan_mode = NanMode::ignore;                 // HARDMAX's NaN rule (DirectML's: ignore)
  std::ostream* print = nullptr;                      // print commands' output; nullptr: dropped
  bool write_files = true;                            // false: writeFile commands do nothing
  bool progress = false;                              // progress on stderr for steps over a second
};

// The ExecuteOptions every dispatch runs with: the one place the run options become refops's.
ExecuteOptions execute_options(const RunOptions&);

// Runs the commands in order and returns every buffer by name. Before anything runs, every
// dispatchable is validated at the level asked and every dispatch's bindings are checked
// (InvalidError: nothing runs). writeFile commands write to a temporary file beside the target,
// renamed into place only after the last command succeeded, so a failure leaves no file.
// Throws ModelError (I/O, memory) or InvalidError.
std::map<std::string, Buffer> run(const Model&, const RunOptions& = {});

// DxDispatch's print line for a buffer: "Resource 'name': 1, 0, 0" (verbose: one line per
// element with its index and hex bits).
void print_buffer(std::ostream&, const std::string& name, const Buffer&, bool verbose);

// "5_1" or "DML_FEATURE_LEVEL_5_1" -> the level; nullopt for anything else.
std::optional<FeatureLevel> parse_feature_level(std::string_view);
// "5_1" for a level (the Python API's spelling).
std::string short_name(FeatureLevel);

}  // namespace refops::model
