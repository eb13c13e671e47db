"""Every refusal: refops.Error (a ValueError) with DirectML's field as validate() names it and a
message that says what was expected, raised before anything is written (the sentinel-filled
`out` keeps every byte)."""
import numpy as np
import pytest

import refops
from support import SENTINEL

f32, f16, i32, u32 = np.float32, np.float16, np.int32, np.uint32
INDICES = np.array([[0], [3], [2]], u32)      # {3,1}, axis 1
VALUES = np.array([[0, 1]], f32)              # {1,2}
X = np.array([[1, 3, 2], [5, 4, 5]], f32)


def sentinel(shape, dtype=f32):
    out = np.empty(shape, dtype)
    out.view(np.uint8)[...] = SENTINEL
    return out


def strided(base_shape, index, dtype=f32):
    base = sentinel(base_shape, dtype)
    return base[index], base


def owner(a):
    """The array that owns `a`'s memory."""
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def refused(call, field, text, out=None):
    """`call(out)` raises refops.Error whose diagnostics include `field` with `text` in its
    message, and leaves every byte of `out` (and its base) as it was."""
    keep = None if out is None else owner(out)
    before = None if keep is None else keep.copy()
    with pytest.raises(refops.Error) as caught:
        call(out)
    error = caught.value
    assert isinstance(error, ValueError)
    fields = [d.field for d in error.diagnostics]
    assert field in fields, f"{fields}: {error}"
    message = error.diagnostics[fields.index(field)].message
    assert text in message, message
    assert str(error).count("\n") == len(error.diagnostics) - 1
    if keep is not None:
        assert (keep.view(np.uint8) == before.view(np.uint8)).all(), "out was written"
    return error


def as_strided(a, shape, strides):
    """A view of `a` with these byte strides (its base stays `a`)."""
    return np.ndarray(shape, a.dtype, buffer=a, strides=strides)


def misaligned(shape, dtype):
    raw = np.zeros(np.prod(shape) * np.dtype(dtype).itemsize + 1, np.uint8)
    raw[...] = SENTINEL
    return raw[1:].view(dtype).reshape(shape)


