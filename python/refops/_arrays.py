"""Arguments as refops sees them: arrays, scalars, integers and options, checked before the
compiled layer runs, each refusal a refops.Error naming DirectML's field and the argument.

Arrays are used in place: a NumPy array as it is, anything else with ``__dlpack__`` through
``numpy.from_dlpack`` (a view, never a copy), so the strides checked here are the ones the
kernel will use.
"""
from __future__ import annotations

import operator
from typing import Any, Optional, Sequence

import numpy as np

from ._error import fail

# DirectML's DML_TENSOR_DATA_TYPE for each NumPy dtype it has (native byte order only).
DATA_TYPES: dict[np.dtype, tuple[int, str]] = {
    np.dtype(np.float32): (1, "FLOAT32"), np.dtype(np.float16): (2, "FLOAT16"),
    np.dtype(np.uint32): (3, "UINT32"), np.dtype(np.uint16): (4, "UINT16"),
    np.dtype(np.uint8): (5, "UINT8"), np.dtype(np.int32): (6, "INT32"),
    np.dtype(np.int16): (7, "INT16"), np.dtype(np.int8): (8, "INT8"),
    np.dtype(np.float64): (9, "FLOAT64"), np.dtype(np.uint64): (10, "UINT64"),
    np.dtype(np.int64): (11, "INT64"),
}
_DTYPE_NAMES = "float32, float16, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64"

MAX_DIMS = 8                    # DML_TENSOR_DIMENSION_COUNT_MAX1
MAX_UINT32 = 0xFFFFFFFF
INT32_RANGE = (-(2**31), 2**31 - 1)
INT64_RANGE = (-(2**63), 2**63 - 1)
_DLPACK_CPU = 1                 # kDLCPU


def _describe(obj: Any) -> str:
    return f"a Python {type(obj).__name__} ({obj!r})"


def data_type(dtype: np.dtype, field: str, argument: str) -> int:
    """The DML_TENSOR_DATA_TYPE value of a NumPy dtype; refused when DirectML has none."""
    if dtype in DATA_TYPES and dtype.isnative:
        return DATA_TYPES[dtype][0]
    fail(field, f"expected one of the 11 DirectML data types (numpy {_DTYPE_NAMES}, native byte "
                f"order), found numpy {dtype.str if not dtype.isnative else dtype} in `{argument}`")


def as_array(obj: Any, argument: str, tensor: str, *, output: bool = False) -> np.ndarray:
    """`obj` as a NumPy array over the same memory, with a DirectML data type, at most 8
    dimensions and strides refops can describe (>= 0, multiples of the itemsize)."""
    if isinstance(obj, np.ndarray):
        array = obj
    elif isinstance(obj, np.generic) and not output:
        array = np.asarray(obj)
    elif hasattr(obj, "__dlpack__"):
        array = _from_dlpack(obj, argument, tensor)
    elif isinstance(obj, (bool, int, float, complex)):
        fail(tensor, f"expected a NumPy array for `{argument}`, found {_describe(obj)}; make one "
                     f"with the dtype you mean (refops never picks a dtype for you)")
    else:
        raise TypeError(f"{argument}: expected a NumPy array or an object with __dlpack__, "
                        f"found {type(obj).__name__}")
    data_type(array.dtype, f"{tensor}.DataType", argument)
    if array.ndim > MAX_DIMS:
        fail(f"{tensor}.DimensionCount", f"expected 1 to 8 dimensions, found {array.ndim} in `{argument}`")
    for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
        if size > MAX_UINT32:
            fail(f"{tensor}.Sizes[{i}]", f"expected at most 4294967295, found {size} in `{argument}`")
        if size <= 1:
            continue  # a stride that addresses nothing does not matter
        if stride < 0:
            fail(f"{tensor}.Strides[{i}]",
                 f"`{argument}` has a negative stride ({stride} bytes) on dimension {i}; DirectML strides "
                 f"are unsigned: pass numpy.ascontiguousarray({argument}) or a view with strides >= 0")
        if stride % array.itemsize:
            fail(f"{tensor}.Strides[{i}]",
                 f"`{argument}` has a stride of {stride} bytes on dimension {i}, not a multiple of its "
                 f"itemsize {array.itemsize}; DirectML strides count elements")
    if output and not array.flags.writeable:
        fail(f"{tensor}", f"expected a writable array for `{argument}`, found a read-only one")
    return array


def _from_dlpack(obj: Any, argument: str, tensor: str) -> np.ndarray:
    device = getattr(obj, "__dlpack_device__", None)
    if device is not None and device()[0] != _DLPACK_CPU:
        fail(tensor, f"expected `{argument}` in CPU memory (DLPack device type 1), found device {device()}")
    try:
        return np.from_dlpack(obj)
    except (BufferError, TypeError, RuntimeError, ValueError) as e:
        fail(tensor, f"could not view `{argument}` through __dlpack__: {e}")


