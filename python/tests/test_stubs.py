"""The shipped type stubs (refops/__init__.pyi, with py.typed) name every public function with
the runtime's parameters, so editors complete what the module really takes."""
import ast
import inspect
import pathlib

import refops


def stub_functions():
    package = pathlib.Path(refops.__file__).parent
    assert (package / "py.typed").exists()
    tree = ast.parse((package / "__init__.pyi").read_text())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_stubs_match_the_runtime_signatures():
    stubs = stub_functions()
    public = [n for n in refops.__all__ if inspect.isfunction(getattr(refops, n))]
    assert sorted(stubs) == sorted(public)
    for name in public:
        runtime = inspect.signature(getattr(refops, name))
        args = stubs[name].args
        stub = [a.arg for a in args.posonlyargs + args.args] + ["*"] + [a.arg for a in args.kwonlyargs]
        real = [p.name for p in runtime.parameters.values() if p.kind != p.KEYWORD_ONLY] + ["*"] + \
               [p.name for p in runtime.parameters.values() if p.kind == p.KEYWORD_ONLY]
        assert stub == real, name


def test_every_public_function_documents_its_directml_fields():
    for name in ("one_hot", "diagonal_matrix", "diagonal_matrix1", "hardmax"):
        doc = getattr(refops, name).__doc__
        assert "OutputTensor" in doc, name
