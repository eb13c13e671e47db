// How fast this host writes a large output each way, measured once per process and per
// instruction set, so that `auto` stores pick between "one memset of the background, then the
// sparse elements" (rep) and "every byte streamed once" (stream) by what the host does, not by
// a rule from one machine. Two AMD EPYC Zen 3 KVM guests gave opposite answers (issue 10):
// on one, memset(0) of 256 MiB ran at 31 GB/s against 19 for 32-byte streaming stores; on the
// other, 30-38 against 39-46 GB/s. No fixed rule is right on both (docs/decisions.md, "Store
// strategy").
//
// The measurement (time_fills): zero fills by memset and by the Target's streaming stores,
// alternately, keeping each one's fastest pass; after each memset one element is stored every
// 4 KiB over the first half, lines that have left the cache, which prices one patch (a read
// for ownership of a line and usually a TLB miss). rates_for_call runs it on the output of the
// first large call of each size that has the choice (the rates a call is decided by);
// store_rates on a scratch buffer of twice the last-level cache, once, for sizes first met as
// a part of a split call and for the rules that compare a ratio with a bar (streaming far
// ahead, keeping up, pieces losing), where it measures again while a ratio is near its bar.
// REFOPS_STORES or ExecuteOptions::stores skip both.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/simd.hpp>

