// Parallel execution (API.md, "Threads"): large calls split on the pool they are given and
// match the oracle bit for bit on every path, small calls never touch the pool, errors are
// thrown on the calling thread before anything is written or any task runs, and execute() is
// safe from several threads at once and from inside a task of its own pool.
//
// Problem sizes follow the split threshold (detail::min_bytes_per_thread()), so the same tests
// stay quick when CMake lowers it through REFOPS_MIN_BYTES_PER_THREAD (the tsan preset).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <refops/refops.hpp>

#include "hardmax_oracle.hpp"
#include "one_hot_oracle.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/pools.hpp"
#include "support/random.hpp"
#include "threads/split.hpp"
#include "validation/tensor_rules.hpp"

using namespace refops;
using namespace refops::test;

namespace {

// Elements of `bytes_per_element` bytes enough for `threads` parts above the threshold.
std::uint32_t large_count(std::size_t bytes_per_element, std::size_t threads = 4) {
  const std::uint64_t bytes = 2 * threads * detail::min_bytes_per_thread();
  return static_cast<std::uint32_t>(bytes / bytes_per_element + 1);
}

// The same for a dimension of output stride 1, which plan_split cuts at page (4 KiB)
// multiples: also at least a page of `element_bytes` elements per part.
std::uint32_t large_width(std::size_t bytes_per_element, std::size_t element_bytes, std::size_t threads = 4) {
  return std::max(large_count(bytes_per_element, threads), static_cast<std::uint32_t>(threads * 4096 / element_bytes));
}

// One operator call with its inputs bound: run(options) executes it into a fresh
// sentinel-filled output and returns that output; `expected` is the oracle's.
struct Problem {
  std::string name;
  std::function<Buffer(const ExecuteOptions&)> run;
  Buffer expected;
};

bool same(const Buffer& a, const Buffer& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

// ONE_HOT with the axis last (rows split) or first (the inner block split); INT32 indices
// including negative and out-of-range ones.
Problem one_hot_problem(std::uint32_t rows, bool axis_last, TestRng& rng) {
  const std::uint32_t depth = 37;
  const std::uint32_t axis = axis_last ? 1 : 0;
  const OneHotDesc desc{{DataType::int32, axis_last ? Dims{rows, 1} : Dims{1, rows}, {}, 0},
                        {DataType::float32, {1, 2}, {}, 0},
                        {DataType::float32, axis_last ? Dims{rows, depth} : Dims{depth, rows}, {}, 0},
                        axis};
  auto indices = std::make_shared<Buffer>(Buffer::for_tensor(desc.indices));
  for (std::uint32_t i = 0; i < rows; ++i) {
    const auto v = static_cast<std::int32_t>(rng.between_signed(-40, 40));
    std::memcpy(indices->data() + 4 * i, &v, 4);
  }
  auto values = std::make_shared<Buffer>(Buffer::for_tensor(desc.values));
  const float off_on[2] = {-0.0f, 2.5f};
  std::memcpy(values->data(), off_on, sizeof off_on);
  Buffer expected = one_hot_oracle(desc.indices, *indices, desc.values, *values, desc.output,
                                   Buffer::for_tensor(desc.output), axis);
  return {std::string("ONE_HOT axis ") + (axis_last ? "last" : "first"),
          [=](const ExecuteOptions& o) {
            Buffer out = Buffer::for_tensor(desc.output);
            execute(desc, indices->in(), values->in(), out.out(), o);
            return out;
          },
          std::move(expected)};
}

// DIAGONAL_MATRIX1 over `batches` matrices of `rows` x 70 (with an input, so the background is
// copied) and the fill range [begin, end): splitting rows shifts the band.
Problem diagonal_problem(std::uint32_t batches, std::uint32_t rows, std::int32_t begin, std::int32_t end,
                         TestRng& rng) {
  DiagonalMatrix1Desc desc;
  desc.output = {DataType::float32, {batches, rows, 70}, {}, 0};
  desc.input = desc.output;
  desc.value = Scalar::of(7.0f);
  desc.fill_begin = begin;
  desc.fill_end = end;
  auto input = std::make_shared<Buffer>(Buffer::for_tensor(*desc.input));
  for (std::size_t i = 0; i < input->size() / 4; ++i) {
    const float v = static_cast<float>(rng.between_signed(-1000, 1000)) + 0.5f;
    std::memcpy(input->data() + 4 * i, &v, 4);
  }
  Buffer expected = Buffer::for_tensor(desc.output);
  for_each_coordinate(desc.output.sizes, [&](const Dims& c) {
    const std::int64_t top_x = std::int64_t{c[2]} - std::int64_t{c[1]};
    const bool value = begin <= end ? begin <= top_x && top_x < end : !(end <= top_x && top_x < begin);
    set<float>(expected, desc.output, c, value ? 7.0f : get<float>(*input, *desc.input, c));
  });
  return {"DIAGONAL_MATRIX1 " + std::to_string(batches) + "x" + std::to_string(rows) + "x70 fill [" +
              std::to_string(begin) + ", " + std::to_string(end) + ")",
          [=](const ExecuteOptions& o) {
            Buffer out = Buffer::for_tensor(desc.output);
            execute(desc, input->in(), out.out(), o);
            return out;
          },
          std::move(expected)};
}

// HARDMAX1 on FLOAT32 with many ties and some NaN.
Problem hardmax_problem(const Dims& sizes, const Dims& axes, TestRng& rng) {
  const Hardmax1Desc desc{{DataType::float32, sizes, {}, 0}, {DataType::float32, sizes, {}, 0}, axes,
                          NanMode::ignore};
  auto input = std::make_shared<Buffer>(Buffer::for_tensor(desc.input));
  for (std::size_t i = 0; i < input->size() / 4; ++i) {
    const float v = rng.chance(0.01) ? std::numeric_limits<float>::quiet_NaN()
                                     : static_cast<float>(rng.between_signed(-20, 20));
    std::memcpy(input->data() + 4 * i, &v, 4);
  }
  Buffer expected = hardmax_oracle(desc, *input, Buffer::for_tensor(desc.output));
  return {"HARDMAX1 sizes " + detail::to_text(sizes) + " axes " + detail::to_text(axes),
          [=](const ExecuteOptions& o) {
            Buffer out = Buffer::for_tensor(desc.output);
            execute(desc, input->in(), out.out(), o);
            return out;
          },
          std::move(expected)};
}

// HARDMAX1 whose kept positions are too few to cut (`width` columns, less than a page): the
// call splits its reduced rows into blocks (src/threads/split_reduced.cpp). Sizes
// {rows, width}, axes {0}, or {rows, 3, width}, axes {0, 1}; `padded` gives input and output
// rows padding. Block boundaries fall on multiples of 64 rows, so every column holds a
// pattern at one such row b that the merge of the blocks must get right: equal maxima on
// either side of b (the first wins), NaN on either side in both NaN modes, all NaN, NaN up to b
// then numbers, -0.0 just before +0.0, the maximum in the last position; the rest small
// integers with many ties.
Problem reduced_split_problem(DataType type, std::uint32_t rows, bool two_axes, std::uint32_t width, NanMode mode,
                              bool padded, TestRng& rng) {
  const std::uint32_t middle = two_axes ? 3 : 1;
  const Dims sizes = two_axes ? Dims{rows, middle, width} : Dims{rows, width};
  const Dims axes = two_axes ? Dims{0, 1} : Dims{0};
  const auto row_strides = [&](std::uint32_t pad) {
    return two_axes ? Dims{middle * (width + pad), width + pad, 1} : Dims{width + pad, 1};
  };
  const Hardmax1Desc desc{{type, sizes, padded ? row_strides(3) : Dims{}, 0},
                          {type, sizes, padded ? row_strides(5) : Dims{}, 0}, axes, mode};
  const double nan = std::numeric_limits<double>::quiet_NaN(), top = 50;
  const std::uint32_t last = middle - 1, boundaries = rows / 64 - 1;
  auto input = std::make_shared<Buffer>(Buffer::for_tensor(desc.input));
  for_each_coordinate(sizes, [&](const Dims& c) {
    const std::uint32_t r = c[0], m = two_axes ? c[1] : 0, col = c[sizes.size() - 1];
    const std::uint32_t b = 64 * (1 + col / 8 % boundaries);
    const auto is = [&](std::uint32_t row, std::uint32_t mid) { return r == row && m == mid; };
    double v = static_cast<double>(rng.between_signed(-20, 20));
    switch (col % 8) {
      case 0: if (is(b - 1, last) || is(b, 0)) v = top; break;                        // tie across b
      case 1: if (is(b, 0) || is(b + 1, 0) || is(rows - 1, last)) v = top; break;      // ties after b
      case 2: if (is(b, 0) || is(b + 2, 0)) v = nan; else if (is(b - 1, 0)) v = top; break;
      case 3: if (is(b - 1, last)) v = nan; else if (is(b, 0)) v = top; break;
      case 4: v = nan; break;                                                          // all NaN
      case 5: if (r < b) v = nan; break;                                               // NaN up to b
      case 6: v = is(b - 1, last) ? -0.0 : is(b, 0) ? 0.0 : -1 - std::abs(v); break;  // -0 then +0
      default: if (is(rows - 1, last)) v = top; break;                                 // the last
    }
    store(*input, desc.input, c, v);
  });
  Buffer expected = hardmax_oracle(desc, *input, Buffer::for_tensor(desc.output));
  return {"HARDMAX1 reduced rows " + std::string(name_of(type)) + " sizes " + detail::to_text(sizes) + " axes " +
              detail::to_text(axes) + (mode == NanMode::propagate ? " propagate" : " ignore") +
              (padded ? " padded" : ""),
          [=](const ExecuteOptions& o) {
            Buffer out = Buffer::for_tensor(desc.output);
            execute(desc, input->in(), out.out(), o);
            return out;
          },
          std::move(expected)};
}

// Rows of `width` elements of `element_bytes` enough for `threads` blocks of the reduced split:
// above the threshold, at least 64 rows per block, and not a multiple of 64.
std::uint32_t reduced_split_rows(std::uint32_t width, std::size_t element_bytes, std::size_t threads = 4) {
  const std::uint32_t rows =
      std::max(large_count(2 * width * element_bytes, threads), static_cast<std::uint32_t>(threads * 64 * 2));
  return rows / 64 * 64 + 37;
}

// Large problems of every operator and splittable layout (built once: the oracles are slow).
const std::vector<Problem>& large_problems() {
  static const std::vector<Problem> problems = [] {
    TestRng rng;
    std::vector<Problem> p;
    p.push_back(one_hot_problem(large_count(37 * 4), true, rng));
    p.push_back(one_hot_problem(large_width(37 * 4, 4), false, rng));                // rows of the output split
    const std::uint32_t rows = large_count(2 * 70 * 4);
    p.push_back(diagonal_problem(1, rows, 3, 9, rng));                            // rows split
    p.push_back(diagonal_problem(1, rows, std::numeric_limits<std::int32_t>::max(), // inverted, extreme
                                 std::numeric_limits<std::int32_t>::min(), rng));
    p.push_back(diagonal_problem(1, rows, -static_cast<std::int32_t>(rows) / 2, 20, rng));
    p.push_back(diagonal_problem(large_count(2 * 5 * 70 * 4), 5, -2, 1, rng));  // batches split
    const std::uint32_t groups = large_count(2 * 48 * 4);
    p.push_back(hardmax_problem({groups, 48}, {1}, rng));                       // rows path
    p.push_back(hardmax_problem({48, large_width(2 * 48 * 4, 4)}, {0}, rng));    // columns path
    p.push_back(hardmax_problem({6, groups, 8}, {0, 2}, rng));                  // two axes
    return p;
  }();
  return problems;
}

// In every test case that draws problems: the seed, printed with any failure.
#define REFOPS_SEED_INFO INFO("seed: " << test_seed() << " (set REFOPS_TEST_SEED to repeat)")

// One small problem of each operator: what the seeds and examples look like.
std::vector<Problem> small_problems() {
  REFOPS_TEST_RNG(rng);
  std::vector<Problem> p;
  p.push_back(one_hot_problem(4, true, rng));
  p.push_back(diagonal_problem(2, 3, 0, 1, rng));
  p.push_back(hardmax_problem({3, 4}, {1}, rng));
  p.push_back(hardmax_problem({100, 16}, {0}, rng));  // the columns shape, rows not split either
  return p;
}

ExecuteOptions with_pool(Arch arch, ThreadPool* pool, std::size_t max_threads = 0) {
  ExecuteOptions o;
  o.arch = arch;
  o.thread_pool = pool;
  o.max_threads = max_threads;
  return o;
}

// The checks every split shares, for a call of `phases` parallel_for calls of one task per
// part: a pool of 3 runs 3 parts per phase; max_threads caps the parts, and 1 keeps the call on
// the calling thread; the default pool, with all its threads, gives the same bytes.
void check_on_pools(const Problem& p, Arch arch, std::size_t phases) {
  CountingPool pool(3);
  CHECK(same(p.run(with_pool(arch, &pool)), p.expected));
  CHECK(pool.calls() == phases);
  CHECK(pool.tasks() == 3 * phases);

  CountingPool capped(8);
  CHECK(same(p.run(with_pool(arch, &capped, 2)), p.expected));
  CHECK(capped.tasks() == 2 * phases);
  CHECK(same(p.run(with_pool(arch, &capped, 1)), p.expected));
  CHECK(capped.calls() == phases);

  CHECK(same(p.run(on(arch)), p.expected));
}

}  // namespace

TEST_CASE("large calls split on the caller's pool and match the oracle on every path", "[.][threads]") {
  REFOPS_SEED_INFO;
  for (const Problem& p : large_problems()) {
    INFO(p.name);
    for_each_arch([&](Arch arch) {
      check_on_pools(p, arch, 1);

      CountingPool on_threads(4, CountingPool::Run::on_threads);
      CHECK(same(p.run(with_pool(arch, &on_threads)), p.expected));
      CHECK(on_threads.tasks() == 4);

      // A pool of one thread is never asked to run anything.
      CountingPool single(1);
      CHECK(same(p.run(with_pool(arch, &single)), p.expected));
      CHECK(single.calls() == 0);
    });
  }
}

TEST_CASE("HARDMAX with few kept positions splits its reduced rows and matches the oracle", "[.][threads]") {
  REFOPS_SEED_INFO;
  static const std::vector<Problem> problems = [] {
    TestRng rng;
    std::vector<Problem> p;
    for (DataType type : {DataType::float32, DataType::float16})
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        const std::size_t bytes = size_of(type);
        p.push_back(reduced_split_problem(type, reduced_split_rows(64, bytes), false, 64, mode, false, rng));
        p.push_back(reduced_split_problem(type, reduced_split_rows(40, bytes), false, 40, mode, true, rng));
        p.push_back(reduced_split_problem(type, reduced_split_rows(3 * 24, bytes), true, 24, mode, false, rng));
      }
    return p;
  }();
  static constexpr std::optional<StoreStrategy> strategies[] = {std::nullopt, StoreStrategy::plain,
                                                                StoreStrategy::stream, StoreStrategy::rep};
  for (const Problem& p : problems) {
    INFO(p.name);
    for_each_arch([&](Arch arch) {
      check_on_pools(p, arch, 2);  // two phases, each one parallel_for of one task per block

      for (const auto& stores : strategies) {
        INFO("stores: " << (stores ? name_of(*stores) : std::string_view("auto")));
        CountingPool on_threads(4, CountingPool::Run::on_threads);
        ExecuteOptions o = with_pool(arch, &on_threads);
        o.stores = stores;
        CHECK(same(p.run(o), p.expected));
        CHECK(on_threads.tasks() == 8);
      }
    });
  }
}

