"""refops against the ONNX reference evaluator (onnx.reference) and ONNX Runtime where their
semantics agree, and the cases where they differ (docs/python.md, "Where ONNX differs"), each
shown by a test. Both are test-only dependencies."""
import numpy as np
import pytest

import refops
from support import assert_same

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

ELEMENT = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
           np.dtype(np.float64): TensorProto.DOUBLE, np.dtype(np.int32): TensorProto.INT32,
           np.dtype(np.int64): TensorProto.INT64}


def onnx_model(op, inputs, opset, **attributes):
    """A one-node model over named NumPy inputs; the output has the type of the input named
    "v" (OneHot's values) or else of the first input."""
    names = list(inputs)
    like = inputs["v"] if "v" in inputs else inputs[names[0]]
    node = helper.make_node(op, names, ["y"], **attributes)
    graph = helper.make_graph([node], op, [helper.make_tensor_value_info(n, ELEMENT[inputs[n].dtype], None)
                                           for n in names],
                              [helper.make_tensor_value_info("y", ELEMENT[like.dtype], None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def reference(op, inputs, opset, **attributes):
    return ReferenceEvaluator(onnx_model(op, inputs, opset, **attributes)).run(None, inputs)[0]


def runtime(op, inputs, opset, **attributes):
    model = onnx_model(op, inputs, opset, **attributes)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, inputs)[0]


BOTH = [reference, runtime]


# ---- Where they agree -------------------------------------------------------------------

@pytest.mark.parametrize("evaluator", BOTH)
def test_one_hot_agrees(rng, evaluator):
    for case in range(20):
        rank = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 4, rank))
        depth = int(rng.integers(1, 6))
        indices = rng.integers(-depth - 1, depth + 2, shape).astype(np.int64)
        values = np.array(rng.choice([-3.5, 2.0, 7.25, 0.5], 2, replace=False), np.float32)  # finite, off != on
        axis = int(rng.integers(-(rank + 1), rank + 1))
        theirs = evaluator("OneHot", {"i": indices, "d": np.array(depth, np.int64), "v": values}, 11, axis=axis)
        ours = refops.one_hot_v1(indices, depth, values[1], values[0], axis, negative_indices="normalize")
        assert_same(ours, theirs.astype(np.float32), f"case {case}: {indices.tolist()} depth {depth} axis {axis}")
        # DirectML's form: indices with a size-1 dimension at the (non-negative) axis.
        at = axis + rank + 1 if axis < 0 else axis
        values_nd = values.reshape((1,) * rank + (2,))
        assert_same(refops.one_hot(np.expand_dims(indices, at), values_nd, at, depth), ours)


@pytest.mark.parametrize("evaluator", BOTH)
def test_hardmax13_agrees(rng, evaluator):
    """Hardmax-13 over one axis is HARDMAX1 with Axes {axis}; ties go to the first in both."""
    for case in range(20):
        shape = tuple(int(s) for s in rng.integers(1, 5, int(rng.integers(1, 4))))
        x = rng.integers(-3, 4, shape).astype(np.float32)  # ties are common
        axis = int(rng.integers(-len(shape), len(shape)))
        theirs = evaluator("Hardmax", {"x": x}, 13, axis=axis)
        assert_same(refops.hardmax(x, [axis]), theirs, f"case {case}: {x.tolist()} axis {axis}")


@pytest.mark.parametrize("evaluator", [runtime])
def test_hardmax11_agrees(rng, evaluator):
    """Hardmax-11 flattens the dimensions from `axis` on: HARDMAX1 over all of them (ONNX
    Runtime; the reference evaluator differs, below)."""
    for case in range(20):
        shape = tuple(int(s) for s in rng.integers(1, 4, int(rng.integers(1, 4))))
        x = rng.integers(-3, 4, shape).astype(np.float32)
        axis = int(rng.integers(0, len(shape)))
        theirs = evaluator("Hardmax", {"x": x}, 11, axis=axis)
        assert_same(refops.hardmax(x, list(range(axis, len(shape)))), theirs, f"case {case} axis {axis}")


@pytest.mark.parametrize("evaluator", BOTH)
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_eye_like_agrees(evaluator, dtype):
    for rows, cols in [(3, 3), (2, 5), (5, 2)]:
        for k in range(-6, 7):
            theirs = evaluator("EyeLike", {"x": np.zeros((rows, cols), dtype)}, 9, k=k)
            assert_same(refops.diagonal_matrix((rows, cols), offset=k, dtype=dtype), theirs, f"{rows}x{cols} k {k}")


@pytest.mark.parametrize("evaluator", BOTH)
def test_trilu_agrees(rng, evaluator):
    """Trilu keeps a triangle and zeroes the rest: DIAGONAL_MATRIX1 with value 0 on the zeroed
    band and InputTensor elsewhere (upper: zeros where x - y < k; lower: where x - y > k)."""
    lowest, highest = -(2**31), 2**31 - 1
    for upper in (1, 0):
        for k in range(-4, 5):
            x = rng.standard_normal((2, 3, 4)).astype(np.float32) + 5  # never zero
            theirs = evaluator("Trilu", {"x": x, "k": np.array(k, np.int64)}, 14, upper=upper)
            begin, end = (lowest, k) if upper else (k + 1, highest)
            assert_same(refops.diagonal_matrix1(np.float32(0), begin, end, input=x), theirs, f"upper {upper} k {k}")


