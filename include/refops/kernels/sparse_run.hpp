// A run of contiguous elements that are all one value (OffValue) but for a few (OnValue): the
// output of ONE_HOT's rows and of HARDMAX's medium rows (zeros, and one 1 per row). It is
// written a block at a time, right after the block's positions are known (they and the
// block's lines stay in L1), by the call's store strategy; streamed, each line is built in
// registers and streamed whole, so no streamed line is read back.
#pragma once

#include <refops/kernels/abi.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <refops/kernels/simd.hpp>

#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

namespace refops::simd::inline REFOPS_KERNEL_ABI {

// The positions 0 .. Vectors * lanes - 1 of a run of vectors: lane i of vector c holds
// c * lanes + i (short rows compare a row's position with them, streamed blocks a line's).
template <class Target, class U, std::size_t Vectors>
std::array<xsimd::batch<U, Target>, Vectors> lane_positions() {
  using batch = xsimd::batch<U, Target>;
  constexpr std::size_t lanes = batch::size;
  static_assert(Vectors * lanes - 1 <= std::numeric_limits<U>::max());
  alignas(sizeof(batch)) U values[Vectors * lanes];
  for (std::size_t i = 0; i < Vectors * lanes; ++i) values[i] = static_cast<U>(i);
  std::array<batch, Vectors> positions;
  for (std::size_t c = 0; c < Vectors; ++c) positions[c] = batch::load_aligned(values + c * lanes);
  return positions;
}

// write_block's streaming form (Target with streaming stores, element-aligned block): one
// loop over the block's whole cache lines, each streamed as OffValue vectors or, when it holds
// an OnValue, built in registers and streamed whole, so no streamed line is read back. The
// partial line at the block's start is written plain (a line written both plain and streamed
// costs a partial write-combining flush), its OnValues stored after; so is the one at its end,
// unless `leave_tail`: then that line is left to the caller's next block (returns where the
// writes stopped). One compare per line and no call per run: INT8 rows of 1 KiB were eight
// fill_span runs per 4 KiB.
template <class Target, class U>
std::size_t write_block_streamed(U* block, std::size_t n, U off, U on, const std::size_t* on_at, std::size_t count,
                                 bool leave_tail) {
  using batch = xsimd::batch<U, Target>;
  constexpr std::size_t lanes = batch::size, line = cache_line_bytes / sizeof(U);
  const std::size_t first =
      std::min(elements_to_line<U>(reinterpret_cast<std::uintptr_t>(block)), n);  // first line boundary
  const std::size_t last = first + (n - first) / line * line;  // the end of the whole lines
  std::size_t k = 0;
  while (k < count && on_at[k] < first) ++k;  // in the partial head line: stored after
  const std::size_t in_head = k;
  fill_span<Target>(block, first, off, StoreStrategy::plain);
  const batch off_vector(off), on_vector(on);
  // The line's positions, vector by vector: an OnValue's line is built in registers by compare
  // and select. (Assembled in an array in L1 instead, its 32-byte loads waited on the fill's
  // 16-byte stores and the OnValue's byte store: a failed store forwarding per line.)
  constexpr std::size_t vectors = line / lanes;
  const std::array<batch, vectors> position = lane_positions<Target, U, vectors>();
  for (std::size_t start = first; start < last; start += line) {
    if (k < count && on_at[k] < start + line) {
      std::array<batch, vectors> v;
      v.fill(off_vector);
      for (; k < count && on_at[k] < start + line; ++k) {
        const batch at(static_cast<U>(on_at[k] - start));
        for (std::size_t c = 0; c < vectors; ++c) v[c] = xsimd::select(position[c] == at, on_vector, v[c]);
      }
      for (std::size_t c = 0; c < vectors; ++c) stream_store<Target>(block + start + c * lanes, v[c]);
    } else {
      for (std::size_t v = 0; v < line; v += lanes) stream_store<Target>(block + start + v, off_vector);
    }
  }
  for (std::size_t j = 0; j < in_head; ++j) block[on_at[j]] = on;
  if (leave_tail && last > 0) return last;
  fill_span<Target>(block + last, n - last, off, StoreStrategy::plain);
  for (std::size_t j = k; j < count; ++j) block[on_at[j]] = on;  // in the partial tail line
  return n;
}

// Writes n contiguous elements of OffValue at `block` with OnValue at the increasing offsets
// on_at[0..count); returns how many it wrote from the block's start. Plain and rep: fill the
// block, then store the OnValues while it is in L1 (all n). Stream: write_block_streamed, which
// with `leave_tail` may stop at the block's last line boundary; the caller then starts its next
// block there, with the OnValues past that point.
template <class Target, class U>
std::size_t write_block(U* block, std::size_t n, U off, U on, const std::size_t* on_at, std::size_t count,
                        StoreStrategy stores, bool leave_tail = false) {
  if constexpr (has_streaming_stores<Target>) {
    if (stores == StoreStrategy::stream && reinterpret_cast<std::uintptr_t>(block) % sizeof(U) == 0)
      return write_block_streamed<Target>(block, n, off, on, on_at, count, leave_tail);
  }
  fill_span<Target>(block, n, off, stores);
  for (std::size_t k = 0; k < count; ++k) block[on_at[k]] = on;
  return n;
}

// A run of blocks that follow each other in memory, written one block at a time: add() the
// block's OnValues, then write() it. Streamed, a block that does not end on a cache line leaves
// its partial last line to the next block (write_block's leave_tail), so no line of the run is
// written both plain and streamed but at its two ends. Written plain at every block's end, the
// line split between two rows of 1024 FLOAT32 at +16 bytes (NumPy) cost a read for ownership per
// row, which held the stores behind it: 0.62 of a streamed fill against 0.87 on the line (ONE_HOT,
// Zen 4). Up to MaxOnes OnValues per block.
template <class Target, class U, std::size_t MaxOnes>
class SparseRun {
 public:
  SparseRun(U* at, U off, U on, StoreStrategy stores) : next_(at), off_(off), on_(on), stores_(stores) {}

