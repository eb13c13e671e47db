// fuzz_model: any bytes as a DxDispatch model (and as a lone dispatchable), read and run by
// refops::model. Properties checked on every input:
//  - reading throws nothing but ModelError, running nothing but ModelError or InvalidError
//    (no crash, no other exception: refops-run turns these two into messages and exit 2 / 1);
//  - every error names something: a ModelError has a path or a message, an InvalidError at
//    least one problem, each with a path and a message;
//  - every dispatchable's diagnostics have a field, a message and a JSON path;
//    minimum_feature_level() is a level at which validate() finds nothing, and none exactly
//    when validate() at the latest level finds something;
//  - models whose buffers total at most 1 MiB are run (prints to memory, no files), so the
//    initializers, bindings and execute() calls are fuzzed too.
// Relative sourcePaths resolve against examples/models (the seeds' folder).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "fuzz_check.hpp"
#include "model/model.hpp"

using namespace refops;
using namespace refops::model;

namespace {

void check_dispatchable(const Dispatchable& d) {
  const auto diagnostics = validate(d);
  for (const Diagnostic& diag : diagnostics) {
    FUZZ_CHECK(!diag.field.empty() && !diag.message.empty(), d.name + ": a diagnostic without field or message");
    FUZZ_CHECK(!d.json_path(diag).empty(), d.name + ": no JSON path for " + diag.field);
  }
  const auto level = minimum_feature_level(d);
  FUZZ_CHECK(level.has_value() == diagnostics.empty(), d.name + ": minimum_feature_level disagrees with validate(latest)");
  if (level) FUZZ_CHECK(validate(d, *level).empty(), d.name + ": invalid at its own minimum level");
}

void check_problems(const std::vector<Problem>& problems) {
  FUZZ_CHECK(!problems.empty(), "an InvalidError without problems");
  for (const Problem& p : problems) FUZZ_CHECK(!p.path.empty() && !p.message.empty(), "a problem without path or message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_dispatchable(parse_dispatchable(text));
  } catch (const ModelError& e) {
    FUZZ_CHECK(!e.problem().path.empty() || !e.problem().message.empty(), "an empty ModelError");
  }
  try {
    const Model m = parse_model(text, REFOPS_FUZZ_MODEL_FOLDER);
    std::uint64_t bytes = 0;
    for (const Dispatchable& d : m.dispatchables) check_dispatchable(d);
    for (const Resource& r : m.resources) bytes += std::min<std::uint64_t>(r.size_bytes, 1u << 30);
    if (bytes > (1u << 20)) return 0;
    std::ostringstream printed;
    RunOptions options;
    options.print = &printed;
    options.write_files = false;
    run(m, options);
  } catch (const ModelError& e) {
    FUZZ_CHECK(!e.problem().path.empty() || !e.problem().message.empty(), "an empty ModelError");
  } catch (const InvalidError& e) {
    check_problems(e.problems());
  }
  return 0;
}