# (id, call taking out, out or None, field, text)
ONE_HOT = [
    ("indices dtype the level lacks", lambda o: refops.one_hot(INDICES.astype(f32), VALUES, 1, 4, out=o),
     sentinel((3, 4)), "IndicesTensor.DataType", "found FLOAT32"),
    ("indices int64 below 3_0", lambda o: refops.one_hot(INDICES.astype(np.int64), VALUES, 1, 4, out=o,
                                                          feature_level="2_1"),
     sentinel((3, 4)), "IndicesTensor.DataType", "3_0"),
    ("values dtype DirectML lacks", lambda o: refops.one_hot(INDICES, VALUES.astype(bool), 1, 4, out=o),
     sentinel((3, 4)), "ValuesTensor.DataType", "found numpy bool"),
    ("out dtype differs from values (no cast)", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o),
     sentinel((3, 4), f16), "ValuesTensor.DataType", "the DataType of OutputTensor"),
    ("indices size at axis", lambda o: refops.one_hot(np.zeros((3, 2), u32), VALUES, 1, out=o),
     sentinel((3, 4)), "IndicesTensor.Sizes[1]", "expected 1"),
    ("indices size off axis", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o),
     sentinel((2, 4)), "IndicesTensor.Sizes[0]", "expected 2"),
    ("axis too large", lambda o: refops.one_hot(INDICES, VALUES, 2, out=o), sentinel((3, 4)), "Axis",
     "expected less than 2"),
    ("axis too negative", lambda o: refops.one_hot(INDICES, VALUES, -3, out=o), sentinel((3, 4)), "Axis",
     "negative counts from the end"),
    ("values rank", lambda o: refops.one_hot(INDICES, np.array([0, 1], f32), 1, out=o), sentinel((3, 4)),
     "ValuesTensor.DimensionCount", "expected 2"),
    ("one value", lambda o: refops.one_hot(INDICES, np.array([[1]], f32), 1, out=o), sentinel((3, 4)),
     "ValuesTensor.Sizes", "at least 2 elements"),
    ("size 0", lambda o: refops.one_hot(np.zeros((0, 1), u32), VALUES, 1, 4, out=o), None,
     "IndicesTensor.Sizes[0]", "found 0"),
    ("depth 0", lambda o: refops.one_hot(INDICES, VALUES, 1, 0, out=o), None, "OutputTensor.Sizes[1]", "found 0"),
    ("depth disagrees with out", lambda o: refops.one_hot(INDICES, VALUES, 1, 5, out=o), sentinel((3, 4)),
     "OutputTensor.Sizes[1]", "expected 5 (depth)"),
    ("out addresses an element twice", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o),
     as_strided(sentinel((4,)), (3, 4), (0, 4)), "OutputTensor.Strides[0]", "address one element twice"),
    ("out interleaved", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o),
     as_strided(sentinel((12,)), (3, 4), (4, 8)), "OutputTensor.Strides[1]", "address one element twice"),
    ("negative stride", lambda o: refops.one_hot(INDICES[::-1], VALUES, 1, out=o), sentinel((3, 4)),
     "IndicesTensor.Strides[0]", "`indices` has a negative stride"),
    ("negative out stride", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o[:, ::-1]), sentinel((3, 4)),
     "OutputTensor.Strides[1]", "`out` has a negative stride"),
    ("stride not a multiple of the itemsize",
     lambda o: refops.one_hot(INDICES, as_strided(np.arange(4, dtype=f32), (1, 2), (0, 6)), 1, out=o),
     sentinel((3, 4)), "ValuesTensor.Strides[1]", "stride of 6 bytes on dimension 1, not a multiple of its itemsize 4"),
    ("out overlaps values", None, None, "OutputTensor.Binding", "expected no byte shared with ValuesTensor"),
    ("misaligned out", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o), misaligned((3, 4), f32),
     "OutputTensor.Binding.Offset", "aligned to 4 bytes"),
    ("read-only out", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o),
     np.broadcast_to(sentinel((1, 4)), (3, 4)), "OutputTensor", "writable"),
    ("byte-swapped values", lambda o: refops.one_hot(INDICES, VALUES.astype(">f4"), 1, out=o), sentinel((3, 4)),
     "ValuesTensor.DataType", "native byte order"),
    ("more than 8 dimensions", lambda o: refops.one_hot(np.zeros((1,) * 9, u32), VALUES, 0, 2, out=o), None,
     "IndicesTensor.DimensionCount", "found 9"),
    ("a Python number for an array", lambda o: refops.one_hot(INDICES, 1.0, 1, 4, out=o), None, "ValuesTensor",
     "found a Python float"),
    ("unknown feature level", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o, feature_level="5_3"),
     sentinel((3, 4)), "feature_level", "expected one of 1_0"),
    ("below the operator's level", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o, feature_level="1_0"),
     sentinel((3, 4)), "FeatureLevel", "2_0"),
    ("unknown arch", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o, arch="sse9"), sentinel((3, 4)),
     "ExecuteOptions.arch", "found 'sse9'"),
    ("threads 0", lambda o: refops.one_hot(INDICES, VALUES, 1, out=o, threads=0), sentinel((3, 4)),
     "ExecuteOptions.max_threads", "at least 1"),
]

HARDMAX = [
    ("int32 input", lambda o: refops.hardmax(X.astype(i32), out=o), sentinel((2, 3), i32), "InputTensor.DataType",
     "found INT32"),
    ("float64 input", lambda o: refops.hardmax(X.astype(np.float64), [1], out=o), sentinel((2, 3), np.float64),
     "InputTensor.DataType", "found FLOAT64"),
    ("out dtype differs", lambda o: refops.hardmax(X, [1], out=o), sentinel((2, 3), f16), "OutputTensor.DataType",
     "FLOAT32"),
    ("out shape differs", lambda o: refops.hardmax(X, [1], out=o), sentinel((2, 4)), "OutputTensor.Sizes[1]",
     "expected 3"),
    ("duplicate axes", lambda o: refops.hardmax(X, [1, -1], out=o), sentinel((2, 3)), "Axes[1]", "distinct axes"),
    ("no axes", lambda o: refops.hardmax(X, [], out=o), sentinel((2, 3)), "Axes", "AxisCount 0"),
    ("more than 8 axes", lambda o: refops.hardmax(X, [0, 1] * 5, out=o), sentinel((2, 3)), "Axes", "found 10"),
    ("axis too large", lambda o: refops.hardmax(X, [2], out=o), sentinel((2, 3)), "Axes[0]", "found 2"),
    ("axis too negative", lambda o: refops.hardmax(X, [-3], out=o), sentinel((2, 3)), "Axes[0]", "found -3"),
    ("HARDMAX effective rank 3", lambda o: refops.hardmax(np.ones((2, 2, 3), f32), out=o), sentinel((2, 2, 3)),
     "InputTensor.Sizes", "rank"),
    ("HARDMAX1 below 5_1", lambda o: refops.hardmax(X, [1], out=o, feature_level="5_0"), sentinel((2, 3)),
     "FeatureLevel", "5_1"),
    ("nan_mode", lambda o: refops.hardmax(X, out=o, nan_mode="first"), sentinel((2, 3)), "nan_mode", "'first'"),
    ("float16 out of a float32 input", lambda o: refops.hardmax(X, out=o), sentinel((2, 3), f16),
     "OutputTensor.DataType", "FLOAT32"),
]

