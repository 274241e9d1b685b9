"""Messages count with ``core.wording.plural`` ("1 system", "8 systems"), never "8 system(s)":
no string in the package writes a noun with "(s)" after it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import mtworkbench

PACKAGE = Path(mtworkbench.__file__).parent
# A word glued to "(s)": "system(s)", "reference(s)"; regex text such as "'(s)" is no noun.
NOUN_S = re.compile(r"[^\W\d_]\(s\)", re.UNICODE)


def _strings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_message_writes_a_noun_with_s_in_brackets():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                    and NOUN_S.search(node.value):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value.strip()[:70]!r}")
    assert not found, "use core.wording.plural instead of '(s)':\n" + "\n".join(found)


def test_plural_counts_in_several_shapes():
    from mtworkbench.core.wording import plural

    assert [plural(1, "system"), plural(8, "system"), plural(0, "metric")] == ["1 system", "8 systems", "0 metrics"]
    assert [plural(2, "entity"), plural(3, "match"), plural(2, "day")] == ["2 entities", "3 matches", "2 days"]
