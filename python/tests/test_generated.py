"""Generated cases, bit-exact against oracle.py on every path this CPU has: dtypes, shapes,
axes, strided and broadcast (zero-stride) inputs, strided `out` views whose untouched bytes
are checked. The generator's seed is printed when a case fails (conftest.py)."""
import numpy as np
import pytest

import oracle
import refops
from support import (ALL_DTYPES, INDEX_DTYPES, SENTINEL, assert_same, random_shape, random_values,
                     strided_copy, strided_out)

CASES = 30  # per test and path


def run_into_view(rng, call, shape, dtype, expected, context):
    """Runs `call(out=None)` and `call(out=<strided view>)`: both must equal `expected`, and the
    view's base keeps its sentinel everywhere the view does not address."""
    assert_same(call(out=None), expected, context)
    view, base = strided_out(rng, shape, dtype)
    assert call(out=view) is view
    assert_same(view, expected, context)
    unaddressed = np.ones(base.shape, bool)  # the same view taken of a mask of the base
    np.lib.stride_tricks.as_strided(unaddressed, view.shape, [s // view.itemsize for s in view.strides])[...] = False
    assert (base.view(np.uint8).reshape(base.shape + (-1,))[unaddressed] == SENTINEL).all(), f"padding written {context}"


def index_values(rng, dtype, count, depth):
    """Indices in and around [-depth, depth), and a few extremes of the type."""
    dtype = np.dtype(dtype)
    info = np.iinfo(dtype)
    v = rng.integers(max(info.min, -depth - 2), depth + 3, count).astype(dtype)
    extremes = np.array([info.min, info.max, info.max // 2 + 1], dtype)
    if rng.random() < 0.3:
        v[rng.integers(0, count)] = rng.choice(extremes)
    return v


def broadcast_values(rng, dtype, rank):
    """ValuesTensor of `rank` dimensions, sometimes broadcast (zero strides) over extra sizes."""
    base_shape = [1] * rank
    base_shape[int(rng.integers(0, rank))] = int(rng.integers(2, 4))
    values = random_values(rng, dtype, int(np.prod(base_shape))).reshape(base_shape)
    if rng.random() < 0.5:
        return values
    wide = [s if s > 1 else int(rng.integers(1, 3)) for s in base_shape]
    # A broadcast over a size-1 dimension keeps the logical row-major elements 0 and 1 only when
    # the widened dimensions come before the one holding the values.
    holding = base_shape.index(max(base_shape))
    wide = [w if d <= holding else 1 for d, w in enumerate(wide)]
    return np.broadcast_to(values, wide)


def test_one_hot(rng, arch):
    for case in range(CASES):
        rank = int(rng.integers(1, 5))
        shape = list(random_shape(rng, rank, rank))
        axis = int(rng.integers(0, rank))
        depth = int(rng.integers(1, 6))
        shape[axis] = 1
        index_dtype = rng.choice(INDEX_DTYPES)
        dtype = rng.choice(ALL_DTYPES)
        indices = index_values(rng, index_dtype, int(np.prod(shape)), depth).reshape(shape)
        if rng.random() < 0.5:
            indices = strided_copy(rng, indices)
        values = broadcast_values(rng, dtype, rank)
        expected = oracle.one_hot(indices, values, axis, depth)
        given_axis = axis - rank if rng.random() < 0.3 else axis
        context = f"case {case}: indices {indices.dtype}{indices.shape} values {values.dtype}{values.shape} " \
                  f"strides {values.strides} axis {given_axis} depth {depth}"
        out_shape = expected.shape
        run_into_view(rng, lambda out: refops.one_hot(indices, values, given_axis, depth, out=out, arch=arch),
                      out_shape, dtype, expected, context)


def test_one_hot_v1(rng, arch):
    for case in range(CASES):
        rank = int(rng.integers(0, 4))
        shape = random_shape(rng, rank, rank)
        depth = int(rng.integers(1, 6))
        indices = index_values(rng, rng.choice(INDEX_DTYPES), int(np.prod(shape)), depth).reshape(shape)
        if rank and rng.random() < 0.5:
            indices = strided_copy(rng, indices)
        dtype = np.dtype(rng.choice(ALL_DTYPES))
        on, off = random_values(rng, dtype, 2)
        axis = int(rng.integers(-(rank + 1), rank + 1))
        mode = str(rng.choice(["ignore", "normalize"]))
        expected = oracle.one_hot_v1(indices, depth, on, off, axis, mode)
        context = f"case {case}: indices {indices.dtype}{indices.shape} depth {depth} axis {axis} {mode} on {on!r} off {off!r}"
        run_into_view(rng, lambda out: refops.one_hot_v1(indices, depth, on, off, axis, negative_indices=mode,
                                                         out=out, arch=arch),
                      expected.shape, dtype, expected, context)


def test_diagonal_matrix(rng, arch):
    interesting = [1.0, 10.6, -3.7, 0.5, -0.0, np.nan, np.inf, -np.inf, 1e10, -1e10, 65504.0, 70000.0, 255.5, -129.9]
    for case in range(CASES):
        shape = random_shape(rng, 2, 4, 5)
        dtype = rng.choice(ALL_DTYPES)
        offset = int(rng.choice([int(rng.integers(-5, 6)), -(2**31), 2**31 - 1]))
        value = float(rng.choice(interesting))
        expected = oracle.diagonal_matrix(shape, offset, value, dtype)
        context = f"case {case}: shape {shape} {np.dtype(dtype)} offset {offset} value {value}"
        run_into_view(rng, lambda out: refops.diagonal_matrix(shape if out is None else None, offset, value,
                                                              dtype if out is None else None, out=out, arch=arch),
                      shape, dtype, expected, context)


def test_diagonal_matrix1(rng, arch):
    for case in range(CASES):
        shape = random_shape(rng, 2, 4, 5)
        dtype = np.dtype(rng.choice(ALL_DTYPES))
        value = random_values(rng, dtype, 2)[int(rng.integers(0, 2))]
        begin, end = (int(v) for v in rng.integers(-5, 6, 2))
        if rng.random() < 0.1:
            begin, end = -(2**31), 2**31 - 1
        input = None
        if rng.random() < 0.6:
            input = random_values(rng, dtype, int(np.prod(shape))).reshape(shape)
            if rng.random() < 0.5:  # broadcast one row over the leading dimensions
                input = np.broadcast_to(input[(0,) * (len(shape) - 1)], shape)
            elif rng.random() < 0.5:
                input = strided_copy(rng, input)
        expected = oracle.diagonal_matrix1(shape, value, begin, end, input)
        context = f"case {case}: shape {shape} value {value!r} begin {begin} end {end} input {input is not None}"
        run_into_view(rng, lambda out: refops.diagonal_matrix1(value, begin, end, shape=shape, input=input, out=out,
                                                               arch=arch),
                      shape, dtype, expected, context)


@pytest.mark.parametrize("nan_mode", ["propagate", "ignore"])
def test_hardmax1(rng, arch, nan_mode):
    for case in range(CASES):
        shape = random_shape(rng, 1, 4)
        dtype = rng.choice([np.float32, np.float16])
        x = random_values(rng, dtype, int(np.prod(shape))).reshape(shape)
        x = np.round(x / 2)  # small values: ties are common
        if rng.random() < 0.3:
            x = strided_copy(rng, x)
        elif rng.random() < 0.3:
            x = np.broadcast_to(x[..., :1], shape)  # zero stride: every element ties
        count = int(rng.integers(1, len(shape) + 1))
        axes = [int(a) for a in rng.choice(len(shape), count, replace=False)]
        given = [a - len(shape) if rng.random() < 0.3 else a for a in axes]
        expected = oracle.hardmax(x, axes, nan_mode)
        context = f"case {case}: x {x.dtype}{x.shape} strides {x.strides} axes {given} values {x.ravel().tolist()}"
        run_into_view(rng, lambda out: refops.hardmax(x, given, nan_mode=nan_mode, out=out, arch=arch),
                      shape, x.dtype, expected, context)


def test_hardmax(rng, arch):
    """HARDMAX (axes None): the last dimension, effective rank <= 2 (leading sizes of 1)."""
    for case in range(CASES):
        rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 40))
        shape = (1,) * int(rng.integers(0, 3)) + (rows, cols)
        x = random_values(rng, np.float32, rows * cols).reshape(shape)
        expected = oracle.hardmax(x, [-1], "propagate")
        run_into_view(rng, lambda out: refops.hardmax(x, out=out, arch=arch), shape, x.dtype, expected,
                      f"case {case}: x {x.shape} {x.ravel().tolist()}")
