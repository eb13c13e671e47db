// FuzzInput: turns the fuzzer's bytes into refops descriptions, levels, axes, offsets and
// buffers. Shared by every fuzz target in this directory.
//
// Encoding (tests/fuzz/make_seed_corpus.py writes seeds in it): every decision reads ONE byte,
// and a finished input reads as zeros, so any byte string decodes and a one-byte change in
// the input is a one-decision change in the description. Most bytes map to small values
// (sizes 1..5, strides 0..12) so accepted descriptions stay small enough to allocate and to
// check by brute force; a few byte values map to edge values (2^31, 2^32-1, ...) so the
// overflow rules are reached too. Descriptions may be invalid on purpose (type 0 or 12,
// no dimension, a zero size, a wrong stride count): validators must reject those cleanly.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <refops/arch.hpp>
#include <refops/data_type.hpp>
#include <refops/feature_level.hpp>
#include <refops/tensor_desc.hpp>

#include "support/buffers.hpp"

namespace refops::fuzz {

// 128-bit arithmetic for the independent size computations (GCC and clang both have it).
__extension__ using u128 = unsigned __int128;

// Buffers larger than this are never allocated: a description that needs more is bound to a
// short buffer instead, which the operator must reject without touching it.
inline constexpr std::uint64_t max_buffer_bytes = 1u << 20;

// Every buffer is filled with the tests' sentinel byte (0xA5) before a call, so a target can
// prove what was written.
using test::sentinel;

// A buffer for one tensor: exactly `size` bytes bound, at `offset` bytes past a 16-byte
// boundary. The bytes before it are sentinel too (to catch writes before the start), and the
// allocation ends exactly where the bound span ends, so ASan reports any access past it.
class FuzzBuffer {
 public:
  FuzzBuffer() = default;
  FuzzBuffer(std::size_t size, std::size_t offset)
      : storage_(std::make_unique<std::byte[]>(offset + size)), offset_(offset), size_(size) {
    std::memset(storage_.get(), static_cast<int>(sentinel), offset + size);
  }

  std::byte* data() { return storage_.get() + offset_; }
  const std::byte* data() const { return storage_.get() + offset_; }
  std::size_t size() const { return size_; }
  std::size_t offset() const { return offset_; }
  Out out() { return {data(), size_}; }
  In in() const { return {data(), size_}; }

  // Every byte of the allocation, the leading offset included, still holds the sentinel.
  bool untouched() const {
    return std::all_of(storage_.get(), storage_.get() + offset_ + size_,
                       [](std::byte b) { return b == sentinel; });
  }
  // The leading offset bytes (never part of the span) still hold the sentinel.
  bool prefix_untouched() const {
    return std::all_of(storage_.get(), storage_.get() + offset_, [](std::byte b) { return b == sentinel; });
  }
  // Overwrites the bound bytes with the input's own bytes (inputs must hold real data).
  template <class Source>
  void fill_from(Source& source) {
    for (std::size_t i = 0; i < size_; ++i) data()[i] = std::byte{source.byte()};
  }

 private:
  std::unique_ptr<std::byte[]> storage_;
  std::size_t offset_ = 0, size_ = 0;
};

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  // The next byte; 0 once the input is used up.
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool flag() { return (byte() & 1) != 0; }
  bool exhausted() const { return pos_ >= size_; }
  // A value in [lo, hi] (hi - lo <= 255), one byte.
  std::uint32_t in_range(std::uint32_t lo, std::uint32_t hi) {
    return lo + byte() % (hi - lo + 1);
  }
  // One of `choices`, one byte.
  template <class T, std::size_t N>
  T pick(const std::array<T, N>& choices) {
    return choices[byte() % N];
  }

  // A DataType: byte % 16 gives 1..11 for the valid types and 0, 12..15 for invalid values.
  DataType data_type() {
    const std::uint8_t b = byte() % 16;
    return static_cast<DataType>(b <= 11 ? b : b == 12 ? 0u : b == 13 ? 12u : b == 14 ? 0x7FFFFFFFu : 0xFFFFFFFFu);
  }
  // A valid DataType, one of `allowed` (an operator's supported types).
  DataType data_type_in(std::span<const DataType> allowed) { return allowed[byte() % allowed.size()]; }