def as_scalar(obj: Any, argument: str, field: str) -> np.ndarray:
    """A NumPy scalar (or 0-d array) as a 0-d array, its dtype kept exactly."""
    if isinstance(obj, (np.generic, np.ndarray)) or hasattr(obj, "__dlpack__"):
        array = as_array(obj, argument, field)
        if array.ndim != 0:
            fail(field, f"expected a NumPy scalar for `{argument}`, found an array of shape {array.shape}")
        return array
    if isinstance(obj, (bool, int, float, complex)):
        fail(field, f"expected a NumPy scalar of the output dtype for `{argument}` (numpy.float32(1.0), "
                    f"numpy.int8(3), ...), found {_describe(obj)}; refops never picks a dtype for you")
    raise TypeError(f"{argument}: expected a NumPy scalar, found {type(obj).__name__}")


def integer(obj: Any, argument: str) -> int:
    """An int (Python or NumPy), never a bool or a float."""
    if isinstance(obj, (bool, np.bool_)):
        raise TypeError(f"{argument}: expected an int, found a bool")
    try:
        return operator.index(obj)
    except TypeError:
        raise TypeError(f"{argument}: expected an int, found {type(obj).__name__}") from None


def in_range(value: int, bounds: tuple[int, int], field: str, what: str) -> int:
    low, high = bounds
    if not low <= value <= high:
        fail(field, f"expected {low} to {high} ({what}), found {value}")
    return value


def axis_index(axis: Any, rank: int, field: str, argument: str) -> int:
    """A NumPy-style axis (negative counts from the end) as DirectML's unsigned value. Values
    >= rank pass through for the compiled layer's own diagnostic."""
    value = integer(axis, argument)
    if value < -rank:
        fail(field, f"expected {-rank} to {rank - 1} (`{argument}`, negative counts from the end of "
                    f"{rank} dimensions), found {value}")
    value = value + rank if value < 0 else value
    return in_range(value, (0, MAX_UINT32), field, f"`{argument}`, a UINT")


def sizes(shape: Sequence[Any], field: str, argument: str) -> list[int]:
    """A shape argument as DirectML sizes (a size of 0 passes through: DirectML's diagnostic)."""
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    try:
        values = [integer(s, argument) for s in shape]
    except TypeError:
        raise TypeError(f"{argument}: expected a sequence of ints, found {shape!r}") from None
    if len(values) > MAX_DIMS:
        fail(f"{field}.DimensionCount", f"expected 1 to 8 dimensions, found {len(values)} in `{argument}`")
    for i, v in enumerate(values):
        in_range(v, (0, MAX_UINT32), f"{field}.Sizes[{i}]", f"`{argument}`[{i}], a UINT")
    return values


def same_shape(out: np.ndarray, expected: Sequence[int], field: str, what: str) -> None:
    if tuple(out.shape) != tuple(expected):
        fail(field, f"expected the shape {tuple(expected)} ({what}), found {tuple(out.shape)} (out.shape)")


FEATURE_LEVELS = {name: value for name, value in [
    ("1_0", 0x1000), ("2_0", 0x2000), ("2_1", 0x2100), ("3_0", 0x3000), ("3_1", 0x3100),
    ("4_0", 0x4000), ("4_1", 0x4100), ("5_0", 0x5000), ("5_1", 0x5100), ("5_2", 0x5200),
    ("6_0", 0x6000), ("6_1", 0x6100), ("6_2", 0x6200), ("6_3", 0x6300), ("6_4", 0x6400)]}
LATEST = "6_4"
ARCHS = ("scalar", "sse2", "avx2", "avx512", "neon")


def feature_level(level: Optional[str]) -> int:
    """ "5_1" (or "DML_FEATURE_LEVEL_5_1") as DML_FEATURE_LEVEL's value; None: the latest."""
    if level is None:
        return FEATURE_LEVELS[LATEST]
    if not isinstance(level, str):
        raise TypeError(f"feature_level: expected a str such as \"5_1\", found {type(level).__name__}")
    name = level.removeprefix("DML_FEATURE_LEVEL_")
    if name not in FEATURE_LEVELS:
        fail("feature_level", f"expected one of {', '.join(FEATURE_LEVELS)} (DML_FEATURE_LEVEL_*), found {level!r}")
    return FEATURE_LEVELS[name]


def execute_options(level: Optional[str], arch: Optional[str], threads: Optional[int]) -> dict:
    """The keyword arguments every _refops call takes: feature_level, arch and threads."""
    if arch is not None:
        if not isinstance(arch, str):
            raise TypeError(f"arch: expected a str such as \"avx2\", found {type(arch).__name__}")
        if arch not in ARCHS:
            fail("ExecuteOptions.arch", f"expected one of {', '.join(ARCHS)}, found {arch!r}")
    count = 0  # all
    if threads is not None:
        count = integer(threads, "threads")
        if count < 1:
            fail("ExecuteOptions.max_threads", f"expected at least 1 thread (None: all), found {count}")
    return {"feature_level": feature_level(level), "arch": arch, "threads": count}


def check_unique(out: np.ndarray, field: str) -> None:
    """No two coordinates of `out` on one element (DirectML's rule for outputs), by the rule the
    compiled layer uses: in increasing stride order, each dimension of size > 1 steps past the
    last element the faster ones reach."""
    reach = 1
    for stride, size in sorted((st // out.itemsize, s) for s, st in zip(out.shape, out.strides) if s > 1):
        if stride < reach:
            fail(f"{field}.Strides", f"an output must not address one element twice: a dimension of size "
                                     f"{size} has stride {stride}, inside the span of the dimensions with "
                                     f"smaller strides; expected a stride of at least {reach}")
        reach += stride * (size - 1)
