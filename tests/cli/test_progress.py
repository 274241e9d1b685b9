"""Progress on the command line: a bar on a terminal, nothing on a pipe or with --quiet,
and Ctrl+C that stops cleanly (exit 130, says what was kept, leaves no partial file).

Each case runs the real command in a fresh interpreter: under a pseudo-terminal (the
master side is read, as a person's terminal would show it) or through pipes."""

from __future__ import annotations

import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtworkbench.cli.progress import Progress, interrupted_message, note_kept, wants_bar
from mtworkbench.core.model import Document, Paragraph, Project, Reference, Segment, System
from mtworkbench.io.bundle.bundle import save_bundle

CLI = [sys.executable, "-c", "import sys; from mtworkbench.cli import main; sys.exit(main())"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")

# Words of several scripts: the bar must not care what the texts are.
WORDS = ("Haus Straße über müssen 猫 东京 の 日本語 です кошка дом быстро كتاب مدينة "
         "the cat sat on a mat").split()


def make_bundle(folder: Path, n_segments: int, n_systems: int, seed: int = 7) -> Path:
    rng = random.Random(seed)

    def line() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20)))

    segments = [Segment(f"s{i}", line()) for i in range(n_segments)]
    project = Project([Document("d1", [Paragraph("p1", segments)])], name="progress")
    ref = {f"s{i}": line() for i in range(n_segments)}
    project.add_reference(Reference("r1", "A", ref))
    for k in range(n_systems):
        project.add_system(System(f"sys{k}", "machine", {s: " ".join(t.split()[::-1]) if k % 2 else
                                                          " ".join(rng.sample(t.split(), len(t.split())))
                                                          for s, t in ref.items()}))
    path = folder / "project.mtwb.json"
    save_bundle(project, path)
    return path


def run_in_terminal(argv: list[str], cwd: Path, interrupt_when: re.Pattern[str] | None = None,
                    timeout: float = 300) -> tuple[int, str]:
    """Run the command with stdin, stdout and stderr on a pseudo-terminal; return its exit
    code and what the terminal received (control sequences removed). With
    ``interrupt_when``, Ctrl+C (SIGINT to its process group, as a terminal sends it) once
    the screen shows that pattern."""
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    env = dict(os.environ, COLUMNS="120", LINES="40", TERM="xterm-256color")
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                            start_new_session=True)
    os.close(slave)
    chunks: list[bytes] = []
    sent = False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            closed = False
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # every holder of the terminal's other side has closed it
                    data = b""
                closed = not data
                chunks.append(data)
            if interrupt_when is not None and not sent:
                if interrupt_when.search(ANSI.sub("", b"".join(chunks).decode("utf-8", "replace"))):
                    os.killpg(proc.pid, signal.SIGINT)
                    sent = True
            if closed or (proc.poll() is not None and not ready):
                break
        else:
            proc.kill()
            pytest.fail("the command did not finish in time")
    finally:
        os.close(master)
    screen = ANSI.sub("", b"".join(chunks).decode("utf-8", "replace"))
    if interrupt_when is not None:
        assert sent, f"never saw {interrupt_when.pattern!r}: {screen[-2000:]}"
    return proc.wait(), screen


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    return make_bundle(tmp_path_factory.mktemp("progress"), n_segments=400, n_systems=3)


def test_score_on_a_terminal_draws_a_bar_with_percentage_count_and_eta(bundle: Path) -> None:
    code, screen = run_in_terminal([*CLI, "score", str(bundle), "--metric", "chrf", "--metric", "ter",
                                    "--jobs", "1"], bundle.parent)
    assert code == 0, screen
    assert re.search(r"\b\d{1,3}%", screen), screen
    assert re.search(r"\d+/6 scores", screen), screen
    assert "eta" in screen and re.search(r"\d:\d\d:\d\d", screen), screen
    assert "400 segments" in screen  # the result still comes


