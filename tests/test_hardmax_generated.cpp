// HARDMAX1 on generated shapes, layouts, axes, types and values against a deliberately simple
// oracle, bit-exact (the whole output buffer, padding included) on every available path.
#include <cmath>
#include <limits>
#include <vector>

#include <refops/refops.hpp>

#include "hardmax_cases.hpp"
#include "hardmax_oracle.hpp"
#include "support/archs.hpp"
#include "support/buffers.hpp"
#include "support/catch.hpp"
#include "support/layouts.hpp"
#include "support/random.hpp"
#include "validation/tensor_rules.hpp"

using namespace refops;
using namespace refops::test;

TEST_CASE("HARDMAX1 matches the oracle for every axis subset of 1 to 6 dimensions", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  for (std::size_t rank = 1; rank <= 6; ++rank) {
    for (unsigned subset = 1; subset < (1u << rank); ++subset) {
      for (int repeat = 0; repeat < 2; ++repeat) {
        Hardmax1Desc desc;
        desc.input.data_type = rng.chance(0.5) ? DataType::float32 : DataType::float16;
        std::uint64_t budget = 1;
        for (std::size_t d = 0; d < rank; ++d) {
          // One dimension around the vector widths, the others small, at most ~1500 elements.
          const bool wide = d + 1 == rank ? rng.chance(0.7) : rng.chance(0.15);
          std::uint32_t s = wide ? edge_sizes[rng.between(0, std::size(edge_sizes) - 1)]
                                 : static_cast<std::uint32_t>(rng.between(1, 4));
          if (budget * s > 1500) s = 1;
          budget *= s;
          desc.input.sizes.push_back(s);
        }
        desc.output = desc.input;
        // Axes listed in a random order: the order must not matter.
        std::vector<std::uint32_t> axes;
        for (std::uint32_t d = 0; d < rank; ++d)
          if ((subset >> d) & 1u) axes.push_back(d);
        for (std::size_t i = axes.size(); i > 1; --i) std::swap(axes[i - 1], axes[rng.between(0, i - 1)]);
        desc.axes = Dims(axes.begin(), axes.end());
        desc.nan_mode = rng.chance(0.5) ? NanMode::propagate : NanMode::ignore;
        desc.input.strides = make_strides(desc.input.sizes, input_layouts[rng.between(0, 3)], rng);
        desc.output.strides = make_strides(desc.output.sizes, output_layouts[rng.between(0, 2)], rng);
        const std::size_t element = size_of(desc.input.data_type);
        const Buffer input = make_input(desc.input, rng, rng.chance(0.3) ? 0.1 : 0.0, element * rng.between(0, 3));
        check_all_archs(desc, input, element * rng.between(0, 3));
      }
    }
  }
}

TEST_CASE("HARDMAX1 matches the oracle on long rows and wide columns (blocks and tiles)", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  struct Shape { Dims sizes; Dims axes; };
  const Shape shapes[] = {
      {{3, 5000}, {1}},        // rows: several blocks per row
      {{2, 3, 1100}, {0, 2}},  // rows: several rows per group
      {{5, 8300}, {0}},        // columns: wider than two tiles
      {{70, 3, 40}, {0, 1}},   // columns: folded reduced axes
      {{1, 40, 1, 33}, {1}},   // size-1 dimensions dropped
      {{4, 1, 9}, {1}},        // every group has one element
  };
  for (const Shape& shape : shapes)
    for (DataType type : {DataType::float32, DataType::float16})
      for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
        Hardmax1Desc desc{{type, shape.sizes, {}, 0}, {type, shape.sizes, {}, 0}, shape.axes, mode};
        check_all_archs(desc, make_input(desc.input, rng, 0.0, 0));
        check_all_archs(desc, make_input(desc.input, rng, 0.002, 0));
      }
}

TEST_CASE("HARDMAX1 with a late maximum and with ties across blocks", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  for (DataType type : {DataType::float32, DataType::float16}) {
    for (std::uint32_t where : {0u, 1u, 1023u, 1024u, 2047u, 2048u, 4999u}) {
      for (Dims axes : {Dims{1}, Dims{0}}) {
        const Dims sizes = axes[0] == 1 ? Dims{2, 5000} : Dims{5000, 2};
        Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes, NanMode::propagate};
        Buffer in = Buffer::for_tensor(desc.input);
        for_each_coordinate(sizes, [&](const Dims& c) { store(in, desc.input, c, static_cast<double>(rng.between_signed(-50, 50))); });
        // A maximum at `where` and a tie later (4999 and `where` may be the same place).
        const Dims at = axes[0] == 1 ? Dims{1, where} : Dims{where, 1};
        const Dims tie = axes[0] == 1 ? Dims{1, 4999} : Dims{4999, 1};
        store(in, desc.input, tie, rng.chance(0.5) ? 0.0 : 1000.0);
        store(in, desc.input, at, 1000.0);
        check_all_archs(desc, in);
      }
    }
  }
}

