// The one benchmark main: registers every Case with Google Benchmark, runs them, prints the
// summary table. Extra flags (removed before Google Benchmark sees the rest):
//   --refops_all_archs         run every available path, not only the best and scalar
//   --refops_summary=FILE      also write the summary table to FILE (Markdown)
//   --refops_threads=1,2,4     thread counts for the large cases (default 1,2; counts above the
//                              default pool's threads are skipped)
// Defaults: 5 repetitions of 0.1 s per row in random order, medians in the summary (see main);
// --benchmark_repetitions=1 gives the old single pass.
// The header (Google Benchmark's context) shows the cache topology refops detected and the
// store thresholds derived from it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <list>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/hardmax_full_width_rows.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/store_choice.hpp>
#include <refops/thread_pool.hpp>

#include "arch/probe.hpp"
#include "bench_support.hpp"
#include "stream_baselines.hpp"

namespace refops::bench {

namespace {

std::vector<Case>& registry() {
  static std::vector<Case> all;
  return all;
}

// The prepared kernels of the cases measured so far, most recently used first. Rows run in
// random order (see main), so a case's buffers are kept while they fit in half the machine's
// memory (at most 8 GiB) instead of being made again, page by page, each time it comes back.
struct Prepared {
  const Case* owner = nullptr;
  KernelRun kernel;
  std::size_t bytes() const { return kernel.output.size() + kernel.input.size(); }
};
std::size_t prepared_budget_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  const std::size_t half = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2 : 0;
  return std::min<std::size_t>(half, std::size_t{8} << 30);
}
const KernelRun& prepared_for(const Case& c) {
  static std::list<Prepared> cache;
  auto it = std::find_if(cache.begin(), cache.end(), [&](const Prepared& p) { return p.owner == &c; });
  if (it != cache.end()) {
    cache.splice(cache.begin(), cache, it);
    return cache.front().kernel;
  }
  static const std::size_t budget = prepared_budget_bytes();
  auto held = [&] {
    std::size_t sum = 0;
    for (const Prepared& q : cache) sum += q.bytes();
    return sum;
  };
  const std::size_t adding = c.bytes_written + c.bytes_read;
  while (!cache.empty() && held() + adding > budget) cache.pop_back();  // least recently used first
  cache.push_front(Prepared{&c, c.prepare()});
  // One untimed call on one thread: a kernel's first call of a size may measure the host's
  // store rates on its output (store_calibration.hpp), which no timed row should pay.
  ExecuteOptions first_call;
  first_call.max_threads = 1;
  cache.front().kernel.run(first_call);
  return cache.front().kernel;
}

// The baselines: the case's bytes on `threads` threads, the buffer cut into that many parts of
// whole cache lines, one per task of the default pool (the pool execute() runs on, so wake-ups
// cost the same). memset for write-only cases; for read + write cases two copies, glibc's memcpy
// and one with streaming stores, and the faster counts. glibc (2.36) switches memcpy to
// non-temporal stores only above its own threshold, three quarters of the L3 it believes in; on
// the issue-10 EPYC guest that was 192 MiB (from the wrong 256 MiB L3), so its 128 MiB copies
// kept a read-for-ownership per line and ran at about half the speed of its 256 MiB ones, and a
// kernel "beat" memcpy by 2x.
//
// memset likewise races a streaming fill: glibc's memset is `rep stosb`, whose fast
// no-read-for-ownership path the issue-10 Zen 3 host took only for single calls of about 64 MiB
// and more, so a 64 MiB output cut into two 32 MiB parts made a baseline slower on two threads
// than on one.
enum class BaselineRun { fill, stream_fill, copy, stream_copy };

std::vector<BaselineRun> baseline_runs(const Case& c) {
  if (c.baseline == Baseline::memcpy) return {BaselineRun::copy, BaselineRun::stream_copy};
  return {BaselineRun::fill, BaselineRun::stream_fill};
}

const char* baseline_run_name(const Case& c, BaselineRun run) {
  switch (run) {
    case BaselineRun::fill: return c.baseline == Baseline::memset_zero ? "memset(0)" : "memset(0x3F)";
    case BaselineRun::stream_fill: return c.baseline == Baseline::memset_zero ? "stream fill(0)" : "stream fill(0x3F)";
    case BaselineRun::copy: return "memcpy";
    case BaselineRun::stream_copy: return "stream copy";
  }
  return "?";
}

void run_baseline_once(const Case& c, const KernelRun& k, std::size_t threads, BaselineRun run) {
  const int byte = c.baseline == Baseline::memset_zero ? 0 : 0x3F;
  const std::size_t lines = (c.bytes_written + 63) / 64;
  auto part = [&](std::size_t i) {
    const std::size_t first = std::min(c.bytes_written, lines * i / threads * 64);
    const std::size_t last = i + 1 == threads ? c.bytes_written : lines * (i + 1) / threads * 64;
    switch (run) {
      case BaselineRun::stream_copy:
        stream_copy(reinterpret_cast<unsigned char*>(k.output.data() + first),
                    reinterpret_cast<const unsigned char*>(k.input.data() + first), last - first);
        break;
      case BaselineRun::copy: std::memcpy(k.output.data() + first, k.input.data() + first, last - first); break;
      case BaselineRun::fill: std::memset(k.output.data() + first, byte, last - first); break;
      case BaselineRun::stream_fill:
        stream_fill(reinterpret_cast<unsigned char*>(k.output.data() + first), last - first,
                    static_cast<unsigned char>(byte));
        break;
    }
  };
  if (threads == 1) part(0);
  else default_thread_pool().parallel_for(threads, part);
  benchmark::ClobberMemory();
}

// The same-bytes baseline of a large case: the kernel's own output pattern, the first 16 KiB
// (or less) of what the kernel wrote, tiled over the output by streaming stores; a case that
// reads an input (memcpy's cases) reads it alongside. On the Zen 3 guest of issue 10 a streaming
// store of a zero 32-byte half-line costs about half of a non-zero one (fills of 256 MiB: zeros
// 40-42 GB/s, one non-zero half per line 28-29, none zero 22), so memset(0) is not the bound of
// an output whose every line holds a 1 (ONE_HOT depth 16, 16x16 identity batches), and memcpy,
// which writes the input's random floats, writes dearer bytes than HARDMAX's zeros and ones.
// The tile has the output's pattern of zero and non-zero half-lines wherever the output looks
// alike throughout (every benchmarked large case but Trilu, a triangle, for which tile and copy
// are both harder work than the kernel's). A copy writes bytes at least as dear as any
// output, so for read + write cases the faster of the two is the bound. A cache-resident case
// writes the tile both ways, streamed and by plain stores of the widest vector
// (plain_tile_copy), and the faster is its bound, not memset/memcpy: that is what a kernel that
// computes every vector it writes can reach. memset and memcpy take the string instructions,
// whose writes skip the read for ownership that plain stores pay: on the Intel Xeon guest
// (family 6 model 207), into a 2 MiB buffer, a plain AVX-512 fill ran at 0.87 of memset, and a
// loop storing each row of ONE_HOT depth 16 as one vector at 0.80-0.91, as fast as the kernel.
// The tile is read from L1 (from L2, a 64 KiB tile held one thread's copy of mostly-zero lines
// to 26 GB/s against memset's 33).
constexpr std::size_t same_bytes_tile_max = std::size_t{16} << 10;
struct SameBytesTile {
  std::vector<unsigned char> storage;
  Tile tile{nullptr, 0};
};
SameBytesTile& same_bytes_tile(const Case& c) {
  static std::map<const Case*, SameBytesTile> tiles;
  return tiles[&c];
}
// The tile starts 1 KiB past the output's address modulo 4 KiB: each load then shares its low
// 12 address bits only with a store still to come, never with one waiting in the store queue
// (at the output's own offset, the loads' false dependencies on pending streamed stores held
// the copy to 10 GB/s).
void take_tile(SameBytesTile& t, const KernelRun& k) {
  std::size_t size = same_bytes_tile_max;
  while (size > k.output.size()) size /= 2;
  constexpr std::size_t page = 4096;
  t.storage.resize(2 * size + page);
  const auto base = reinterpret_cast<std::uintptr_t>(t.storage.data());
  const auto wanted = (reinterpret_cast<std::uintptr_t>(k.output.data()) + 1024) % page;
  unsigned char* at = t.storage.data() + (wanted + page - base % page) % page;
  std::memcpy(at, k.output.data(), size);
  std::memcpy(at + size, k.output.data(), size);
  t.tile = {at, size};
}
void run_same_bytes_once(const Case& c, const KernelRun& k, std::size_t threads, const Tile& tile, bool streamed) {
  const std::size_t lines = (c.bytes_written + 63) / 64;
  auto part = [&](std::size_t i) {
    const std::size_t first = std::min(c.bytes_written, lines * i / threads * 64);
    const std::size_t last = i + 1 == threads ? c.bytes_written : lines * (i + 1) / threads * 64;
    const auto* src = c.baseline == Baseline::memcpy ? reinterpret_cast<const unsigned char*>(k.input.data() + first) : nullptr;
    auto* dst = reinterpret_cast<unsigned char*>(k.output.data() + first);
    if (streamed) tile_copy(dst, src, last - first, tile, first);
    else plain_tile_copy(dst, src, last - first, tile, first);
  };
  if (threads == 1) part(0);
  else default_thread_pool().parallel_for(threads, part);
  benchmark::ClobberMemory();
}

// The output size from which the kernels execute() runs take an output to exceed the cache
// (their own copy's measurement, not this file's: simd::streaming_threshold).
std::size_t kernels_streaming_threshold() {
  static const std::size_t bytes = detail::store_rates_of({}).streaming_threshold_bytes;
  return bytes;
}

// One row: every iteration runs the kernel (timed, what the row's GB/s counts) and then each
// baseline on the same number of threads, on the kernel's own buffers (so the cache holds the
// same lines whichever ran last). The host is shared and its bandwidth moves by 2x from one
// second to the next; measured in alternation, kernel and baseline see the same stretch of
// time, so their ratio holds when the absolute figures do not. Counters: the baseline's GB/s,
// the ratio of the kernel's GB/s to it, and whether the streaming form of the baseline was the faster.
// Untimed runs before each timed run of a cache-resident case (run_kernel).
constexpr int settling_runs = 2;

void run_kernel(benchmark::State& state, const Case& c, const ExecuteOptions& options) {
  const KernelRun& k = prepared_for(c);
  using clock = std::chrono::steady_clock;
  const std::size_t threads = std::max<std::size_t>(options.max_threads, 1);
  const std::vector<BaselineRun> runs = baseline_runs(c);
  std::vector<double> baseline_seconds(runs.size(), 0.0);
  double kernel_seconds = 0;
  const bool cache_resident = c.bytes_written + c.bytes_read < kernels_streaming_threshold();
  SameBytesTile& tile = same_bytes_tile(c);
  // Streamed, then (cache-resident cases only) by plain stores.
  double same_bytes_seconds[2] = {0, 0};
  for (auto _ : state) {
    // A case that fits in the cache: every timed run, the kernel's and each baseline's, finds
    // the buffers where untimed runs of itself left them, the steady state of calls repeated on
    // one buffer. (The kernel used to find them where an untimed memset put them back after the
    // streaming baseline. On the Intel Xeon guest a 2 MiB memset or plain AVX-512 fill right
    // after a streamed one ran at 12 GB/s, the next at 34, the third at 39-40: the kernel met a
    // buffer half back in L2 while its baseline met it settled, and in-cache ONE_HOT rows read
    // 0.62 of memset. Two runs before each timed one settle it.)
    if (cache_resident)
      for (int w = 0; w < settling_runs; ++w) k.run(options);
    const auto start = clock::now();
    k.run(options);
    benchmark::ClobberMemory();
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    state.SetIterationTime(seconds);
    kernel_seconds += seconds;
    if (tile.tile.size == 0) take_tile(tile, k);  // what the kernel just wrote
    for (int form = 0; form < (cache_resident ? 2 : 1); ++form) {
      const bool streamed = form == 0;
      if (cache_resident)
        for (int w = 0; w < settling_runs; ++w) run_same_bytes_once(c, k, threads, tile.tile, streamed);
      const auto b = clock::now();
      run_same_bytes_once(c, k, threads, tile.tile, streamed);
      same_bytes_seconds[form] += std::chrono::duration<double>(clock::now() - b).count();
    }
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (cache_resident)
        for (int w = 0; w < settling_runs; ++w) run_baseline_once(c, k, threads, runs[r]);
      const auto b = clock::now();
      run_baseline_once(c, k, threads, runs[r]);
      baseline_seconds[r] += std::chrono::duration<double>(clock::now() - b).count();
    }
  }
  const double iterations = static_cast<double>(state.iterations());
  const std::size_t best = static_cast<std::size_t>(
      std::min_element(baseline_seconds.begin(), baseline_seconds.end()) - baseline_seconds.begin());
  const double kernel_bytes = static_cast<double>(c.bytes_written + c.bytes_read);
  const double baseline_bytes = static_cast<double>(c.baseline == Baseline::memcpy ? 2 * c.bytes_written : c.bytes_written);
  const double baseline_rate = iterations * baseline_bytes / baseline_seconds[best];
  state.SetBytesProcessed(static_cast<std::int64_t>(iterations * kernel_bytes));
  state.counters["baseline_GBps"] = baseline_rate / 1e9;
  state.counters["ratio"] = iterations * kernel_bytes / kernel_seconds / baseline_rate;
  state.counters["streamed"] = runs[best] == BaselineRun::stream_copy || runs[best] == BaselineRun::stream_fill ? 1 : 0;
  const double same_bytes_best = cache_resident ? std::min(same_bytes_seconds[0], same_bytes_seconds[1]) : same_bytes_seconds[0];
  double same_bytes_rate = iterations * baseline_bytes / same_bytes_best;
  if (c.baseline == Baseline::memcpy && !cache_resident) same_bytes_rate = std::max(same_bytes_rate, baseline_rate);
  state.counters["same_bytes_GBps"] = same_bytes_rate / 1e9;
  state.counters["same_bytes_ratio"] = iterations * kernel_bytes / kernel_seconds / same_bytes_rate;
}