  // An OnValue of the next block, `at` elements from the block's start (increasing).
  void add(std::size_t at) {
    assert(count_ < on_at_.size());
    on_at_[count_++] = pending_ + at;
  }

  // Writes the next block's n elements, and what the block before left; `more`: another block
  // of the run follows.
  void write(std::size_t n, bool more) {
    const std::size_t total = pending_ + n;
    const std::size_t written = write_block<Target>(next_, total, off_, on_, on_at_.data(), count_, stores_, more);
    next_ += written;
    pending_ = total - written;
    std::size_t carried = 0;  // fewer than a line's elements
    for (std::size_t k = 0; k < count_; ++k)
      if (on_at_[k] >= written) on_at_[carried++] = on_at_[k] - written;
    count_ = carried;
  }

  // A new run at `at`, after a write without `more`.
  void restart(U* at) {
    assert(pending_ == 0 && count_ == 0);
    next_ = at;
  }

 private:
  U* next_;
  U off_, on_;
  StoreStrategy stores_;
  std::size_t pending_ = 0, count_ = 0;  // elements left by the block before, OnValues held
  std::array<std::size_t, MaxOnes + cache_line_bytes> on_at_;
};

// Rows that follow each other in memory, each all OffValue but for one OnValue, written a
// cache line at a time as each row comes (HARDMAX's medium and long rows: a row's output leaves
// while the next row is read, a medium row's at once, a long row's a line at a time). Every
// line is built in registers and stored whole, plain or streamed as `Stream` says; only the
// lines at the run's two ends, shared with whatever lies around the run, are stored element
// by element, plain. No branch depends on where a row's OnValue is: each line selects it by a
// compare of lane positions (a branch per line mispredicted about once a row, a row being a
// few lines). The elements must be aligned to sizeof(U).
template <class Target, class U, bool Stream>
class RowLines {
  using batch = xsimd::batch<U, Target>;
  static constexpr std::size_t lanes = batch::size, line = cache_line_bytes / sizeof(U), vectors = line / lanes;
  static_assert(vectors * lanes == line, "a line is whole vectors");

 public:
  RowLines(U* at, U off, U on)
      : run_(at), off_(off), on_(on), position_(lane_positions<Target, U, vectors>()), on_lane_(U{0}) {
    head_ = fill_ = (reinterpret_cast<std::uintptr_t>(at) % cache_line_bytes) / sizeof(U);
    line_ = -static_cast<std::ptrdiff_t>(head_);
    pending_.fill(batch(off));
  }

  // The next row: n elements, the OnValue at one_at (< n). Rows of at least a line (so each
  // completes the line it starts in) and shorter than U counts, less a line (FLOAT32's rows of
  // up to 4 Gi elements, FLOAT16's up to 65504). All its lines at once: start, the rest, end.
  [[gnu::always_inline]] void row(std::size_t n, std::size_t one_at) {
    start(n, one_at);
    for (; next_ < whole_; ++next_) store_next_line();
    end();
  }

