// HARDMAX1 and HARDMAX on written-out cases: the seed document's three multi-axis examples
// verbatim, and ties, zeros, infinities and NaN placed by hand on each kernel shape (rows,
// columns, and the strided reference), on every available path.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <refops/refops.hpp>

#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"

using namespace refops;
using namespace refops::test;

namespace {

constexpr float nan_f = std::numeric_limits<float>::quiet_NaN();
constexpr float inf_f = std::numeric_limits<float>::infinity();

// Runs HARDMAX1 on packed FLOAT32 data on every path and returns each result.
template <class T = float>
void expect(const Dims& sizes, const Dims& axes, const std::vector<float>& input, const std::vector<float>& expected,
            NanMode mode = NanMode::propagate, const Dims& strides = {}) {
  const DataType type = data_type_v<T>;
  Hardmax1Desc desc{{type, sizes, strides, 0}, {type, sizes, strides, 0}, axes, mode};
  Buffer in = Buffer::for_tensor(desc.input);
  std::size_t i = 0;
  for_each_coordinate(sizes, [&](const Dims& c) { set<T>(in, desc.input, c, T(input[i++])); });
  Buffer want = Buffer::for_tensor(desc.output);
  i = 0;
  for_each_coordinate(sizes, [&](const Dims& c) { set<T>(want, desc.output, c, T(expected[i++])); });
  for_each_arch([&](Arch arch) {
    Buffer out = Buffer::for_tensor(desc.output);
    execute(desc, in.in(), out.out(), on(arch));
    const bool same = out.bytes() == want.bytes();
    CHECK(same);
  });
}

const std::vector<float> seed_input = {12, 0, -101, 11, 3, 234, 0, -101};

}  // namespace

TEST_CASE("seed example 1: Axes {1}", "[hardmax][seed]") {
  expect({2, 2, 2}, {1}, seed_input, {1, 0, 0, 1, 1, 1, 0, 0});
}

TEST_CASE("seed example 2: Axes {0}", "[hardmax][seed]") {
  expect({2, 2, 2}, {0}, seed_input, {1, 0, 0, 1, 0, 1, 1, 0});
}

TEST_CASE("seed example 3: Axes {0, 2}, in either order", "[hardmax][seed]") {
  expect({2, 2, 2}, {0, 2}, seed_input, {0, 0, 0, 1, 0, 1, 0, 0});
  expect({2, 2, 2}, {2, 0}, seed_input, {0, 0, 0, 1, 0, 1, 0, 0});
}

TEST_CASE("seed examples in FLOAT16: 1.0 is 0x3C00", "[hardmax][seed]") {
  expect<float16>({2, 2, 2}, {0, 2}, seed_input, {0, 0, 0, 1, 0, 1, 0, 0});
  Hardmax1Desc desc{{DataType::float16, {2}, {}, 0}, {DataType::float16, {2}, {}, 0}, {0}, NanMode::propagate};
  const std::uint16_t in[2] = {0x3C00, 0x4000};  // 1.0, 2.0
  std::uint16_t out[2] = {0xFFFF, 0xFFFF};
  execute(desc, std::as_bytes(std::span(in)), std::as_writable_bytes(std::span(out)));
  CHECK(out[0] == 0x0000);
  CHECK(out[1] == 0x3C00);
}

// Each layout reaches a different kernel shape: a row (reduced innermost and contiguous), a
// column (kept innermost and contiguous), and the reference (the reduced axis strided and the
// kept one too). The group is always the 40 elements along the reduced axis; the other axis
// has 33 groups, the same values in each.
struct Shape {
  const char* name;
  Dims sizes, axes, strides;
};
const Shape shapes[] = {
    {"rows", {33, 40}, {1}, {}},
    {"columns", {40, 33}, {0}, {}},
    {"reference", {33, 40}, {1}, {2, 70}},
};