namespace refops::simd::inline REFOPS_KERNEL_ABI {

struct StoreRates {
  double rep_bytes_per_ns = 0;     // memset of zeros
  double stream_bytes_per_ns = 0;  // the Target's streaming stores of zeros
  double patch_ns = 0;             // one store into a line that has left the cache
  std::size_t buffer_bytes = 0;    // what was measured on (0: nothing was)
  // A copy 16 bytes off the vector grid (NumPy's arrays), read + written bytes per ns: its
  // stores streamed in 16-byte pieces, and plain (0: not measured; only for vectors wider
  // than 16 bytes, whose off-grid outputs stream in pieces: simd.hpp, stream_store_16).
  double piece_copy_bytes_per_ns = 0;
  double plain_copy_bytes_per_ns = 0;
  // How many rounds of passes each measurement took (measure: more where a ratio came out near
  // the bar of a rule; 0: not measured).
  int fill_rounds = 0;
  int copy_rounds = 0;
};

// The bars the rules below set the measured ratios against. streaming_far_ahead and
// streaming_keeps_up: streaming stores over memset; pieces_lose_while_reading: the plain copy
// over the copy in 16-byte pieces.
inline constexpr double far_ahead_bar = 1.5;
inline constexpr double keeps_up_bar = 0.8;
inline constexpr double pieces_lose_bar = 1.25;

// True when streaming every byte of `bytes` is predicted to beat one memset of them plus one
// patch per `bytes_per_sparse` bytes. Unmeasured rates keep rep (the issue-10 host's answer).
inline bool stream_beats_rep(const StoreRates& r, std::size_t bytes, std::size_t bytes_per_sparse) {
  if (r.buffer_bytes == 0 || r.rep_bytes_per_ns <= 0 || r.stream_bytes_per_ns <= 0) return false;
  const double b = static_cast<double>(bytes);
  const double patches = b / static_cast<double>(std::max<std::size_t>(bytes_per_sparse, 1));
  const double rep_ns = b / r.rep_bytes_per_ns + patches * r.patch_ns;
  const double stream_ns = b / r.stream_bytes_per_ns;
  return stream_ns < rep_ns;
}

// True when this host's streaming stores write far faster than memset (1.5 times or more on
// the measured buffer). Where they do, a kernel that streams its zeros while it reads beats
// writing them through the cache even when its output fits the cache (choose_stores).
inline bool streaming_far_ahead(const StoreRates& r) {
  return r.buffer_bytes != 0 && r.rep_bytes_per_ns > 0 && r.stream_bytes_per_ns >= far_ahead_bar * r.rep_bytes_per_ns;
}

// True when this host's streaming stores write at least 0.8 times as fast as memset on the
// measured buffer: what a kernel that streams its zeros while it reads needs to stream in
// cache (choose_stores). Every host measured with its rates at 0.95 or more streamed such
// kernels faster there (docs/decisions.md, "Store strategy"); below 0.8 (issue 10's host:
// memset 31 GB/s, streaming stores 19) nothing was measured, and the cache keeps them.
inline bool streaming_keeps_up(const StoreRates& r) {
  return r.buffer_bytes != 0 && r.rep_bytes_per_ns > 0 && r.stream_bytes_per_ns >= keeps_up_bar * r.rep_bytes_per_ns;
}

// True when the host copies far slower with its stores streamed in 16-byte pieces than with
// plain stores (the plain copy a quarter faster or more): a kernel that reads while it writes
// an output off the vector grid then stores plainly. A tie keeps streaming: the copy is a proxy
// for the kernels, not their measurement, and at a tie they streamed far faster than they
// stored plainly (the Intel Xeon guest, model 207, 2026-12-01: 5 of 6 processes measured the
// plain copy 2-16% ahead, and HARDMAX axes {0,2} at +16 bytes then ran at 0.48 of memcpy
// against 0.80-0.89 streamed; docs/decisions.md, "Store strategy"). Unmeasured rates keep
// streaming.
inline bool pieces_lose_while_reading(const StoreRates& r) {
  return r.piece_copy_bytes_per_ns > 0 && r.plain_copy_bytes_per_ns >= pieces_lose_bar * r.piece_copy_bytes_per_ns;
}

// A measured ratio this close to a bar (within a factor of near_bar_factor either way) is
// measured again: a neighbour's burst during one round of passes can move it across, and the
// rules above then decide a whole process by it (streaming stores measured at 1.46, 1.66 and
// 1.93 times memset in three processes of one hour on the Intel Xeon guest, model 207).
inline constexpr double near_bar_factor = 1.2;
inline bool near_bar(double ratio, double bar) { return ratio > bar / near_bar_factor && ratio < bar * near_bar_factor; }

// The fills' ratio is near the bar of streaming_far_ahead or of streaming_keeps_up.
inline bool fills_near_a_bar(const StoreRates& r) {
  if (r.rep_bytes_per_ns <= 0 || r.stream_bytes_per_ns <= 0) return false;
  const double ratio = r.stream_bytes_per_ns / r.rep_bytes_per_ns;
  return near_bar(ratio, far_ahead_bar) || near_bar(ratio, keeps_up_bar);
}

// The copies' ratio is near the bar of pieces_lose_while_reading.
inline bool copies_near_the_bar(const StoreRates& r) {
  if (r.piece_copy_bytes_per_ns <= 0 || r.plain_copy_bytes_per_ns <= 0) return false;
  return near_bar(r.plain_copy_bytes_per_ns / r.piece_copy_bytes_per_ns, pieces_lose_bar);
}

// Each rate of `round` that is faster than `best`'s, into `best` (the rounds' fastest passes:
// a neighbour only ever slows a pass down). The round counts are left to the caller.
inline void keep_fastest(StoreRates& best, const StoreRates& round) {
  best.rep_bytes_per_ns = std::max(best.rep_bytes_per_ns, round.rep_bytes_per_ns);
  best.stream_bytes_per_ns = std::max(best.stream_bytes_per_ns, round.stream_bytes_per_ns);
  if (round.patch_ns > 0) best.patch_ns = best.patch_ns > 0 ? std::min(best.patch_ns, round.patch_ns) : round.patch_ns;
  best.piece_copy_bytes_per_ns = std::max(best.piece_copy_bytes_per_ns, round.piece_copy_bytes_per_ns);
  best.plain_copy_bytes_per_ns = std::max(best.plain_copy_bytes_per_ns, round.plain_copy_bytes_per_ns);
}

namespace calibration_detail {

inline double elapsed_ns(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - since).count();
}

// Times zero fills of `bytes` at `block` by memset and by the Target's streaming stores,
// alternately, `passes` times each (the fastest pass of each counts), and after each memset
// one store every 4 KiB over the block's first half, into lines that left the cache.
template <class Target>
StoreRates time_fills(unsigned char* block, std::size_t bytes, int passes) {
  constexpr std::size_t page = 4096;
  double rep_ns = 1e300, stream_ns = 1e300, patch_ns = 1e300;
  const std::size_t patches = std::max<std::size_t>(bytes / 2 / page, 1);
  for (int pass = 0; pass < passes; ++pass) {
    auto t = std::chrono::steady_clock::now();
    std::memset(block, 0, bytes);
    rep_ns = std::min(rep_ns, elapsed_ns(t));
    t = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < patches; ++i) {
      volatile unsigned char* line = block + i * page + (i % (page / cache_line_bytes)) * cache_line_bytes;
      *line = static_cast<unsigned char>(i + 1);
    }
    patch_ns = std::min(patch_ns, elapsed_ns(t) / static_cast<double>(patches));
    t = std::chrono::steady_clock::now();
    fill_span<Target>(block, bytes, static_cast<unsigned char>(0), StoreStrategy::stream);
    streaming_fence<Target>();
    stream_ns = std::min(stream_ns, elapsed_ns(t));
  }
  const double b = static_cast<double>(bytes);
  return {b / rep_ns, b / stream_ns, patch_ns, bytes};
}

