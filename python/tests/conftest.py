"""Shared fixtures: a seeded generator per test (the seed printed when it fails) and the paths
refops has on this CPU."""
import os
import pathlib
import sys
import zlib

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))  # oracle.py and support.py beside the tests

import refops  # noqa: E402

# REFOPS_TEST_SEED=<n> reruns every generated test with another base seed.
BASE_SEED = int(os.environ.get("REFOPS_TEST_SEED", "20261122"))
REPO = pathlib.Path(__file__).resolve().parents[2]
ARCHS = refops.available_archs()


@pytest.fixture
def rng(request):
    """A generator seeded from REFOPS_TEST_SEED and the test's id (stable across runs)."""
    seed = BASE_SEED ^ zlib.crc32(request.node.nodeid.encode())
    request.node.refops_seed = seed
    return np.random.default_rng(seed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    seed = getattr(item, "refops_seed", None)
    if report.failed and seed is not None:
        report.sections.append(("refops seed", f"generator seed {seed}; rerun with "
                                               f"REFOPS_TEST_SEED={BASE_SEED} pytest '{item.nodeid}'"))


@pytest.fixture(params=ARCHS)
def arch(request):
    """Each path this CPU has (scalar, sse2, avx2, ...)."""
    return request.param
