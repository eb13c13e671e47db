"""refops.Error and refops.Diagnostic.

Plain Python classes, so that the checks done in Python (refops/_arrays.py) and the ones the
compiled layer does (translated in python/src/errors.cpp) raise the very same exception.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NoReturn


@dataclass(frozen=True)
class Diagnostic:
    """One broken rule: ``field`` in DirectML's words (``"IndicesTensor.Sizes[1]"``, ``"Axis"``,
    ``"ValuesTensor.DataType"``) and a ``message`` that says what was expected and what was found."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class Error(ValueError):
    """A call refops refused, raised before anything is written.

    ``diagnostics`` lists every broken rule; ``str(error)`` is one ``field: message`` line each.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    def __reduce__(self):  # pickles (multiprocessing test runners) with its diagnostics
        return (type(self), (self.diagnostics,))


def fail(field: str, message: str) -> NoReturn:
    """Raise Error with one diagnostic."""
    raise Error([Diagnostic(field, message)])


class ModelError(Error):
    """A DxDispatch model or dispatchable that is malformed (refops-run's exit status 2): JSON,
    a missing or mistyped field, an unknown name, a missing file. Each diagnostic's field is the
    JSON path ("dispatchables.oh.desc.Axis")."""
