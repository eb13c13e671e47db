#include "dispatch/cpu_features.hpp"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <cpuid.h>
#include <cstdint>
#define REFOPS_X86 1
#endif

namespace refops::detail {

namespace {

#if defined(REFOPS_X86)
std::uint64_t read_xcr0() {
  std::uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (std::uint64_t{edx} << 32) | eax;
}

CpuFeatures detect() {
  CpuFeatures f;
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
  f.sse2 = (edx >> 26) & 1;
  const bool osxsave = (ecx >> 27) & 1, avx = (ecx >> 28) & 1, fma = (ecx >> 12) & 1;
  if (!osxsave) return f;
  const std::uint64_t xcr0 = read_xcr0();
  const bool ymm_state = (xcr0 & 0x6) == 0x6;     // XMM and YMM saved by the OS
  const bool zmm_state = (xcr0 & 0xE6) == 0xE6;   // plus opmask, ZMM_Hi256, Hi16_ZMM
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return f;
  const bool avx2 = (ebx >> 5) & 1;
  const bool avx512f = (ebx >> 16) & 1, avx512dq = (ebx >> 17) & 1, avx512cd = (ebx >> 28) & 1,
             avx512bw = (ebx >> 30) & 1, avx512vl = (ebx >> 31) & 1;
  f.avx2 = ymm_state && avx && avx2 && fma;
  f.avx512 = f.avx2 && zmm_state && avx512f && avx512dq && avx512cd && avx512bw && avx512vl;
  return f;
}
#else
CpuFeatures detect() {
  CpuFeatures f;
#if defined(__aarch64__)
  f.neon = true;  // Advanced SIMD is mandatory on AArch64
#endif
  return f;
}
#endif

}  // namespace

const CpuFeatures& host_cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

}  // namespace refops::detail