// What the summary needs of one row (the medians over the repetitions).
struct RowResult {
  double gbps = 0, baseline_gbps = 0, ratio = 0;
  double same_bytes_gbps = 0, same_bytes_ratio = 0;
  bool streamed = false;  // the baseline's streaming form was the faster
};

// Collects each row's figures while the console reporter prints as usual: the median of the
// repetitions when there are several (main asks for 5), else the one run.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, RowResult> rows;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto counter = [&](const char* name) {
        const auto it = r.counters.find(name);
        return it == r.counters.end() ? 0.0 : static_cast<double>(it->second);
      };
      if (r.error_occurred || r.counters.find("bytes_per_second") == r.counters.end()) continue;
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (!median && (r.run_type == Run::RT_Aggregate || r.repetitions > 1)) continue;
      // The registered name: benchmark_name() carries suffixes such as "/manual_time".
      rows[r.run_name.function_name] = {counter("bytes_per_second") / 1e9, counter("baseline_GBps"), counter("ratio"),
                                        counter("same_bytes_GBps"), counter("same_bytes_ratio"), counter("streamed") > 0.5};
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// "1,2,4" -> {1, 2, 4}
std::vector<std::size_t> parse_counts(const std::string& list) {
  std::vector<std::size_t> counts;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (const auto n = std::strtoull(item.c_str(), nullptr, 10); n > 0) counts.push_back(n);
  return counts;
}

