// What every operator's fuzz target shares: the buffers of one call (each in its own
// allocation, or a window of another tensor's allocation so input and output may overlap), a
// forced path that may be unavailable here, and the property check around execute():
//  - execute() throws refops::Error and every byte of every buffer is as it was; the Error is
//    what validate() said at that level, or (when validate() said nothing) only binding and
//    forced-path problems, which validate() cannot see; or
//  - execute() succeeds, validate() said nothing, and the scalar path, run on a copy of the
//    buffers as they were, leaves every byte of every buffer (padding, inputs and the bytes
//    before each buffer included) exactly as this path did.
// The target then compares the output with its own small oracle.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <refops/arch.hpp>
#include <refops/diagnostics.hpp>

#include "fuzz/fuzz_check.hpp"
#include "fuzz/fuzz_input.hpp"
#include "support/buffers.hpp"

namespace refops::fuzz {

// A path to force, one byte: any of the five (some are not available on this CPU, which
// execute() must reject without writing), or none (the best path).
inline std::optional<Arch> any_arch(FuzzInput& in) {
  const std::uint8_t b = in.byte() % 8;
  if (b >= 5) return std::nullopt;
  return static_cast<Arch>(b);
}

// The bound buffers of one call. Tensor i is a window [begin, begin + size) of allocation
// owner; each allocation is a FuzzBuffer (sentinel before it, ASan right after it).
class CallBuffers {
 public:
  // A tensor in an allocation of its own, sized by FuzzInput::buffer; with_data fills its
  // bytes from the input (indices, values, an input tensor), else it keeps the sentinel.
  std::size_t add(FuzzInput& in, const TensorDesc& desc, bool with_data) {
    allocations_.push_back(in.buffer(desc));
    if (with_data) allocations_.back().fill_from(in);
    windows_.push_back({allocations_.size() - 1, 0, allocations_.back().size()});
    return windows_.size() - 1;
  }
  // Like add, but one byte may instead put the tensor inside tensor `other`'s allocation at a
  // decoded byte offset (so the two may overlap, or share an allocation without overlapping).
  std::size_t add_maybe_inside(FuzzInput& in, const TensorDesc& desc, bool with_data, std::size_t other) {
    const std::uint8_t b = in.byte();
    if (b % 4 != 0) return add(in, desc, with_data);
    const std::size_t owner = windows_[other].owner;
    const std::size_t room = allocations_[owner].size();
    const std::size_t begin = room ? in.byte() * std::size_t{4} % (room + 1) + (b >> 7) : 0;
    const std::size_t start = std::min(begin, room);
    const std::size_t wanted = FuzzInput::bytes_to_allocate(desc);
    const std::size_t size = std::min<std::uint64_t>(wanted, room - start);
    if (with_data)
      for (std::size_t i = 0; i < size; ++i) allocations_[owner].data()[start + i] = std::byte{in.byte()};
    windows_.push_back({owner, start, size});
    return windows_.size() - 1;
  }

  In in(std::size_t i) const { return {allocations_[windows_[i].owner].data() + windows_[i].begin, windows_[i].size}; }
  Out out(std::size_t i) { return {allocations_[windows_[i].owner].data() + windows_[i].begin, windows_[i].size}; }
  // Tensor i's window as a test::Buffer (for the test oracles), same bytes.
  test::Buffer to_test_buffer(std::size_t i) const {
    test::Buffer b(windows_[i].size);
    if (windows_[i].size) std::memcpy(b.data(), in(i).data(), windows_[i].size);
    return b;
  }

  // A copy with the same sizes, offsets past 16-byte boundaries (so the same alignment) and bytes.
  CallBuffers copy() const {
    CallBuffers c;
    c.windows_ = windows_;
    for (const FuzzBuffer& a : allocations_) {
      c.allocations_.emplace_back(a.size(), a.offset());
      std::memcpy(c.allocations_.back().data() - a.offset(), a.data() - a.offset(), a.offset() + a.size());
    }
    return c;
  }
  // Every byte of every allocation (the leading offsets included) equals `other`'s.
  bool same_bytes(const CallBuffers& other) const {
    for (std::size_t i = 0; i < allocations_.size(); ++i) {
      const FuzzBuffer &a = allocations_[i], &b = other.allocations_[i];
      if (std::memcmp(a.data() - a.offset(), b.data() - b.offset(), a.offset() + a.size()) != 0) return false;
    }
    return true;
  }

 private:
  struct Window {
    std::size_t owner, begin, size;
  };
  std::vector<FuzzBuffer> allocations_;
  std::vector<Window> windows_;
};

// Diagnostics execute() may add to validate()'s: the buffers' bindings and the forced path.
inline bool only_binding_or_path(const std::vector<Diagnostic>& diagnostics) {
  return !diagnostics.empty() && std::all_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
           return d.field.find("Binding") != std::string::npos || d.field == "ExecuteOptions.arch";
         });
}

