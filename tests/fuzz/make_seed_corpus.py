#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target: tests/fuzz/corpus/<target>/<seed name>.

Run it after changing a seed or FuzzInput's encoding (tests/fuzz/fuzz_input.hpp), and commit
its output. Every FuzzInput decision reads one byte, so a seed is the list of those bytes in
the order the target reads them; the helpers below spell the common ones. An operator's
target adds one function here returning {name: bytes} and one line in TARGETS.
"""
import pathlib
import shutil

# FuzzInput::data_type(): the byte is the DML_TENSOR_DATA_TYPE value (0 and 12 are invalid).
FLOAT32, FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64 = range(1, 12)
INVALID_TYPE = 12  # decodes to DataType 0

# FuzzInput::size_value() / stride_value(): bytes 250..255 are edge values.
EDGE = {0: 250, 6: 251, 64: 252, 65536: 253, 2**31: 254, 2**32 - 1: 255}


def size(v):
    """A size: 1..5 directly, else an edge value."""
    return v - 1 if 1 <= v <= 5 else EDGE[v]


def stride(v):
    """A stride: 0..12 directly, else an edge value (0 is 0 either way)."""
    return v if 0 <= v <= 12 else EDGE[v]


PACKED, PADDED, STRIDED, WRONG_STRIDE_COUNT = range(4)
# FuzzInput::total_bytes(): byte % 8.
TOTAL_UNSET, TOTAL_EXACT, TOTAL_PLUS_4, TOTAL_MINUS_1, TOTAL_MINUS_4 = 0, 3, 4, 5, 6
# FuzzInput::buffer(): byte % 8 picks the size; bit 7 with bits 3..6 picks the offset.
BUFFER_EXACT, BUFFER_EMPTY, BUFFER_1_SHORT, BUFFER_4_SHORT = 3, 0, 1, 2


def buffer(kind=BUFFER_EXACT, offset=0):
    return kind | ((0x80 | (offset << 3)) if offset else 0)


def tensor(data_type, sizes, layout=PACKED, strides=(), total=TOTAL_UNSET, max_rank=8):
    """FuzzInput::tensor(): type, rank, sizes, layout byte, layout bytes, total byte."""
    out = [data_type, len(sizes) % (max_rank + 1)] + [size(s) for s in sizes] + [layout]
    if layout == PADDED:
        out += list(strides)  # padding after each dimension, innermost first
    elif layout == STRIDED:
        out += [stride(s) for s in strides]
    elif layout == WRONG_STRIDE_COUNT:
        out += [len(strides)] + [stride(s) for s in strides]
    return out + [total]


OUTPUT, INPUT = 1, 0


def tensor_rules_seeds():
    return {
        "output_float32_2x3_packed": [OUTPUT] + tensor(FLOAT32, [2, 3]) + [buffer()],
        "input_float16_3x1x4_padded": [INPUT] + tensor(FLOAT16, [3, 1, 4], PADDED, [1, 2, 0], TOTAL_EXACT) + [buffer()],
        "output_int32_2x3_transposed": [OUTPUT] + tensor(INT32, [2, 3], STRIDED, [1, 2]) + [buffer()],
        "output_uint8_2x3_broadcast": [OUTPUT] + tensor(UINT8, [2, 3], STRIDED, [0, 1]) + [buffer()],
        "output_int16_2x3_interleaved": [OUTPUT] + tensor(INT16, [2, 3], STRIDED, [3, 2]) + [buffer()],
        "input_invalid_type": [INPUT] + tensor(INVALID_TYPE, [4]) + [buffer()],
        "input_no_dimension": [INPUT] + tensor(FLOAT32, []) + [buffer()],
        "input_zero_size": [INPUT] + tensor(FLOAT32, [2, 0]) + [buffer()],
        "input_wrong_stride_count": [INPUT] + tensor(FLOAT32, [2, 3], WRONG_STRIDE_COUNT, [1]) + [buffer()],
        "input_too_many_elements": [INPUT] + tensor(INT64, [2**32 - 1, 2**32 - 1, 2]) + [buffer()],
        "input_strides_past_2_64": [INPUT] + tensor(INT64, [2**32 - 1, 2**32 - 1], STRIDED, [2**32 - 1, 2**32 - 1]) + [buffer()],
        "input_total_too_small": [INPUT] + tensor(FLOAT32, [5], total=TOTAL_MINUS_4) + [buffer()],
        "input_total_larger": [INPUT] + tensor(UINT16, [3], total=TOTAL_PLUS_4) + [buffer(BUFFER_1_SHORT)],
        "input_float64_misaligned": [INPUT] + tensor(FLOAT64, [5]) + [buffer(BUFFER_EXACT, offset=3)],
        "input_uint64_empty_buffer": [INPUT] + tensor(UINT64, [2, 2]) + [buffer(BUFFER_EMPTY)],
        "output_int8_8d_packed": [OUTPUT] + tensor(INT8, [2, 1, 2, 1, 2, 1, 2, 1]) + [buffer()],
        "output_uint32_large_stride": [OUTPUT] + tensor(UINT32, [2, 2], STRIDED, [65536, 1]) + [buffer()],
    }


# The operator targets (fuzz_operator.hpp and the fuzz_<op>.cpp files).
import struct

LEVEL_5_1, LATEST = 8, 14  # FuzzInput::level(): the index in all_feature_levels
ARCH_SCALAR, ARCH_NEON, BEST_ARCH = 0, 4, 5  # fuzz::any_arch(): the Arch value, 5..7 none
SEPARATE = 1  # CallBuffers::add_maybe_inside(): byte % 4 != 0, an allocation of its own


def inside(at):
    """CallBuffers::add_maybe_inside(): a window `at` bytes (a multiple of 4) into the other allocation."""
    return [0, at // 4]


def packed(fmt, values):
    return list(struct.pack("<" + fmt * len(values), *values))


def offset(v):
    """FuzzInput::offset(): -8..8 directly, 255 INT32_MIN, 254 INT32_MAX."""
    return {-2**31: 255, 2**31 - 1: 254}.get(v, v + 8)


def layout(layout_kind=PACKED, total=TOTAL_UNSET):
    """FuzzInput::strides_and_total() for a packed or padded-by-0 layout: layout byte, total byte."""
    return [layout_kind, total]


# FuzzInput::data_type_in(): the index in the caller's list.
INDEX_TYPE = {UINT32: 0, INT32: 1, UINT64: 2, INT64: 3}


def one_hot(output_sizes, axis, indices_fmt, indices, values, out_type=FLOAT32, values_sizes=None, level=LATEST,
            arch=BEST_ARCH, indices_at=None, out_total=TOTAL_UNSET):
    """A ONE_HOT call; the values are float32 ({off, on} along the last dimension unless values_sizes)."""
    index_type = {"I": UINT32, "i": INT32, "Q": UINT64, "q": INT64}[indices_fmt]
    index_sizes = [1 if d == axis else s for d, s in enumerate(output_sizes)]
    out = [0, level] + tensor(out_type, output_sizes, total=out_total) + [axis]
    if values_sizes is None:
        out += [1, 1, INDEX_TYPE[index_type]] + layout() + [1, 1] + layout()
    else:
        out += [0] + tensor(index_type, index_sizes) + tensor(out_type, values_sizes)
    out += [buffer()] + ([SEPARATE, buffer()] if indices_at is None else inside(indices_at))
    out += packed(indices_fmt, indices) + [0]
    out += [SEPARATE, buffer()] + packed("f" if out_type == FLOAT32 else "e", values)
    return out + [arch]


def one_hot_v1(indices_fmt, sizes, indices, depth, value_type, on, off, axis, normalize=False, arch=BEST_ARCH):
    """A OneHot-1 call: on/off as 8 union bytes of value_type (its struct format char first)."""
    fmt, t = value_type
    index_type = {"I": UINT32, "i": INT32, "Q": UINT64, "q": INT64}[indices_fmt]
    value_bytes = lambda v: (packed(fmt, [v]) + [0] * 8)[:8]
    out = [1, 1, INDEX_TYPE[index_type], len(sizes)] + [size(s) for s in sizes] + layout()
    out += [depth - 1, 1, t - 1] + value_bytes(on) + [1] + value_bytes(off)
    out += [axis + len(sizes) + 1, int(normalize)]
    out += [buffer(), SEPARATE, buffer()] + packed(indices_fmt, indices) + [0, arch]
    return out


def one_hot_seeds():
    return {
        # The seed documents' ONE_HOT examples 1-4, then OneHot-1's two examples.
        "example_1_across_rows": one_hot([1, 1, 3, 4], 3, "I", [0, 3, 2], [0, 1]),
        "example_2_axis_2": one_hot([1, 1, 3, 4], 2, "I", [0, 2, 1, 0], [0, 1]),
        "example_3_on_off_values": one_hot([1, 1, 3, 4], 3, "I", [0, 3, 2], [4, 2, 9], values_sizes=[1, 1, 3, 1]),
        "example_4_negative_out_of_bounds": one_hot([1, 1, 3, 4], 3, "i", [-3, 100, 3], [0, 1]),
        "v1_example_1_axis_minus_1": one_hot_v1("i", [4], [0, 3, 1, 2], 3, ("i", INT32), 1, 2, -1),
        "v1_example_2_axis_1": one_hot_v1("q", [2, 3], [0, 3, 1, 1, 2, 4], 3, ("f", FLOAT32), 1.0, 0.0, 1),
        # Edges: float16 NaN/-0.0 values, int64 indices, a scalar index, normalize mode.
        "float16_nan_minus_zero": one_hot([2, 3], 1, "q", [2, -1], [float("nan"), -0.0], out_type=FLOAT16),
        "v1_scalar_index_normalize": one_hot_v1("i", [], [-1], 4, ("d", FLOAT64), -0.0, 2.5, 0, normalize=True),
        # Rejections: level 1.0 (below ONE_HOT's 2.0), an
        # unavailable forced path, the indices inside the output's buffer (overlapping), and
        # past the output's addressed bytes (sharing the allocation, not overlapping).
        "level_below_operator": one_hot([1, 1, 3, 4], 3, "I", [0, 3, 2], [0, 1], level=0),
        "forced_neon": one_hot([1, 1, 3, 4], 3, "I", [0, 3, 2], [0, 1], arch=ARCH_NEON),
        "indices_overlap_output": one_hot([1, 1, 3, 4], 3, "I", [0, 3, 2], [0, 1], indices_at=4),
        "indices_after_output": one_hot([1, 2], 1, "I", [1], [0, 1], indices_at=8, out_total=TOTAL_PLUS_4),
    }


def diagonal_matrix(sizes, offset_value, value_byte_or_float, out_type=FLOAT32, level=LATEST, arch=BEST_ARCH,
                    buffer_byte=None):
    """A DIAGONAL_MATRIX call; Value an integer -8..8 (one byte) or a float (raw bits)."""
    out = [0, level] + tensor(out_type, sizes, max_rank=5) + [offset(offset_value)]
    if isinstance(value_byte_or_float, int):
        out += [0, offset(value_byte_or_float)]
    else:
        out += [1] + packed("f", [value_byte_or_float])
    return out + [buffer() if buffer_byte is None else buffer_byte, arch]


def diagonal_matrix1(sizes, begin, end, value, fmt="f", out_type=FLOAT32, inputs=None, level=LATEST,
                     arch=BEST_ARCH, input_at=None, out_total=TOTAL_UNSET):
    """A DIAGONAL_MATRIX1 call: Value of the output's type; `inputs` an input of the output's sizes."""
    out = [1, level] + tensor(out_type, sizes, max_rank=5, total=out_total)
    out += [0] if inputs is None else [2, 1] + layout()
    out += (packed(fmt, [value]) + [0] * 8)[:8] + [1, offset(begin), offset(end), buffer()]
    if inputs is None:
        out += [BUFFER_EMPTY]
    else:
        out += ([SEPARATE, buffer()] if input_at is None else inside(input_at)) + packed(fmt, inputs)
    return out + [arch]


def diagonal_matrix_seeds():
    one_to_twenty = [float(v) for v in range(1, 21)]
    return {
        # The seed document's four DIAGONAL_MATRIX examples.
        "identity_3x3": diagonal_matrix([1, 1, 3, 3], 0, 1),
        "shift_right_up": diagonal_matrix([1, 1, 3, 3], 1, 1),
        "shift_left_down": diagonal_matrix([1, 1, 3, 2], -1, 1),
        "shifted_out": diagonal_matrix([1, 1, 3, 2], -3, 1),
        # DIAGONAL_MATRIX1's documented 4x5 examples.
        "dm1_band_0_3": diagonal_matrix1([4, 5], 0, 3, 1.0),
        "dm1_trilu_upper": diagonal_matrix1([4, 5], -2**31, 1, 0.0, inputs=one_to_twenty),
        "dm1_inverted_keeps_diagonal": diagonal_matrix1([4, 5], 1, 0, 0.0, inputs=one_to_twenty),
        "dm1_value_7": diagonal_matrix1([3, 3], 0, 1, 7.0),
        # Bits and conversions: float16 NaN payload and -0.0, Value to int8, INT32_MAX offset.
        "dm1_float16_nan_payload": diagonal_matrix1([2, 3], -1, 2, float("nan"), fmt="e", out_type=FLOAT16),
        "dm1_float16_minus_zero": diagonal_matrix1([3, 2], 0, 1, -0.0, fmt="e", out_type=FLOAT16,
                                                   inputs=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        "int8_value_minus_300": diagonal_matrix([2, 4], 0, -300.0, out_type=INT8),
        "offset_int32_max": diagonal_matrix([3, 3], 2**31 - 1, 1),
        # Rejections: rank 1, level 2.0 for INT8, a misaligned output, a forced unavailable
        # path, and an input inside the output's buffer.
        "rank_1": diagonal_matrix([3], 0, 1),
        "int8_at_level_2_0": diagonal_matrix([1, 1, 2, 2], 0, 1, out_type=INT8, level=1),
        "misaligned_output": diagonal_matrix([2, 2], 0, 1, buffer_byte=buffer(BUFFER_EXACT, offset=2)),
        "forced_neon": diagonal_matrix([2, 2], 0, 1, arch=ARCH_NEON),
        "dm1_input_overlaps_output": diagonal_matrix1([2, 2], 0, 1, 1.0, inputs=[1.0, 2.0, 3.0, 4.0], input_at=4,
                                                      out_total=TOTAL_PLUS_4),
        "dm1_level_5_0": diagonal_matrix1([2, 2], 0, 1, 1.0, level=LEVEL_5_1 - 1),
    }


def hardmax(sizes, values=None, picks=None, axes=None, ignore=False, fmt="f", level=LATEST, arch=BEST_ARCH):
    """A HARDMAX call (axes None) or HARDMAX1; input data as `values` (packed floats of fmt) or as
    tie_heavy_floats picks (0 +0.0, 1 -0.0, 2 1, 3 -1, 4 2, 5 inf, 6 -inf, 7 NaN, 8 sNaN, 9 -NaN ...)."""
    out = [0 if axes is None else 1, level, 1, 0 if fmt == "f" else 1, len(sizes)] + [size(s) for s in sizes]
    out += layout() + [1, 1] + layout()
    if axes is not None:
        out += [len(axes)] + list(axes)
    out += [int(ignore), buffer(), SEPARATE, buffer()]
    n = 1
    for s in sizes:
        n *= s
    if picks is None:
        out += packed(fmt, values) + [0]
    else:
        out += [0] * (n * (4 if fmt == "f" else 2)) + [1] + list(picks)
    return out + [arch]


def hardmax_seeds():
    nan = float("nan")
    return {
        "hardmax_float32_ties_and_nan": hardmax([2, 3], [1.0, 3.0, 3.0, -0.0, 0.0, nan]),
        "hardmax_float32_nan_ignored": hardmax([2, 3], [1.0, 3.0, 3.0, nan, 0.0, nan], ignore=True),
        "hardmax1_float16_axis_0_tie_heavy": hardmax([2, 3], picks=[1, 0, 9, 5, 5, 7], axes=[0], fmt="e"),
        "hardmax1_float16_all_nan_ignored": hardmax([3], picks=[7, 8, 9], axes=[0], ignore=True, fmt="e"),
        "hardmax1_axes_0_2_of_3d": hardmax([2, 2, 2], picks=[2, 4, 4, 6, 7, 0, 1, 5], axes=[0, 2]),
        "hardmax1_duplicate_axes": hardmax([2, 3], [1, 2, 3, 4, 5, 6], axes=[1, 1]),
        "hardmax1_no_axes": hardmax([2, 3], [1, 2, 3, 4, 5, 6], axes=[]),
        "hardmax1_axis_out_of_range": hardmax([2, 3], [1, 2, 3, 4, 5, 6], axes=[240]),  # axis() byte 240: the rank
        "hardmax1_level_5_0": hardmax([2, 3], [1, 2, 3, 4, 5, 6], axes=[1], level=LEVEL_5_1 - 1),
        "hardmax_forced_neon": hardmax([2, 3], [1, 2, 3, 4, 5, 6], arch=ARCH_NEON),
    }


def model_seeds():
    """fuzz_model: the example models and the command-line tests' small models, as text."""
    repo = pathlib.Path(__file__).resolve().parents[2]
    seeds = {}
    for folder, prefix in ((repo / "examples" / "models", "example_"), (repo / "tests" / "run" / "models", "test_")):
        for model in sorted(folder.glob("*.json")):
            seeds[prefix + model.stem] = model.read_bytes()
    return seeds


TARGETS = {
    "fuzz_tensor_rules": tensor_rules_seeds,
    "fuzz_one_hot": one_hot_seeds,
    "fuzz_diagonal_matrix": diagonal_matrix_seeds,
    "fuzz_hardmax": hardmax_seeds,
    "fuzz_model": model_seeds,
}


def main():
    root = pathlib.Path(__file__).resolve().parent / "corpus"
    for target, seeds in TARGETS.items():
        directory = root / target
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        for name, data in seeds().items():
            (directory / name).write_bytes(bytes(data))
        print(f"{directory}: {len(seeds())} seeds")


if __name__ == "__main__":
    main()
