"""docs/cli.md documents the command line as the parser defines it: every command has a
heading there, every long option of it is named under that heading, and nothing is named as
an option (under a command's heading, or on a command line in a code block) that the command
does not have. A failure names the command and option, so the page can be fixed in a minute."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from mtworkbench.cli import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
HEADING = re.compile(r"^#{2,4} `(mtworkbench(?: [a-z][a-z0-9-]*)+)`\s*$", re.M)
OPTION = re.compile(r"(?<![\w-])--[a-zA-Z][\w-]*")
GLOBAL = {"--help", "--version", "--quiet"}  # --quiet: every command has it, documented once


def commands() -> dict[str, tuple[argparse.ArgumentParser, str]]:
    """'mtworkbench CMD [SUB]' -> (its parser, its one-line help), every level."""
    found: dict[str, tuple[argparse.ArgumentParser, str]] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
                for name, sub in action.choices.items():
                    found[f"{path} {name}"] = (sub, helps.get(name, ""))
                    walk(sub, f"{path} {name}")

    walk(build_parser(), "mtworkbench")
    return found


def long_options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for action in parser._actions for o in action.option_strings if o.startswith("--")]


def option_line(parser: argparse.ArgumentParser, option: str) -> str:
    """The line to add to docs/cli.md for an undocumented option."""
    action = next(a for a in parser._actions if option in a.option_strings)
    metavar = "" if action.nargs == 0 else " " + str(action.metavar or action.dest.upper())
    return f"- `{option}{metavar}`: {action.help or ''}"


def sections(text: str) -> dict[str, str]:
    """Command heading -> the text up to the next command heading."""
    marks = list(HEADING.finditer(text))
    return {m.group(1): text[m.end():(marks[i + 1].start() if i + 1 < len(marks) else len(text))]
            for i, m in enumerate(marks)}


def command_lines(text: str) -> list[str]:
    """Lines of code blocks that run a command: 'mtworkbench ...' (comments dropped)."""
    lines = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", " ", block)
        lines += [line.split("#", 1)[0] for line in joined.splitlines() if line.startswith("mtworkbench ")]
    return lines


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_every_command_has_a_heading(page):
    documented = sections(page)
    missing = [f"### `{name}`  ({help_text})" for name, (_, help_text) in commands().items() if name not in documented]
    assert not missing, "docs/cli.md: add a heading for each of these commands:\n" + "\n".join(missing)


def test_no_heading_names_a_command_that_does_not_exist(page):
    unknown = sorted(set(sections(page)) - set(commands()))
    assert not unknown, f"docs/cli.md: headings for commands the parser does not have: {unknown}"


def test_every_option_is_documented_under_its_command(page):
    documented = sections(page)
    missing = []
    for name, (parser, _) in commands().items():
        named = set(OPTION.findall(documented.get(name, "")))
        missing += [f"{name}: {option_line(parser, o)}" for o in long_options(parser)
                    if o not in named and o not in GLOBAL]
    assert not missing, "docs/cli.md: add these options under their command's heading:\n" + "\n".join(missing)


def test_nothing_is_documented_as_an_option_that_does_not_exist(page):
    known = commands()
    wrong = []
    for name, text in sections(page).items():
        if name in known:
            real = set(long_options(known[name][0])) | GLOBAL
            wrong += [f"under `{name}`: {o}" for o in sorted(set(OPTION.findall(text)) - real)]
    for line in command_lines(page):
        words = line.split()
        name = "mtworkbench"
        for word in words[1:]:  # the longest command path the line starts with
            if f"{name} {word}" not in known:
                break
            name = f"{name} {word}"
        if name == "mtworkbench":
            wrong.append(f"no such command: {line.strip()}")
            continue
        real = set(long_options(known[name][0])) | GLOBAL
        # `judgments import|export ...` style lines name options of several subcommands
        for sub in (n for n in known if n.startswith(name + " ")):
            real |= set(long_options(known[sub][0]))
        wrong += [f"`{line.strip()}`: {o} is not an option of `{name}`" for o in sorted(set(OPTION.findall(line)) - real)]
    assert not wrong, "docs/cli.md names options that do not exist:\n" + "\n".join(wrong)


def test_the_checks_catch_a_missing_and_an_invented_option():
    # The same functions on a page with one option left out and one made up.
    name, (parser, _) = next((n, c) for n, c in commands().items() if n == "mtworkbench score")
    text = "### `mtworkbench score`\n- `--hyp FILE`\n- `--made-up`\n"
    named = set(OPTION.findall(sections(text)[name]))
    assert "--ref" not in named and "--ref" in long_options(parser)
    assert "--made-up" in named and "--made-up" not in long_options(parser)
    assert option_line(parser, "--jobs").startswith("- `--jobs N`")