inline bool same_diagnostics(const std::vector<Diagnostic>& a, const std::vector<Diagnostic>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Diagnostic& x, const Diagnostic& y) {
    return x.field == y.field && x.message == y.message;
  });
}

// REFOPS_FUZZ_TRACE=1 prints each call and its outcome (to see what a seed or a crash file
// decodes to).
inline void trace(const std::string& what, const std::string& outcome) {
  static const bool on = std::getenv("REFOPS_FUZZ_TRACE") != nullptr;
  if (on) std::fprintf(stderr, "%s\n  -> %s\n", what.c_str(), outcome.c_str());
}

inline void check_diagnostics_say_something(const std::vector<Diagnostic>& diagnostics, const std::string& what) {
  for (const Diagnostic& d : diagnostics)
    FUZZ_CHECK(!d.field.empty() && !d.message.empty(), "a diagnostic without a field or a message: " + what);
}

// Runs `run(buffers, options)` (the operator's execute on those buffers) and checks the
// properties at the top of this file. `validated` is validate() at options.feature_level;
// `what` describes the call for a failure message. Returns true when execute() succeeded
// (buffers then hold the result; `before` holds the bytes before the call).
template <class Run>
bool check_execute(const std::vector<Diagnostic>& validated, CallBuffers& buffers, const CallBuffers& before,
                   const ExecuteOptions& options, Run run, const std::string& what) {
  check_diagnostics_say_something(validated, what);
  try {
    run(buffers, options);
  } catch (const Error& e) {
    trace(what, std::string("Error: ") + e.what());
    FUZZ_CHECK(buffers.same_bytes(before), "execute threw and wrote to a buffer: " + what + "\n" + e.what());
    check_diagnostics_say_something(e.diagnostics(), what);
    if (validated.empty())
      FUZZ_CHECK(only_binding_or_path(e.diagnostics()),
                 "execute threw what validate did not say: " + what + "\n" + e.what());
    else
      FUZZ_CHECK(same_diagnostics(e.diagnostics(), validated),
                 "execute threw other diagnostics than validate: " + what + "\nexecute:\n" + e.what() +
                     "validate:\n" + to_string(validated));
    return false;
  }
  trace(what, "executed");
  FUZZ_CHECK(validated.empty(), "execute accepted what validate rejected: " + what + "\n" + to_string(validated));
  CallBuffers scalar = before.copy();
  ExecuteOptions scalar_options = options;
  scalar_options.arch = Arch::scalar;
  run(scalar, scalar_options);
  FUZZ_CHECK(buffers.same_bytes(scalar), "the result differs from the scalar path's: " + what);
  return true;
}

// Fills every whole element of `window` (element_bytes wide, from its start) with a small
// integer from one byte each: -2..5, sign-extended, so indices land inside and around a
// small depth instead of being almost always out of range.
inline void small_integers(FuzzInput& in, Out window, std::size_t element_bytes) {
  for (std::size_t at = 0; at + element_bytes <= window.size(); at += element_bytes) {
    const auto v = static_cast<std::int64_t>(in.byte() % 8) - 2;
    std::memcpy(window.data() + at, &v, element_bytes);  // little-endian: the low bytes
  }
}

// "a5 a5 00 00 ...": bytes for a failure message (the first 256).
inline std::string hex(const std::byte* data, std::size_t size) {
  std::string text;
  char digits[4];
  for (std::size_t i = 0; i < std::min<std::size_t>(size, 256); ++i) {
    std::snprintf(digits, sizeof digits, "%02x ", static_cast<unsigned>(data[i]));
    text += digits;
  }
  return text + (size > 256 ? "..." : "");
}

// The output window equals the oracle's bytes exactly.
inline void check_window(const CallBuffers& buffers, std::size_t window, const std::byte* expected,
                         std::size_t expected_size, const std::string& what) {
  const In got = buffers.in(window);
  FUZZ_CHECK(got.size() == expected_size && std::memcmp(got.data(), expected, got.size()) == 0,
             "the output differs from the oracle: " + what + "\n  got      " + hex(got.data(), got.size()) +
                 "\n  expected " + hex(expected, expected_size));
}

// Element count of `sizes`, saturating above `cap`.
inline std::uint64_t element_count(const Dims& sizes, std::uint64_t cap) {
  std::uint64_t n = 1;
  for (std::uint32_t s : sizes) {
    n *= s;
    if (n > cap) return cap + 1;
  }
  return n;
}

}  // namespace refops::fuzz
