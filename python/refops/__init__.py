"""refops: DirectML's ONE_HOT, DIAGONAL_MATRIX(1), HARDMAX(1) and OpenVINO's OneHot-1, bit-exact,
on NumPy arrays (or anything with ``__dlpack__`` in CPU memory).

No silent casts: every array keeps its dtype and a wrong one is refused. Strides >= 0 (multiples
of the itemsize; 0 broadcasts an input) are used in place; ``out`` may be a strided view and
only its addressed elements are written. Every refusal is a :class:`refops.Error` (a
``ValueError``) raised before anything is written, its diagnostics naming DirectML's field.
The GIL is released while a kernel runs.

Common keyword arguments:
  feature_level: "5_1" and the like (DML_FEATURE_LEVEL); validate at this level (default: latest).
  arch: "scalar", "sse2", "avx2", "avx512" or "neon": force one path (default: the best).
  threads: at most this many threads (default: all).
Semantics: SPEC.md (the project's shared documents); the Python guide: docs/python.md.
"""
from __future__ import annotations

import json
import os
from importlib.metadata import PackageNotFoundError, version as _version
from typing import Any, Optional, Sequence

import numpy as np

from . import _arrays as _a
from . import _refops
from ._error import Diagnostic, Error, ModelError, fail as _fail

try:
    __version__ = _version("refops")
except PackageNotFoundError:  # imported from a source tree
    __version__ = "unknown"

__all__ = ["one_hot", "one_hot_v1", "diagonal_matrix", "diagonal_matrix1", "hardmax",
           "validate", "minimum_feature_level", "run_model", "available_archs",
           "Error", "ModelError", "Diagnostic"]


def available_archs() -> list[str]:
    """The paths built in and supported by this CPU, best first (capped by REFOPS_ARCH)."""
    return list(_refops.available_archs())


def _output(out: Any) -> Optional[np.ndarray]:
    return None if out is None else _a.as_array(out, "out", "OutputTensor", output=True)


def _result(out_arg: Any, result: Any) -> Any:
    """With `out`, the object the caller gave (even a DLPack producer); else the new array."""
    return result if out_arg is None else out_arg


def one_hot(indices, values, axis, depth=None, *, out=None, feature_level=None, arch=None, threads=None):
    """DirectML ONE_HOT (DML_ONE_HOT_OPERATOR_DESC).

    indices: IndicesTensor (int32, int64, uint32 or uint64 from 3_0; uint32 before). The same
        ndim as the output, size 1 along `axis`. Negative signed indices count from the end;
        any index outside [-depth, depth) gives an all-off sequence.
    values: ValuesTensor: element 0 is OffValue, logical row-major element 1 is OnValue; the
        same ndim as the output; its dtype is the output's.
    axis: Axis; negative counts from the end.
    depth: OutputTensor.Sizes[axis] (default: out.shape[axis]).
    out: OutputTensor (default: a new array of indices.shape with depth at axis).
    Returns the output.
    """
    ind = _a.as_array(indices, "indices", "IndicesTensor")
    val = _a.as_array(values, "values", "ValuesTensor")
    dst = _output(out)
    options = _a.execute_options(feature_level, arch, threads)
    rank = ind.ndim if dst is None else dst.ndim
    ax = _a.axis_index(axis, rank, "Axis", "axis")
    if dst is not None:
        if depth is not None and ax < dst.ndim:
            d = _a.integer(depth, "depth")
            if d != dst.shape[ax]:
                _fail(f"OutputTensor.Sizes[{ax}]", f"expected {d} (depth), found {dst.shape[ax]} (out.shape[{ax}])")
        shape = list(dst.shape)
    else:
        if depth is None:
            raise TypeError("one_hot() needs depth= or out= (OutputTensor.Sizes[axis])")
        shape = list(ind.shape)
        if ax < len(shape):
            d = _a.integer(depth, "depth")
            shape[ax] = _a.in_range(d, (0, _a.MAX_UINT32), f"OutputTensor.Sizes[{ax}]", "depth, a UINT")
    shape = _a.sizes(shape, "OutputTensor", "out.shape")
    return _result(out, _refops.one_hot(ind, val, ax, shape, dst, **options))