  // A size: 1..5 for bytes 0..249, then 0, 6, 64, 65536, 2^31, 2^32-1.
  std::uint32_t size_value() { return small_or_edge(1, 5, byte()); }
  // A stride: 0..12 for bytes 0..249, then the same edge values.
  std::uint32_t stride_value() { return small_or_edge(0, 12, byte()); }

  // Sizes of `rank` dimensions.
  Dims sizes(std::size_t rank) {
    Dims d;
    for (std::size_t i = 0; i < rank; ++i) d.push_back(size_value());
    return d;
  }

  // A whole description, valid or not. One byte picks the layout: packed (no strides),
  // packed-with-padding strides, explicit strides, or a wrong stride count.
  TensorDesc tensor(std::size_t max_rank = Dims::capacity) {
    TensorDesc t;
    t.data_type = data_type();
    t.sizes = sizes(in_range(0, static_cast<std::uint32_t>(max_rank)));
    strides_and_total(t);
    return t;
  }
  // A description with a valid type from `allowed` and `rank` dimensions (layout as above).
  TensorDesc tensor_of_rank(std::size_t rank, std::span<const DataType> allowed) {
    TensorDesc t;
    t.data_type = data_type_in(allowed);
    t.sizes = sizes(rank);
    strides_and_total(t);
    return t;
  }
  // Strides and TotalTensorSizeInBytes for t.sizes (which the caller may have set itself).
  void strides_and_total(TensorDesc& t) {
    switch (byte() % 4) {
      case 0: t.strides = {}; break;
      case 1: {  // row-major with 0..3 elements of padding after each dimension
        std::uint64_t step = 1;
        t.strides = t.sizes;
        for (std::size_t i = t.sizes.size(); i-- > 0;) {
          t.strides[i] = static_cast<std::uint32_t>(std::min<std::uint64_t>(step, 0xFFFFFFFFu));
          step = step * t.sizes[i] + byte() % 4;
        }
        break;
      }
      case 2:
        t.strides = {};
        for (std::size_t i = 0; i < t.sizes.size(); ++i) t.strides.push_back(stride_value());
        break;
      default:  // a stride count that does not match the dimension count
        t.strides = {};
        for (std::size_t i = 0, n = in_range(0, 8); i < n; ++i) t.strides.push_back(stride_value());
        break;
    }
    t.total_bytes = total_bytes(t);
  }

  // TotalTensorSizeInBytes: 0 (not set), the exact size, 4 more, 1 or 4 less, or a small value.
  std::uint64_t total_bytes(const TensorDesc& t) {
    const std::uint8_t b = byte();
    std::optional<std::uint64_t> needed;
    try {
      needed = calc_buffer_tensor_size(t);
    } catch (const std::exception&) {
    }
    switch (b % 8) {
      case 0: case 1: case 2: return 0;
      case 3: return needed.value_or(4);
      case 4: return needed.value_or(0) + 4;
      case 5: return needed.value_or(1) - 1;
      case 6: return needed.value_or(4) > 4 ? *needed - 4 : 0;
      default: return b / 8u;
    }
  }

