"""A `_private` name is used only in the module that defines it: what other modules use is
public, so a module can change its private parts without breaking another one. Read from the
source with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gridgames"


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_here(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, and attributes it sets."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {name for name in names if private(name)}


def foreign_private_uses(source: str) -> list[str]:
    """`x._name` where x is not self or cls and this module does not define `_name`, and
    `from module import _name`: each as `line: text`."""
    tree = ast.parse(source)
    own = defined_here(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in own \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: import {alias.name} from {node.module}"
                      for alias in node.names if private(alias.name)]
    return found


def test_no_private_name_is_used_outside_its_module():
    bad = {str(path.relative_to(PACKAGE)): uses for path in sorted(PACKAGE.rglob("*.py"))
           if (uses := foreign_private_uses(path.read_text(encoding="utf-8")))}
    assert not bad, f"private names used outside their modules: {bad}"


def test_the_check_finds_each_kind_of_use():
    assert foreign_private_uses("session._go_to(3)") == ["1: session._go_to"]
    assert foreign_private_uses("from gridgames.web.api import _Body") == \
        ["1: import _Body from gridgames.web.api"]
    assert foreign_private_uses("import argparse\nx: argparse._SubParsersAction") == \
        ["2: argparse._SubParsersAction"]
    assert foreign_private_uses("def f(t):\n    return len(t.session._checkpoints)") == \
        ["2: t.session._checkpoints"]


def test_the_check_lets_a_module_use_its_own_private_names():
    assert foreign_private_uses("class A:\n    def __init__(self):\n        self._s = 1\n"
                                "    @classmethod\n    def of(cls):\n        a = cls()\n"
                                "        a._s = 2\n        return a._s + cls._t") == []
    assert foreign_private_uses("x.__class__\nfrom m import __version__") == []
