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
// The threshold is that LLC, except that a reported LLC beyond 64 MiB (a guest told its host
// package's L3) is tested by writing buffers of 64 MiB and up (measure_reach).
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <emmintrin.h>
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

// Whether CPUID's vendor string (leaf 0: ebx, edx, ecx, in that order) is `vendor`.
inline bool cpu_vendor_is([[maybe_unused]] const char (&vendor)[13]) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, name[3] = {};
  if (!__get_cpuid(0, &eax, &name[0], &name[2], &name[1])) return false;
  return std::memcmp(name, vendor, 12) == 0;
#else
  return false;
#endif
}

inline Found from_cpuid() {
  Found f;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return f;
  const unsigned max_leaf = eax;
  // AMD and Hygon keep the table in leaf 0x8000001D (with TOPOEXT); Intel in leaf 4.
  const bool amd_like = cpu_vendor_is("AuthenticAMD") || cpu_vendor_is("HygonGenuine");
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

// True on an Intel CPU (CPUID's vendor "GenuineIntel"), read once. Some choices follow the
// hardware prefetchers, which differ by vendor (hardmax_rows.hpp, whole_line_prefetch).
inline bool intel_cpu() {
  static const bool intel = cache_detail::cpu_vendor_is("GenuineIntel");
  return intel;
}

// True on AMD Zen 4 and later: family 0x19 models 0x10-0x1F, 0x60-0x7F and 0xA0-0xAF (Genoa,
// Raphael, Phoenix, Bergamo), family 0x1A on (Zen 5), read once. The one host whose hardware
// prefetcher was measured to keep ahead of short rows streamed as whole lines is a Zen 4; on
// the Intel Xeon guest and on Zen 3 (family 0x19 model 0x01) the same rows ran 10-25 % faster
// with the program's own prefetches (hardmax_rows.hpp, whole_line_prefetch). Zen 5 is taken
// with Zen 4, unmeasured.
inline bool amd_zen4_or_later() {
  static const bool zen4 = [] {
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!cache_detail::cpu_vendor_is("AuthenticAMD") || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned base_family = (eax >> 8) & 0xF;
    const unsigned family = base_family == 0xF ? base_family + ((eax >> 20) & 0xFF) : base_family;
    const unsigned model = ((eax >> 12) & 0xF0) | ((eax >> 4) & 0xF);
    if (family > 0x19) return true;
    return family == 0x19 && ((model >= 0x10 && model <= 0x1F) || (model >= 0x60 && model <= 0x7F) ||
                              (model >= 0xA0 && model <= 0xAF));
#else
    return false;
#endif
  }();
  return zen4;
}

// A yes/no choice taken by `rule` unless `forced` says otherwise: 0 the rule, 1 no, 2 yes (the
// benchmark's forced rows and the tests set it).
inline bool rule_unless_forced(bool rule, const std::atomic<std::size_t>& forced) {
  const std::size_t f = forced.load(std::memory_order_relaxed);
  return f == 0 ? rule : f == 2;
}

// Read once per process (per instruction-set copy of this header).
inline const CacheTopology& cache_topology() {
  static const CacheTopology topology = cache_detail::detect();
  return topology;
}

inline std::size_t last_level_cache_bytes() { return cache_topology().llc_bytes; }

// Whether a kernel that reads as many bytes as it writes (HARDMAX), `bytes` each, keeps its
// input and output in one core's L2 together (store_choice.hpp, choose_stores; the columns'
// prefetches, hardmax_columns.hpp).
inline bool input_and_output_fit_in_l2(std::size_t bytes) { return 2 * bytes <= cache_topology().l2_bytes; }
// Whether they fill it at least: as large as L2 together, they do not stay in it from one call
// to the next either (the stack and the code share it).
inline bool input_and_output_fill_l2(std::size_t bytes) { return 2 * bytes >= cache_topology().l2_bytes; }

namespace cache_detail {

// Outputs below this many bytes are taken to stay in the LLC the hardware reports, without a
// measurement: a Zen core complex's L3, the LLC of every AMD guest measured so far, where plain
// stores beat streaming ones up to it. A larger reported LLC is measured first (measure_reach).
inline constexpr std::size_t trusted_llc_bytes = std::size_t{32} << 20;

#if defined(__x86_64__) || defined(__i386__)
// One pass of 16-byte zero stores over the n bytes at p (16-byte aligned), plain or streamed,
// in ns. SSE2, so every instruction-set copy of this header measures alike: on the Xeon below
// 16- and 64-byte stores ran at the same speed in and out of the cache.
inline double zero_pass_ns(unsigned char* p, std::size_t n, bool streamed) {
  const __m128i zero = _mm_setzero_si128();
  const auto start = std::chrono::steady_clock::now();
  if (streamed) {
    for (std::size_t i = 0; i < n; i += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(p + i), zero);
    _mm_sfence();
  } else {
    for (std::size_t i = 0; i < n; i += 16) _mm_store_si128(reinterpret_cast<__m128i*>(p + i), zero);
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the stores are not moved past the clock
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}
#endif

// The output size from which streaming stores beat plain ones when the same buffer is written
// again and again (as a runtime reuses its buffers), where the reported LLC is larger than
// twice trusted_llc_bytes. A guest of a large server is told the whole package's L3, which it
// shares with every other tenant: an Intel Xeon guest (family 6 model 207, 2 vCPUs) reads
// 300 MiB "shared by 2 CPUs" from CPUID and sysfs alike, yet a 64 MiB buffer written plain
// five times in a row still ran at 7.7 GB/s on its last pass, against 22.4 streamed, and 8 to
// 32 MiB took three plain passes to reach 22-25 GB/s (against 22 streamed). So buffers of
// 2, 4, 8 ... times trusted_llc_bytes below the LLC are each written plain three times (the
// first faults their pages in), then timed twice plain and twice streamed (the faster pass of
// each counts); the first size at which streaming wins ends it, and the size before it (at
// least trusted_llc_bytes) is the threshold. If plain wins at every size, the LLC is. About
// 85-95 ms and 64 MiB on that Xeon, once per process; other hosts that report an LLC of at most
// 64 MiB measure nothing. A too-small threshold only streams outputs that could have stayed
// in the cache a little early (8-12% slower there); a too-large one stores plain what cannot
// stay (3x slower on that Xeon).
inline std::size_t measure_reach(std::size_t llc) {
  std::size_t largest = trusted_llc_bytes;
  while (2 * largest < llc) largest *= 2;
  if (largest == trusted_llc_bytes) return llc;
#if defined(__x86_64__) || defined(__i386__)
  void* memory = std::aligned_alloc(4096, largest);
  if (memory == nullptr) return trusted_llc_bytes;
  auto* buffer = static_cast<unsigned char*>(memory);
  std::size_t reach = trusted_llc_bytes;
  for (std::size_t size = 2 * trusted_llc_bytes; size <= largest; size *= 2) {
    for (int warm = 0; warm < 3; ++warm) zero_pass_ns(buffer, size, false);
    const double plain = std::min(zero_pass_ns(buffer, size, false), zero_pass_ns(buffer, size, false));
    const double streamed = std::min(zero_pass_ns(buffer, size, true), zero_pass_ns(buffer, size, true));
    if (streamed <= plain) break;
    reach = size;
  }
  std::free(memory);
  return reach == largest ? llc : reach;
#else
  return llc;  // no streaming stores to measure against (NEON): the LLC
#endif
}

// REFOPS_STREAMING_THRESHOLD (bytes; 0 means never), read once; nothing when unset or malformed.
inline std::optional<std::size_t> threshold_from_environment() {
  static const std::optional<std::size_t> bytes = []() -> std::optional<std::size_t> {
    const char* env = std::getenv("REFOPS_STREAMING_THRESHOLD");
    if (env == nullptr) return std::nullopt;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end == env || *end != '\0') return std::nullopt;
    return v == 0 ? ~std::size_t{0} : static_cast<std::size_t>(v);
  }();
  return bytes;
}

}  // namespace cache_detail

// The output size (the whole call's, however it is split among threads) from which an output
// cannot stay in the last-level cache, so plain stores would only add a read-for-ownership of
// every line, and where it comes from.
struct StreamingThreshold {
  std::size_t bytes = 0;
  const char* source = "";  // "REFOPS_STREAMING_THRESHOLD", "the LLC" or "measured"
};

// Read (and, where the LLC is large, measured: cache_detail::measure_reach) once per process
// and instruction-set copy of this header; the first caller pays for the measurement.
inline const StreamingThreshold& streaming_threshold() {
  static const StreamingThreshold threshold = []() -> StreamingThreshold {
    if (const auto env = cache_detail::threshold_from_environment()) return {*env, "REFOPS_STREAMING_THRESHOLD"};
    const std::size_t llc = last_level_cache_bytes();
    const std::size_t reach = cache_detail::measure_reach(llc);
    return {reach, reach == llc ? "the LLC" : "measured"};
  }();
  return threshold;
}

inline std::size_t streaming_threshold_bytes() { return streaming_threshold().bytes; }

// True when an output of `bytes` (the whole call's) cannot stay in the last-level cache:
// bytes >= streaming_threshold_bytes(), without measuring anything for outputs that are
// smaller than trusted_llc_bytes or at least the whole LLC (every call asks; only the first
// call between the two may measure).
inline bool exceeds_cache(std::size_t bytes) {
  if (const auto env = cache_detail::threshold_from_environment()) return bytes >= *env;
  const std::size_t llc = last_level_cache_bytes();
  if (bytes >= llc) return true;
  if (bytes < std::min(llc, cache_detail::trusted_llc_bytes)) return false;
  return bytes >= streaming_threshold_bytes();
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
