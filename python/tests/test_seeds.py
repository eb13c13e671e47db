"""Every example of the seed documents (../shared/seeds/ in the project's shared documents),
through the Python API, as the documents print them."""
import numpy as np
import pytest

import refops
from support import assert_same

f32 = np.float32


def test_one_hot_example_1_rows():
    indices = np.array([0, 3, 2], np.uint32).reshape(1, 1, 3, 1)
    out = refops.one_hot(indices, np.array([0, 1], f32).reshape(1, 1, 1, 2), axis=3, depth=4)
    assert_same(out, np.array([[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], f32).reshape(1, 1, 3, 4))


def test_one_hot_example_2_columns():
    indices = np.array([0, 2, 1, 0], np.uint32).reshape(1, 1, 1, 4)
    out = refops.one_hot(indices, np.array([0, 1], f32).reshape(1, 1, 1, 2), axis=2, depth=3)
    assert_same(out, np.array([[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]], f32).reshape(1, 1, 3, 4))


def test_one_hot_example_3_on_off_values():
    indices = np.array([0, 3, 2], np.uint32).reshape(1, 1, 3, 1)
    values = np.array([4, 2, 9], f32).reshape(1, 1, 3, 1)  # off, on, unused
    out = refops.one_hot(indices, values, axis=3, depth=4)
    assert_same(out, np.array([[2, 4, 4, 4], [4, 4, 4, 2], [4, 4, 2, 4]], f32).reshape(1, 1, 3, 4))


def test_one_hot_example_4_negative_and_out_of_bounds():
    indices = np.array([-3, 100, 3], np.int32).reshape(1, 1, 3, 1)
    out = refops.one_hot(indices, np.array([0, 1], f32).reshape(1, 1, 1, 2), axis=3, depth=4)
    assert_same(out, np.array([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]], f32).reshape(1, 1, 3, 4))


def test_openvino_one_hot_example_1():
    out = refops.one_hot_v1(np.array([0, 3, 1, 2], np.int32), 3, f32(1), f32(2), axis=-1)
    assert_same(out, np.array([[1, 2, 2], [2, 2, 2], [2, 1, 2], [2, 2, 1]], f32))


def test_openvino_one_hot_example_2():
    out = refops.one_hot_v1(np.array([[0, 3, 1], [1, 2, 4]], np.int32), 3, f32(1), f32(0), axis=1)
    expected = np.array([[[1, 0, 0], [0, 0, 1], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 1, 0]]], f32)
    assert_same(out, expected)


HARDMAX1_INPUT = np.array([[[12, 0], [-101, 11]], [[3, 234], [0, -101]]], f32)


@pytest.mark.parametrize("axes, expected", [
    ([1], [[[1, 0], [0, 1]], [[1, 1], [0, 0]]]),
    ([0], [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]),
    ([0, 2], [[[0, 0], [0, 1]], [[0, 1], [0, 0]]]),
])
def test_hardmax1_examples(axes, expected):
    assert_same(refops.hardmax(HARDMAX1_INPUT, axes), np.array(expected, f32))


@pytest.mark.parametrize("offset, shape, expected", [
    (0, (1, 1, 3, 3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    (1, (1, 1, 3, 3), [[0, 1, 0], [0, 0, 1], [0, 0, 0]]),
    (-1, (1, 1, 3, 2), [[0, 0], [1, 0], [0, 1]]),
    (-3, (1, 1, 3, 2), [[0, 0], [0, 0], [0, 0]]),
])
def test_diagonal_matrix_examples(offset, shape, expected):
    assert_same(refops.diagonal_matrix(shape, offset=offset, value=1.0), np.array(expected, f32).reshape(shape))


def test_diagonal_matrix_value_truncated_for_integers():
    """The seed: 'if the DataType ... is not FLOAT16 or FLOAT32 ... 10.6 will become 10'."""
    out = refops.diagonal_matrix((2, 2), value=10.6, dtype=np.int32)
    assert_same(out, np.array([[10, 0], [0, 10]], np.int32))
