"""The package's shape: no import cycles (function-local imports included), no
private name taken from another module, no module over 600 lines.

The layers themselves are import-linter's contracts (tests/test_layers.py); a
cycle inside one layer passes those, so the graph is checked here with grimp, the
library import-linter builds on. grimp reads every import statement of a module,
also those inside functions and under ``if TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mtworkbench"
MAX_LINES = 600

# Cycles still being taken apart, if any; each entry must still be a cycle (remove it once it is gone).
KNOWN_CYCLES: set[frozenset[str]] = set()
# Modules allowed over the limit for now (the same rule: remove an entry once it fits).
KNOWN_LONG: set[str] = set()
KNOWN_PRIVATE_IMPORTS: set[tuple[str, str]] = set()


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def import_graph() -> dict[str, set[str]]:
    graph = grimp.build_graph("mtworkbench", cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_the_cycle_finder_finds_a_cycle_through_three_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert strongly_connected(graph) == [{"a", "b", "c"}]


def test_grimp_sees_function_local_imports(tmp_path, monkeypatch):
    pkg = tmp_path / "cyclic_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("from cyclic_pkg import two\n")
    (pkg / "two.py").write_text("def late():\n    from cyclic_pkg import one\n    return one\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclic_pkg", cache_dir=None)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert strongly_connected(edges) == [{"cyclic_pkg.one", "cyclic_pkg.two"}]


def test_no_import_cycles():
    cycles = {frozenset(c) for c in strongly_connected(import_graph())}
    assert cycles - KNOWN_CYCLES == set(), "import cycles: " + "; ".join(
        " <-> ".join(sorted(c)) for c in cycles - KNOWN_CYCLES)
    assert KNOWN_CYCLES - cycles == set(), "no longer cycles: remove them from KNOWN_CYCLES"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_imports(source: str, module: str) -> list[tuple[str, str, int]]:
    """(imported module, name, line) for each private name this module takes from
    another mtworkbench module: ``from m import _x`` or ``m._x`` on an imported module."""
    tree = ast.parse(source)
    aliases: dict[str, str] = {}
    found = []

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("mtworkbench"):
            for alias in node.names:
                if private(alias.name) and node.module != module:
                    found.append((node.module or "", alias.name, node.lineno))
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mtworkbench"):
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and private(node.attr) and aliases[node.value.id] != module):
            found.append((aliases[node.value.id], node.attr, node.lineno))
    return found


def test_the_private_import_finder_sees_both_spellings():
    source = ("from mtworkbench.io import sgml\nfrom mtworkbench.core.x import _y, z\n"
              "def f():\n    return sgml._stems, z.__doc__\n")
    assert private_imports(source, "mtworkbench.io.corpus") == [
        ("mtworkbench.core.x", "_y", 2), ("mtworkbench.io.sgml", "_stems", 4)]


def test_no_module_imports_a_private_name_from_another():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for other, name, line in private_imports(path.read_text(encoding="utf-8"), module):
            if (module, other) not in KNOWN_PRIVATE_IMPORTS:
                found.append(f"{path.relative_to(ROOT)}:{line}: {name} from {other}")
    assert found == []


def test_no_module_is_over_600_lines():
    long, fitting = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and rel not in KNOWN_LONG:
            long.append(f"{rel}: {lines} lines")
        elif lines <= MAX_LINES and rel in KNOWN_LONG:
            fitting.append(rel)
    assert long == [], "split these into modules with one job each"
    assert fitting == [], "these fit now: remove them from KNOWN_LONG"