TEST_CASE("HARDMAX1 with outputs at every page offset from the input's (lagged and leading stores)", "[hardmax][generated]") {
  // Long rows write each row's output a row and a tail of whole blocks behind its loads, and
  // interleaved groups stream their zeros ahead of theirs, by what keeps stores and loads half a
  // page apart in page offset (simd::lag_apart_from_loads). Output offsets 176 bytes apart cover
  // every distance, so rows take each split of head and tail, the tail with and without the 1,
  // and their 1s fall in every part (maxima, ties and NaNs drawn anywhere).
  REFOPS_TEST_RNG(rng);
  struct Shape { Dims sizes; Dims axes; };
  const Shape shapes[] = {
      {{5, 1024}, {1}},      // rows of 4 KiB (FLOAT32): a tail of 1 to 3 blocks
      {{6, 1500}, {1}},      // rows off the line grid
      {{4, 3000}, {1}},      // rows of several pages (FLOAT32)
      {{5, 300}, {1}},       // rows too short for a tail
      {{4, 8, 256}, {0, 2}}, // interleaved groups, one dense output
  };
  for (const Shape& shape : shapes)
    for (DataType type : {DataType::float32, DataType::float16})
      for (std::size_t out_misalign = 0; out_misalign < 4096; out_misalign += 176) {
        const NanMode mode = rng.chance(0.5) ? NanMode::propagate : NanMode::ignore;
        Hardmax1Desc desc{{type, shape.sizes, {}, 0}, {type, shape.sizes, {}, 0}, shape.axes, mode};
        INFO("output " << out_misalign << " bytes past a 64-byte boundary");
        check_all_archs(desc, make_input(desc.input, rng, rng.chance(0.3) ? 0.002 : 0.0, 0), out_misalign);
      }
}

TEST_CASE("HARDMAX1 long rows read side by side: every batch size, strided input, rows past a batch", "[hardmax][generated]") {
  // AVX-512's FLOAT32 rows of a page or more are read a few at a time on a dense output, each batch
  // written while the next is read and the rows after the last whole batch one at a time
  // (kernels/hardmax_full_width_rows.hpp, rows_side_by_side). Row counts on either side of one
  // and two batches of 4 (rows_read_at_once), and of 8 (the batch until 2026-12-06); rows a page
  // long, off the vector and line grid, and several pages; input rows packed or a drawn pitch
  // apart; a kept dimension whose runs of rows break where the input has a gap between them
  // (each run starts its own batches); outputs off the line; NaN and infinities in some rows
  // (which the key-based scan takes), ties and late maxima.
  static_assert(kernels::hardmax_detail::rows_read_at_once == 4, "the row counts below straddle batches of 4");
  REFOPS_TEST_RNG(rng);
  for (std::uint32_t rows : {1u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 23u}) {
    for (std::uint32_t row : {1024u, 1031u, 1040u, 2100u}) {
      const bool two_runs = rng.chance(0.5) && rows % 2 == 0;
      Dims sizes = two_runs ? Dims{2, rows / 2, row} : Dims{rows, row};
      Hardmax1Desc desc{{DataType::float32, sizes, {}, 0}, {DataType::float32, sizes, {}, 0},
                        {static_cast<std::uint32_t>(sizes.size() - 1)}, rng.chance(0.5) ? NanMode::propagate : NanMode::ignore};
      const std::uint32_t pitch = row + (rng.chance(0.5) ? 0 : static_cast<std::uint32_t>(rng.between(1, 40)));
      desc.input.strides = two_runs ? Dims{(rows / 2) * pitch + static_cast<std::uint32_t>(rng.between(1, 20)), pitch, 1}
                                    : Dims{pitch, 1};
      // Finite values, most rows (a row with a NaN or an infinity goes to the key-based scan, and
      // draw() puts one in nearly every row this long): small integers in some rows (ties), a
      // late maximum and an earlier tie in others, a NaN or an infinity in a few.
      Buffer in = Buffer::for_tensor(desc.input);
      for_each_coordinate(sizes, [&](const Dims& c) {
        const bool ties = c[c.size() - 2] % 3 == 0;  // every third row
        store(in, desc.input, c,
              ties ? static_cast<double>(rng.between_signed(-3, 3)) : static_cast<double>(rng.between_signed(-100000, 100000)) / 64.0);
      });
      for_each_coordinate(sizes, [&](const Dims& c) {
        if (c[c.size() - 1] != 0) return;
        Dims at = c;
        if (rng.chance(0.3)) {
          at[at.size() - 1] = static_cast<std::uint32_t>(rng.between(row - 20, row - 1));
          store(in, desc.input, at, 5000.0);
          at[at.size() - 1] = static_cast<std::uint32_t>(rng.between(0, row - 1));
          store(in, desc.input, at, 5000.0);
        } else if (rng.chance(0.1)) {
          at[at.size() - 1] = static_cast<std::uint32_t>(rng.between(0, row - 1));
          store(in, desc.input, at, rng.chance(0.5) ? std::numeric_limits<double>::quiet_NaN() : -INFINITY);
        }
      });
      const std::size_t out_misalign = 4 * rng.between(0, 15);
      INFO(rows << " rows of " << row << ", output " << out_misalign << " bytes past a line");
      check_all_archs(desc, in, out_misalign);
    }
  }
}