// Benchmark names: one thread keeps the names of earlier runs; more threads add "/threads:N".
std::string with_threads(std::string name, std::size_t threads) {
  return threads == 1 ? name : name + "/threads:" + std::to_string(threads);
}

std::string mib(std::size_t bytes) { return format("%.1f MiB", static_cast<double>(bytes) / (1 << 20)); }

constexpr StoreStrategy all_strategies[] = {StoreStrategy::plain, StoreStrategy::stream, StoreStrategy::rep};

// "avx2" or "avx2 stores=rep": the benchmark name's last part.
std::string path_name(Arch a, std::optional<StoreStrategy> s) {
  return std::string(name_of(a)) + (s ? " stores=" + std::string(name_of(*s)) : "");
}

// "avx2 pass_rows=2": a KernelChoice forced.
std::string path_name(Arch a, const KernelChoice& choice, std::size_t value) {
  return std::string(name_of(a)) + " " + choice.name + "=" + std::to_string(value);
}

// What the kernels will decide from, in the benchmark's header.
void add_cache_context() {
  const simd::CacheTopology& t = simd::cache_topology();
  benchmark::AddCustomContext("refops cache topology",
                              "source " + std::string(t.source) + ", L2 " + mib(t.l2_bytes) + ", LLC " +
                                  mib(t.llc_bytes) + " shared by " + std::to_string(t.llc_sharing_cpus) +
                                  " CPUs (" + mib(t.llc_per_cpu_bytes) + " each)");
  const detail::StoreRatesProbe r = detail::store_rates_of({});
  benchmark::AddCustomContext("refops streaming threshold",
                              mib(r.streaming_threshold_bytes) + " per call (" + r.threshold_source + ")");
  benchmark::AddCustomContext(
      "refops stores",
      "rep when the background is one value in one block and sparse writes are >= " +
          std::to_string(simd::rep_min_bytes_per_sparse) + " bytes apart (below " + mib(r.streaming_threshold_bytes) +
          " per call, the streaming threshold, " +
          (simd::rep_beats_patches_in_l1() ? "ONE_HOT rows too (an Intel CPU)" : "plain for ONE_HOT rows (not an Intel CPU)") +
          "; above it, for a zero background, rep or stream by the measured rates); else plain below the "
          "threshold, stream above; in the cache too, when input and output together exceed " +
          mib(simd::cache_topology().l2_bytes) +
          " (L2; or equal it, for the interleaved groups and FLOAT16's columns), HARDMAX's reductions and rows of "
          "whole vectors stream " +
          format("where streaming stores reach %.2g of memset", simd::keeps_up_bar) +
          format(", its long rows and packed rows where they beat it %.2g times", simd::far_ahead_bar) +
          (simd::stores_from_environment() ? std::string("; REFOPS_STORES forces ") +
                                                 std::string(name_of(*simd::stores_from_environment()))
                                           : std::string()));
  benchmark::AddCustomContext(
      "refops prefetch rules",
      std::string(simd::amd_zen4_or_later()
                      ? "HARDMAX's short rows streamed as whole lines leave their input to the hardware prefetcher "
                        "(AMD Zen 4 or later)"
                      : "HARDMAX's short rows streamed as whole lines prefetch their input 2 KiB ahead (not AMD Zen 4 "
                        "or later)") +
          (simd::intel_cpu() ? "; DIAGONAL_MATRIX(1) rows skip the input under runs of the value, and HARDMAX's "
                               "FLOAT32 rows of a page or more and interleaved groups, from memory, are read " +
                                   std::to_string(kernels::hardmax_detail::rows_read_at_once) +
                                   " side by side (an Intel CPU)"
                             : std::string("; DIAGONAL_MATRIX(1) rows read the input under runs of the value up to "
                                           "16 KiB, and HARDMAX's long rows and interleaved groups one row at a time (not an Intel CPU)")));
  // The scratch-buffer rates (what a size first met by a split call is decided by), measured
  // here before any timing; each case's first, untimed call measures its own size
  // (prepared_for).
  const std::string arch(name_of(available_archs().front()));  // the Arch execute() picks
  char rates[400];
  std::snprintf(rates, sizeof rates,
                "%s: memset %.1f GB/s, streaming stores %.1f GB/s (%.2f times), one patch %.0f ns (on %s, %d round%s)",
                arch.c_str(), r.rep_bytes_per_ns, r.stream_bytes_per_ns,
                r.rep_bytes_per_ns > 0 ? r.stream_bytes_per_ns / r.rep_bytes_per_ns : 0.0, r.patch_ns,
                mib(r.buffer_bytes).c_str(), r.fill_rounds, r.fill_rounds == 1 ? "" : "s");
  if (r.piece_copy_bytes_per_ns > 0) {
    // What HARDMAX's rows off the vector grid (the _out+16B cases) stream or not by.
    const std::size_t used = std::strlen(rates);
    std::snprintf(rates + used, sizeof rates - used,
                  "; a copy at +16 bytes %.1f GB/s streamed in 16-byte pieces, %.1f plain, %d round%s (%s)",
                  r.piece_copy_bytes_per_ns, r.plain_copy_bytes_per_ns, r.copy_rounds, r.copy_rounds == 1 ? "" : "s",
                  simd::pieces_lose_while_reading({.piece_copy_bytes_per_ns = r.piece_copy_bytes_per_ns,
                                                   .plain_copy_bytes_per_ns = r.plain_copy_bytes_per_ns})
                      ? "so such rows store plainly"
                      : "so such rows stream");
  }
  benchmark::AddCustomContext("refops measured store rates",
                              r.buffer_bytes == 0 ? "none (" + arch + " has no streaming stores)" : std::string(rates));
}

}  // namespace

