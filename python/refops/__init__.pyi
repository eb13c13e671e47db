# Type stubs for refops (docs/python.md). Arrays are NumPy arrays or any object with
# __dlpack__ in CPU memory; results are NumPy arrays.
from dataclasses import dataclass
from os import PathLike
from typing import Any, Literal, Optional, Protocol, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

class _DLPack(Protocol):
    def __dlpack__(self, **kwargs: Any) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

ArrayLike = Union[np.ndarray, _DLPack]
ScalarLike = Union[np.generic, np.ndarray]  # a NumPy scalar (or 0-d array) of the output dtype
FeatureLevel = Literal["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2",
                       "6_0", "6_1", "6_2", "6_3", "6_4"]
ArchName = Literal["scalar", "sse2", "avx2", "avx512", "neon"]
NanMode = Literal["propagate", "ignore"]

@dataclass(frozen=True)
class Diagnostic:
    """DirectML's field ("IndicesTensor.Sizes[1]") and what was expected and found."""
    field: str
    message: str

class Error(ValueError):
    """Raised before anything is written; one diagnostic per broken rule."""
    diagnostics: list[Diagnostic]
    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None: ...

class ModelError(Error):
    """A malformed DxDispatch model or dispatchable; fields are JSON paths."""

def one_hot(indices: ArrayLike, values: ArrayLike, axis: int, depth: Optional[int] = None, *,
            out: Optional[ArrayLike] = None, feature_level: Optional[Union[FeatureLevel, str]] = None,
            arch: Optional[Union[ArchName, str]] = None, threads: Optional[int] = None) -> Any:
    """DirectML ONE_HOT. indices: IndicesTensor; values: ValuesTensor (element 0 OffValue,
    logical element 1 OnValue); axis: Axis; depth: OutputTensor.Sizes[axis]; out: OutputTensor."""

def one_hot_v1(indices: ArrayLike, depth: int, on_value: ScalarLike, off_value: ScalarLike, axis: int = -1, *,
               negative_indices: Literal["ignore", "normalize"] = "ignore", out: Optional[ArrayLike] = None,
               feature_level: Optional[Union[FeatureLevel, str]] = None, arch: Optional[Union[ArchName, str]] = None,
               threads: Optional[int] = None) -> Any:
    """OpenVINO OneHot-1 (OneHot-16's negative_indices_mode): fields "indices", "depth",
    "on_value", "off_value", "axis", "output"."""

def diagonal_matrix(shape: Optional[Sequence[int]] = None, offset: int = 0, value: float = 1.0,
                    dtype: Optional[npt.DTypeLike] = None, *, out: Optional[ArrayLike] = None,
                    feature_level: Optional[Union[FeatureLevel, str]] = None,
                    arch: Optional[Union[ArchName, str]] = None, threads: Optional[int] = None) -> Any:
    """DirectML DIAGONAL_MATRIX. shape: OutputTensor.Sizes; offset: Offset; value: Value (a
    FLOAT: rounded to float32 first); dtype: OutputTensor.DataType (default out.dtype, else
    float32); out: OutputTensor."""

def diagonal_matrix1(value: ScalarLike, fill_begin: int = 0, fill_end: int = 1, *,
                     shape: Optional[Sequence[int]] = None, input: Optional[ArrayLike] = None,
                     out: Optional[ArrayLike] = None, feature_level: Optional[Union[FeatureLevel, str]] = None,
                     arch: Optional[Union[ArchName, str]] = None, threads: Optional[int] = None) -> Any:
    """DirectML DIAGONAL_MATRIX1. value: Value (its dtype is ValueDataType); fill_begin:
    DiagonalFillBegin; fill_end: DiagonalFillEnd; input: InputTensor; out: OutputTensor."""

def hardmax(x: ArrayLike, axes: Optional[Union[int, Sequence[int]]] = None, *, nan_mode: NanMode = "propagate",
            out: Optional[ArrayLike] = None, feature_level: Optional[Union[FeatureLevel, str]] = None,
            arch: Optional[Union[ArchName, str]] = None, threads: Optional[int] = None) -> Any:
    """DirectML HARDMAX (axes None) or HARDMAX1 (Axes). x: InputTensor; out: OutputTensor."""

def validate(dispatchable: dict[str, Any], feature_level: Optional[Union[FeatureLevel, str]] = None) -> list[Diagnostic]:
    """Diagnostics of {"type": "DML_OPERATOR_...", "desc": {...}} at the level; empty: valid."""

def minimum_feature_level(dispatchable: dict[str, Any]) -> Optional[str]:
    """The lowest level ("5_1") at which the dispatchable is valid; None if none is."""

def run_model(path: Union[str, PathLike[str]], *, feature_level: Optional[Union[FeatureLevel, str]] = None,
              nan_mode: NanMode = "ignore", arch: Optional[Union[ArchName, str]] = None,
              threads: Optional[int] = None, write_files: bool = True) -> dict[str, np.ndarray]:
    """refops-run in-process: every resource by name, as a 1-D array of its data type."""

def available_archs() -> list[str]:
    """Paths built in and supported by this CPU, best first."""