TEST_CASE("HARDMAX1 columns: winners, ties and NaNs after many rows", "[hardmax][generated]") {
  // After about 8 rows per lane per pass (up to 1024 rows for FLOAT16 on AVX-512), the
  // columns' fold stores its state only for a pass where a lane wins. Every column here is a
  // vector lane (40 columns: whole vectors and a tail on every path) whose maximum, a tie of
  // it, a NaN or an infinity comes late, at a row drawn anywhere in a pass.
  REFOPS_TEST_RNG(rng);
  const std::uint32_t rows = 3001, width = 40;
  for (DataType type : {DataType::float32, DataType::float16})
    for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
      const Dims sizes{rows, width};
      const Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, {0}, mode};
      Buffer in = Buffer::for_tensor(desc.input);
      const auto late = [&] { return static_cast<std::uint32_t>(rng.between(1100, rows - 1)); };
      for (std::uint32_t j = 0; j < width; ++j) {
        const bool negative = j % 5 == 1;  // a column of negative numbers: least magnitude wins
        for (std::uint32_t r = 0; r < rows; ++r)
          store(in, desc.input, {r, j}, static_cast<double>(negative ? rng.between_signed(-900, -2) : rng.between_signed(-50, 50)));
        const std::uint32_t at = late();
        switch (j % 5) {
          case 0: store(in, desc.input, {at, j}, 1000.0); break;
          case 1: store(in, desc.input, {at, j}, -1.0); break;
          case 2:  // the maximum, and the same value again later
            store(in, desc.input, {at - 3, j}, 500.0);
            store(in, desc.input, {std::min(at + 5, rows - 1), j}, 500.0);
            break;
          case 3: store(in, desc.input, {at, j}, std::nan("")); break;
          default: store(in, desc.input, {at, j}, rng.chance(0.5) ? INFINITY : -INFINITY); break;
        }
      }
      check_all_archs(desc, in);
    }
}

TEST_CASE("HARDMAX1 columns: the winner at every row of its pass, ties in the same pass", "[hardmax][generated]") {
  // The columns' fold keeps the first position of the pass whose maximum wins, and the row
  // within the pass is found afterwards (on AVX2 and AVX-512 a vector of groups at a time, by
  // gathers; FLOAT16 gathers its groups two by two). Column j's maximum sits at row
  // 4k + j % 4 of a pass of 4 (or 2); in some columns the same value, or -0.0 after a +0.0
  // maximum, comes again later in that pass, and in some the maximum is in the last pass,
  // which has fewer rows (rows % 4 != 0). Widths give whole vectors and tails; rows are
  // padded in some layouts, and 301 packed rows are reduced several at a time
  // (reduce_grouped), whose passes span rows k apart.
  REFOPS_TEST_RNG(rng);
  for (DataType type : {DataType::float32, DataType::float16})
    for (std::uint32_t width : {19u, 40u, 69u})
      for (std::uint32_t rows : {2u, 3u, 5u, 37u, 203u, 301u}) {  // 301: rows read several at a time
        const Dims sizes{rows, width};
        Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, {0}, rng.chance(0.5) ? NanMode::propagate : NanMode::ignore};
        desc.input.strides = make_strides(sizes, input_layouts[rng.between(0, 1)], rng);
        desc.output.strides = make_strides(sizes, output_layouts[rng.between(0, 1)], rng);
        Buffer in = Buffer::for_tensor(desc.input);
        for (std::uint32_t j = 0; j < width; ++j) {
          const bool zeros = j % 7 == 3;  // a +0.0 maximum over negative numbers, then -0.0
          for (std::uint32_t r = 0; r < rows; ++r)
            store(in, desc.input, {r, j}, static_cast<double>(zeros ? rng.between_signed(-60, -1) : rng.between_signed(-50, 50)));
          const bool last_pass = j % 5 == 0;
          const std::uint32_t pass = last_pass ? (rows - 1) / 4 : static_cast<std::uint32_t>(rng.between(0, (rows - 1) / 4));
          const std::uint32_t at = std::min(rows - 1, 4 * pass + j % 4);
          store(in, desc.input, {at, j}, zeros ? 0.0 : 100.0);
          const std::uint32_t again = at + 1 + static_cast<std::uint32_t>(rng.between(0, 2));
          if (j % 2 == 1 && again < rows) store(in, desc.input, {again, j}, zeros ? -0.0 : 100.0);
        }
        check_all_archs(desc, in);
      }
}