TEST_CASE("seed-sized calls never touch the pool", "[.][threads]") {
  REFOPS_SEED_INFO;
  if (detail::min_bytes_per_thread() < 4096) {
    WARN("skipped: REFOPS_MIN_BYTES_PER_THREAD splits every call in this run");
    return;
  }
  for (const Problem& p : small_problems()) {
    INFO(p.name);
    for_each_arch([&](Arch arch) {
      CountingPool pool(4);
      CHECK(same(p.run(with_pool(arch, &pool)), p.expected));
      CHECK(pool.calls() == 0);
    });
  }
}

TEST_CASE("a rejected large call throws on the calling thread before any task runs", "[.][threads]") {
  const std::uint32_t rows = large_count(64 * 4);
  const DiagonalMatrixDesc desc{{DataType::float32, {rows, 64}, {}, 0}, 0, 1.0f};
  Buffer output(std::size_t{rows} * 64 * 4 - 1);  // one byte short
  CountingPool pool(4);
  const ExecuteOptions options = with_pool(Arch::scalar, &pool);
  const auto caller = std::this_thread::get_id();
  try {
    execute(desc, output.out(), options);
    FAIL("execute() accepted an output buffer one byte short");
  } catch (const Error& e) {
    CHECK(std::this_thread::get_id() == caller);
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].field == "OutputTensor.Binding.SizeInBytes");
  }
  CHECK(pool.calls() == 0);
  CHECK(output.all_sentinel());
}

