// name_of(Arch), the dispatch order and resolve_arch: all read from dispatch/isa_list.hpp.
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
#define REFOPS_ISA_NAME(name, family, target, arg) \
  case Arch::name: return #name;
  switch (a) { REFOPS_FOR_EACH_ISA(REFOPS_ISA_NAME, ~) }
#undef REFOPS_ISA_NAME
  return "unknown";
}

namespace detail {
namespace {

// The paths execute() may take, best first: fixed at first use, so a call reads it without
// copying or allocating.
struct ArchList {
  Arch archs[arch_count] = {};
  std::size_t size = 0;
  const Arch* begin() const { return archs; }
  const Arch* end() const { return archs + size; }
};

bool is_built_and_supported(Arch a) {
  [[maybe_unused]] const CpuFeatures& cpu = host_cpu_features();
#define REFOPS_ISA_SUPPORTED(name, family, target, arg) \
  case Arch::name: return REFOPS_IF_BUILT(name, cpu.name ||) false;
  switch (a) { REFOPS_FOR_EACH_ISA(REFOPS_ISA_SUPPORTED, ~) }
#undef REFOPS_ISA_SUPPORTED
  return false;
}

// Built into this library and supported by this CPU, best first (the list's strongest last).
// REFOPS_ARCH=<name> keeps only that Arch and those after it (like ONEDNN_MAX_CPU_ISA); a cap
// above what this CPU has keeps everything; a name that is no Arch is ignored with a warning
// on stderr, once.
ArchList make_arch_list() {
  ArchList list;
  for (std::size_t i = arch_count; i-- > 0;)
    if (is_built_and_supported(all_archs[i])) list.archs[list.size++] = all_archs[i];
  const char* cap = std::getenv("REFOPS_ARCH");
  if (!cap || !*cap) return list;
  for (std::size_t i = 0; i < list.size; ++i)
    if (name_of(list.archs[i]) == cap) {
      ArchList capped;
      for (std::size_t j = i; j < list.size; ++j) capped.archs[capped.size++] = list.archs[j];
      return capped;
    }
  for (Arch a : all_archs)
    if (name_of(a) == cap) return list;
  std::string names;
  for (Arch a : all_archs) names += (names.empty() ? "" : ", ") + std::string(name_of(a));
  std::fprintf(stderr, "refops: ignoring REFOPS_ARCH=%s (expected one of %s)\n", cap, names.c_str());
  return list;
}

const ArchList& arch_list() {
  static const ArchList list = make_arch_list();
  return list;
}

// Why a forced Arch is not available: a known name, or the number of a value that is no Arch.
std::string why_not(Arch a) {
  for (Arch known : all_archs)
    if (known == a)
      return std::string(name_of(a)) + " (not built in, not supported by this CPU, or capped by REFOPS_ARCH)";
  return std::to_string(static_cast<int>(a)) + ", which is no Arch (its values are 0 to " +
         std::to_string(arch_count - 1) + ")";
}

}  // namespace

Arch resolve_arch(const ExecuteOptions& options) {
  const ArchList& list = arch_list();
  if (!options.arch) return list.archs[0];
  for (Arch a : list)
    if (a == *options.arch) return a;
  std::string have;
  for (Arch a : list) have += (have.empty() ? "" : ", ") + std::string(name_of(a));
  throw Error({{"ExecuteOptions.arch",
                "expected one of the available paths (" + have + "), found " + why_not(*options.arch)}});
}

}  // namespace detail

std::vector<Arch> available_archs() {
  const auto& list = detail::arch_list();
  return {list.begin(), list.end()};
}

}  // namespace refops
