"""The API's rules that are not refusals: what each call returns, defaults, DLPack inputs,
option spellings, and validate() naming fields as the calls do."""
import threading

import numpy as np
import pytest

import refops
from support import assert_same

f32, f16, i32, u32 = np.float32, np.float16, np.int32, np.uint32
INDICES = np.array([[0], [3], [2]], u32)
VALUES = np.array([[0, 1]], f32)
EXPECTED = np.array([[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], f32)


class DLPackOnly:
    """An array known only through the DLPack protocol (like a torch or JAX CPU tensor)."""

    def __init__(self, array, device=(1, 0)):
        self._array, self._device = array, device

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._device


def test_new_result_is_packed_and_out_is_returned():
    got = refops.one_hot(INDICES, VALUES, 1, 4)
    assert got.flags.c_contiguous and got.flags.writeable
    assert_same(got, EXPECTED)
    out = np.empty((3, 4), f32)
    assert refops.one_hot(INDICES, VALUES, -1, out=out) is out
    assert_same(out, EXPECTED)


def test_dlpack_inputs_and_out():
    out = np.zeros((3, 4), f32)
    wrapped_out = DLPackOnly(out)
    assert refops.one_hot(DLPackOnly(INDICES), DLPackOnly(VALUES), 1, out=wrapped_out) is wrapped_out
    assert_same(out, EXPECTED)


def test_dlpack_array_on_another_device_refused():
    with pytest.raises(refops.Error) as caught:
        refops.one_hot(DLPackOnly(INDICES, device=(2, 0)), VALUES, 1, 4)
    assert caught.value.diagnostics[0].field == "IndicesTensor"
    assert "CPU memory" in caught.value.diagnostics[0].message


def test_read_only_inputs_used_in_place():
    indices = INDICES.copy()
    indices.flags.writeable = False
    assert_same(refops.one_hot(indices, VALUES, 1, 4), EXPECTED)


def test_scalar_indices_for_one_hot_v1():
    assert_same(refops.one_hot_v1(np.int64(2), 4, f16(7), f16(-1)), np.array([-1, -1, 7, -1], f16))
    assert_same(refops.one_hot_v1(np.array(-1, np.int64), 3, i32(1), i32(0), negative_indices="normalize"),
                np.array([0, 0, 1], i32))


def test_diagonal_matrix_dtype_defaults():
    assert refops.diagonal_matrix((2, 2)).dtype == f32
    out = np.zeros((2, 3), f16)
    assert refops.diagonal_matrix(out=out, value=0.5) is out
    assert_same(out, np.array([[0.5, 0, 0], [0, 0.5, 0]], f16))


def test_diagonal_matrix_value_is_rounded_to_float32_first():
    """DirectML's Value is a FLOAT: 16777217 is 16777216 as float32, whatever the output."""
    got = refops.diagonal_matrix((1, 1), value=16777217, dtype=np.int64)
    assert got[0, 0] == 16777216


def test_diagonal_matrix1_shape_from_input_and_value_dtype():
    x = np.arange(12, dtype=np.int16).reshape(3, 4) + 1
    got = refops.diagonal_matrix1(np.int16(-7), 1, 3, input=x)
    expected = x.copy()
    for y in range(3):
        for col in range(4):
            if 1 <= col - y < 3:
                expected[y, col] = -7
    assert_same(got, expected)


def test_feature_level_spellings_and_options():
    for level in ("3_0", "DML_FEATURE_LEVEL_3_0", None):
        assert_same(refops.one_hot(INDICES, VALUES, 1, 4, feature_level=level, threads=1), EXPECTED)
    for arch in refops.available_archs():
        assert_same(refops.one_hot(INDICES, VALUES, 1, 4, arch=arch), EXPECTED)
    assert refops.available_archs()[-1] == "scalar"


def test_calls_from_many_threads_agree():
    """The GIL is released while kernels run; concurrent calls give the same bits."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((64, 4096)).astype(f32)
    expected = refops.hardmax(x, [1])
    results = [None] * 4

    def work(i):
        results[i] = refops.hardmax(x, [1])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert_same(r, expected)


def test_diagnostic_and_error_classes():
    d = refops.Diagnostic("Axis", "expected less than 2, found 2")
    assert d == refops.Diagnostic("Axis", "expected less than 2, found 2")
    assert str(d) == "Axis: expected less than 2, found 2"
    assert issubclass(refops.Error, ValueError) and issubclass(refops.ModelError, refops.Error)


# validate() and minimum_feature_level() on DxDispatch's dict form.

def one_hot_dispatchable(indices_sizes=(3, 1), index_type="UINT32", axis=1):
    return {"type": "DML_OPERATOR_ONE_HOT", "desc": {
        "IndicesTensor": {"DataType": index_type, "Sizes": list(indices_sizes)},
        "ValuesTensor": {"DataType": "FLOAT32", "Sizes": [1, 2]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [3, 4]},
        "Axis": axis}}


def test_validate_and_minimum_feature_level():
    assert refops.validate(one_hot_dispatchable()) == []
    assert refops.minimum_feature_level(one_hot_dispatchable()) == "3_0"  # 2 dimensions: 3_0
    at_2_1 = refops.validate(one_hot_dispatchable(index_type="INT64"), feature_level="2_1")
    assert "IndicesTensor.DataType" in [d.field for d in at_2_1], at_2_1
    hardmax1 = {"type": "DML_OPERATOR_ACTIVATION_HARDMAX1", "desc": {
        "InputTensor": {"DataType": "FLOAT16", "Sizes": [2, 3]},
        "OutputTensor": {"DataType": "FLOAT16", "Sizes": [2, 3]}, "AxisCount": 1, "Axes": [np.uint32(1)]}}
    assert refops.minimum_feature_level(hardmax1) == "5_1"
    assert refops.minimum_feature_level(one_hot_dispatchable(indices_sizes=(3, 2))) is None


@pytest.mark.parametrize("call, dispatchable", [
    (lambda: refops.one_hot(np.zeros((3, 2), u32), VALUES, 1, out=np.zeros((3, 4), f32)),
     one_hot_dispatchable(indices_sizes=(3, 2))),
    (lambda: refops.one_hot(INDICES, VALUES, 2, out=np.zeros((3, 4), f32)), one_hot_dispatchable(axis=2)),
    (lambda: refops.one_hot(INDICES.astype(np.float32), VALUES, 1, 4), one_hot_dispatchable(index_type="FLOAT32")),
])
def test_calls_name_fields_as_validate_does(call, dispatchable):
    with pytest.raises(refops.Error) as caught:
        call()
    assert caught.value.diagnostics == refops.validate(dispatchable)


def test_validate_malformed_dispatchable():
    with pytest.raises(refops.ModelError) as caught:
        refops.validate({"type": "DML_OPERATOR_ONE_HOT", "desc": {"Axis": 1}})
    assert caught.value.diagnostics[0].field
    with pytest.raises(TypeError):
        refops.validate('{"type": "DML_OPERATOR_ONE_HOT"}')