TEST_CASE("several threads call execute() at once on the default pool", "[.][threads]") {
  REFOPS_SEED_INFO;
  const std::vector<Problem>& problems = large_problems();
  const Arch best = available_archs().front();
  std::vector<std::thread> callers;
  std::vector<int> failures(4, 0);
  for (std::size_t t = 0; t < failures.size(); ++t)
    callers.emplace_back([&, t] {
      for (int repeat = 0; repeat < 2; ++repeat)
        for (std::size_t k = 0; k < problems.size(); ++k) {
          const Problem& p = problems[(k + t) % problems.size()];  // different operators at once
          if (!same(p.run(with_pool(t % 2 ? Arch::scalar : best, nullptr)), p.expected)) ++failures[t];
        }
    });
  for (auto& c : callers) c.join();
  for (int f : failures) CHECK(f == 0);
}

TEST_CASE("execute() runs from inside a task of the pool it is given", "[.][threads]") {
  REFOPS_SEED_INFO;
  const std::vector<Problem>& problems = large_problems();
  const Arch best = available_archs().front();
  std::vector<int> failures(problems.size(), 0);
  SECTION("the default pool") {
    default_thread_pool().parallel_for(problems.size(), [&](std::size_t k) {
      if (!same(problems[k].run(with_pool(best, nullptr)), problems[k].expected)) ++failures[k];
    });
  }
  SECTION("a pool with threads of its own") {
    CountingPool pool(3, CountingPool::Run::on_threads);
    pool.parallel_for(problems.size(), [&](std::size_t k) {
      if (!same(problems[k].run(with_pool(best, &pool)), problems[k].expected)) ++failures[k];
    });
    CHECK(pool.calls() == 1 + problems.size());
  }
  for (int f : failures) CHECK(f == 0);
}

