"""--scheduler on the command line: `dask scheduler` and two `dask worker` processes on
127.0.0.1 give `score --json` every number of `--jobs 1`, and the score file receives the
results as if scored here; without dask the option says what to install."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time

import pytest

from mtworkbench.cli import main
from mtworkbench.io.bundle.bundle import save_bundle
from mtworkbench.scoring.store import store_path
from tests.scoring.cluster_fixtures import mixed_project

pytestmark = pytest.mark.slow

METRICS = ("bleu", "chrf", "ter", "meteor", "gtm", "nist", "wer")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler_address():
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    address = f"tcp://127.0.0.1:{_free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", address.rsplit(":", 1)[1], "--no-dashboard"], **quiet)]
    try:
        time.sleep(1)
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                           "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"], **quiet))
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def _score_json(capsys, *argv: str) -> dict:
    assert main(["score", *argv, "--json", *(x for m in METRICS for x in ("--metric", m))]) == 0
    return json.loads(capsys.readouterr().out)


def test_score_on_a_scheduler_and_two_workers_prints_the_numbers_of_one_process(tmp_path, capsys,
                                                                               scheduler_address):
    project = mixed_project(n_segments=30, n_systems=3)
    for name in ("local", "cluster"):
        (tmp_path / name).mkdir()
        save_bundle(project, tmp_path / name / "p.mtwb.json")
    local = _score_json(capsys, str(tmp_path / "local" / "p.mtwb.json"), "--jobs", "1")
    on_cluster = _score_json(capsys, str(tmp_path / "cluster" / "p.mtwb.json"), "--scheduler", scheduler_address)
    assert "backend" not in local
    assert on_cluster.pop("backend") == {"kind": "dask", "scheduler": scheduler_address, "workers": 2}
    assert on_cluster == local and len(local["scores"]) == len(METRICS) * 3
    # the score file holds what the cluster computed: read back here, the same numbers again
    assert store_path(tmp_path / "cluster" / "p.mtwb.json").is_file()
    shutil.rmtree(tmp_path / "local")
    assert _score_json(capsys, str(tmp_path / "cluster" / "p.mtwb.json"), "--jobs", "1") == local


def test_without_dask_scheduler_says_what_to_install(tmp_path, capsys, monkeypatch):
    save_bundle(mixed_project(n_segments=5, n_systems=2), tmp_path / "p.mtwb.json")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    assert main(["score", str(tmp_path / "p.mtwb.json"), "--metric", "bleu", "--scheduler", "local:2"]) == 1
    err = capsys.readouterr().err
    assert "pip install 'mtworkbench[cluster]'" in err and "Traceback" not in err


def _write_files(tmp_path, project) -> list[str]:
    """The project as plain files: source, reference, one hypothesis file per system."""
    sids = project.segment_ids
    texts = {"ref.txt": [project.references[0].texts[s] for s in sids],
             "src.txt": [project.segment(s).source for s in sids]}
    for system in project.systems:
        texts[f"{system.id}.txt"] = [system.texts[s] for s in sids]
    for name, lines in texts.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [str(tmp_path / f"{s.id}.txt") for s in project.systems]


def test_files_and_several_hyps_on_a_local_cluster_print_the_numbers_of_one_process(tmp_path, capsys):
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    hyps = _write_files(tmp_path, mixed_project(n_segments=30, n_systems=3))
    files = ["--src", str(tmp_path / "src.txt"), "--ref", str(tmp_path / "ref.txt"), "--tgt-lang", "de",
             *(x for h in hyps for x in ("--hyp", h))]
    here = _score_json(capsys, *files)
    on_cluster = _score_json(capsys, *files, "--scheduler", "local:2")
    assert on_cluster.pop("backend") == {"kind": "dask", "scheduler": "local:2", "workers": 2}
    assert on_cluster == here
    # every metric x every file, each named by its path, in the order asked for
    assert [(s["metric"], s["system"]) for s in here["scores"]] == [(m.split(":")[0], h) for m in METRICS for h in hyps]
    # one --hyp: no system name, as without a cluster
    one_here = _score_json(capsys, *files[:6], "--hyp", hyps[1])
    one_on_cluster = _score_json(capsys, *files[:6], "--hyp", hyps[1], "--scheduler", "local:2")
    one_on_cluster.pop("backend")
    assert one_on_cluster == one_here and {s["system"] for s in one_here["scores"]} == {None}
    assert one_here["scores"][0] == here["scores"][1] | {"system": None}