bool add_case(Case c) {
  registry().push_back(std::move(c));
  return true;
}
const std::vector<Case>& cases() { return registry(); }

PageBuffer::PageBuffer(std::size_t bytes, unsigned char fill, std::size_t offset)
    : data_(static_cast<std::byte*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64))), size_(bytes), offset_(offset) {
  if (!data_ || offset >= 64) throw std::bad_alloc();
  std::memset(data(), fill, size_);  // touch every page before any timing
}
void PageBuffer::Free::operator()(std::byte* p) const { std::free(p); }

}  // namespace refops::bench

int main(int argc, char** argv) {
  using namespace refops;
  using namespace refops::bench;

  bool all_archs = false;
  std::string summary_file;
  std::vector<std::size_t> thread_counts{1, 2};
  bool has_min_time = false, has_repetitions = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--refops_all_archs") { all_archs = true; continue; }
    if (a.rfind("--refops_summary=", 0) == 0) { summary_file = a.substr(17); continue; }
    if (a.rfind("--refops_threads=", 0) == 0) { thread_counts = parse_counts(a.substr(17)); continue; }
    if (a.rfind("--benchmark_min_time", 0) == 0) has_min_time = true;
    if (a.rfind("--benchmark_repetitions", 0) == 0) has_repetitions = true;
    args.push_back(argv[i]);
  }
  // The host is shared: a neighbour's burst can halve one row's bandwidth for a second. So every
  // row runs 5 times, the rows of all cases in one random order, and the summary takes each
  // row's median: kernel and baseline then sample the same stretch of time alike.
  static char min_time[] = "--benchmark_min_time=0.1", repetitions[] = "--benchmark_repetitions=5",
              interleave[] = "--benchmark_enable_random_interleaving=true",
              aggregates_only[] = "--benchmark_display_aggregates_only=true";
  if (!has_min_time) args.insert(args.begin() + 1, min_time);
  if (!has_repetitions) args.insert(args.begin() + 1, {repetitions, interleave, aggregates_only});
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());

  add_cache_context();
  std::vector<Arch> archs = available_archs();
  if (!all_archs && archs.size() > 2) archs = {archs.front(), Arch::scalar};
  // Thread counts for large cases: 1 always, then those the default pool has threads for.
  std::vector<std::size_t> counts{1};
  for (std::size_t n : thread_counts)
    if (n > 1 && n <= default_thread_pool().num_threads()) counts.push_back(n);
  auto counts_for = [&](const Case& c) {
    return c.bytes_written >= large_case_bytes ? counts : std::vector<std::size_t>{1};
  };
  for (const Case& c : cases()) {
    for (std::size_t n : counts_for(c)) {
      // One thread: every path, and the best one with each store strategy forced; more
      // threads: the best path only.
      for (Arch a : archs) {
        if (n > 1 && a != archs.front()) continue;
        ExecuteOptions options;
        options.arch = a;
        options.max_threads = n;
        benchmark::RegisterBenchmark(with_threads(c.name + "/" + path_name(a, std::nullopt), n).c_str(),
                                     [&c, options](benchmark::State& s) { run_kernel(s, c, options); })->UseManualTime();
        if (a != archs.front() || n > 1) continue;
        for (const KernelChoice& choice : c.choices)
          for (std::size_t value : choice.values)
            benchmark::RegisterBenchmark((c.name + "/" + path_name(a, choice, value)).c_str(),
                                         [&c, &choice, options, value](benchmark::State& s) {
                                           choice.force(value);
                                           run_kernel(s, c, options);
                                           choice.force(0);
                                         })->UseManualTime();
        if (!c.compare_stores) continue;
        for (StoreStrategy strategy : all_strategies) {
          options.stores = strategy;
          benchmark::RegisterBenchmark((c.name + "/" + path_name(a, strategy)).c_str(),
                                       [&c, options](benchmark::State& s) { run_kernel(s, c, options); })->UseManualTime();
        }
      }
    }
  }

  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);

  // The summary: one row per case, thread count and path.
  std::ostringstream table;
  table << "| case | threads | path | GB/s | baseline | baseline GB/s | ratio to baseline | same bytes GB/s | ratio to the same bytes | speed-up over scalar |\n"
        << "|---|---:|---|---:|---|---:|---:|---:|---:|---:|\n";
  auto measured = [&](const std::string& name) -> std::optional<RowResult> {
    const auto it = collector.rows.find(name);
    if (it == collector.rows.end()) return std::nullopt;
    return it->second;
  };
  std::ostringstream stores_table;
  stores_table << "| case | auto | plain | stream | rep | auto / best forced |\n|---|---:|---:|---:|---:|---:|\n";
  std::ostringstream choices_table;
  choices_table << "| case | choice | auto | forced | auto / best forced |\n|---|---|---:|---|---:|\n";
  for (const Case& c : cases()) {
    const auto scalar = measured(c.name + "/scalar");
    for (std::size_t n : counts_for(c)) {
      for (Arch a : archs) {
        // The automatic row, then each forced one (one thread, best path).
        std::vector<std::string> paths{path_name(a, std::nullopt)};
        if (a == archs.front() && n == 1) {
          for (const KernelChoice& choice : c.choices)
            for (std::size_t value : choice.values) paths.push_back(path_name(a, choice, value));
          if (c.compare_stores)
            for (StoreStrategy strategy : all_strategies) paths.push_back(path_name(a, strategy));
        }
        for (const std::string& path : paths) {
          const auto k = measured(with_threads(c.name + "/" + path, n));
          if (!k) continue;
          const bool copy = c.baseline == Baseline::memcpy;
          const BaselineRun base = k->streamed ? (copy ? BaselineRun::stream_copy : BaselineRun::stream_fill)
                                               : (copy ? BaselineRun::copy : BaselineRun::fill);
          table << "| " << c.name << " | " << n << " | " << path << " | " << format("%.2f", k->gbps)
                << " | " << baseline_run_name(c, base) << " | " << format("%.2f", k->baseline_gbps) << " | "
                << format("%.2f", k->ratio) << " | "
                << (k->same_bytes_gbps > 0 ? format("%.2f", k->same_bytes_gbps) : "-") << " | "
                << (k->same_bytes_gbps > 0 ? format("%.2f", k->same_bytes_ratio) : "-") << " | "
                << (scalar ? format("%.1fx", k->gbps / scalar->gbps) : "-") << " |\n";
        }
      }
    }
    // Compared by their ratios to the baseline, each measured beside its own row's kernel.
    const auto automatic = measured(c.name + "/" + path_name(archs.front(), std::nullopt));
    for (const KernelChoice& choice : c.choices) {
      if (!automatic) break;
      double best = 0;
      choices_table << "| " << c.name << " | " << choice.name << " | " << format("%.2f", automatic->ratio) << " |";
      for (std::size_t value : choice.values) {
        const auto k = measured(c.name + "/" + path_name(archs.front(), choice, value));
        choices_table << " " << value << ": " << (k ? format("%.2f", k->ratio) : "-");
        if (k) best = std::max(best, k->ratio);
      }
      choices_table << " | " << (best > 0 ? format("%.2f", automatic->ratio / best) : "-") << " |\n";
    }
    if (!c.compare_stores || !automatic) continue;
    double best = 0;
    stores_table << "| " << c.name << " | " << format("%.2f", automatic->ratio);
    for (StoreStrategy strategy : all_strategies) {
      const auto k = measured(c.name + "/" + path_name(archs.front(), strategy));
      stores_table << " | " << (k ? format("%.2f", k->ratio) : "-");
      if (k) best = std::max(best, k->ratio);
    }
    stores_table << " | " << (best > 0 ? format("%.2f", automatic->ratio / best) : "-") << " |\n";
  }
  table << "\nStore strategies on " << name_of(archs.front())
        << ", one thread (ratio to the baseline measured beside each; auto is the unforced row above):\n\n"
        << stores_table.str();
  if (!choices_table.str().ends_with("|---:|\n"))
    table << "\nOther choices inside the kernels on " << name_of(archs.front())
          << ", one thread (ratio to the baseline measured beside each, per forced value):\n\n"
          << choices_table.str();
  std::printf("\nrefops summary (GB/s counts bytes written + bytes read; each row's baseline moves the same number of bytes, run in alternation with the kernel; \"same bytes\" writes the kernel's own output pattern, tiled, and reads the input as a copy does, by streaming stores beyond the cache, within it the faster of streaming and plain vector stores; medians of 5 repetitions)\n\n%s",
              table.str().c_str());
  if (!summary_file.empty()) std::ofstream(summary_file) << table.str();
  benchmark::Shutdown();
  return 0;
}