def one_hot_v1(indices, depth, on_value, off_value, axis=-1, *, negative_indices="ignore", out=None,
               feature_level=None, arch=None, threads=None):
    """OpenVINO OneHot-1 (with OneHot-16's negative_indices_mode); not a DirectML operator, so
    diagnostics name OpenVINO's inputs ("indices", "depth", "axis", "on_value", "off_value").

    indices: int32 or int64 (uint32, uint64 too), rank 0 to 7.
    depth: the size of the new dimension (1 to 2**32-1).
    on_value, off_value: NumPy scalars of one dtype, the output's (any of the 11).
    axis: where the new dimension goes in the output, in [-(rank+1), rank].
    negative_indices: "ignore" (all off, OpenVINO's reference) or "normalize" (index + depth).
    out: the output (default: a new array); a strided view is filled from a packed result.
    feature_level: accepted for symmetry and checked; OneHot-1 has no DirectML level.
    """
    ind = _a.as_array(indices, "indices", "indices")
    on = _a.as_scalar(on_value, "on_value", "on_value")
    off = _a.as_scalar(off_value, "off_value", "off_value")
    dst = None if out is None else _a.as_array(out, "out", "output", output=True)
    options = _a.execute_options(feature_level, arch, threads)
    del options["feature_level"]
    if negative_indices not in ("ignore", "normalize"):
        _fail("negative_indices", f"expected \"ignore\" or \"normalize\", found {negative_indices!r}")
    d = _a.in_range(_a.integer(depth, "depth"), _a.INT64_RANGE, "depth", "a positive size")
    ax = _a.in_range(_a.integer(axis, "axis"), _a.INT64_RANGE, "axis", "an axis of the output")
    call = dict(indices=ind, depth=d, on_value=on, off_value=off, axis=ax,
                normalize=negative_indices == "normalize", **options)
    if dst is None:
        return _refops.one_hot_v1(out=None, **call)
    if dst.dtype != on.dtype:
        _fail("output.DataType", f"expected {on.dtype} (the dtype of on_value and off_value), found {dst.dtype} (out.dtype)")
    rank = ind.ndim
    if 1 <= d <= _a.MAX_UINT32 and -(rank + 1) <= ax <= rank:
        shape = list(ind.shape)
        shape.insert(ax + rank + 1 if ax < 0 else ax, d)
        _a.same_shape(dst, shape, "output.Sizes", "indices.shape with depth at axis")
    if dst.flags.c_contiguous and dst.flags.aligned:
        _refops.one_hot_v1(out=dst, **call)
        return out
    # OneHotV1Desc describes a packed output only: compute one, then copy into the view.
    _a.check_unique(dst, "output")
    if np.may_share_memory(dst, ind):
        _fail("output.Binding", "expected an output that shares no byte with indices (these operators "
                                "do not run in place), found their addressed bytes overlapping")
    np.copyto(dst, _refops.one_hot_v1(out=None, **call))
    return out