def test_score_through_a_pipe_writes_nothing_to_stderr(bundle: Path) -> None:
    out = subprocess.run([*CLI, "score", str(bundle), "--metric", "chrf", "--metric", "bleu", "--jobs", "1"],
                         capture_output=True, text=True, cwd=bundle.parent, timeout=240)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert "400 segments" in out.stdout and "%" not in out.stdout and "eta" not in out.stdout


def test_json_through_a_pipe_is_only_json(bundle: Path) -> None:
    import json

    out = subprocess.run([*CLI, "score", str(bundle), "--metric", "bleu", "--json"],
                         capture_output=True, text=True, cwd=bundle.parent, timeout=240)
    assert out.returncode == 0 and out.stderr == ""
    assert json.loads(out.stdout)["n_segments"] == 400


@pytest.mark.parametrize("where", ["top", "command"])
def test_quiet_silences_the_bar_on_a_terminal(bundle: Path, where: str) -> None:
    argv = ["-q", "score", str(bundle)] if where == "top" else ["score", str(bundle), "--quiet"]
    code, screen = run_in_terminal([*CLI, *argv, "--metric", "chrf", "--jobs", "1"], bundle.parent)
    assert code == 0, screen
    assert "400 segments" in screen
    assert "eta" not in screen and "Scoring" not in screen and not re.search(r"\d%", screen), screen


def test_score_of_plain_files_draws_a_bar_on_a_terminal(tmp_path: Path) -> None:
    rng = random.Random(3)
    lines = [" ".join(rng.choice(WORDS) for _ in range(12)) for _ in range(300)]
    (tmp_path / "hyp.txt").write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, screen = run_in_terminal([*CLI, "score", "--hyp", "hyp.txt", "--ref", "ref.txt", "--metric", "ter",
                                    "--json"], tmp_path)
    assert code == 0, screen
    assert re.search(r"\d+/300 segments", screen), screen


@pytest.mark.parametrize("jobs", ["1", "2"])  # in this process, and in worker processes
def test_ctrl_c_mid_score_keeps_finished_scores_and_leaves_no_partial_file(tmp_path: Path, jobs: str) -> None:
    bundle = make_bundle(tmp_path, n_segments=1500, n_systems=8, seed=11)
    before = bundle.read_bytes()
    # TER's shift search is slow enough that 16 scores take a while: stop after the first two.
    code, screen = run_in_terminal([*CLI, "score", str(bundle), "--metric", "ter", "--metric", "chrf",
                                    "--jobs", jobs], tmp_path, interrupt_when=re.compile(r"\b[2-9]/16 scores"))
    assert code == 130, screen
    match = re.search(r"interrupted: (\d+) of 16 scores kept in the score file (\S+); nothing else written",
                      screen)
    assert match, screen
    kept = int(match.group(1))
    assert 2 <= kept < 16
    assert "Traceback" not in screen
    assert bundle.read_bytes() == before
    # the bundle, its writers' lock (there after any run) and the score file; no temporary file
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        ".project.mtwb.json.lock", "project.mtwb.json", "project.mtwb.scores.npz"]
    # What was kept is really there: the next run restores those scores instead of computing them.
    from mtworkbench.scoring.store import load_project, store_for

    store = store_for(load_project(bundle))
    assert store is not None and len(store.entries) == kept


def test_ctrl_c_before_any_score_finished_says_nothing_written(tmp_path: Path) -> None:
    """Interrupted before any score finished: nothing was written, and it says so."""
    bundle = make_bundle(tmp_path, n_segments=1500, n_systems=8, seed=5)
    code, screen = run_in_terminal([*CLI, "score", str(bundle), "--metric", "ter", "--jobs", "1"], tmp_path,
                                   interrupt_when=re.compile(r"0/8 scores"))
    assert code == 130, screen
    assert re.search(r"interrupted: 0 of 8 scores kept; nothing written|interrupted: nothing written", screen)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".project.mtwb.json.lock") == [
        "project.mtwb.json"]


# --- the helper itself ----------------------------------------------------------------------