TEST_CASE("the default pool has the machine's threads, capped by REFOPS_NUM_THREADS", "[.][threads]") {
  const std::size_t threads = default_thread_pool().num_threads();
  CHECK(threads >= 1);
  if (const unsigned hardware = std::thread::hardware_concurrency(); hardware > 0) CHECK(threads <= hardware);
  if (const char* cap = std::getenv("REFOPS_NUM_THREADS"); cap && std::atoi(cap) > 0)
    CHECK(threads <= static_cast<std::size_t>(std::atoi(cap)));
  // Whatever the count, a large call on the default pool gives the oracle's result.
  REFOPS_SEED_INFO;
  const Problem& p = large_problems().front();
  CHECK(same(p.run(on(available_archs().front())), p.expected));
}

// With REFOPS_TEST_POOL and REFOPS_MIN_BYTES_PER_THREAD=1 (tests/CMakeLists.txt), the operator
// tests run on the counting pool: prove that they did split.
TEST_CASE("the environment's test pool splits the operator tests", "[.][threads][environment]") {
  auto* pool = static_cast<CountingPool*>(pool_from_environment());
  if (!pool || detail::min_bytes_per_thread() != 1) {
    WARN("skipped: REFOPS_TEST_POOL and REFOPS_MIN_BYTES_PER_THREAD=1 are not both set");
    return;
  }
  REFOPS_SEED_INFO;
  const std::size_t before = pool->calls();
  for (const Problem& p : small_problems())
    for_each_arch([&](Arch arch) { CHECK(same(p.run(on(arch)), p.expected)); });
  CHECK(pool->calls() > before);
}
