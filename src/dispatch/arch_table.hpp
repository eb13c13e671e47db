// Runtime dispatch over the per-instruction-set builds of the kernels.
//
// Every file in src/arch/ is compiled once per instruction set this build has (CMake:
// refops_arch_<name>, from dispatch/isa_list.hpp), each time with that instruction set's flags
// and REFOPS_ISA=<name>, so its entry points land in namespace refops::detail::<name>. A header
// declares an entry point for every built instruction set with REFOPS_DECLARE_PER_ARCH, and
// execute() picks one from REFOPS_ARCH_TABLE.
#pragma once

#include <array>
#include <cstddef>
#include <iterator>

#include <refops/arch.hpp>

#include "dispatch/isa_list.hpp"

namespace refops::detail {

// Every instruction set of the list, in its order.
#define REFOPS_ISA_ENUMERATOR(name, family, target, arg) ::refops::Arch::name,
inline constexpr Arch all_archs[] = {REFOPS_FOR_EACH_ISA(REFOPS_ISA_ENUMERATOR, ~)};
#undef REFOPS_ISA_ENUMERATOR
inline constexpr std::size_t arch_count = std::size(all_archs);

// The public enum (API.md keeps its names) lists the instruction sets in the list's order.
consteval bool arch_enum_follows_isa_list() {
  for (std::size_t i = 0; i < arch_count; ++i)
    if (static_cast<std::size_t>(all_archs[i]) != i) return false;
  return true;
}
static_assert(arch_enum_follows_isa_list(),
              "enum Arch (include/refops/arch.hpp) must list dispatch/isa_list.hpp's names in order");

// Checks the forced or best Arch: the forced one must be in available_archs(), else Error
// (field "ExecuteOptions.arch").
Arch resolve_arch(const ExecuteOptions&);

// One entry point per instruction set, indexed by Arch; null for those this build lacks.
template <class Fn>
struct ArchTable {
  std::array<Fn, arch_count> entries{};
  Fn operator[](Arch a) const { return entries[static_cast<std::size_t>(a)]; }
};

}  // namespace refops::detail

// Inside namespace refops::detail: declares `decl` in every built instruction set's namespace.
#define REFOPS_DECLARE_IN_ISA(name, family, target, decl) REFOPS_IF_BUILT(name, namespace name { decl })
#define REFOPS_DECLARE_PER_ARCH(decl) REFOPS_FOR_EACH_ISA(REFOPS_DECLARE_IN_ISA, decl)

// Inside namespace refops::detail: the ArchTable of entry point `fn` (declared as above).
#define REFOPS_SET_ISA_ENTRY(name, family, target, fn) \
  REFOPS_IF_BUILT(name, table.entries[static_cast<std::size_t>(::refops::Arch::name)] = &name::fn;)
#define REFOPS_ARCH_TABLE(fn)                                  \
  [] {                                                         \
    ::refops::detail::ArchTable<decltype(&scalar::fn)> table;  \
    REFOPS_FOR_EACH_ISA(REFOPS_SET_ISA_ENTRY, fn)              \
    return table;                                              \
  }()
