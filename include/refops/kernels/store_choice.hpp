// The store strategy: the one place that decides how a kernel's output reaches memory
// (docs/decisions.md, "Store strategy"). A kernel asks choose_stores() once per call, with the
// bytes of the WHOLE call (a layer that splits a call among threads passes the same request to
// every chunk, so all chunks store alike), then writes every run through simd.hpp's
// store_span(), fill_span() or copy_span(), and calls finish_stores() once at the end.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include <refops/arch.hpp>
#include <refops/kernels/cache_info.hpp>
#include <refops/kernels/simd.hpp>
#include <refops/kernels/store_calibration.hpp>

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// What the caller of a kernel says about its stores: a forced strategy (ExecuteOptions::stores)
// and the output bytes of the whole call (0: the kernel's own output is the whole call).
struct StoreRequest {
  std::optional<StoreStrategy> forced;
  std::size_t call_bytes = 0;
};

// REFOPS_STORES=auto|plain|stream|rep, read once; unset, empty or auto: nothing forced. An
// unknown value is ignored with one warning on stderr.
inline std::optional<StoreStrategy> stores_from_environment() {
  static const std::optional<StoreStrategy> forced = []() -> std::optional<StoreStrategy> {
    const char* env = std::getenv("REFOPS_STORES");
    if (env == nullptr || *env == '\0' || std::strcmp(env, "auto") == 0) return std::nullopt;
    for (StoreStrategy s : {StoreStrategy::plain, StoreStrategy::stream, StoreStrategy::rep})
      if (name_of(s) == env) return s;
    std::fprintf(stderr, "refops: REFOPS_STORES=%s is not auto, plain, stream or rep; ignored\n", env);
    return std::nullopt;
  }();
  return forced;
}

// What a kernel knows about its output when it asks for a strategy.
struct StoreNeeds {
  // Sizes and the pointer first, the flags last: no padding between the flags, so building one
  // is a few register stores (with a hole after each flag GCC cleared the struct with a 39-byte
  // `rep stosb`, a tenth of a small HARDMAX call on Zen 1). Build it with designated
  // initializers.
  std::size_t output_bytes = 0;                // this kernel call's output (the request may name more)
  std::size_t bytes_per_sparse = 0;            // output bytes per element that differs from the background
  // The output as one contiguous block of output_bytes when zero_background (else nullptr):
  // the first large call of a size measures memset and streaming stores on it
  // (store_calibration.hpp, rates_for_call).
  void* block = nullptr;
  bool zero_background = false;  // all but sparse elements are zero bytes, in whole spans
  // All but sparse elements are one value, zero or not, in the one contiguous block, and the
  // kernel's rep path fills it with that value (ONE_HOT: memset, or `rep stosq` of OffValue).
  bool uniform_background = false;
  // The kernel's plain path already fills a block and writes its sparse elements while the
  // block is in L1 (ONE_HOT rows): in cache that beats a fill of the whole output and a
  // second pass.
  bool plain_patches_in_l1 = false;
  // The kernel streams its zero background while it reads its input (HARDMAX's reductions):
  // like memcpy, its streamed stores then share the bus with its reads, which a separate
  // fill, however fast, cannot; so a large output streams.
  bool fills_while_reading = false;
  // Of those, a kernel whose rep path falls behind streaming when input and output fill L2
  // together (HARDMAX's interleaved rows, measured; their rep path once filled the whole
  // output before reading, and falls behind still, filling in steps as it reads): it streams
  // there too (choose_stores).
  bool rep_lags_at_l2 = false;
  // Of those, a kernel whose reduction alone takes about as long as a copy of its bytes
  // (HARDMAX's FLOAT16 columns: twice FLOAT32's groups per byte, 0.90 of a memcpy's time at
  // 1 MiB, perf): its streamed zeros hide under the reduction, where rep's fill after the reads
  // adds its whole time. With input and output as large as L2 together it streams too.
  bool reduction_outlasts_a_copy = false;
  // The kernel computes each output vector from the input it has just read and stores its
  // lines whole, a row or a few at a time (HARDMAX's long rows, rows of whole vectors, and
  // packed rows several a vector): in cache it streams too where streaming stores are far
  // ahead of memset (choose_stores).
  bool writes_lines_while_reading = false;
  // Of those, a kernel that stores each row's output whole soon after reading the row (rows of
  // whole vectors in HARDMAX's short-row loops, a block of 8 rows behind at most), where the
  // long rows write theirs a row behind in two parts: in cache it streams on the bar of a
  // kernel that fills while it reads (choose_stores).
  bool writes_rows_as_read = false;
  // The kernel reads while it writes, and its output starts on the 16-byte grid but not on the
  // vector grid: streamed, its stores are 16-byte pieces, with which some hosts copy far more
  // slowly than with plain stores (store_calibration.hpp, pieces_lose_while_reading).
  bool streams_in_pieces_while_reading = false;
  // Streamed, many lines would be written in two parts far apart in time (HARDMAX's long rows
  // that do not start on a line: each row's last line is written while the next row is read,
  // its first line a row later), which the write-combining buffers do not hold that long, so
  // each such line goes to memory in pieces. Plain stores then win.
  bool stream_splits_lines = false;
};

