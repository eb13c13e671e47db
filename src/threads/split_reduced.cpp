#include "threads/split_reduced.hpp"

#include <cstdint>
#include <vector>

#include "threads/split.hpp"

namespace refops::detail {
namespace {

// Rows of the cut dimension per block, at least: every block then runs the columns path's
// zero-fill-and-patch writer (32 rows and more), and a block's partial winners (16 bytes per
// group) are at most 1/16 of what it reads and writes.
constexpr std::size_t min_rows_per_block = 64;

}  // namespace

bool run_reduced_split(const HardmaxCall& call, void (*entry)(const HardmaxCall&), const ExecuteOptions& options,
                       std::size_t kept_parts) {
  const std::size_t rank = call.sizes.size();
  unsigned reduced = 0;
  for (std::uint32_t a : call.axes) reduced |= 1u << a;
  std::size_t innermost = rank;
  while (innermost > 0 && call.sizes[innermost - 1] == 1) --innermost;
  if (innermost == 0 || ((reduced >> (innermost - 1)) & 1u) != 0) return false;
  std::size_t cut = 0;  // the outermost reduced dimension: its ranges are ranges of positions
  while (((reduced >> cut) & 1u) == 0) ++cut;

  const std::size_t bytes = call.type == HardmaxType::float16 ? 2 : 4;
  const std::uint64_t elements = element_count(call.sizes);
  SplitShape shape{2 * elements * bytes, &call.sizes, &call.output_strides, bytes, 1u << cut};
  shape.min_granule = min_rows_per_block;
  const Split split = plan_split(shape, options);
  if (split.parts < 2 || split.parts <= kept_parts) return false;

  std::uint64_t group_size = 1;
  for (std::size_t d = 0; d < rank; ++d)
    if ((reduced >> d) & 1u) group_size *= call.sizes[d];
  const auto groups = static_cast<std::size_t>(elements / group_size);
  const std::uint64_t positions_per_row = group_size / call.sizes[cut];
  // Bounded scratch: 16 bytes per group and block (see min_rows_per_block), on the heap, one
  // allocation per call: this path runs only on calls of several MiB, where it costs nothing
  // measurable, and a stack buffer would need a bound on the groups.
  std::vector<std::int64_t> keys(split.parts * groups);
  std::vector<std::uint64_t> positions(split.parts * groups);

  const auto block = [&](HardmaxPhase phase, std::size_t first, std::size_t last) {
    HardmaxCall part = call;
    part.call_bytes = static_cast<std::size_t>(elements * bytes);
    part.sizes[cut] = static_cast<std::uint32_t>(last - first);
    part.input = advanced(part.input, first, call.input_strides[cut], bytes);
    part.output = advanced(part.output, first, call.output_strides[cut], bytes);
    part.phase = phase;
    part.first_position = first * positions_per_row;
    return part;
  };
  run_parts(split, [&](std::size_t i, std::size_t first, std::size_t last) {
    HardmaxCall part = block(HardmaxPhase::reduce, first, last);
    part.keys = keys.data() + i * groups;
    part.positions = positions.data() + i * groups;
    entry(part);
  });
  // The blocks' winners in position order: a later block wins only with a strictly greater key.
  for (std::size_t i = 1; i < split.parts; ++i)
    for (std::size_t g = 0; g < groups; ++g)
      if (keys[i * groups + g] > keys[g]) {
        keys[g] = keys[i * groups + g];
        positions[g] = positions[i * groups + g];
      }
  run_parts(split, [&](std::size_t, std::size_t first, std::size_t last) {
    HardmaxCall part = block(HardmaxPhase::write, first, last);
    part.positions = positions.data();
    entry(part);
  });
  return true;
}

}  // namespace refops::detail