// Times a copy of the first half of `bytes` at `block` to the second half, 16 bytes past the
// vector grid and half a page past the source in page offset, `passes` times each way
// alternately (the fastest pass of each counts): its stores streamed in 16-byte pieces, and
// plain. A kernel that reads while it streams pieces (HARDMAX's rows at +16 bytes) pays what
// this copy pays. On the Zen 1 guest this copy runs at 16.0 GB/s in pieces against 11.6 plain;
// 16 bytes apart in page offset it ran at 7.6 against 10.8 (4.2 against 12.6 once), which was
// the aliasing, not the pieces (simd.hpp, page_offset_period).
template <class Target>  // Target has streaming stores
void time_piece_copies(unsigned char* block, std::size_t bytes, int passes, StoreRates& rates) {
  using batch = xsimd::batch<unsigned char, Target>;
  if constexpr (sizeof(batch) > 16) {
    constexpr std::size_t lanes = batch::size;
    // Half a page apart in page offset, as the kernels keep their loads and stores.
    const std::size_t apart = page_offset_period / 2 + 16;
    const std::size_t n = (bytes / 2 - apart - 2 * lanes) / lanes * lanes;
    const unsigned char* src = block;
    unsigned char* dst = block + bytes / 2 + apart;
    double piece_ns = 1e300, plain_ns = 1e300;
    for (int pass = 0; pass < passes; ++pass) {
      auto t = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < n; i += lanes) stream_store_16<Target>(dst + i, batch::load_unaligned(src + i));
      streaming_fence<Target>();
      piece_ns = std::min(piece_ns, elapsed_ns(t));
      t = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < n; i += lanes) batch::load_unaligned(src + i).store_unaligned(dst + i);
      plain_ns = std::min(plain_ns, elapsed_ns(t));
    }
    rates.piece_copy_bytes_per_ns = 2.0 * static_cast<double>(n) / piece_ns;
    rates.plain_copy_bytes_per_ns = 2.0 * static_cast<double>(n) / plain_ns;
  } else {
    (void)block, (void)bytes, (void)passes, (void)rates;
  }
}

// Rounds of 3 passes each way, at most: a round where nothing is near a bar is the last
// (about 30 ms of fills and 35 ms of copies on 64 MiB at 10-20 GB/s), and near a bar the
// measurement costs at most three times that, once per process.
inline constexpr int max_calibration_rounds = 3;

// On a scratch buffer of twice the LLC (16 to 64 MiB), faulted in first: a round of fills,
// more while their ratio is near a bar, then the same for the copies.
template <class Target>
StoreRates measure(std::size_t llc_bytes) {
  constexpr std::size_t page = 4096;
  const std::size_t bytes = std::clamp<std::size_t>(2 * llc_bytes, std::size_t{16} << 20, std::size_t{64} << 20) / page * page;
  void* memory = std::aligned_alloc(page, bytes);
  if (memory == nullptr) return {};
  auto* buffer = static_cast<unsigned char*>(memory);
  std::memset(buffer, 0, bytes);  // faults the pages in: not timed
  StoreRates rates = time_fills<Target>(buffer, bytes, 3);
  rates.fill_rounds = 1;
  for (; rates.fill_rounds < max_calibration_rounds && fills_near_a_bar(rates); ++rates.fill_rounds)
    keep_fastest(rates, time_fills<Target>(buffer, bytes, 3));
  time_piece_copies<Target>(buffer, bytes, 3, rates);
  if (rates.piece_copy_bytes_per_ns > 0) {
    rates.copy_rounds = 1;
    for (; rates.copy_rounds < max_calibration_rounds && copies_near_the_bar(rates); ++rates.copy_rounds) {
      StoreRates round;
      time_piece_copies<Target>(buffer, bytes, 3, round);
      keep_fastest(rates, round);
    }
  }
  std::free(memory);
  return rates;
}

}  // namespace calibration_detail

// The rates of this host for Target, measured at the first call (thread-safe: concurrent first
// callers wait for the one measurement). Targets without streaming stores measure nothing.
template <class Target>
const StoreRates& store_rates() {
  static const StoreRates rates = [] {
    if constexpr (has_streaming_stores<Target>) return calibration_detail::measure<Target>(last_level_cache_bytes());
    return StoreRates{};
  }();
  return rates;
}

// The rates that decide a call of `call_bytes` whose output is the contiguous block of
// `block_bytes` at `block` (nullptr: not known). memset's speed grows with the size of one call
// (on the Zen 3 guests, `rep stosb` reached its no-read-for-ownership speed only from about
// 64 MiB, and went on gaining up to 256 MiB) and with the buffer's pages (huge pages), which a
// scratch buffer does not share. So the first call of each power-of-two size, when it writes
// its whole output on one thread, measures on that output itself (two fills each way: about
// four extra passes, once per size; the kernel then writes every byte, so the zeros are never
// seen); other calls of that size reuse those rates, and a size first met on several threads
// uses the scratch buffer's.
template <class Target>
StoreRates rates_for_call(void* block, std::size_t block_bytes, std::size_t call_bytes) {
  if constexpr (!has_streaming_stores<Target>) {
    return {};
  } else {
    static std::mutex mutex;
    static std::array<StoreRates, 65> by_size{};
    const std::size_t size_class = static_cast<std::size_t>(std::bit_width(call_bytes));
    {
      const std::lock_guard<std::mutex> lock(mutex);
      if (by_size[size_class].buffer_bytes != 0) return by_size[size_class];
    }
    if (block == nullptr || block_bytes < call_bytes) return store_rates<Target>();
    const StoreRates rates = calibration_detail::time_fills<Target>(static_cast<unsigned char*>(block), block_bytes, 2);
    const std::lock_guard<std::mutex> lock(mutex);
    by_size[size_class] = rates;
    return rates;
  }
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