DIAGONAL = [
    ("rank 1", lambda o: refops.diagonal_matrix((3,), out=o), None, "OutputTensor.DimensionCount", "found 1"),
    ("rank 5", lambda o: refops.diagonal_matrix((1, 1, 1, 3, 3), out=o), None, "OutputTensor.DimensionCount",
     "found 5"),
    ("bool dtype", lambda o: refops.diagonal_matrix((3, 3), dtype=bool, out=o), None, "OutputTensor.DataType",
     "found numpy bool"),
    ("float64 below 5_1", lambda o: refops.diagonal_matrix(out=o, feature_level="5_0"), sentinel((3, 3), np.float64),
     "OutputTensor.DataType", "5_1"),
    ("offset beyond INT", lambda o: refops.diagonal_matrix((3, 3), offset=2**31, out=o), None, "Offset",
     "2147483647"),
    ("dtype disagrees with out", lambda o: refops.diagonal_matrix(dtype=np.int32, out=o), sentinel((3, 3)),
     "OutputTensor.DataType", "expected int32 (dtype)"),
    ("shape disagrees with out", lambda o: refops.diagonal_matrix((3, 4), out=o), sentinel((3, 3)),
     "OutputTensor.Sizes", "(3, 4)"),
    ("size 0", lambda o: refops.diagonal_matrix((0, 3), out=o), None, "OutputTensor.Sizes[0]", "found 0"),
    ("out addresses an element twice", lambda o: refops.diagonal_matrix(out=o), as_strided(sentinel((3,)), (3, 3), (4, 0)),
     "OutputTensor.Strides[1]", "stride 0"),
    ("DIAGONAL_MATRIX1 Python value", lambda o: refops.diagonal_matrix1(1.0, shape=(3, 3), out=o), sentinel((3, 3)),
     "ValueDataType", "found a Python float"),
    ("DIAGONAL_MATRIX1 value dtype differs from out", lambda o: refops.diagonal_matrix1(np.int8(1), out=o),
     sentinel((3, 3)), "ValueDataType", "FLOAT32"),
    ("DIAGONAL_MATRIX1 input sizes", lambda o: refops.diagonal_matrix1(f32(1), input=np.ones((3, 2), f32), out=o),
     sentinel((3, 3)), "InputTensor.Sizes[1]", "expected 3"),
    ("DIAGONAL_MATRIX1 input dtype", lambda o: refops.diagonal_matrix1(f32(1), input=np.ones((3, 3), f16), out=o),
     sentinel((3, 3)), "InputTensor.DataType", "FLOAT32"),
    ("DIAGONAL_MATRIX1 begin beyond INT", lambda o: refops.diagonal_matrix1(f32(1), -(2**31) - 1, out=o),
     sentinel((3, 3)), "DiagonalFillBegin", "-2147483648"),
    ("DIAGONAL_MATRIX1 below 5_1", lambda o: refops.diagonal_matrix1(f32(1), out=o, feature_level="4_1"),
     sentinel((3, 3)), "FeatureLevel", "5_1"),
    ("DIAGONAL_MATRIX1 input overlaps out", None, None, "OutputTensor.Binding", "expected no byte shared with InputTensor"),
]

