// What every operator benchmark shares. A Case is one problem (shape, types, layout); the main
// in bench_main.cpp runs it on one thread on the best path and on the scalar path (all paths
// with --refops_all_archs) and, in alternation with every kernel run, on the kernel's own
// buffers, the bandwidth baseline the kernel is bound by: memset of the output for write-only
// kernels, memcpy from the input to the output for read + write ones.
// Cases with compare_stores also run the best path with each store strategy forced ("avx2
// stores=rep"), and a second table says how far the automatic choice is from the best forced
// one; cases with KernelChoices do the same for each choice ("avx2 pass_rows=2"). Large cases
// also run on the best path on 2 (or --refops_threads) threads of the default pool, against the
// same baseline cut into as many parts on the same pool. It then prints one table: case,
// threads, path, GB/s, ratio to the baseline, speed-up over scalar.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <refops/arch.hpp>

namespace refops::bench {

enum class Baseline {
  memset_zero,     // write-only kernels whose bytes are mostly zero
  memset_nonzero,  // write-only kernels whose fill is not zero (some hosts store zero lines faster)
  memcpy,          // kernels that read as many bytes as they write
};

// One prepared kernel: the run, and its output and input buffers (the baseline memsets the
// output, or copies the input to it; input empty for write-only kernels).
struct KernelRun {
  std::function<void(const ExecuteOptions&)> run;
  std::span<std::byte> output;
  std::span<const std::byte> input;
};

// A choice inside a kernel, other than the store strategy, that depends on the host: the case
// also runs the best path with each alternative forced, next to the automatic choice (issue 10).
struct KernelChoice {
  std::string name;                  // "pass_rows"
  std::vector<std::size_t> values;   // the alternatives
  void (*force)(std::size_t value);  // forces one for every later call; 0 restores the rule
};

struct Case {
  std::string name;                 // "one_hot/f32_65536x1024_axis_last"
  std::size_t bytes_written = 0;    // output bytes per run
  std::size_t bytes_read = 0;       // input bytes per run (counted in GB/s; 0 for write-only)
  Baseline baseline = Baseline::memset_zero;
  // Allocates and fills the buffers (touching every page), returns one run of the kernel with
  // the given options (the main sets the arch, max_threads and, for store rows, the store
  // strategy) and the buffers the baseline uses.
  std::function<KernelRun()> prepare;
  // Also run the best path with each store strategy forced, next to the automatic choice.
  bool compare_stores = false;
  // Each run with its alternatives forced one at a time, the others left to their rules.
  std::vector<KernelChoice> choices;
};

// Cases of at least this many output bytes are large: they also run on several threads.
constexpr std::size_t large_case_bytes = std::size_t{16} << 20;

// Adds a case; call from a static initializer in the operator's benchmark file.
bool add_case(Case c);
const std::vector<Case>& cases();

// A buffer whose pages are touched before timing, starting `offset` bytes (below 64) past a
// 64-byte boundary: 0, or 16 as NumPy's default allocator gives.
class PageBuffer {
 public:
  explicit PageBuffer(std::size_t bytes, unsigned char fill = 0x5A, std::size_t offset = 0);
  std::byte* data() const { return data_.get() + offset_; }
  std::size_t size() const { return size_; }

 private:
  struct Free { void operator()(std::byte* p) const; };
  std::unique_ptr<std::byte, Free> data_;
  std::size_t size_, offset_;
};

// Outputs 16 bytes past a 64-byte boundary (NumPy's default alignment), and the suffix of
// their case names: streamed stores must then share no line with plain ones
// (simd::streamed_part).
inline constexpr std::size_t numpy_offset = 16;
inline constexpr const char* numpy_offset_suffix = "_out+16B";

}  // namespace refops::bench

#define REFOPS_BENCH_CONCAT2(a, b) a##b
#define REFOPS_BENCH_CONCAT(a, b) REFOPS_BENCH_CONCAT2(a, b)
// At namespace scope in an operator's benchmark file: REFOPS_BENCH_CASE({...});
#define REFOPS_BENCH_CASE(...) \
  static const bool REFOPS_BENCH_CONCAT(refops_bench_case_, __LINE__) = ::refops::bench::add_case(__VA_ARGS__)
