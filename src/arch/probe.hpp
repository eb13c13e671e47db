#pragma once

#include <cstddef>

#include "dispatch/arch_table.hpp"

namespace refops::detail {

struct ArchProbe {
  const char* compiled_for;  // the xsimd arch name ("avx512bw"), or "scalar"
  std::size_t vector_bytes;  // 0 for scalar
};

REFOPS_DECLARE_PER_ARCH(ArchProbe probe();)

// The probe of the path execute() would run with these options.
ArchProbe probe_arch(const ExecuteOptions&);

}  // namespace refops::detail