V1 = np.array([0, 2, -1], i32)
ONE_HOT_V1 = [
    ("on/off dtypes differ", lambda o: refops.one_hot_v1(V1, 3, f32(1), f16(0), out=o), None, "off_value", "FLOAT32"),
    ("Python on_value", lambda o: refops.one_hot_v1(V1, 3, 1, f32(0), out=o), None, "on_value", "found a Python int"),
    ("depth 0", lambda o: refops.one_hot_v1(V1, 0, f32(1), f32(0), out=o), None, "depth", "found 0"),
    ("axis too large", lambda o: refops.one_hot_v1(V1, 3, f32(1), f32(0), 2, out=o), None, "axis", "found 2"),
    ("float indices", lambda o: refops.one_hot_v1(V1.astype(f32), 3, f32(1), f32(0), out=o), None, "indices.DataType",
     "FLOAT32"),
    ("negative_indices", lambda o: refops.one_hot_v1(V1, 3, f32(1), f32(0), negative_indices="wrap", out=o), None,
     "negative_indices", "'wrap'"),
    ("out dtype", lambda o: refops.one_hot_v1(V1, 3, f32(1), f32(0), out=o), sentinel((3, 3), f16), "output.DataType",
     "float32"),
    ("out shape", lambda o: refops.one_hot_v1(V1, 3, f32(1), f32(0), out=o), sentinel((3, 4)), "output.Sizes",
     "(3, 3)"),
    ("strided out addresses an element twice", lambda o: refops.one_hot_v1(V1, 3, f32(1), f32(0), out=o),
     as_strided(sentinel((9,)), (3, 3), (8, 4)), "output.Strides", "address one element twice"),
    ("strided out overlaps indices", None, None, "output.Binding", "shares no byte with indices"),
    ("packed out overlaps indices", None, None, "output.Binding", "expected no byte shared with indices"),
]


def overlap_case(case_id):
    """Calls whose out shares memory with an input: made fresh, since out and input are one buffer."""
    buffer = sentinel((16,))
    if case_id == "out overlaps values":
        return lambda o: refops.one_hot(INDICES, buffer[:2].reshape(1, 2), 1, out=o), buffer[1:13].reshape(3, 4)
    if case_id == "DIAGONAL_MATRIX1 input overlaps out":
        return lambda o: refops.diagonal_matrix1(f32(1), input=buffer[:9].reshape(3, 3), out=o), buffer[7:16].reshape(3, 3)
    ints = np.zeros(32, i32)
    ints[:3] = V1
    if case_id == "strided out overlaps indices":
        return lambda o: refops.one_hot_v1(ints[:3], 3, i32(1), i32(0), out=o), ints[2:20:2].reshape(3, 3)
    return lambda o: refops.one_hot_v1(ints[:3], 3, i32(1), i32(0), out=o), ints[2:11].reshape(3, 3)


@pytest.mark.parametrize("case_id, call, out, field, text", ONE_HOT + HARDMAX + DIAGONAL + ONE_HOT_V1,
                         ids=[c[0] for c in ONE_HOT + HARDMAX + DIAGONAL + ONE_HOT_V1])
def test_refused(case_id, call, out, field, text):
    if call is None:
        call, out = overlap_case(case_id)
        before = owner(out).copy()
        refused(call, field, text, out)
        assert (owner(out).view(np.uint8) == before.view(np.uint8)).all()
        return
    refused(call, field, text or "", out)


def test_unavailable_arch_refused():
    missing = [a for a in ("avx512", "neon", "avx2", "sse2") if a not in refops.available_archs()]
    if not missing:
        pytest.skip("every path is available on this CPU")
    out = sentinel((3, 4))
    refused(lambda o: refops.one_hot(INDICES, VALUES, 1, out=o, arch=missing[0]), "ExecuteOptions.arch",
            "expected one of the available paths", out)


def test_every_diagnostic_reported():
    """Several broken rules: all of them, each with its field."""
    with pytest.raises(refops.Error) as caught:
        refops.one_hot(np.zeros((3, 2), f32), VALUES, 1, out=sentinel((3, 4), f16))
    fields = {d.field for d in caught.value.diagnostics}
    assert {"IndicesTensor.DataType", "ValuesTensor.DataType"} <= fields


def test_type_errors_only_for_non_arrays():
    with pytest.raises(TypeError):
        refops.one_hot([[0], [1]], VALUES, 1, 4)  # a list is not an array: no dtype guessed
    with pytest.raises(TypeError):
        refops.hardmax("x")
    with pytest.raises(TypeError):
        refops.one_hot(INDICES, VALUES, 1)  # neither depth nor out
    with pytest.raises(TypeError):
        refops.diagonal_matrix()


def test_error_pickles_with_its_diagnostics():
    import pickle
    with pytest.raises(refops.Error) as caught:
        refops.hardmax(X.astype(i32))
    again = pickle.loads(pickle.dumps(caught.value))
    assert again.diagnostics == caught.value.diagnostics and str(again) == str(caught.value)