class FakeTty:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_wants_bar_only_on_a_terminal_and_never_quiet() -> None:
    import argparse

    assert wants_bar(argparse.Namespace(), FakeTty(True))
    assert not wants_bar(argparse.Namespace(), FakeTty(False))
    assert not wants_bar(argparse.Namespace(quiet=True), FakeTty(True))
    assert not wants_bar(None, object())  # no isatty at all: a replaced stream


def test_silent_progress_costs_nothing_and_imports_no_rich() -> None:
    code = (
        "import sys, argparse\n"
        "from mtworkbench.cli.progress import cli_progress\n"
        "with cli_progress(argparse.Namespace(), 'x') as p:\n"
        "    p(1, 2); p.stage('y'); p(2, 2)\n"
        "print('rich' in sys.modules, p.drawing)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"] and out.stderr == ""


def test_interrupted_message_prefers_the_jobs_account() -> None:
    note_kept(None)  # as main() does before each command
    try:
        assert interrupted_message() == "interrupted: nothing written"
        note_kept("2 of 5 packages written")
        assert interrupted_message() == "interrupted: 2 of 5 packages written"
        exc = KeyboardInterrupt()
        exc.kept = "3 of 8 scores kept"  # type: ignore[attr-defined]
        assert interrupted_message(exc) == "interrupted: 3 of 8 scores kept"
    finally:
        note_kept(None)


def test_progress_scales_what_the_job_reports() -> None:
    class Bar:
        tasks: list = []

        def __init__(self) -> None:
            self.calls: list = []

        def add_task(self, description, total=None, unit=""):
            return description

        def update(self, task, completed, total):
            self.calls.append((task, completed, total))

    bar = Bar()
    progress = Progress(bar, "Scoring", "scores", scale=1000)
    progress(2500, 8000)
    assert bar.calls == [("Scoring", 2.5, 8.0)]


def test_every_command_and_subcommand_accepts_quiet() -> None:
    import argparse

    from mtworkbench.cli import build_parser

    def parsers(parser: argparse.ArgumentParser, path: str):
        yield path, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from parsers(sub, f"{path} {name}")

    found = list(parsers(build_parser(), "mtworkbench"))
    assert len(found) > 20  # every command, and the sub-commands of entities, judgments, metrics, ...
    for path, parser in found:
        options = {o for action in parser._actions for o in action.option_strings}
        assert {"-q", "--quiet"} <= options, path
    # the top level's -q is not undone by a command that does not repeat it
    assert build_parser("validate").parse_args(["-q", "validate", "x.mtwb.json"]).quiet is True
    assert build_parser("validate").parse_args(["validate", "x.mtwb.json"]).quiet is False
    assert build_parser("validate").parse_args(["validate", "x.mtwb.json", "--quiet"]).quiet is True


def test_split_on_a_terminal_counts_packages_and_through_a_pipe_says_nothing_extra(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path, n_segments=60, n_systems=2)
    argv = [*CLI, "split", str(bundle), "--by", "judge", "--people", "Анна,李雷,Jürgen", "-o"]
    code, screen = run_in_terminal([*argv, str(tmp_path / "tty")], tmp_path)
    assert code == 0, screen
    assert re.search(r"3/3 packages", screen), screen
    out = subprocess.run([*argv, str(tmp_path / "pipe")], capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert out.returncode == 0 and out.stderr == ""
    assert "Анна" in out.stdout and "%" not in out.stdout and "eta" not in out.stdout


def test_a_commands_note_does_not_outlive_it(tmp_path: Path, capsys) -> None:
    """main may run several commands in one process: what one split wrote is not the next one's account."""
    from mtworkbench.cli import main

    bundle = make_bundle(tmp_path, n_segments=10, n_systems=2)
    assert main(["split", str(bundle), "--by", "judge", "--people", "a,b", "-o", str(tmp_path / "p")]) == 0
    assert "packages written" in interrupted_message()
    assert main(["validate", str(bundle)]) == 0
    assert interrupted_message() == "interrupted: nothing written"