// FLOAT32 only where FLOAT16 cannot hold the values (FLOAT32 denormals round to zero there).
void expect_group(const std::vector<float>& group, std::size_t winner, NanMode mode, bool float16_too = true) {
  for (const Shape& s : shapes) {
    INFO("shape " << s.name << ", winner " << winner);
    const bool rows = s.axes[0] == 1;
    std::vector<float> in, want;
    for_each_coordinate(s.sizes, [&](const Dims& c) {
      const std::uint32_t k = rows ? c[1] : c[0];
      in.push_back(group[k]);
      want.push_back(k == winner ? 1.0f : 0.0f);
    });
    expect(s.sizes, s.axes, in, want, mode, s.strides);
    if (float16_too) expect<float16>(s.sizes, s.axes, in, want, mode, s.strides);
  }
}

std::vector<float> group_with(std::initializer_list<std::pair<std::size_t, float>> values, float rest = 1.0f) {
  std::vector<float> g(40, rest);
  for (auto [i, v] : values) g[i] = v;
  return g;
}

TEST_CASE("ties go to the first, -0.0 against +0.0 included", "[hardmax][edge]") {
  for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
    expect_group(group_with({{3, 5}, {20, 5}, {39, 5}}), 3, mode);
    expect_group(group_with({}, 7), 0, mode);
    expect_group(group_with({{5, -0.0f}, {6, 0.0f}}, -1), 5, mode);
    expect_group(group_with({{5, 0.0f}, {6, -0.0f}}, -1), 5, mode);
    expect_group(group_with({{17, -0.0f}}, -0.0f), 0, mode);
  }
}

TEST_CASE("infinities compare as usual", "[hardmax][edge]") {
  for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
    expect_group(group_with({{9, inf_f}, {30, inf_f}}), 9, mode);
    expect_group(group_with({}, -inf_f), 0, mode);
    expect_group(group_with({{12, -3.0f}}, -inf_f), 12, mode);
    expect_group(group_with({{39, inf_f}}, 65504.0f), 39, mode);  // the largest finite FLOAT16
  }
}

TEST_CASE("NaN under propagate: the first NaN wins", "[hardmax][edge]") {
  const auto p = NanMode::propagate;
  expect_group(group_with({{0, nan_f}, {4, inf_f}}), 0, p);
  expect_group(group_with({{4, inf_f}, {21, nan_f}, {22, nan_f}}), 21, p);
  expect_group(group_with({{4, inf_f}, {39, -nan_f}}), 39, p);
  expect_group(group_with({}, nan_f), 0, p);
}

TEST_CASE("NaN under ignore: NaN never wins, an all-NaN group gives its first element", "[hardmax][edge]") {
  const auto i = NanMode::ignore;
  expect_group(group_with({{0, nan_f}, {4, 2.0f}}), 4, i);
  expect_group(group_with({{4, 2.0f}, {21, nan_f}, {22, 3.0f}}), 22, i);
  expect_group(group_with({{4, 2.0f}, {39, nan_f}}), 4, i);
  expect_group(group_with({}, nan_f), 0, i);
  expect_group(group_with({{0, nan_f}, {1, -nan_f}, {7, -inf_f}}, nan_f), 7, i);
}