  // A feature level: byte % 16 gives the 15 levels and one value that is no level.
  FeatureLevel level() {
    const std::uint8_t b = byte() % 16;
    return b < std::size(all_feature_levels) ? all_feature_levels[b] : static_cast<FeatureLevel>(0x1234u);
  }
  // An axis for a tensor of `rank` dimensions: in range mostly, sometimes rank or beyond.
  std::uint32_t axis(std::size_t rank) {
    const std::uint8_t b = byte();
    if (b >= 240) return b == 255 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(rank) + (b - 240u);
    return rank ? b % static_cast<std::uint32_t>(rank) : 0u;
  }
  // A signed axis (OpenVINO style): -rank-1 .. rank, sometimes extreme.
  std::int64_t signed_axis(std::size_t rank) {
    const std::uint8_t b = byte();
    if (b == 255) return INT64_MIN;
    if (b == 254) return INT64_MAX;
    const auto r = static_cast<std::int64_t>(rank);
    return static_cast<std::int64_t>(b % (2 * r + 3)) - r - 1;
  }
  // An offset or index bound (DIAGONAL_MATRIX offset, fill_begin/fill_end): -8..8, sometimes
  // INT32_MIN / INT32_MAX / +-2^30.
  std::int32_t offset() {
    const std::uint8_t b = byte();
    switch (b) {
      case 255: return INT32_MIN;
      case 254: return INT32_MAX;
      case 253: return -(1 << 30);
      case 252: return 1 << 30;
      default: return static_cast<std::int32_t>(b % 17) - 8;
    }
  }
  // A value of T from its raw bytes (every bit pattern, NaNs included).
  template <class T>
  T raw() {
    std::array<std::uint8_t, sizeof(T)> bytes;
    for (auto& b : bytes) b = byte();
    T v;
    std::memcpy(&v, bytes.data(), sizeof(T));
    return v;
  }
  // An Arch to force: one byte picks an available one or none (best path).
  std::optional<Arch> arch() {
    const std::vector<Arch> archs = available_archs();
    const std::uint8_t b = byte();
    if (b % (archs.size() + 1) == archs.size()) return std::nullopt;
    return archs[b % (archs.size() + 1)];
  }

  // A sentinel-filled buffer for `t` (which may be invalid). One byte picks the size: the
  // addressed bytes (or total_bytes when larger) mostly, or 1..4 bytes short, or empty; and
  // the offset past a 16-byte boundary (0 mostly; 1..15 misaligns it). Descriptions needing
  // more than max_buffer_bytes get a 64-byte buffer, which a validator must find too short.
  FuzzBuffer buffer(const TensorDesc& t) {
    const std::uint8_t b = byte();
    const std::size_t offset = (b & 0x80) ? (b >> 3) % 16 : 0;
    const std::uint64_t needed = bytes_to_allocate(t);
    if (needed > max_buffer_bytes) return FuzzBuffer(64, offset);
    switch (b % 8) {
      case 0: return FuzzBuffer(0, offset);
      case 1: return FuzzBuffer(needed > 0 ? needed - 1 : 0, offset);
      case 2: return FuzzBuffer(needed > 4 ? needed - 4 : 0, offset);
      default: return FuzzBuffer(needed, offset);
    }
  }

  // max(addressed bytes, total_bytes) in 128-bit arithmetic, for a description with valid
  // sizes and strides; 0 when it has none (no dimension, a zero size, a wrong stride count).
  static std::uint64_t bytes_to_allocate(const TensorDesc& t) {
    const u128 addressed = addressed_bytes_128(t);
    const u128 b = std::max<u128>(addressed, t.total_bytes);
    return b > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(b);
  }
  // (last addressed element + 1) * element size, without overflow; 0 when undefined.
  static u128 addressed_bytes_128(const TensorDesc& t) {
    if (t.sizes.empty() || (!t.strides.empty() && t.strides.size() != t.sizes.size())) return 0;
    u128 last = 0, count = 1;
    for (std::size_t i = 0; i < t.sizes.size(); ++i) {
      if (t.sizes[i] == 0) return 0;
      count *= t.sizes[i];
    }
    if (t.strides.empty()) {
      last = count - 1;
    } else {
      for (std::size_t i = 0; i < t.sizes.size(); ++i)
        last += static_cast<u128>(t.sizes[i] - 1) * t.strides[i];
    }
    return (last + 1) * size_of(t.data_type);
  }

 private:
  static std::uint32_t small_or_edge(std::uint32_t lo, std::uint32_t hi, std::uint8_t b) {
    static constexpr std::array<std::uint32_t, 6> edges{0, 6, 64, 65536, 0x80000000u, 0xFFFFFFFFu};
    if (b < 250) return lo + b % (hi - lo + 1);
    return edges[b - 250u];
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace refops::fuzz
