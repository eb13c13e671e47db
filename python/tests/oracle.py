"""Deliberately simple NumPy oracles: one Python loop over every output element, each written
from SPEC.md's sentences (the project's shared documents), sharing nothing with refops."""
import math

import numpy as np

SIGNED = (np.int8, np.int16, np.int32, np.int64)


def one_hot(indices, values, axis, depth):
    """ONE_HOT: indices has size 1 at axis; OffValue = values' logical element 0, OnValue = 1."""
    flat = values.reshape(-1)
    off, on = flat[0], flat[1]
    shape = list(indices.shape)
    shape[axis] = depth
    out = np.empty(shape, values.dtype)
    for coord in np.ndindex(*shape):
        where = list(coord)
        where[axis] = 0
        i = int(indices[tuple(where)])
        if i < 0:
            i += depth  # only signed types hold negatives
        out[coord] = on if 0 <= i < depth and coord[axis] == i else off
    return out


def one_hot_v1(indices, depth, on, off, axis, negative_indices):
    rank = indices.ndim
    axis = axis + rank + 1 if axis < 0 else axis
    shape = list(indices.shape)
    shape.insert(axis, depth)
    out = np.empty(shape, np.asarray(on).dtype)
    for coord in np.ndindex(*shape):
        where = coord[:axis] + coord[axis + 1:]
        i = int(indices[where])
        if i < 0 and negative_indices == "normalize":
            i += depth
        out[coord] = on if i == coord[axis] else off
    return out


def float_to(value, dtype):
    """SPEC 3's conversion of a float32 Value: floats exact or round-to-nearest-even, integers
    truncated toward zero and saturated, NaN to 0."""
    dtype = np.dtype(dtype)
    v = np.float32(value)
    if dtype.kind == "f":
        with np.errstate(over="ignore"):  # float16: beyond 65504 rounds to inf, as SPEC says
            return np.array(v).astype(dtype)[()]
    info = np.iinfo(dtype)
    if math.isnan(v):
        return dtype.type(0)
    if math.isinf(v):
        return dtype.type(info.max if v > 0 else info.min)
    return dtype.type(min(max(math.trunc(float(v)), info.min), info.max))


def diagonal_matrix(shape, offset, value, dtype):
    out = np.empty(shape, dtype)
    v = float_to(value, dtype)
    for coord in np.ndindex(*shape):
        y, x = coord[-2], coord[-1]
        out[coord] = v if y + offset == x else dtype(0)
    return out


def diagonal_matrix1(shape, value, begin, end, input=None):
    out = np.empty(shape, np.asarray(value).dtype)
    for coord in np.ndindex(*shape):
        top_x = coord[-1] - coord[-2]
        use_value = (end >= begin) ^ (top_x >= begin) ^ (top_x < end)
        out[coord] = value if use_value else (input[coord] if input is not None else 0)
    return out


def hardmax(x, axes, nan_mode):
    """1 at the first maximum of each group (row-major over the axes in increasing order)."""
    axes = sorted(set(a % x.ndim for a in axes))
    out = np.zeros(x.shape, x.dtype)
    kept = [d for d in range(x.ndim) if d not in axes]
    for group in np.ndindex(*[x.shape[d] for d in kept]):
        best, best_value = None, None
        for reduced in np.ndindex(*[x.shape[d] for d in axes]):
            coord = [0] * x.ndim
            for d, c in zip(kept, group):
                coord[d] = c
            for d, c in zip(axes, reduced):
                coord[d] = c
            coord = tuple(coord)
            v = float(x[coord])
            if best is None:
                best, best_value = coord, v
            elif nan_mode == "propagate":
                if not math.isnan(best_value) and (math.isnan(v) or v > best_value):
                    best, best_value = coord, v
            elif not math.isnan(v) and (math.isnan(best_value) or v > best_value):
                best, best_value = coord, v
        out[best] = 1
    return out