def diagonal_matrix(shape=None, offset=0, value=1.0, dtype=None, *, out=None, feature_level=None, arch=None,
                    threads=None):
    """DirectML DIAGONAL_MATRIX (DML_DIAGONAL_MATRIX_OPERATOR_DESC): out[..., y, x] = value where
    y + offset == x, else 0.

    shape: OutputTensor.Sizes (2 to 4 dimensions; 4 before 4_0); default out.shape.
    offset: Offset (an INT).
    value: Value, DirectML's FLOAT: rounded to float32 first, then converted to the output type
        (integers: truncated toward zero and saturated; NaN gives 0).
    dtype: OutputTensor.DataType (default: out.dtype, else float32).
    out: OutputTensor (default: a new array).
    """
    dst = _output(out)
    options = _a.execute_options(feature_level, arch, threads)
    if dtype is None:
        dt = dst.dtype if dst is not None else np.dtype(np.float32)
    else:
        dt = np.dtype(dtype)
        if dst is not None and dst.dtype != dt:
            _fail("OutputTensor.DataType", f"expected {dt} (dtype), found {dst.dtype} (out.dtype)")
    code = _a.data_type(dt, "OutputTensor.DataType", "dtype")
    if shape is None:
        if dst is None:
            raise TypeError("diagonal_matrix() needs shape= or out= (OutputTensor.Sizes)")
        shape = dst.shape
    sizes = _a.sizes(shape, "OutputTensor", "shape")
    if dst is not None:
        _a.same_shape(dst, sizes, "OutputTensor.Sizes", "shape")
    off = _a.in_range(_a.integer(offset, "offset"), _a.INT32_RANGE, "Offset", "an INT")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"value: expected a real number, found {type(value).__name__}")
    with np.errstate(over="ignore"):
        value32 = float(np.float32(value))
    return _result(out, _refops.diagonal_matrix(sizes, code, off, value32, dst, **options))


def diagonal_matrix1(value, fill_begin=0, fill_end=1, *, shape=None, input=None, out=None, feature_level=None,
                     arch=None, threads=None):
    """DirectML DIAGONAL_MATRIX1 (DML_DIAGONAL_MATRIX1_OPERATOR_DESC, feature level 5_1):
    out[..., y, x] = value where fill_begin <= x - y < fill_end (fill_begin > fill_end: outside
    fill_end <= x - y < fill_begin), else input[..., y, x] (or 0 without input).

    value: Value, a NumPy scalar whose dtype is ValueDataType, the output's.
    fill_begin, fill_end: DiagonalFillBegin (inclusive), DiagonalFillEnd (exclusive), INTs.
    shape: OutputTensor.Sizes (2 to 4 dimensions); default input.shape or out.shape.
    input: InputTensor (optional): the output's dtype and sizes; strides may broadcast.
    out: OutputTensor (default: a new array).
    """
    val = _a.as_scalar(value, "value", "ValueDataType")
    src = None if input is None else _a.as_array(input, "input", "InputTensor")
    dst = _output(out)
    options = _a.execute_options(feature_level, arch, threads)
    if shape is not None:
        sizes = _a.sizes(shape, "OutputTensor", "shape")
        if dst is not None:
            _a.same_shape(dst, sizes, "OutputTensor.Sizes", "shape")
    elif dst is not None:
        sizes = _a.sizes(dst.shape, "OutputTensor", "out.shape")
    elif src is not None:
        sizes = _a.sizes(src.shape, "OutputTensor", "input.shape")
    else:
        raise TypeError("diagonal_matrix1() needs shape=, input= or out= (OutputTensor.Sizes)")
    begin = _a.in_range(_a.integer(fill_begin, "fill_begin"), _a.INT32_RANGE, "DiagonalFillBegin", "an INT")
    end = _a.in_range(_a.integer(fill_end, "fill_end"), _a.INT32_RANGE, "DiagonalFillEnd", "an INT")
    return _result(out, _refops.diagonal_matrix1(sizes, val, begin, end, src, dst, **options))


