// execute() skips validate() for the description it validated last on this thread, at the
// same level. Validation depends on nothing else, and a caller runs one operator with one
// description many times (DirectML compiles an operator once for the same reason); for a
// small call, validation was most of the time (docs/performance.md, "Small calls"). The
// buffers are checked on every call all the same (finish_execute), against the tensors'
// addressed bytes, which are kept with the description.
#pragma once

#include <optional>
#include <vector>

#include <refops/diagnostics.hpp>
#include <refops/feature_level.hpp>

#include "validation/tensor_rules.hpp"

namespace refops::detail {

// validate_once's answer: the diagnostics, and for a valid description the addressed bytes
// kept with it.
struct Validated {
  std::vector<Diagnostic> diagnostics;  // empty: valid
  AddressedBytes* addressed = nullptr;  // this thread's, for the valid description
};

// validate(desc, level), or nothing when this thread's last valid description and level were
// these. One entry per description type: a hit costs one comparison of the two descriptions.
template <class Desc, class Validate>
Validated validate_once(const Desc& desc, FeatureLevel level, Validate validate) {
  struct Last {
    std::optional<Desc> desc;
    FeatureLevel level{};
    AddressedBytes addressed;
  };
  thread_local Last last;
  if (last.desc && last.level == level && *last.desc == desc) return {{}, &last.addressed};
  std::vector<Diagnostic> diagnostics = validate(desc, level);
  if (!diagnostics.empty()) return {std::move(diagnostics)};
  last.desc = desc;
  last.level = level;
  last.addressed = {};
  return {{}, &last.addressed};
}

}  // namespace refops::detail
