"""The command line starts lean: it parses before importing any command's heavy
dependencies, and a command imports only what it uses. Each case runs in a fresh
interpreter and reads ``sys.modules`` afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mtworkbench.cli import COMMAND_HELP, build_parser

HEAVY = ("scipy", "sklearn", "PySide6", "pyqtgraph", "shiboken6", "wn", "nltk", "torch", "transformers", "tokenizers", "yaml")


def loaded_after(argv: list[str] | None) -> tuple[int, set[str]]:
    """Run ``main(argv)`` (or only ``import mtworkbench.cli``) in a fresh interpreter;
    return its exit code and the top-level packages it imported."""
    code = (
        "import sys, json, contextlib, io\n"
        "import mtworkbench.cli\n"
        f"argv = {argv!r}\n"
        "rc = 0\n"
        "if argv is not None:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        rc = mtworkbench.cli.main(argv)\n"
        "print(json.dumps([rc, sorted({n.split('.')[0] for n in sys.modules})]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rc, modules = json.loads(out.stdout.strip().splitlines()[-1])
    return rc, set(modules)


@pytest.mark.parametrize(
    "argv",
    [None, ["--help"], ["score", "--help"], ["correlate", "--help"], ["compare", "--help"], ["validate", "--help"]],
)
def test_help_imports_nothing_heavy(argv):
    rc, modules = loaded_after(argv)
    assert rc == 0
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_top_level_help_imports_no_numpy_or_command():
    _, modules = loaded_after(["--help"])
    assert "numpy" not in modules
    # nor any command module: check at the module level, not the package level
    code = (
        "import sys, contextlib, io, mtworkbench.cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    mtworkbench.cli.main(['--help'])\n"
        "print(sorted(n for n in sys.modules if n.startswith('mtworkbench.cli.commands.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_score_bleu_imports_only_what_it_uses(tmp_path: Path):
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    ref.write_text("the cat is on the mat\nhello there world\n", encoding="utf-8")
    rc, modules = loaded_after(["score", "--hyp", str(hyp), "--ref", str(ref), "--metric", "bleu"])
    assert rc == 0
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))
    assert "sacrebleu" not in modules  # BLEU's 13a tokenizer is restated in metrics.tokens


def test_usage_error_exit_code_without_loading_other_commands():
    rc, modules = loaded_after(["no-such-command"])
    assert rc == 2
    assert not modules & set(HEAVY)


def test_help_table_matches_each_commands_own_help():
    """The light table is a cache of what each module registers: they must agree."""
    parser = build_parser()  # imports every command module
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == {name: help_text for name, (_, help_text) in COMMAND_HELP.items()}
    for module, _ in COMMAND_HELP.values():
        assert sys.modules[f"mtworkbench.cli.commands.{module}"]  # the table names real modules


def test_lean_parser_has_the_same_commands_as_the_full_one():
    full = build_parser()
    lean = build_parser("score")
    pick = lambda p: next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")  # noqa: E731
    assert set(pick(full).choices) == set(pick(lean).choices)
    assert [a.dest for a in pick(lean)._choices_actions] == sorted(a.dest for a in pick(full)._choices_actions)
