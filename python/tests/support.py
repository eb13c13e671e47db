"""Helpers the tests share: bit-exact comparison, strided views inside sentinel-filled buffers,
random values that are never all zero."""
import numpy as np

ALL_DTYPES = [np.float32, np.float16, np.float64, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64]
INDEX_DTYPES = [np.int32, np.int64, np.uint32, np.uint64]
SENTINEL = 0x5A  # every byte of a fresh buffer; any byte a call should not write keeps it


def bits(a):
    """The array's element bits (so -0.0 != 0.0 and NaN payloads count)."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}")


def assert_same(got, expected, context=""):
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype} {context}"
    assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape} {context}"
    diff = np.argwhere(bits(got) != bits(expected))
    assert diff.size == 0, (f"{len(diff)} elements differ, first at {tuple(diff[0])}: got "
                            f"{got[tuple(diff[0])]!r}, expected {expected[tuple(diff[0])]!r} {context}")


def strided_out(rng, shape, dtype):
    """A writable view of `shape` with random positive steps inside a sentinel-filled base,
    and the base (to check the bytes between elements stay untouched)."""
    steps = [int(rng.integers(1, 3)) for _ in shape]
    base = np.empty([max(1, (s - 1) * st + 1) + int(rng.integers(0, 2)) for s, st in zip(shape, steps)], dtype)
    base.view(np.uint8)[...] = SENTINEL
    view = base[tuple(slice(0, (s - 1) * st + 1, st) if s else slice(0, 0) for s, st in zip(shape, steps))]
    return view, base


def strided_copy(rng, a):
    """`a` as a view with random positive steps (same values)."""
    view, _ = strided_out(rng, a.shape, a.dtype)
    view[...] = a
    return view


def random_values(rng, dtype, count, *, specials=True):
    """`count` values of `dtype`, never all zero; floats include inf, -0.0 and NaN sometimes."""
    dtype = np.dtype(dtype)
    while True:
        if dtype.kind == "f":
            v = rng.integers(-8, 9, count).astype(dtype) * dtype.type(0.5)
            if specials and count > 1 and rng.random() < 0.5:
                special = np.array([np.inf, -np.inf, -0.0, np.nan], dtype)
                picks = rng.integers(0, count, int(rng.integers(1, count)))
                v[picks] = rng.choice(special, len(picks))
        else:
            info = np.iinfo(dtype)
            v = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
        if np.any(v != 0) or np.any(np.isnan(v) if dtype.kind == "f" else False):
            return v


def random_shape(rng, low_rank, high_rank, high_size=4):
    return tuple(int(rng.integers(1, high_size + 1)) for _ in range(int(rng.integers(low_rank, high_rank + 1))))
