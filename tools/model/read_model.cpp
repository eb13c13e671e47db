// A whole model: "resources", "dispatchables", "commands" (DxDispatch's ParseModel), and the
// small pieces of the public API that go with reading it.
#include <fstream>
#include <sstream>

#include "read.hpp"

namespace refops::model {

namespace {
std::string line_of(const Problem& p) { return p.path.empty() ? p.message : p.path + ": " + p.message; }
}  // namespace

std::string to_string(const std::vector<Problem>& problems) {
  std::string out;
  for (const Problem& p : problems) {
    if (!out.empty()) out += '\n';
    out += line_of(p);
  }
  return out;
}

ModelError::ModelError(std::string path, std::string message)
    : std::runtime_error(line_of({path, message})), problem_{std::move(path), std::move(message)} {}

InvalidError::InvalidError(std::vector<Problem> problems)
    : std::runtime_error(to_string(problems)), problems_(std::move(problems)) {}

const Resource* Model::resource(std::string_view name) const {
  for (const Resource& r : resources)
    if (r.name == name) return &r;
  return nullptr;
}

const Dispatchable* Model::dispatchable(std::string_view name) const {
  for (const Dispatchable& d : dispatchables)
    if (d.name == name) return &d;
  return nullptr;
}

Model parse_model(std::string_view json, const std::filesystem::path& folder) {
  rapidjson::Document doc;
  parse_json(doc, json);
  const Json root(doc, "");
  if (!root.is_object()) throw ModelError("", "a model is a JSON object with \"resources\", \"dispatchables\" and \"commands\"");
  Model m;
  for (auto& [name, value] : root.get("resources").members()) m.resources.push_back(read_resource(value, name, folder, m.warnings));
  for (auto& [name, value] : root.get("dispatchables").members())
    m.dispatchables.push_back(read_dispatchable(value, name, m.warnings));
  for (const Json& c : root.get("commands").elements()) m.commands.push_back(read_command(c, m, m.warnings));
  root.warn_unknown({"resources", "dispatchables", "commands"}, m.warnings);
  return m;
}

Model read_model(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw ModelError(file.string(), "is a directory, not a model file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ModelError(file.string(), std::string("cannot open the model: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ModelError(file.string(), "cannot read the model");
  const std::filesystem::path folder = file.parent_path().empty() ? "." : file.parent_path();
  try {
    return parse_model(text.str(), folder);
  } catch (const ModelError& e) {
    if (!e.problem().path.starts_with("line ")) throw;
    throw ModelError(file.string() + ", " + e.problem().path, e.problem().message);  // a JSON syntax error
  }
}

std::optional<FeatureLevel> parse_feature_level(std::string_view s) {
  std::string_view bare = s.starts_with("DML_FEATURE_LEVEL_") ? s.substr(18) : s;
  for (FeatureLevel l : all_feature_levels)
    if (short_name(l) == bare) return l;
  return std::nullopt;
}

std::string short_name(FeatureLevel level) { return std::string(name_of(level).substr(18)); }

}  // namespace refops::model