TEST_CASE("HARDMAX equals HARDMAX1 over the last axis", "[hardmax][generated]") {
  REFOPS_TEST_RNG(rng);
  for (int i = 0; i < 20; ++i) {
    const DataType type = rng.chance(0.5) ? DataType::float32 : DataType::float16;
    Dims sizes{1, 1};
    sizes.push_back(static_cast<std::uint32_t>(rng.between(1, 9)));
    sizes.push_back(edge_sizes[rng.between(0, std::size(edge_sizes) - 1)]);
    HardmaxDesc v0{{type, sizes, {}, 0}, {type, sizes, {}, 0}, rng.chance(0.5) ? NanMode::propagate : NanMode::ignore};
    v0.input.strides = make_strides(sizes, input_layouts[rng.between(0, 3)], rng);
    v0.output.strides = make_strides(sizes, output_layouts[rng.between(0, 2)], rng);
    const Hardmax1Desc v1{v0.input, v0.output, {3}, v0.nan_mode};
    const Buffer input = make_input(v0.input, rng, 0.05, 0);
    for_each_arch([&](Arch arch) {
      Buffer a = Buffer::for_tensor(v0.output), b = Buffer::for_tensor(v1.output);
      execute(v0, input.in(), a.out(), on(arch));
      execute(v1, input.in(), b.out(), on(arch));
      CHECK(a.bytes() == b.bytes());
    });
  }
}

TEST_CASE("HARDMAX1 columns whose zeros stream: each 1 streamed with its whole line", "[hardmax][generated]") {
  // A kept last axis with enough reduced rows to be zero-filled and patched
  // (Columns::patch_min_rows): streamed, the zeros go out while the input is read and each 1
  // then as its whole line (Columns::stream_one_lines), which holds the other columns' values
  // of that line: the same row's when rows are whole lines on the line grid, else parts of two
  // or three rows (rows of 8 to 40 elements, outputs at +16 bytes, NumPy's grid, and at three
  // elements past a line), and the lines at the block's ends, only partly the tensor's, take a
  // plain store. Values from five levels, so columns often share their winning row (several
  // ones in one line) and tie within a column.
  REFOPS_TEST_RNG(rng);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DataType type : {DataType::float32, DataType::float16}) {
    for (std::uint32_t width : {8u, 16u, 24u, 40u, 64u, 96u}) {
      for (const Dims& sizes : {Dims{40, width}, Dims{5, 9, width}}) {
        const Dims axes = sizes.size() == 2 ? Dims{0} : Dims{0, 1};
        for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
          Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, axes, mode};
          Buffer in = Buffer::for_tensor(desc.input);
          for_each_coordinate(sizes, [&](const Dims& c) {
            store(in, desc.input, c, rng.chance(0.01) ? nan : static_cast<double>(rng.between_signed(-2, 2)));
          });
          for (std::size_t out_misalign : {std::size_t{0}, std::size_t{16}, 3 * size_of(type)}) {
            INFO("output " << out_misalign << " bytes past a 64-byte boundary");
            check_all_archs(desc, in, out_misalign);
          }
        }
      }
    }
  }
}

