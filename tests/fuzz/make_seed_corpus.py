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


TARGETS = {
    "fuzz_tensor_rules": tensor_rules_seeds,
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
