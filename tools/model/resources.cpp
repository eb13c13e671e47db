// Resources: buffers and their initial values, as DxDispatch's ParseModelBufferDesc reads them.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>

#include "npy.hpp"
#include "read.hpp"

namespace refops::model {

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_file(const std::filesystem::path& path, const char* mode) {
  return File(std::fopen(path.c_str(), mode), &std::fclose);
}

// DxDispatch: relative to the model's folder if the file is there, else the current directory.
std::filesystem::path resolve(const Json& j, const std::filesystem::path& folder, const std::string& source) {
  std::error_code ec;
  const std::filesystem::path beside = folder / source;
  if (std::filesystem::exists(beside, ec)) return beside;
  if (std::filesystem::exists(source, ec)) return source;
  j.fail("the file \"" + source + "\" was not found (tried " + beside.string() +
         (std::filesystem::path(source).is_relative() ? " and " + (std::filesystem::current_path(ec) / source).string() : "") + ")");
}

FileValues read_file_source(const Json& j, const std::filesystem::path& folder, DataType& type, bool has_type,
                            std::uint64_t& bytes) {
  const Json source = j.get("sourcePath");
  const std::filesystem::path path = resolve(source, folder, source.string());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) source.fail("\"" + path.string() + "\" is a directory, not a file");
  const auto file_size = std::filesystem::file_size(path, ec);
  if (ec) source.fail("cannot read \"" + path.string() + "\": " + ec.message());
  const std::string ext = extension_of(path);
  if (ext == ".jpg" || ext == ".png") source.fail("image initializers are not supported by refops-run (use .npy)");
  FileValues f{path, 0, false};
  if (ext != ".npy") {  // raw bytes (.bin, .dat, anything else): the model gives the type
    if (!has_type) j.fail("a raw file's values need \"initialValuesDataType\"");
    bytes = file_size;
    return f;
  }
  File file = open_file(path, "rb");
  if (!file) source.fail("cannot open \"" + path.string() + "\": " + std::strerror(errno));
  std::string start(12, '\0');
  start.resize(std::fread(start.data(), 1, start.size(), file.get()));
  try {
    const std::uint64_t length = npy_header_length(start);
    if (length > (1u << 24)) throw NpyError("the .npy header is longer than 16 MiB");
    std::string header(length, '\0');
    std::rewind(file.get());
    header.resize(std::fread(header.data(), 1, header.size(), file.get()));
    const NpyHeader h = parse_npy_header(header, file_size);
    if (has_type && h.type != type)
      j.fail("the .npy file holds " + std::string(name_of(h.type)) + " values; \"initialValuesDataType\" says " +
             std::string(name_of(type)));
    type = h.type;
    bytes = h.data_bytes;
    f.offset = h.data_offset;
    f.byte_swap = h.big_endian;
  } catch (const NpyError& e) {
    source.fail(path.string() + ": " + e.what());
  }
  return f;
}

template <class T>
T add_wrapping(T a, T b) {
  if constexpr (std::is_same_v<T, float16>) return float16(static_cast<float>(a) + static_cast<float>(b));
  else if constexpr (std::is_floating_point_v<T>) return a + b;
  else return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b)));
}

}  // namespace

