// Every operator test runs once per path this CPU has (Highway's SetSupportedTargetsForTest):
// for_each_arch calls the check with each Arch, and a failure names the Arch.
#pragma once

#include <optional>
#include <string_view>

#include <refops/arch.hpp>

#include "support/catch.hpp"

namespace refops::test {

template <class F>
void for_each_arch(F&& check) {
  for (Arch arch : available_archs()) {
    INFO("arch: " << name_of(arch));
    check(arch);
  }
}

// ExecuteOptions that force `arch` (and validate at `level`).
inline ExecuteOptions on(Arch arch, FeatureLevel level = FeatureLevel::latest) {
  ExecuteOptions options;
  options.arch = arch;
  options.feature_level = level;
  return options;
}

// Every path and every store strategy: check(options) for each Arch x {chosen per call, plain,
// stream, rep}. Kernels choose by output size, so without forcing, the tests' small outputs
// would only ever reach plain stores.
template <class F>
void for_each_arch_and_stores(F&& check) {
  static constexpr std::optional<StoreStrategy> strategies[] = {std::nullopt, StoreStrategy::plain,
                                                                StoreStrategy::stream, StoreStrategy::rep};
  for (Arch arch : available_archs())
    for (const auto& stores : strategies) {
      INFO("arch: " << name_of(arch) << ", stores: " << (stores ? name_of(*stores) : std::string_view("auto")));
      ExecuteOptions options = on(arch);
      options.stores = stores;
      check(options);
    }
}

}  // namespace refops::test