TEST_CASE("HARDMAX (v0) reduces the last axis of a batch of rows", "[hardmax][seed]") {
  // ONNX's hardmax_one_hot and hardmax_example, as 4-D tensors with leading 1s.
  HardmaxDesc desc{{DataType::float32, {1, 1, 1, 4}, {}, 0}, {DataType::float32, {1, 1, 1, 4}, {}, 0}};
  const float tie[4] = {3, 3, 3, 1};
  for_each_arch([&](Arch arch) {
    float out[4] = {};
    execute(desc, std::as_bytes(std::span(tie)), std::as_writable_bytes(std::span(out)), on(arch, FeatureLevel::level_1_0));
    CHECK(std::vector<float>(out, out + 4) == std::vector<float>{1, 0, 0, 0});
  });
  desc.input.sizes = desc.output.sizes = {1, 1, 4, 4};
  const float square[16] = {3, 0, 1, 2, 2, 5, 1, 0, 0, 1, 3, 2, 0, 1, 2, 3};
  for_each_arch([&](Arch arch) {
    float out[16] = {};
    execute(desc, std::as_bytes(std::span(square)), std::as_writable_bytes(std::span(out)), on(arch));
    CHECK(std::vector<float>(out, out + 16) == std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  });
}

TEST_CASE("short rows of whole vectors: ties and NaN", "[hardmax][edge]") {
  // Rows of 16, 32 and 64 are one to four whole vectors on every x86 path (the short-row case).
  for (std::uint32_t n : {16u, 32u, 64u}) {
    INFO("row of " << n);
    struct Row { std::vector<std::pair<std::size_t, float>> set; float rest; std::size_t propagate, ignore; };
    const Row rows[] = {
        {{{3, 9.0f}, {n - 1, 9.0f}}, 1.0f, 3, 3},
        {{{n / 2, nan_f}, {n - 1, 9.0f}}, 1.0f, n / 2, n - 1},
        {{{0, nan_f}, {n - 1, 9.0f}}, 1.0f, 0, n - 1},
        {{{n - 1, -nan_f}}, 1.0f, n - 1, 0},
        {{}, nan_f, 0, 0},
        {{{n - 2, -0.0f}, {n - 1, 0.0f}}, -1.0f, n - 2, n - 2},
        {{{n - 1, inf_f}}, -inf_f, n - 1, n - 1},
    };
    for (const Row& r : rows) {
      std::vector<float> in(2 * n, r.rest);  // two groups, the second the same as the first
      for (auto [i, v] : r.set) in[i] = in[n + i] = v;
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        const std::size_t w = mode == NanMode::propagate ? r.propagate : r.ignore;
        std::vector<float> want(2 * n, 0.0f);
        want[w] = want[n + w] = 1.0f;
        expect({2, n}, {1}, in, want, mode);
        expect<float16>({2, n}, {1}, in, want, mode);
      }
    }
  }
}

// The calling thread's denormal mode as a runtime tuned for speed sets it, until the scope ends:
// x86 MXCSR's denormals-are-zero and flush-to-zero bits, AArch64 FPCR's flush-to-zero bit.
// Written here, not taken from the library, so the test does not trust the code it checks.
class FlushDenormals {
 public:
  FlushDenormals() {
#if defined(__SSE2__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | 0x8040u);
#elif defined(__aarch64__)
    asm volatile("mrs %0, fpcr" : "=r"(saved_));
    asm volatile("msr fpcr, %0" : : "r"(saved_ | (std::uint64_t{1} << 24)));
#endif
  }
  ~FlushDenormals() {
#if defined(__SSE2__)
    _mm_setcsr(saved_);
#elif defined(__aarch64__)
    asm volatile("msr fpcr, %0" : : "r"(saved_));
#endif
  }
  // Whether the mode reads denormals as zero here: then a denormal compares equal to 0.
  static bool active() {
    volatile float d = std::numeric_limits<float>::denorm_min();
    return d == 0.0f;
  }

 private:
#if defined(__SSE2__)
  unsigned saved_ = 0;
#else
  std::uint64_t saved_ = 0;
#endif
};

// FLOAT32 denormals beside zeros of both signs, with the caller's denormal mode as it comes and
// then flushing (the library clears it for the call and puts it back).
TEST_CASE("denormals are numbers, also when the caller flushes them to zero", "[hardmax][edge]") {
  const auto check_all = [] {
    // Constants, so no arithmetic on denormals happens while they are flushed.
    constexpr float d = std::numeric_limits<float>::denorm_min(), two_d = 2 * d, minus_d = -d, minus_two_d = -2 * d;
    for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
      expect_group(group_with({{7, d}}, 0.0f), 7, mode, false);
      expect_group(group_with({{3, d}, {9, two_d}, {30, two_d}}, -0.0f), 9, mode, false);
      expect_group(group_with({{12, 0.0f}}, minus_d), 12, mode, false);
      expect_group(group_with({{5, minus_d}, {30, 1e-39f}}, minus_two_d), 30, mode, false);
    }
  };
  check_all();
  {
    const FlushDenormals flushing;
    REQUIRE(FlushDenormals::active());  // else this section tests nothing
    check_all();
    CHECK(FlushDenormals::active());  // the library gave the caller its mode back
  }
  CHECK(!FlushDenormals::active());
}