def hardmax(x, axes=None, *, nan_mode="propagate", out=None, feature_level=None, arch=None, threads=None):
    """DirectML HARDMAX (axes None: over the last dimension, DML_ACTIVATION_HARDMAX_OPERATOR_DESC)
    or HARDMAX1 (DML_ACTIVATION_HARDMAX1_OPERATOR_DESC, 5_1) over `axes`: 1 at the first maximum
    of each group (row-major over the axes), 0 elsewhere.

    x: InputTensor, float32 or float16.
    axes: Axes, a set of dimensions (an int or a sequence; negative counts from the end).
    nan_mode: "propagate" (NaN wins, the first NaN; SPEC's default) or "ignore" (NaN never wins;
        DirectML's reported behaviour and refops-run's default).
    out: OutputTensor: x's dtype and shape (default: a new array).
    """
    src = _a.as_array(x, "x", "InputTensor")
    dst = _output(out)
    options = _a.execute_options(feature_level, arch, threads)
    if nan_mode not in ("propagate", "ignore"):
        _fail("nan_mode", f"expected \"propagate\" or \"ignore\", found {nan_mode!r}")
    ax = None
    if axes is not None:
        listed = [axes] if isinstance(axes, (int, np.integer)) else list(axes)
        if len(listed) > _a.MAX_DIMS:
            _fail("Axes", f"expected at most 8 axes (each a dimension of InputTensor, none twice), found {len(listed)}")
        ax = [_a.axis_index(a, src.ndim, f"Axes[{i}]", f"axes[{i}]") for i, a in enumerate(listed)]
    return _result(out, _refops.hardmax(src, ax, nan_mode == "ignore", dst, **options))


def _dispatchable_json(dispatchable: Any) -> str:
    """A dispatchable dict as the JSON text refops::model reads (NumPy numbers become JSON's)."""
    if not isinstance(dispatchable, dict):
        raise TypeError(f"dispatchable: expected a dict in DxDispatch's form, {{\"type\": ..., \"desc\": {{...}}}}, "
                        f"found {type(dispatchable).__name__}")

    def plain(value):
        if isinstance(value, (np.generic, np.ndarray)):
            return value.tolist()
        raise TypeError(f"dispatchable: {type(value).__name__} is not a JSON value")

    return json.dumps(dispatchable, default=plain)


def validate(dispatchable, feature_level=None) -> list[Diagnostic]:
    """The diagnostics of a dispatchable in DxDispatch's form at `feature_level` (default:
    latest); empty when it is valid there. Fields are DirectML's ("IndicesTensor.Sizes[1]").

    dispatchable: {"type": "DML_OPERATOR_ONE_HOT", "desc": {"IndicesTensor": {"DataType":
        "UINT32", "Sizes": [1, 1, 3, 1]}, ..., "Axis": 3}} (research/dxdispatch.md).
    Raises refops.ModelError when the dict itself is malformed (a missing field, an unknown
    operator or data type name).
    """
    level = _a.feature_level(feature_level)
    return [Diagnostic(f, m) for f, m in _refops.validate(_dispatchable_json(dispatchable), level)]


def minimum_feature_level(dispatchable) -> Optional[str]:
    """The lowest feature level ("5_1") at which the dispatchable is valid; None if none is."""
    return _refops.minimum_feature_level(_dispatchable_json(dispatchable))


def run_model(path, *, feature_level=None, nan_mode="ignore", arch=None, threads=None, write_files=True):
    """refops-run in-process: runs a DxDispatch model's commands in order and returns every
    resource by name, {name: 1-D ndarray of its initialValuesDataType}.

    feature_level, arch, threads: as refops-run's --feature-level, --arch, --threads.
    nan_mode: HARDMAX's NaN rule; "ignore" by default, DirectML's (refops-run's --nan-mode).
    write_files: False skips the model's writeFile commands (default: write them, as refops-run
        does, relative to the current directory).
    Raises refops.Error when a description is invalid (nothing runs) and refops.ModelError when
    the model is malformed; each diagnostic's field is the JSON path.
    """
    options = _a.execute_options(feature_level, arch, threads)
    if nan_mode not in ("propagate", "ignore"):
        _fail("--nan-mode", f"expected \"propagate\" or \"ignore\", found {nan_mode!r}")
    if not isinstance(write_files, bool):
        raise TypeError(f"write_files: expected a bool, found {type(write_files).__name__}")
    return _refops.run_model(os.fspath(path), ignore_nan=nan_mode == "ignore", write_files=write_files, **options)