// Sparse writes at most this dense make a zeroing pass plus a patch pass cheaper than one
// streamed pass: each patched line is read back once (about 1.5% more traffic at 4 KiB).
inline constexpr std::size_t rep_min_bytes_per_sparse = 1024;

// In cache, one fill of the whole block by the string instructions and then the sparse writes
// beat the kernel's own vector fills, block by block, patched in L1, on Intel CPUs, whose
// `rep stos` writes whole lines without reading them (the Xeon guest, ONE_HOT rows of 1024
// FLOAT32 at 2 MiB, alternated, 5 repetitions: rep 0.92-0.93 of memset, plain 0.77-0.80; of
// INT8 0.87 / 0.75); not on AMD's (the Zen 3 and Zen 4 guests: plain 0.89-0.91, rep
// 0.70-0.89). The forced rows of the benchmark show it on any host.
inline bool rep_beats_patches_in_l1() { return intel_cpu(); }

// The strategy for one call. Forced (the request, else REFOPS_STORES) wins. Otherwise:
// - outputs that stay in the last-level cache (below the streaming threshold: the LLC, or on a
//   host that reports a large one what it measured, cache_info.hpp exceeds_cache): rep for a
//   zero background in one contiguous block with sparse writes at least 1 KiB apart (in cache
//   one memset and the sparse writes reached 0.94 of memset for identity matrices), also for
//   a background of any one value the kernel's rep path fills, except for kernels whose plain
//   path patches in L1 (ONE_HOT rows) where rep_beats_patches_in_l1 says not; else plain (the
//   output can stay in the cache for whoever reads it next). Except: a kernel that fills
//   while it reads streams when its input and output together exceed L2 (they cannot stay
//   in it from one call to the next; at exactly L2, HARDMAX axis 0 at 1 MiB on the Intel
//   Xeon guest's 2 MiB L2 (model 167) ran at 0.65-0.69 of memcpy with rep, 0.51-0.59 streamed,
//   where on model 207 streamed led, AVX-512 by 3-12%, AVX2 by 14-25%, which no measured rate
//   tells apart yet (docs/performance.md, "The columns at L2's edge stream faster on this
//   host"; since rep fills a pass at a time, FLOAT32's rep leads there on AVX-512, 0.75-0.76
//   against 0.67-0.70, and trails on AVX2, 0.55 against 0.59): so from L2 on only a kernel
//   whose rep path lags there, rep_lags_at_l2: axes {0,2} streamed 0.65-0.73 against rep's
//   0.57-0.60 in three sessions on two Intel models, a tie in a fourth, and 0.66-0.74
//   against 0.63-0.66 with rep's zeros in steps (model 207): docs/decisions.md), or whose
//   reduction outlasts a copy, reduction_outlasts_a_copy: FLOAT16's columns at 1 MiB led
//   streamed on both models,
//   0.93-0.94 of stream with rep on model 167, 0.85-0.95 on model 207) and the host's
//   measured streaming stores keep up with memset (streaming_keeps_up: 0.8 of it or more;
//   HARDMAX axes {0,2} at 2 MiB, of memcpy, streamed against through the cache: the Zen 1
//   guest 0.57-0.63 / 0.41-0.45, the Intel Xeon guest 0.84-0.89 / 0.58-0.64, the Zen 4 guest
//   (streaming stores 0.95-1.39 times memset) 0.61-0.79 / 0.50-0.64, the Zen 3 guest (1.41
//   times) 0.75 / 0.46; axis 0 gains on Zen 1 and the Intel guest, and on Zen 3 no forced
//   strategy beat rep by 5%); one that writes whole lines while it reads streams when input
//   and output exceed L2 (at exactly L2 it writes each line soon after its reads, as memcpy
//   does, and loses streamed: the last axis at 1 MiB on the Intel guest 0.67-0.72 against
//   0.73) and streaming stores beat memset 1.5 times or more (streaming_far_ahead), or when
//   they keep up with it if it stores each row whole soon after reading it
//   (writes_rows_as_read: HARDMAX's rows of
//   whole vectors; rows of 16 at 2 MiB streamed against plain, the Zen 3 guest at 1.41 times
//   0.60 / 0.54, the Zen 4 guest at 0.97 times 0.73 / 0.68), unless its streamed lines would be
//   split or in pieces that lose (HARDMAX last axis 0.91-0.94 / 0.69-0.71, rows of 16
//   0.93-0.95 / 0.70-0.76 on the Intel guest; its whole-line and medium rows, which build
//   lines from parts of rows, lose streamed: rows of 10 0.64 / 0.70, of 100 0.44-0.52 /
//   0.56-0.67); the Zen 3 guest's last axis lost streamed at 1.41 times;
// - large outputs (from the threshold on) of that sparse kind: stream when the kernel fills
//   while it reads; else rep or stream, whichever the rates measured for calls of this size
//   (store_calibration.hpp, rates_for_call) predict faster for this output's bytes and sparse
//   writes;
// - other large outputs: stream, unless the kernel would stream in 16-byte pieces while it
//   reads and this host copies slower that way than with plain stores (measured once on the
//   scratch buffer, on one thread): then plain, for a call on one thread.
template <class Target>
StoreStrategy choose_stores(const StoreRequest& request, const StoreNeeds& needs) {
  if (request.forced) return *request.forced;
  if (const auto env = stores_from_environment()) return *env;
  const std::size_t bytes = std::max(request.call_bytes, needs.output_bytes);
  const bool sparse_on_zero = needs.zero_background && needs.bytes_per_sparse >= rep_min_bytes_per_sparse;
  if (!exceeds_cache(bytes)) {
    // A kernel that writes while it reads reads as many bytes as it writes (HARDMAX). The size
    // is tested first: the rates are measured on their first use, which a small call must not
    // pay for.
    if constexpr (has_streaming_stores<Target>) {
      const bool past_l2 = !input_and_output_fit_in_l2(bytes);
      // Input and output that do not stay in L2 from one call to the next: beyond it, or as large
      // as it for a kernel whose rep path lags there or whose reduction outlasts a copy.
      const bool fills_out_of_l2 =
          needs.fills_while_reading &&
          (needs.rep_lags_at_l2 || needs.reduction_outlasts_a_copy ? input_and_output_fill_l2(bytes) : past_l2);
      const bool writes_lines_past_l2 = needs.writes_lines_while_reading && past_l2;
      if (fills_out_of_l2 || writes_lines_past_l2) {
        const StoreRates& rates = store_rates<Target>();
        if (fills_out_of_l2 && streaming_keeps_up(rates)) return StoreStrategy::stream;
        const bool streams_whole_lines =
            !needs.stream_splits_lines && !(needs.streams_in_pieces_while_reading && pieces_lose_while_reading(rates));
        const bool streaming_wins = needs.writes_rows_as_read ? streaming_keeps_up(rates) : streaming_far_ahead(rates);
        if (writes_lines_past_l2 && streams_whole_lines && streaming_wins) return StoreStrategy::stream;
      }
    }
    const bool sparse_block = (needs.zero_background || needs.uniform_background) &&
                              needs.bytes_per_sparse >= rep_min_bytes_per_sparse;
    return sparse_block && (!needs.plain_patches_in_l1 || rep_beats_patches_in_l1()) ? StoreStrategy::rep
                                                                                      : StoreStrategy::plain;
  }
  if constexpr (!has_streaming_stores<Target>) return sparse_on_zero ? StoreStrategy::rep : StoreStrategy::plain;
  if (sparse_on_zero && !needs.fills_while_reading &&
      !stream_beats_rep(rates_for_call<Target>(needs.block, needs.output_bytes, bytes), bytes, needs.bytes_per_sparse))
    return StoreStrategy::rep;
  // One thread's copy was measured, so it decides calls on one thread (a part of a split call
  // keeps streaming: on 2 threads of the Zen 1 guest the last axis at +16 bytes ran at 0.77-0.81
  // of a 2-thread memcpy in pieces, 0.65 plain).
  const bool whole_call = request.call_bytes <= needs.output_bytes;
  if (needs.streams_in_pieces_while_reading && whole_call && pieces_lose_while_reading(store_rates<Target>()))
    return StoreStrategy::plain;
  if (needs.stream_splits_lines && whole_call) return StoreStrategy::plain;
  return StoreStrategy::stream;
}

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