std::string extension_of(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

Resource read_resource(const Json& j, const std::string& name, const std::filesystem::path& folder,
                       std::vector<std::string>& warnings) {
  Resource r;
  r.name = name;
  r.path = j.path();
  if (!j.is_object()) j.fail("expected a buffer (an object), found " + j.describe());
  const auto type_json = j.find("initialValuesDataType");
  bool has_type = false;
  if (type_json) {
    r.type = data_type(*type_json);
    if (static_cast<unsigned>(r.type) == 0)
      type_json->fail("UNKNOWN (lists of typed values) is for HLSL constant buffers; refops-run runs DirectML operators only");
    if (!is_valid(r.type)) type_json->fail(std::string(type_json->string()) + " buffers are not supported by refops");
    has_type = true;
  }
  const Json init = j.get("initialValues");
  auto require_type = [&] {
    if (!has_type) j.fail("the field \"initialValuesDataType\" is required for these initial values");
  };
  const std::size_t element = has_type ? size_of(r.type) : 0;
  if (init.value().IsString()) {
    init.fail(init.string() == "deferred" ? "deferred buffers are for ONNX dispatchables, which refops-run does not run"
                                          : "expected an array, an object or \"deferred\", found " + init.describe());
  } else if (init.value().IsArray()) {
    require_type();
    ListValues list;
    for (const Json& e : init.elements()) {
      const auto bytes = e.element(r.type);
      list.bytes.insert(list.bytes.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(element));
    }
    r.initial_bytes = list.bytes.size();
    r.initializer = std::move(list);
  } else if (init.is_object()) {
    if (init.find("value")) {
      if (init.find("valueStart") || init.find("sourcePath"))
        init.fail("\"value\", \"valueStart\" and \"sourcePath\" are mutually exclusive");
      require_type();
      ConstantValues c{init.get("value").element(r.type), init.get("valueCount").integer<std::uint32_t>()};
      r.initial_bytes = c.count * element;
      r.initializer = c;
      init.warn_unknown({"value", "valueCount"}, warnings);
    } else if (init.find("valueStart")) {
      require_type();
      SequenceValues s{init.get("valueStart").element(r.type), init.get("valueDelta").element(r.type),
                       init.get("valueCount").integer<std::uint32_t>()};
      r.initial_bytes = s.count * element;
      r.initializer = s;
      init.warn_unknown({"valueStart", "valueDelta", "valueCount"}, warnings);
    } else if (init.find("sourcePath")) {
      r.initializer = read_file_source(init, folder, r.type, has_type, r.initial_bytes);
      init.warn_unknown({"sourcePath"}, warnings);
    } else {
      init.fail("expected \"value\", \"valueStart\" or \"sourcePath\" (a constant, a sequence or a file)");
    }
  } else {
    init.fail("expected an array of numbers, an object or \"deferred\", found " + init.describe());
  }
  if (r.initial_bytes == 0) init.fail("the initial values are empty; a buffer needs at least one");

  if (auto size = j.find("sizeInBytes")) r.size_bytes = size->integer<std::uint64_t>();
  else if (r.initial_bytes > UINT64_MAX - 3) init.fail("the initial values are too large");
  else r.size_bytes = (r.initial_bytes + 3) / 4 * 4;  // DirectML's 4-byte alignment
  if (auto offset = j.find("initialValuesOffsetInBytes")) r.initial_offset = offset->integer<std::uint64_t>();
  if (r.initial_offset > r.size_bytes || r.size_bytes - r.initial_offset < r.initial_bytes)
    j.fail("sizeInBytes " + std::to_string(r.size_bytes) + " is too small for the " + std::to_string(r.initial_bytes) +
           " bytes of initial values at offset " + std::to_string(r.initial_offset));
  j.warn_unknown({"initialValuesDataType", "initialValues", "sizeInBytes", "initialValuesOffsetInBytes"}, warnings);
  return r;
}

void fill_initial_values(const Resource& r, std::span<std::byte> buffer, const std::function<void(std::uint64_t)>& progress) {
  std::byte* out = buffer.data() + r.initial_offset;
  const std::size_t element = size_of(r.type);
  std::visit(
      [&](const auto& init) {
        using I = std::decay_t<decltype(init)>;
        if constexpr (std::is_same_v<I, ListValues>) {
          std::memcpy(out, init.bytes.data(), init.bytes.size());
        } else if constexpr (std::is_same_v<I, ConstantValues>) {
          if (init.count == 0) return;
          std::memcpy(out, init.value.data(), element);
          // Doubling copies: log2(count) memcpy calls instead of one per element.
          for (std::uint64_t done = 1; done < init.count;) {
            const std::uint64_t n = std::min(done, init.count - done);
            std::memcpy(out + done * element, out, n * element);
            done += n;
          }
        } else if constexpr (std::is_same_v<I, SequenceValues>) {
          visit_data_type(r.type, [&](auto tag) {
            using T = decltype(tag);
            T v, d;
            std::memcpy(&v, init.start.data(), sizeof(T));
            std::memcpy(&d, init.delta.data(), sizeof(T));
            // DxDispatch adds the delta repeatedly in the element type (value += valueDelta).
            for (std::uint64_t i = 0; i < init.count; ++i, v = add_wrapping(v, d)) std::memcpy(out + i * sizeof(T), &v, sizeof(T));
          });
        } else {
          File file = open_file(init.file, "rb");
          if (!file || std::fseek(file.get(), static_cast<long>(init.offset), SEEK_SET) != 0)
            throw ModelError(r.path + ".initialValues.sourcePath", "cannot read \"" + init.file.string() + "\": " + std::strerror(errno));
          constexpr std::uint64_t chunk = 64u << 20;
          for (std::uint64_t done = 0; done < r.initial_bytes;) {
            const std::uint64_t n = std::min(chunk, r.initial_bytes - done);
            if (std::fread(out + done, 1, n, file.get()) != n)
              throw ModelError(r.path + ".initialValues.sourcePath", "\"" + init.file.string() + "\" ended early (did it change?)");
            done += n;
            progress(done);
          }
          if (init.byte_swap) byte_swap({out, static_cast<std::size_t>(r.initial_bytes)}, element);
        }
      },
      r.initializer);
}

}  // namespace refops::model