# ---- Where they differ ------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # the evaluator's inf - inf
def test_differs_one_hot_infinite_values_reference_gives_nan():
    """The reference evaluator computes y * (on - off) + off: an infinite on or off value makes
    NaN. refops (and ONNX Runtime) write the values themselves."""
    indices, depth = np.array([0, 2], np.int64), 3
    values = np.array([-np.inf, np.inf], np.float32)
    theirs = reference("OneHot", {"i": indices, "d": np.array(depth, np.int64), "v": values}, 11)
    assert np.isnan(theirs).all()
    ours = refops.one_hot_v1(indices, depth, np.float32(np.inf), np.float32(-np.inf))
    assert_same(ours, np.array([[np.inf, -np.inf, -np.inf], [-np.inf, -np.inf, np.inf]], np.float32))
    assert_same(ours, runtime("OneHot", {"i": indices, "d": np.array(depth, np.int64), "v": values}, 11))


def test_differs_one_hot_negative_zero_off_value_reference_gives_positive_zero():
    """Same formula: off = -0.0 comes out as 0 * (on - off) + (-0.0) = +0.0."""
    indices, depth = np.array([1], np.int64), 3
    values = np.array([-0.0, 1], np.float32)
    theirs = reference("OneHot", {"i": indices, "d": np.array(depth, np.int64), "v": values}, 11)
    assert np.signbit(theirs).sum() == 0
    ours = refops.one_hot_v1(indices, depth, np.float32(1), np.float32(-0.0))
    assert np.signbit(ours).tolist() == [[True, False, True]]


def test_differs_negative_indices_openvino_ignores_onnx_normalizes():
    """ONNX (and DirectML's ONE_HOT) count a negative index from the end; OpenVINO's OneHot
    reference, refops.one_hot_v1's default (negative_indices="ignore"), makes the row all off."""
    indices, depth = np.array([-1], np.int64), 3
    values = np.array([0, 1], np.float32)
    theirs = reference("OneHot", {"i": indices, "d": np.array(depth, np.int64), "v": values}, 11)
    assert theirs.tolist() == [[0, 0, 1]]
    assert refops.one_hot_v1(indices, depth, np.float32(1), np.float32(0)).tolist() == [[0, 0, 0]]
    assert refops.one_hot_v1(indices, depth, np.float32(1), np.float32(0), negative_indices="normalize").tolist() \
        == [[0, 0, 1]]


def test_differs_one_hot_float_indices_onnx_takes_them_refops_refuses():
    """ONNX's OneHot takes float indices (the spec casts them to integers; the reference
    evaluator compares 1.7 with each position and so matches none). refops casts nothing."""
    indices = np.array([1.7], np.float32)
    theirs = reference("OneHot", {"i": indices, "d": np.array(3, np.int64), "v": np.array([0, 1], np.float32)}, 11)
    assert theirs.tolist() == [[0, 0, 0]]
    with pytest.raises(refops.Error) as caught:
        refops.one_hot_v1(indices, 3, np.float32(1), np.float32(0))
    assert caught.value.diagnostics[0].field == "indices.DataType"


def test_differs_hardmax_nan_runtime_skips_nan_and_leaves_all_nan_rows_empty():
    """ONNX Runtime never picks NaN and writes no 1 in an all-NaN row; the reference evaluator
    (np.argmax) picks the first NaN, as refops's default nan_mode="propagate"; refops's
    "ignore" (DirectML's) never picks NaN and puts an all-NaN row's 1 at its first element."""
    x = np.array([[1, np.nan, 3, np.nan], [np.nan] * 4], np.float32)
    assert runtime("Hardmax", {"x": x}, 13, axis=1).tolist() == [[0, 0, 1, 0], [0, 0, 0, 0]]
    assert_same(refops.hardmax(x, [1]), reference("Hardmax", {"x": x}, 13, axis=1))
    assert refops.hardmax(x, [1]).tolist() == [[0, 1, 0, 0], [1, 0, 0, 0]]
    assert refops.hardmax(x, [1], nan_mode="ignore").tolist() == [[0, 0, 1, 0], [1, 0, 0, 0]]


def test_differs_hardmax11_reference_uses_the_opset13_rule():
    """For opset < 13 the reference evaluator reduces over `axis` alone (Hardmax-13's rule),
    not over the dimensions from `axis` on, as Hardmax-11 says and ONNX Runtime does."""
    x = np.array([[1, 5], [7, 2]], np.float32)
    assert reference("Hardmax", {"x": x}, 11, axis=0).tolist() == [[0, 1], [1, 0]]
    assert runtime("Hardmax", {"x": x}, 11, axis=0).tolist() == [[0, 0], [1, 0]]
    assert refops.hardmax(x, [0, 1]).tolist() == [[0, 0], [1, 0]]