  // The same row a line at a time, for a long row written while the next one is read: start()
  // stores its first line (completing the line the row before ended in), each step() its next
  // whole line while there is one (as SpanWriter::step), end() whatever step() left, keeping
  // the last partial line.
  [[gnu::always_inline]] void start(std::size_t n, std::size_t one_at) {
    assert(n >= line && n + line <= std::size_t{std::numeric_limits<U>::max()});
    const std::size_t end = fill_ + n;
    whole_ = end / line;
    next_fill_ = end - whole_ * line;
    // The OnValue's lane counted from the current line's start, one line less each line: only
    // in its own line is it a lane number (before it, a line or more; after it, wrapped to a
    // large U). No branch on where it is: a condition per line, which GCC made a branch under
    // generic tuning, mispredicted once a row (rows of 100 in cache ran 1.5 times longer).
    on_lane_ = batch(static_cast<U>(fill_ + one_at));
    const std::array<batch, vectors> v = with_on(pending_, on_lane_);
    if (head_ != 0) [[unlikely]] {
      store_elements(v, head_, line);  // the run's first line, shared with what lies before it
      head_ = 0;
    } else {
      store_line(run_ + line_, v);
    }
    next_ = 1;
  }
  // Returns whether it stored a line (false: the row has no whole line left, or none started).
  [[gnu::always_inline]] bool step() {
    if (next_ >= whole_) return false;
    store_next_line();
    ++next_;
    return true;
  }
  [[gnu::always_inline]] void end() {
    if (whole_ == 0) return;  // no row started (a started row ends at least one line)
    for (; next_ < whole_; ++next_) store_next_line();
    std::array<batch, vectors> off_line;
    off_line.fill(batch(off_));
    pending_ = with_on(off_line, on_lane_ - batch(static_cast<U>(line)));
    fill_ = next_fill_;
    line_ += static_cast<std::ptrdiff_t>(whole_ * line);
    whole_ = next_ = 0;  // no row started: step() and end() store nothing
  }

  // Stores what the last line holds of the run (shared with what lies after it), after end().
  void finish() {
    if (fill_ > head_) store_elements(pending_, head_, fill_);
  }

 private:
  // base with the OnValue in lane `at` of the line (none when `at` is not a lane number).
  [[gnu::always_inline]] std::array<batch, vectors> with_on(const std::array<batch, vectors>& base, const batch& at) const {
    std::array<batch, vectors> v;
    for (std::size_t c = 0; c < vectors; ++c) v[c] = xsimd::select(position_[c] == at, batch(on_), base[c]);
    return v;
  }
  // Line next_ of the started row (not its first).
  [[gnu::always_inline]] void store_next_line() {
    std::array<batch, vectors> off_line;
    off_line.fill(batch(off_));
    on_lane_ -= batch(static_cast<U>(line));
    store_line(run_ + line_ + static_cast<std::ptrdiff_t>(next_ * line), with_on(off_line, on_lane_));
  }
  [[gnu::always_inline]] static void store_line(U* p, const std::array<batch, vectors>& v) {
    for (std::size_t c = 0; c < vectors; ++c) {
      if constexpr (Stream) stream_store<Target>(p + c * lanes, v[c]);
      else v[c].store_aligned(p + c * lanes);
    }
  }
  // Elements [from, to) of the current line, plain.
  void store_elements(const std::array<batch, vectors>& v, std::size_t from, std::size_t to) const {
    alignas(cache_line_bytes) U elements[line];
    for (std::size_t c = 0; c < vectors; ++c) v[c].store_aligned(elements + c * lanes);
    for (std::size_t k = from; k < to; ++k) run_[line_ + static_cast<std::ptrdiff_t>(k)] = elements[k];
  }

