"""run_model on examples/models/: every file a model writes equals expected/ bit for bit, and
the returned buffers hold the same values."""
import pathlib

import numpy as np
import pytest

import refops
from conftest import REPO
from support import assert_same

MODELS = sorted((REPO / "examples" / "models").glob("*.json"))
EXPECTED = REPO / "examples" / "models" / "expected"


@pytest.mark.parametrize("model", MODELS, ids=[m.stem for m in MODELS])
def test_run_model_writes_the_expected_files(model, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    buffers = refops.run_model(model)
    written = sorted(tmp_path.glob("*.npy"))
    assert written, "the model writes files"
    for file in written:
        got, expected = np.load(file), np.load(EXPECTED / file.name)
        assert_same(got, expected, file.name)
        # the same values are in one of the returned buffers
        assert any(b.dtype == got.dtype and b.size >= got.size and (b[:got.size] == got.ravel()).all()
                   for b in buffers.values()), file.name


def test_run_model_returns_buffers_without_writing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    buffers = refops.run_model(str(REPO / "examples" / "models" / "one_hot.json"), write_files=False, threads=1)
    assert not list(tmp_path.iterdir())
    assert_same(buffers["output_1"], np.load(EXPECTED / "one_hot_example_1.npy").ravel())
    assert buffers["indices_negative"].dtype == np.int32


def test_run_model_nan_mode(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    model = REPO / "examples" / "models" / "hardmax.json"
    ignored = refops.run_model(model, write_files=False)["nan_out"]
    propagated = refops.run_model(model, write_files=False, nan_mode="propagate")["nan_out"]
    assert ignored.tolist() == [0, 0, 1, 0] and propagated.tolist() == [0, 1, 0, 0]


def test_run_model_errors(tmp_path):
    with pytest.raises(refops.ModelError) as caught:
        refops.run_model(tmp_path / "missing.json")
    assert caught.value.diagnostics
    bad = tmp_path / "bad.json"
    bad.write_text('{"resources": {"o": {"initialValuesDataType": "FLOAT32", "initialValues": [0, 0, 0]}},'
                   ' "dispatchables": {"d": {"type": "DML_OPERATOR_DIAGONAL_MATRIX", "desc": {'
                   '"OutputTensor": {"DataType": "FLOAT32", "Sizes": [3]}, "Offset": 0, "Value": 1.0}}},'
                   ' "commands": [{"type": "dispatch", "dispatchable": "d", "bindings": {"OutputTensor": "o"}}]}')
    with pytest.raises(refops.Error) as caught:
        refops.run_model(bad)
    assert not isinstance(caught.value, refops.ModelError)
    assert any("OutputTensor.DimensionCount" in d.field for d in caught.value.diagnostics), caught.value
