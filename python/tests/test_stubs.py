"""The type stubs ship with the package and describe what it has: every
public name, every method with its parameters."""

import ast
import inspect
import pathlib

import elephant_aead

PACKAGE = pathlib.Path(elephant_aead.__file__).parent


def stub():
    return ast.parse((PACKAGE / "__init__.pyi").read_text())


def test_stubs_and_marker_ship():
    assert (PACKAGE / "py.typed").exists()
    assert (PACKAGE / "__init__.pyi").exists()


def test_every_public_name_is_in_the_stubs():
    tree = stub()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    public = {n for n in dir(elephant_aead) if not n.startswith("_")} - {"elephant_aead"}
    assert public | {"__version__"} <= names | {"__version__"}
    assert public == {n for n in names if not n.startswith("_")}


def test_every_method_with_its_parameters():
    tree = stub()
    base = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "_Elephant")
    methods = {
        f.name: [a.arg for a in f.args.args]
        for f in base.body
        if isinstance(f, ast.FunctionDef)
    }
    attributes = {a.target.id for a in base.body if isinstance(a, ast.AnnAssign)}
    for cls in (elephant_aead.Dumbo, elephant_aead.Jumbo, elephant_aead.Delirium):
        public = {n for n in dir(cls) if not n.startswith("_")}
        assert public == set(methods) - {"__init__"} | attributes, cls
        for name, parameters in methods.items():
            if name == "__init__":
                runtime = ["self", *inspect.signature(cls).parameters]
            else:
                runtime = list(inspect.signature(getattr(cls, name)).parameters)
            assert parameters == runtime, (cls, name)