TEST_CASE("FLOAT16 columns with more than 65535 positions per group", "[hardmax][generated]") {
  // Positions past 2^16 must not alias the ones below: lane 0 has its maximum at 5 and the same
  // value again at 65536 + 5; lane 1 has its only maximum at 65536 + 7; lane 2 at the last row.
  // Packed rows of 64 bytes are read 16 at a time (reduce_grouped), so their passes count
  // fewer than 2^16 positions; padded rows are not, and on one thread (a split call's blocks
  // are shorter) their passes' rows past 2^16 are found by gathers on AVX2 and AVX-512.
  REFOPS_TEST_RNG(rng);
  const std::uint32_t rows = 65600, width = 32;
  for (std::uint32_t row_stride : {width, width + 8}) {
    INFO("input row stride " << row_stride);
    const Hardmax1Desc desc{{DataType::float16, {rows, width}, {row_stride, 1}, 0},
                            {DataType::float16, {rows, width}, {}, 0},
                            {0},
                            NanMode::ignore};
    std::vector<float16> in(std::size_t{rows} * row_stride);
    for (auto& v : in) v = float16(static_cast<float>(rng.between_signed(-50, 50)));
    in[5 * row_stride + 0] = in[(65536 + 5) * row_stride + 0] = float16(1000.0f);
    in[(65536 + 7) * row_stride + 1] = float16(1000.0f);
    in[std::size_t{rows - 1} * row_stride + 2] = float16(1000.0f);
    std::vector<std::size_t> winner(width);
    for (std::size_t j = 0; j < width; ++j)
      for (std::size_t r = 1; r < rows; ++r)
        if (static_cast<float>(in[r * row_stride + j]) > static_cast<float>(in[winner[j] * row_stride + j])) winner[j] = r;
    CHECK(winner[0] == 5);
    CHECK(winner[1] == 65536 + 7);
    for (std::size_t pass_rows : {2, 4}) {
      INFO("rows per pass " << pass_rows);
      const ForcedChoice forced(detail::force_hardmax_pass_rows, pass_rows);
      for_each_arch([&](Arch arch) {
        for (std::size_t threads : {1, 0}) {
          INFO("max_threads " << threads);
          ExecuteOptions options = on(arch);
          options.max_threads = threads;
          std::vector<std::uint16_t> out(std::size_t{rows} * width, 0xA5A5);
          execute(desc, std::as_bytes(std::span(in)), std::as_writable_bytes(std::span(out)), options);
          std::size_t wrong = 0;
          for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t j = 0; j < width; ++j)
              wrong += out[r * width + j] != (r == winner[j] ? 0x3C00 : 0x0000);
          CHECK(wrong == 0);
        }
      });
    }
  }
}

TEST_CASE("HARDMAX1 on short rows: a special value in every lane position", "[hardmax][generated]") {
  // Rows of one to four vectors take the short-row path (a butterfly maximum and a
  // compare-and-select output) on every vector width: 4, 8 or 16 FLOAT32 lanes and 8, 16 or
  // 32 FLOAT16 lanes; a row that is not whole vectors overlaps its last two. Row r puts its
  // special value at position r % n, so one tensor covers every lane of every vector of the
  // row (the last two rows are all NaN for the NaN kind); shorter and longer rows take the
  // general path.
  REFOPS_TEST_RNG(rng);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::uint32_t lengths[] = {3, 4, 5, 8, 12, 15, 16, 17, 24, 32, 33, 48, 64, 96, 128, 129};
  for (DataType type : {DataType::float32, DataType::float16}) {
    for (std::uint32_t n : lengths) {
      for (int kind = 0; kind < 4; ++kind) {
        const Dims sizes{n + 2, n};
        for (NanMode mode : {NanMode::propagate, NanMode::ignore}) {
          Hardmax1Desc desc{{type, sizes, {}, 0}, {type, sizes, {}, 0}, {1}, mode};
          Buffer in = Buffer::for_tensor(desc.input);
          for (std::uint32_t r = 0; r < sizes[0]; ++r) {
            const std::uint32_t p = r % n;
            for (std::uint32_t i = 0; i < n; ++i) {
              double v = static_cast<double>(rng.between_signed(-3, 3));
              switch (kind) {
                case 0:  // the maximum at p, a tie later
                  v = i == p || (i > p && rng.chance(0.2)) ? 1000.0 : v;
                  break;
                case 1:  // -0.0 and +0.0 tie: the first zero from p on wins
                  v = i < p ? -1.0 : rng.chance(0.5) ? -0.0 : 0.0;
                  break;
                case 2:  // a NaN at p, maybe another later, infinities around
                  v = i == p || (i > p && rng.chance(0.1)) ? nan : rng.chance(0.2) ? INFINITY : v;
                  break;
                default:  // NaN everywhere but p (rows past the first n are all NaN)
                  v = i == p && r < n ? v : -nan;
                  break;
              }
              store(in, desc.input, {r, i}, v);
            }
          }
          check_all_archs(desc, in);
        }
      }
    }
  }
}
