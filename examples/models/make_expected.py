#!/usr/bin/env python3
"""Writes the expected outputs of examples/models/*.json (expected/<model>_<example>.npy) and
the models' .npy inputs, from the values the seed documents print (../shared/seeds/) and a few
written out by hand. Independent of refops: plain struct packing, the .npy 1.0 header exactly
as NumPy writes it. Run it from anywhere; commit what it writes.

    python3 examples/models/make_expected.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def npy(path, shape, values, descr="<f4"):
    fmt = {"<f4": "<f", "<i4": "<i", "<u4": "<I"}[descr]
    count = 1
    for d in shape:
        count *= d
    assert count == len(values), (path, shape, len(values))
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    total = (10 + len(header) + 1 + 63) // 64 * 64
    header += " " * (total - 10 - len(header) - 1) + "\n"
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(b"".join(struct.pack(fmt, v) for v in values))


def expected(name, shape, values):
    npy(os.path.join("expected", name + ".npy"), shape, values)


# ONE_HOT: the seed's four examples (000/001), then OpenVINO OneHot-1's two (002) as ONE_HOT.
expected("one_hot_example_1", [1, 1, 3, 4], [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0])
expected("one_hot_example_2", [1, 1, 3, 4], [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0])
expected("one_hot_example_3", [1, 1, 3, 4], [2, 4, 4, 4, 4, 4, 4, 2, 4, 4, 2, 4])
expected("one_hot_example_4", [1, 1, 3, 4], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
expected("one_hot_openvino_example_1", [4, 3], [1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1])
expected("one_hot_openvino_example_2", [2, 3, 3], [1, 0, 0, 0, 0, 1, 0, 0, 0,
                                                   0, 0, 0, 1, 0, 0, 0, 1, 0])

# DIAGONAL_MATRIX: the seed's four examples (004).
expected("diagonal_matrix_identity", [1, 1, 3, 3], [1, 0, 0, 0, 1, 0, 0, 0, 1])
expected("diagonal_matrix_shift_right_up", [1, 1, 3, 3], [0, 1, 0, 0, 0, 1, 0, 0, 0])
expected("diagonal_matrix_shift_left_down", [1, 1, 3, 2], [0, 0, 1, 0, 0, 1])
expected("diagonal_matrix_shifted_out", [1, 1, 3, 2], [0, 0, 0, 0, 0, 0])

# DIAGONAL_MATRIX1: DirectML's documented 4x5 cases (research/directml.md 4.3), input 1..20.
expected("diagonal_matrix1_band_0_3", [4, 5], [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1])
expected("diagonal_matrix1_trilu_upper", [4, 5], [0, 2, 3, 4, 5, 0, 0, 8, 9, 10, 0, 0, 0, 14, 15, 0, 0, 0, 0, 20])
expected("diagonal_matrix1_inverted_keeps_diagonal", [4, 5], [1, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 13, 0, 0, 0, 0, 0, 19, 0])
expected("diagonal_matrix1_value_7", [3, 3], [7, 0, 0, 0, 7, 0, 0, 0, 7])

# ACTIVATION_HARDMAX: ONNX's hardmax examples, and NaN under DirectML's rule (ignored).
expected("hardmax_ties", [1, 1, 1, 4], [1, 0, 0, 0])
expected("hardmax_square", [1, 1, 4, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
expected("hardmax_nan_ignored", [1, 4], [0, 0, 1, 0])

# ACTIVATION_HARDMAX1: the seed's three examples (003), input from hardmax1_input.npy.
npy("hardmax1_input.npy", [2, 2, 2], [12, 0, -101, 11, 3, 234, 0, -101])
expected("hardmax1_example_1", [2, 2, 2], [1, 0, 0, 1, 1, 1, 0, 0])
expected("hardmax1_example_2", [2, 2, 2], [1, 0, 0, 1, 0, 1, 1, 0])
expected("hardmax1_example_3", [2, 2, 2], [0, 0, 0, 1, 0, 1, 0, 0])
