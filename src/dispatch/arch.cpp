#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <refops/arch.hpp>
#include <refops/diagnostics.hpp>

#include "dispatch/arch_table.hpp"
#include "dispatch/cpu_features.hpp"

namespace refops {

std::string_view name_of(Arch a) {
  switch (a) {
    case Arch::scalar: return "scalar";
    case Arch::sse2: return "sse2";
    case Arch::avx2: return "avx2";
    case Arch::avx512: return "avx512";
    case Arch::neon: return "neon";
  }
  return "unknown";
}

namespace {

// Built into this library and supported by this CPU, best first, without the cap.
std::vector<Arch> supported_archs() {
  std::vector<Arch> archs;
  [[maybe_unused]] const detail::CpuFeatures& cpu = detail::host_cpu_features();
#if defined(REFOPS_BUILD_X86)
  if (cpu.avx512) archs.push_back(Arch::avx512);
  if (cpu.avx2) archs.push_back(Arch::avx2);
  if (cpu.sse2) archs.push_back(Arch::sse2);
#endif
#if defined(REFOPS_BUILD_NEON)
  if (cpu.neon) archs.push_back(Arch::neon);
#endif
  archs.push_back(Arch::scalar);
  return archs;
}

// REFOPS_ARCH=<name> keeps only that Arch and those below it (like ONEDNN_MAX_CPU_ISA). An
// unknown name is ignored with a warning on stderr, once.
std::vector<Arch> capped_archs() {
  std::vector<Arch> archs = supported_archs();
  const char* cap = std::getenv("REFOPS_ARCH");
  if (!cap || !*cap) return archs;
  for (std::size_t i = 0; i < archs.size(); ++i)
    if (name_of(archs[i]) == cap) return std::vector<Arch>(archs.begin() + static_cast<std::ptrdiff_t>(i), archs.end());
  // A cap above what this CPU has keeps everything; a name that is no Arch is a mistake.
  for (Arch a : {Arch::avx512, Arch::avx2, Arch::sse2, Arch::neon, Arch::scalar})
    if (name_of(a) == cap) return archs;
  std::fprintf(stderr, "refops: ignoring REFOPS_ARCH=%s (expected scalar, sse2, avx2, avx512 or neon)\n", cap);
  return archs;
}

}  // namespace

std::vector<Arch> available_archs() {
  static const std::vector<Arch> archs = capped_archs();
  return archs;
}

namespace detail {

Arch resolve_arch(const ExecuteOptions& options) {
  if (options.stores && name_of(*options.stores) == "unknown")
    throw Error({{"ExecuteOptions.stores", "expected plain, stream or rep (or no value: chosen per call), found " +
                                               std::to_string(static_cast<int>(*options.stores))}});
  const std::vector<Arch> archs = available_archs();
  if (!options.arch) return archs.front();
  for (Arch a : archs)
    if (a == *options.arch) return a;
  std::string have;
  for (Arch a : archs) have += (have.empty() ? "" : ", ") + std::string(name_of(a));
  throw Error({{"ExecuteOptions.arch",
                "expected one of the available paths (" + have + "), found " +
                    std::string(name_of(*options.arch)) +
                    " (not built in, not supported by this CPU, or capped by REFOPS_ARCH)"}});
}

}  // namespace detail
}  // namespace refops
