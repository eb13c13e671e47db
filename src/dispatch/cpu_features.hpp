// What this CPU and its operating system let us run: one member per entry of
// dispatch/isa_list.hpp, named after it. Our own CPUID + XGETBV, not xsimd's: Debian's xsimd 8.1
// reads SSE2 from the wrong bit, misses AVX on AVX-512 hosts and ignores whether the OS saves
// the wide registers (XCR0).
#pragma once

namespace refops::detail {

struct CpuFeatures {
  bool scalar = true;   // plain C++: every CPU
  bool sse2 = false;
  bool avx2 = false;    // AVX + AVX2 + FMA, with YMM state enabled by the OS
  bool avx512 = false;  // AVX-512 F + CD + BW + DQ + VL, with ZMM and mask state enabled
  bool neon = false;    // AArch64 Advanced SIMD
};

const CpuFeatures& host_cpu_features();

}  // namespace refops::detail