  // The current line starts line_ elements from the run's start (-head_ for the first line, so
  // only an index: a pointer there could point before the output), the next row fill_ elements
  // into it. head_: elements of the run's first line before the run, while it is not stored.
  // A started row: whole_ lines from line_ end in it, next_ of them stored, next_fill_ elements
  // of it in the line after them; on_lane_ its OnValue's lane counted from line next_ - 1.
  U* run_;
  std::ptrdiff_t line_;
  std::size_t fill_, head_, whole_ = 0, next_ = 0, next_fill_ = 0;
  U off_, on_;
  std::array<batch, vectors> position_, pending_;  // pending_: the current line so far
  batch on_lane_;
};

#if defined(__AVX512BW__)
// A run of contiguous elements of U (32 or 16 bits) given as bit masks, a line's worth at a
// time: bit i of a mask set, element i is the OnValue, else the OffValue (HARDMAX's rows of 2 to
// 16 elements, whose first maxima a compare gives as a mask: hardmax_rows_in_a_vector.hpp).
// The run may start anywhere on the U grid: each mask is shifted by where the run starts in its
// line, so every line is built in registers and stored whole and aligned, plain or streamed as
// `Stream` says, and the two lines at the run's ends, shared with whatever lies around it,
// are stored masked (the run's elements only, plain). No branch depends on the masks.
template <class U, bool Stream>
class MaskLines {
  static_assert(sizeof(U) == 4 || sizeof(U) == 2);

 public:
  static constexpr std::size_t line = cache_line_bytes / sizeof(U);  // elements a line: 16 or 32
  using Mask = std::conditional_t<line == 16, std::uint16_t, std::uint32_t>;

  MaskLines(U* at, U off, U on)
      : shift_(static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(at) % cache_line_bytes / sizeof(U))),
        next_(reinterpret_cast<std::uintptr_t>(at) - shift_ * sizeof(U)), head_(~low_bits(shift_)), off_(broadcast(off)), on_(broadcast(on)) {}

  // The run's next `line` elements.
  [[gnu::always_inline]] void add(Mask ones) {
    const std::uint64_t bits = std::uint64_t{ones} << shift_ | carry_;
    carry_ = bits >> line;
    const __m512i v = select(static_cast<Mask>(bits));
    if (head_ != all) [[unlikely]] {
      store_masked(v, head_);  // the run's first line, shared with what lies before it
      head_ = all;
    } else if constexpr (Stream) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(next_), v);
    } else {
      _mm512_store_si512(reinterpret_cast<__m512i*>(next_), v);
    }
    next_ += cache_line_bytes;
  }

  // The run's last `count` (< line) elements (bits of `ones` past them are not the run's), and
  // what earlier masks left in the last line: stored masked, being shared with what lies after
  // the run.
  void finish(Mask ones, std::size_t count) {
    assert(count < line);
    std::uint64_t bits = std::uint64_t{static_cast<Mask>(ones & low_bits(count))} << shift_ | carry_;
    for (std::size_t left = shift_ + count; left > 0;) {  // at most two lines
      const std::size_t here = std::min(left, line);
      store_masked(select(static_cast<Mask>(bits)), static_cast<Mask>(head_ & low_bits(here)));
      head_ = all;
      bits >>= line;
      next_ += cache_line_bytes;
      left -= here;
    }
    carry_ = 0;
  }

 private:
  static constexpr Mask all = static_cast<Mask>(~Mask{0});
  static constexpr Mask low_bits(std::size_t n) { return n >= line ? all : static_cast<Mask>((Mask{1} << n) - 1); }
  static __m512i broadcast(U value) {
    if constexpr (sizeof(U) == 4) return _mm512_set1_epi32(static_cast<int>(value));
    else return _mm512_set1_epi16(static_cast<short>(value));
  }
  [[gnu::always_inline]] __m512i select(Mask ones) const {
    if constexpr (sizeof(U) == 4) return _mm512_mask_blend_epi32(ones, off_, on_);
    else return _mm512_mask_blend_epi16(ones, off_, on_);
  }
  [[gnu::always_inline]] void store_masked(__m512i v, Mask which) const {
    if constexpr (sizeof(U) == 4) _mm512_mask_storeu_epi32(reinterpret_cast<void*>(next_), which, v);
    else _mm512_mask_storeu_epi16(reinterpret_cast<void*>(next_), which, v);
  }

  // next_: the current line's address (aligned; an integer, as the run's first line may start
  // before the output and the last end past it); shift_: where the run starts in its first line, so the
  // run's element i of a mask goes to lane i + shift_; carry_: the bits a line's mask left for
  // the next line; head_: the lanes of the current line that are the run's (all but on the
  // run's first line).
  unsigned shift_;
  std::uintptr_t next_;
  Mask head_;
  std::uint64_t carry_ = 0;
  __m512i off_, on_;
};
#endif

}  // namespace refops::simd::inline REFOPS_KERNEL_ABI
