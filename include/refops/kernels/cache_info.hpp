// The cache topology kernels size their decisions by: the last-level cache (LLC) in total and
// per core, read from the hardware, and the output size beyond which stores go around the cache.
//
// Where it comes from, in order:
// - x86: CPUID's deterministic cache parameters, leaf 4 on Intel and leaf 0x8000001D on AMD
//   (and Hygon): size = ways x partitions x line x sets, and how many logical CPUs share each
//   cache. Never sysconf alone: glibc's _SC_LEVEL3_CACHE_SIZE reads AMD's legacy leaf
//   0x80000006, which on a 2-core KVM guest of an EPYC said 256 MiB (the host package's L3)
//   while leaf 0x8000001D and Linux's sysfs said 32 MiB.
// - Linux sysfs (/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size,shared_cpu_list}):
//   the only source on aarch64 and elsewhere, and the cross-check on x86. When both answer and
//   disagree, the smaller LLC wins (a too-large LLC keeps outputs on plain stores that cannot
//   stay in the cache, the costly mistake; a too-small one only streams a little early).
// - Otherwise a documented default: 32 MiB shared by 8 cores, 1 MiB of L2.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

struct CacheTopology {
  std::size_t l2_bytes = 0;             // the L2 of one core
  std::size_t llc_bytes = 0;            // the last-level cache, in total
  std::size_t llc_sharing_cpus = 1;     // logical CPUs that share it
  std::size_t llc_per_cpu_bytes = 0;    // llc_bytes / llc_sharing_cpus
  const char* source = "default";       // "cpuid", "cpuid+sysfs", "sysfs" or "default"
};

namespace cache_detail {

struct Found {
  std::size_t l2 = 0, llc = 0, llc_level = 0, sharing = 0;
};

// Counts the CPUs in a sysfs list such as "0-3,8,10-11".
inline std::size_t count_cpu_list(const std::string& list) {
  std::size_t count = 0, i = 0;
  while (i < list.size()) {
    char* end = nullptr;
    const unsigned long first = std::strtoul(list.c_str() + i, &end, 10);
    std::size_t j = static_cast<std::size_t>(end - list.c_str());
    if (j == i) break;
    unsigned long last = first;
    if (j < list.size() && list[j] == '-') {
      last = std::strtoul(list.c_str() + j + 1, &end, 10);
      j = static_cast<std::size_t>(end - list.c_str());
    }
    count += last >= first ? last - first + 1 : 1;
    i = j + 1;  // past the comma
  }
  return count;
}

inline std::string read_line(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// "32768K" -> 33554432; 0 when unreadable.
inline std::size_t parse_size(const std::string& text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return 0;
  switch (*end) {
    case 'K': return static_cast<std::size_t>(v) << 10;
    case 'M': return static_cast<std::size_t>(v) << 20;
    case 'G': return static_cast<std::size_t>(v) << 30;
    default: return static_cast<std::size_t>(v);
  }
}

inline Found from_sysfs() {
  Found f;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level_text = read_line(dir + "level");
    if (level_text.empty()) break;
    if (read_line(dir + "type") == "Instruction") continue;
    const std::size_t level = std::strtoul(level_text.c_str(), nullptr, 10);
    const std::size_t size = parse_size(read_line(dir + "size"));
    if (level == 2) f.l2 = size;
    if (level >= 2 && level >= f.llc_level && size > 0) {
      f.llc_level = level;
      f.llc = size;
      f.sharing = std::max<std::size_t>(1, count_cpu_list(read_line(dir + "shared_cpu_list")));
    }
  }
  return f;
}

inline Found from_cpuid() {
  Found f;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return f;
  const unsigned max_leaf = eax;
  // "AuthenticAMD" / "HygonGenuine" keep the table in leaf 0x8000001D (with TOPOEXT); Intel
  // in leaf 4.
  const bool amd_like = ebx == 0x68747541 /* Auth */ || ebx == 0x6f677948 /* Hygo */;
  unsigned leaf = 4;
  if (amd_like) {
    if (__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x8000001D) return f;
    leaf = 0x8000001D;
  } else if (max_leaf < 4) {
    return f;
  }
  for (unsigned sub = 0; sub < 16; ++sub) {
    __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
    const unsigned type = eax & 31;  // 0 none, 1 data, 2 instruction, 3 unified
    if (type == 0) break;
    if (type == 2) continue;
    const std::size_t level = (eax >> 5) & 7;
    const std::size_t sharing = ((eax >> 14) & 0xFFF) + 1;
    const std::size_t size = std::size_t{((ebx >> 22) & 0x3FF) + 1} * (((ebx >> 12) & 0x3FF) + 1) *
                             ((ebx & 0xFFF) + 1) * (std::size_t{ecx} + 1);
    if (level == 2) f.l2 = size;
    if (level >= 2 && level >= f.llc_level) {
      f.llc_level = level;
      f.llc = size;
      f.sharing = sharing;
    }
  }
#endif
  return f;
}

inline CacheTopology detect() {
  const Found cpuid = from_cpuid(), sysfs = from_sysfs();
  Found f = cpuid;
  CacheTopology t;
  if (cpuid.llc && sysfs.llc) {
    t.source = "cpuid+sysfs";
    if (sysfs.llc < cpuid.llc) f = sysfs;
  } else if (cpuid.llc) {
    t.source = "cpuid";
  } else if (sysfs.llc) {
    t.source = "sysfs";
    f = sysfs;
  } else {
    f = {std::size_t{1} << 20, std::size_t{32} << 20, 3, 8};
  }
  t.l2_bytes = f.l2 ? f.l2 : std::size_t{1} << 20;
  t.llc_bytes = f.llc;
  t.llc_sharing_cpus = std::max<std::size_t>(1, f.sharing);
  t.llc_per_cpu_bytes = t.llc_bytes / t.llc_sharing_cpus;
  return t;
}

}  // namespace cache_detail

// Read once per process (per instruction-set copy of this header).
inline const CacheTopology& cache_topology() {
  static const CacheTopology topology = cache_detail::detect();
  return topology;
}

inline std::size_t last_level_cache_bytes() { return cache_topology().llc_bytes; }

// Outputs of at least this many bytes (the whole call's, however it is split among threads)
// cannot stay in the last-level cache, so plain stores would only add a read-for-ownership of
// every line: the LLC's size, or REFOPS_STREAMING_THRESHOLD (bytes; 0 means never), read once.
inline std::size_t streaming_threshold_bytes() {
  static const std::size_t bytes = [] {
    if (const char* env = std::getenv("REFOPS_STREAMING_THRESHOLD")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env && *end == '\0') return v == 0 ? ~std::size_t{0} : static_cast<std::size_t>(v);
    }
    return last_level_cache_bytes();
  }();
  return bytes;
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
