// Runtime dispatch over the per-instruction-set builds of the kernels.
//
// Every file in src/arch/ is compiled once per Arch this build has (CMake: refops_arch_<name>),
// each time with that instruction set's flags and REFOPS_ARCH_<NAME> defined, so its entry
// points land in namespace refops::detail::<name>. A header declares an entry point for every
// built Arch with REFOPS_DECLARE_PER_ARCH, and execute() picks one with REFOPS_ARCH_TABLE.
#pragma once

#include <refops/arch.hpp>

namespace refops::detail {

// Checks the forced or best Arch: the forced one must be in available_archs(), else Error
// (field "ExecuteOptions.arch").
Arch resolve_arch(const ExecuteOptions&);

template <class Fn>
struct ArchTable {
  Fn scalar = nullptr, sse2 = nullptr, avx2 = nullptr, avx512 = nullptr, neon = nullptr;
  Fn operator[](Arch a) const {
    switch (a) {
      case Arch::sse2: return sse2;
      case Arch::avx2: return avx2;
      case Arch::avx512: return avx512;
      case Arch::neon: return neon;
      case Arch::scalar: break;
    }
    return scalar;
  }
};

}  // namespace refops::detail

#if defined(REFOPS_BUILD_X86)
#define REFOPS_PER_ARCH_X86(decl) \
  namespace sse2 { decl }        \
  namespace avx2 { decl }        \
  namespace avx512 { decl }
#define REFOPS_X86_ENTRY(fn) , &sse2::fn, &avx2::fn, &avx512::fn
#else
#define REFOPS_PER_ARCH_X86(decl)
#define REFOPS_X86_ENTRY(fn) , nullptr, nullptr, nullptr
#endif
#if defined(REFOPS_BUILD_NEON)
#define REFOPS_PER_ARCH_NEON(decl) namespace neon { decl }
#define REFOPS_NEON_ENTRY(fn) , &neon::fn
#else
#define REFOPS_PER_ARCH_NEON(decl)
#define REFOPS_NEON_ENTRY(fn) , nullptr
#endif

// Inside namespace refops::detail: declares `decl` in every built Arch's namespace.
#define REFOPS_DECLARE_PER_ARCH(decl) \
  namespace scalar { decl }           \
  REFOPS_PER_ARCH_X86(decl)           \
  REFOPS_PER_ARCH_NEON(decl)

// Inside namespace refops::detail: the ArchTable of entry point `fn` (declared above).
#define REFOPS_ARCH_TABLE(fn) \
  ::refops::detail::ArchTable<decltype(&scalar::fn)> { &scalar::fn REFOPS_X86_ENTRY(fn) REFOPS_NEON_ENTRY(fn) }
