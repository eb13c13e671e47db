// execute() skips validate() for the description it validated last on this thread, at the
// same level. Validation depends on nothing else, and a caller runs one operator with one
// description many times (DirectML compiles an operator once for the same reason); for a
// small call, validation was most of the time (docs/performance.md, "Small calls"). The
// buffers are checked on every call all the same (finish_execute).
#pragma once

#include <optional>
#include <vector>

#include <refops/diagnostics.hpp>
#include <refops/feature_level.hpp>

namespace refops::detail {

// validate(desc, level), or nothing when this thread's last valid description and level were
// these. One entry per description type: a hit costs one comparison of the two descriptions.
template <class Desc, class Validate>
std::vector<Diagnostic> validate_once(const Desc& desc, FeatureLevel level, Validate validate) {
  struct Last {
    std::optional<Desc> desc;
    FeatureLevel level{};
  };
  thread_local Last last;
  if (last.desc && last.level == level && *last.desc == desc) return {};
  std::vector<Diagnostic> diagnostics = validate(desc, level);
  if (diagnostics.empty()) {
    last.desc = desc;
    last.level = level;
  }
  return diagnostics;
}

}  // namespace refops::detail
