// Commands: dispatch, print and writeFile, as DxDispatch's ParseModelCommandDesc reads them.
#include <strings.h>

#include "checked.hpp"
#include "read.hpp"

namespace refops::model {

namespace {

const Resource& resource_named(const Json& j, const Model& model) {
  const std::string name = j.string();
  const Resource* r = model.resource(name);
  if (!r) j.fail("there is no resource \"" + name + "\" in \"resources\"");
  return *r;
}

Binding read_binding(const Json& j, const Model& model, std::vector<std::string>& warnings) {
  if (j.value().IsArray()) {  // multi-tensor bind points: ours take one buffer each
    const auto list = j.elements();
    if (list.size() != 1) j.fail("expected one buffer for this bind point, found " + std::to_string(list.size()));
    Binding b = read_binding(list[0], model, warnings);
    b.path = j.path();
    return b;
  }
  if (j.value().IsString()) return {resource_named(j, model).name, 0, j.path()};
  if (!j.is_object()) j.fail("expected a buffer name or {\"name\": ..., \"elementOffset\": ...}, found " + j.describe());
  const Resource& r = resource_named(j.get("name"), model);
  std::uint64_t element = size_of(r.type);
  if (auto size = j.find("elementSizeInBytes")) {
    const auto s = size->integer<std::uint64_t>();
    if (s != 0) element = s;
  }
  std::uint64_t offset = 0;
  if (auto k = j.find("elementOffset")) {
    const auto count = k->integer<std::uint64_t>();
    const auto bytes = checked_product(count, element);
    if (!bytes) k->fail("elementOffset x element size is past 2^64 bytes");
    offset = *bytes;
  }
  // elementCount, format, counter and shape are for HLSL and ONNX bindings.
  j.warn_unknown({"name", "elementOffset", "elementSizeInBytes", "elementCount"}, warnings);
  return {r.name, offset, j.path()};
}

DispatchCommand read_dispatch(const Json& j, const Model& model, std::vector<std::string>& warnings) {
  DispatchCommand c;
  const Json name = j.get("dispatchable");
  c.dispatchable = name.string();
  const Dispatchable* d = model.dispatchable(c.dispatchable);
  if (!d) name.fail("there is no dispatchable \"" + c.dispatchable + "\" in \"dispatchables\"");
  std::string points;
  for (const auto& t : d->tensors) points += (points.empty() ? "" : ", ") + t;
  const Json bindings = j.get("bindings");
  for (auto& [point, value] : bindings.members()) {
    if (std::find(d->tensors.begin(), d->tensors.end(), point) == d->tensors.end())
      value.fail("\"" + point + "\" is not a bind point of " + d->type + " \"" + d->name + "\" (its bind points: " + points + ")");
    c.bindings[point] = read_binding(value, model, warnings);
  }
  for (const auto& t : d->tensors)
    if (!c.bindings.count(t)) bindings.fail("the bind point \"" + t + "\" has no buffer (bind: " + points + ")");
  j.warn_unknown({"type", "dispatchable", "bindings", "threadGroupCount"}, warnings);
  return c;
}

WriteFileCommand read_write_file(const Json& j, const Model& model, std::vector<std::string>& warnings) {
  WriteFileCommand c;
  const Resource& r = resource_named(j.get("resource"), model);
  c.resource = r.name;
  const Json target = j.get("targetPath");
  c.target = target.string();
  if (c.target.empty() || c.target.filename().empty()) target.fail("expected a file name");
  const std::string ext = extension_of(c.target);
  if (ext == ".jpg" || ext == ".png") target.fail("image outputs are not supported by refops-run (use .npy or .bin)");
  if (auto dims = j.find("dimensions")) {
    std::vector<std::uint64_t> shape;
    std::optional<std::uint64_t> bytes = size_of(r.type);
    for (std::uint32_t d : dims->uint32_array()) {
      shape.push_back(d);
      if (bytes) bytes = checked_product(*bytes, d);
    }
    if (!bytes || *bytes > r.size_bytes)
      dims->fail("the dimensions hold more than the " + std::to_string(r.size_bytes / size_of(r.type)) + " " +
                 std::string(name_of(r.type)) + " elements of \"" + r.name + "\"");
    c.dimensions = std::move(shape);
  }
  j.warn_unknown({"type", "resource", "targetPath", "dimensions"}, warnings);
  return c;
}

}  // namespace

Command read_command(const Json& j, const Model& model, std::vector<std::string>& warnings) {
  Command c;
  c.path = j.path();
  if (!j.is_object()) j.fail("expected a command (an object), found " + j.describe());
  const Json type = j.get("type");
  const std::string t = type.string();
  if (!strcasecmp(t.c_str(), "dispatch")) {
    c.what = read_dispatch(j, model, warnings);
  } else if (!strcasecmp(t.c_str(), "print")) {
    PrintCommand p{resource_named(j.get("resource"), model).name, false};
    if (auto v = j.find("verbose")) p.verbose = v->boolean();
    j.warn_unknown({"type", "resource", "verbose"}, warnings);
    c.what = p;
  } else if (!strcasecmp(t.c_str(), "writeFile")) {
    c.what = read_write_file(j, model, warnings);
  } else {
    type.fail("\"" + t + "\" is not a command (dispatch, print, writeFile)");
  }
  return c;
}

}  // namespace refops::model
