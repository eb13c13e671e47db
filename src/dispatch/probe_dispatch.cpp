#include "arch/probe.hpp"

namespace refops::detail {

ArchProbe probe_arch(const ExecuteOptions& options) {
  static const auto table = REFOPS_ARCH_TABLE(probe);
  return table[resolve_arch(options)]();
}

StoreRatesProbe store_rates_of(const ExecuteOptions& options) {
  static const auto table = REFOPS_ARCH_TABLE(store_rates);
  return table[resolve_arch(options)]();
}

}  // namespace refops::detail
