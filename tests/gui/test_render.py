"""``mtworkbench render``: every view of the demo project rendered headless with
no option but --view and --out; errors are one line and an exit code."""

from __future__ import annotations

import pytest
import sacrebleu
from PySide6.QtGui import QImage

from mtworkbench.cli import main
from mtworkbench.core.model import Reference, System
from mtworkbench.gui.metrics.views import DETAIL_VIEW_NAMES, VIEW_NAMES, detail_views
from mtworkbench.gui.render import MAX_SIDE
from mtworkbench.io.bundle.bundle import load_bundle, save_bundle
from mtworkbench.resources import demo_project_path


def distinct_colours(image: QImage, step: int = 7) -> int:
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


@pytest.mark.parametrize("view", VIEW_NAMES)
def test_every_view_renders_the_demo_with_defaults(view, screenshot_dir, capsys):
    out = screenshot_dir / f"render_{view}.png"
    out.unlink(missing_ok=True)
    assert main(["render", str(demo_project_path()), "--view", view, "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    image = QImage(str(out))
    assert not image.isNull()
    if view == "corpus-table":
        assert image.width() >= 480 and 40 <= image.height() <= 200
    else:
        assert image.width() == 1200
        # The GTM grid's canvas grows taller when a label on every token needs it.
        assert image.height() == 800 or view == "gtm-grid" and 800 < image.height() <= 4000
    assert distinct_colours(image) > 3  # drawn, not a blank canvas


def test_corpus_table_svg_carries_the_scores(tmp_path):
    project = load_bundle(demo_project_path())
    ids = project.segment_ids
    hyps = [project.system_text("mt", s) for s in ids]
    refs = [[project.reference_text(r.id, s) for s in ids] for r in project.references]
    expected = f"{sacrebleu.corpus_bleu(hyps, refs).score:.2f}"
    out = tmp_path / "table.svg"
    assert main(["render", str(demo_project_path()), "--view", "corpus-table", "--metric", "bleu",
                 "--out", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
    assert expected in svg and "chrf" not in svg  # only the asked metric


def test_large_gtm_grid_gets_a_larger_canvas(tmp_path, screenshot_dir):
    project = load_bundle(demo_project_path())
    words = [f"w{i % 37}" for i in range(400)]
    project.add_reference(Reference("long-ref", texts={"1": " ".join(words)}))
    texts = {s: project.system_text("mt", s) for s in project.segment_ids}
    texts["1"] = " ".join(words[::3][:120])
    project.add_system(System("long", texts=texts))
    bundle = tmp_path / "long.mtwb.json"
    save_bundle(project, bundle)
    out = screenshot_dir / "render_gtm-grid_120x400.png"
    assert main(["render", str(bundle), "--view", "gtm-grid", "--system", "long", "--segment", "1",
                 "--metric", "gtm:e=2", "--out", str(out)]) == 0
    image = QImage(str(out))
    n_ref = 400 + sum(len(project.reference_text(r, "1").split()) for r in ("ref-1",))
    assert image.width() == min(MAX_SIDE, 300 + 14 * n_ref)
    # At least the default canvas; taller when a label on every candidate token needs it.
    assert 400 + 14 * 120 <= image.height() <= MAX_SIDE


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--view", "corpus-table", "--out", "x.txt"], 2, "--out must end in .png or .svg"),
        (["--view", "gtm-grid", "--system", "nope", "--out", "x.png"], 1, "no system 'nope'"),
        (["--view", "gtm-grid", "--segment", "999", "--out", "x.png"], 1, "no segment '999'"),
        (["--view", "corpus-table", "--metric", "bleu:nosuch=1", "--out", "x.png"], 2, "unknown option"),
        (["--view", "sideways", "--out", "x.png"], 2, "invalid choice"),
    ],
)
def test_render_errors_are_one_line(args, code, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["render", str(demo_project_path()), *args]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_views_registry_is_the_one_list():
    from mtworkbench.cli import build_parser
    from mtworkbench.gui import render

    # The CLI choices, the renderer and the workspace's detail tabs all come from the registry.
    from mtworkbench.gui.metrics import views as view_registry
    render_parser = build_parser()._subparsers._group_actions[0].choices["render"]
    assert tuple(next(a for a in render_parser._actions if a.dest == "view").choices) == VIEW_NAMES
    assert render.VIEW_NAMES is view_registry.VIEW_NAMES
    detail = detail_views()
    assert list(detail) == list(DETAIL_VIEW_NAMES)
    for entry in view_registry.VIEWS:
        if entry.detail:
            assert detail[entry.name].title == entry.label, entry.name


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_render_into_a_fifo_writes_it_and_keeps_it(tmp_path, suffix, capsys):
    import os
    import stat
    import threading

    fifo = tmp_path / f"view{suffix}"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    code = main(["render", str(demo_project_path()), "--view", "corpus-table", "--out", str(fifo)])
    reader.join(timeout=60)
    assert code == 0, capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"\x89PNG" if suffix == ".png" else b"<?xml")
