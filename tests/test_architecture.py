"""The shape of the code (docs/architecture.md): dependencies point down, no
import circle, games know nothing of the layers above them, and no module keeps mutable
state. Read from the source with `ast`, imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "gridgames"
MUTATORS = {"append", "extend", "add", "update", "clear", "pop", "popitem", "remove",
            "discard", "insert", "setdefault", "sort", "reverse", "move_to_end"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The gridgames modules a module imports, anywhere in its body."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def test_no_import_circle():
    """A package's __init__ may import its own modules (it is the plugin's face); no other
    cycle exists."""
    def edges(name):
        return {t for t in GRAPH[name] if not (MODULES[name].name == "__init__.py"
                                               and t.startswith(name + "."))}

    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(edges(name)):
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in sorted(MODULES):
        if name not in state:
            visit(name)


def test_layers_point_down():
    upper = ("gridgames.session", "gridgames.web", "gridgames.cli", "gridgames.registry",
             "gridgames.store", "gridgames.compute", "gridgames.envs")
    for name, targets in GRAPH.items():
        if name.startswith(("gridgames.games", "gridgames.core")):
            bad = sorted(t for t in targets if t.startswith(upper))
            assert not bad, f"{name} imports the layers above it: {bad}"
        if name.startswith("gridgames.core"):
            bad = sorted(t for t in targets if t.startswith("gridgames.games"))
            assert not bad, f"{name} (core) imports a game: {bad}"


def test_a_game_imports_no_other_game():
    for name, targets in GRAPH.items():
        if name.startswith("gridgames.games."):
            own = ".".join(name.split(".")[:3])
            bad = sorted(t for t in targets if t.startswith("gridgames.games.")
                         and not t.startswith(own))
            assert not bad, f"{name} imports another game: {bad}"


def test_every_game_folder_has_the_same_shape():
    for folder in sorted((PACKAGE / "games").iterdir()):
        if not folder.is_dir() or folder.name.startswith("_"):
            continue
        assert (folder / "game.py").exists(), f"{folder.name}: no game.py"
        assert (folder / "__init__.py").read_text().count("def make_game") == 1
        js = [p.name for p in folder.glob("*.js")]
        assert f"{folder.name}.js" in js, f"{folder.name}: no renderer"
        assert all(n.startswith(f"{folder.name}-") for n in js if n != f"{folder.name}.js"), \
            f"{folder.name}: a module beside the renderer is named <game>-<part>.js: {js}"
        game_imports = GRAPH[f"gridgames.games.{folder.name}.game"]
        for machine in ("ai", "solver", "fastsolver", "generator", "commands"):
            assert f"gridgames.games.{folder.name}.{machine}" not in game_imports, \
                f"{folder.name}/game.py (the rules) imports its {machine}.py"


def test_no_module_level_mutable_state():
    """No `global`, no unbounded cache, and no module-level container mutated anywhere in
    its module (caches are objects with an owner, a lock and a bound: core/cache.py)."""
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
               for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
               if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            assert not isinstance(node, ast.Global), f"{name}: global statement"
            if isinstance(node, ast.Name) and node.id == "cache":
                raise AssertionError(f"{name}: functools.cache is unbounded")
            if isinstance(node, ast.keyword) and node.arg == "maxsize" and \
                    isinstance(node.value, ast.Constant) and node.value.value is None:
                raise AssertionError(f"{name}: lru_cache(maxsize=None) is unbounded")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id in top and \
                    node.func.attr in MUTATORS:
                raise AssertionError(f"{name}: module-level {node.func.value.id} is mutated")
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Subscript) and \
                            isinstance(target.value, ast.Name) and target.value.id in top:
                        raise AssertionError(f"{name}: module-level {target.value.id} is "
                                             "changed")
