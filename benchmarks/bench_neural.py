#!/usr/bin/env python3
"""Neural metrics: our COMET inference against the reference implementation's ``predict()``.

    python benchmarks/bench_neural.py [--device cpu|cuda] [--quick] [--ref-python PATH]

Models: the small fixture checkpoints (tests/fixtures/neural) and a randomly initialised
model of real size (XLM-R large shape: 24 layers, hidden 1024, vocabulary 250002, the
estimator of wmt22-comet-da), built from its config, nothing downloaded. Each side runs
in its own process on the same segments (multilingual, length-varied) and reports
throughput (segments/s, after one warm-up batch; the median of alternating runs, ours then
the reference, ``--repeats`` times; with ``--timed-runs N`` each process times N runs, the first
reported as the first call, which meets new batch shapes, the median of the rest as steady), the CPU time per segment (all the process's threads; on a
shared machine the work done, which the wall clock mixes with other jobs), model load time
(reported apart from scoring), peak memory (CPU: the process's
maximum resident set; GPU: torch's peak allocation) and the largest score difference.

The reference side needs a Python with unbabel-comet (it pins numpy<2 and transformers<5,
so it lives in its own environment): ``--ref-python``, ``$MTWB_COMET_REF_PYTHON`` or
``/tmp/comet-ref/bin/python``; without one only our side is timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "neural"
LARGE = dict(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096,
             max_position_embeddings=514, vocab_size=250002)
LARGE_HPARAMS = {
    "class_identifier": "regression_metric", "encoder_model": "XLM-RoBERTa", "pretrained_model": "encoder",
    "layer": "mix", "layer_transformation": "sparsemax", "layer_norm": False, "pool": "avg",
    "hidden_sizes": [3072, 1024], "activations": "Tanh", "final_activation": None, "dropout": 0.1,
    "load_pretrained_weights": False, "keep_embeddings_frozen": True, "nr_frozen_epochs": 0.3,
}

# Runs in a child process: ``ours`` in this project's environment, ``ref`` in the reference's.
DRIVER = r'''
import json, os, resource, sys, time
mode, folder, data_file, device, batch = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
data = json.load(open(data_file, encoding="utf-8"))
os.chdir(folder)
import torch
torch.manual_seed(0)
if int(sys.argv[7]) > 0:  # the same thread count on both sides (--threads)
    torch.set_num_threads(int(sys.argv[7]))
cuda = device == "cuda"
t0 = time.perf_counter()
if mode == "ours":
    sys.path.insert(0, sys.argv[6])
    from mtworkbench.metrics.neural.comet_predict import CometModel
    model = CometModel(folder, device=device)
    def run(rows):
        return model.predict([r["mt"] for r in rows], [r["src"] for r in rows],
                             [r["ref"] for r in rows] if model.uses_reference else None, batch_size=batch).scores
else:
    import logging
    logging.disable(logging.WARNING)
    from comet import load_from_checkpoint
    model = load_from_checkpoint(os.path.join(folder, "checkpoints", "model.ckpt"), local_files_only=True)
    def run(rows):
        return list(model.predict(rows, batch_size=batch, gpus=1 if cuda else 0, progress_bar=False).scores)
load_s = time.perf_counter() - t0
run(data[:batch])  # warm-up
if cuda:
    torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
walls, cpus = [], []
for _ in range(max(1, int(sys.argv[8]))):  # the first run meets new batch shapes; later ones are steady
    t0, c0 = time.perf_counter(), time.process_time()
    scores = run(data)
    if cuda:
        torch.cuda.synchronize()
    walls.append(time.perf_counter() - t0)
    cpus.append(time.process_time() - c0)  # every thread of the process: on a shared machine, the work done
def resident_peak_mib():
    # VmHWM starts afresh at exec; ru_maxrss would carry the parent's peak over on Linux
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
peak = torch.cuda.max_memory_allocated() / 2**20 if cuda else resident_peak_mib()
print("RESULT " + json.dumps({"load_s": load_s, "seconds": walls, "cpu_s": cpus, "peak_mib": peak,
                             "scores": scores}))
'''


def segments(n: int) -> list[dict[str, str]]:
    pairs = json.loads((FIXTURES / "PAIRS.json").read_text(encoding="utf-8"))
    rows = [r for rs in pairs.values() for r in rs]
    out = []
    for i in range(n):
        src, mt, ref = rows[i % len(rows)]
        k = 1 + (i % 4)  # lengths vary, so length-sorted batching matters
        out.append({"src": " ".join([src] * k), "mt": " ".join([mt] * k), "ref": " ".join([ref] * k)})
    return out


def build_large(folder: Path) -> Path:
    """A wmt22-comet-da-shaped checkpoint with random weights, in COMET's layout."""
    import shutil

    import torch
    import transformers
    import yaml

    from mtworkbench.metrics.neural.comet_net import CometNet, CometSettings, Encoder

    encoder_dir = folder / "encoder"
    shutil.copytree(FIXTURES / "encoder", encoder_dir)
    config = transformers.XLMRobertaConfig.from_pretrained(str(encoder_dir))
    for key, value in LARGE.items():
        setattr(config, key, value)
    config.save_pretrained(str(encoder_dir))
    torch.manual_seed(0)
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(encoder_dir))
    net = CometNet(CometSettings.from_hparams(LARGE_HPARAMS, folder),
                   Encoder(transformers.XLMRobertaModel(config, add_pooling_layer=False), tokenizer))
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    # the key pytorch-lightning reads (as in a real checkpoint) so the reference can load it too
    torch.save({"state_dict": net.state_dict(), "hyper_parameters": LARGE_HPARAMS,
                "pytorch-lightning_version": "2.5.0"}, folder / "checkpoints" / "model.ckpt")
    (folder / "hparams.yaml").write_text(yaml.safe_dump(LARGE_HPARAMS), encoding="utf-8")
    return folder


def run_side(python: str, mode: str, folder: Path, data_file: Path, device: str, batch: int,
             threads: int = 0, timed_runs: int = 1) -> dict | None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run([python, "-c", DRIVER, mode, str(folder), str(data_file), device, str(batch), str(ROOT),
                          str(threads), str(timed_runs)],
                         capture_output=True, text=True, env=env)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    print(f"  {mode} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
    return None


PHASES = ("first", "steady")


def summarise(got_runs: list[dict], n: int) -> dict:
    """Medians over processes: ``first`` the first timed run after the warm-up, ``steady`` each
    process's median of the later runs (with ``--timed-runs`` above 1)."""
    out: dict = {"peak_mib": max(g["peak_mib"] for g in got_runs),
                 "load_s": statistics.median(g["load_s"] for g in got_runs), "runs": len(got_runs)}
    phases = {"first": [(g["seconds"][0], g["cpu_s"][0]) for g in got_runs]}
    if all(len(g["seconds"]) > 1 for g in got_runs):
        phases["steady"] = [(statistics.median(g["seconds"][1:]), statistics.median(g["cpu_s"][1:]))
                            for g in got_runs]
    for phase, times in phases.items():
        out[phase] = {"seg_per_s": statistics.median(n / wall for wall, _ in times),
                      "cpu_s_per_seg": statistics.median(cpu / n for _, cpu in times)}
    return out


def print_row(name: str, n: int, row: dict) -> None:
    for phase in PHASES:
        if not any(phase in row.get(mode, {}) for mode in ("ours", "ref")):
            continue
        line = f"{name:24s} n={n:5d} {phase:6s}"
        for mode in ("ours", "ref"):
            if phase in row.get(mode, {}):
                r = row[mode]
                line += (f"  {mode}: {r[phase]['seg_per_s']:8.2f} seg/s, {1000 * r[phase]['cpu_s_per_seg']:8.2f} "
                         f"CPU ms/seg, peak {r['peak_mib']:7.0f} MiB, load {r['load_s']:5.1f} s")
        if f"{phase}_ratio" in row:
            line += f"  ours/ref {row[f'{phase}_ratio']:.2f}x (CPU time {row[f'{phase}_cpu_ratio']:.2f}x)"
        if "max_abs_diff" in row:
            line += f"  max|diff| {row['max_abs_diff']:.2e}"
        print(line, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--quick", action="store_true", help="fewer segments")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--ref-python", default=os.environ.get("MTWB_COMET_REF_PYTHON", "/tmp/comet-ref/bin/python"))
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch threads on both sides (0: torch's default). On a busy machine 1 keeps "
                             "OpenMP's waiting threads from measuring the load instead of the code")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs per side; medians are reported")
    parser.add_argument("--timed-runs", type=int, default=1,
                        help="timed runs per process after the warm-up: the first is reported as the first "
                             "call, the median of the others as steady throughput")
    parser.add_argument("--large-dir", default="", help="keep the real-size checkpoint here (built when absent)")
    parser.add_argument("--only", default="", help="comma-separated model names (default: all)")
    args = parser.parse_args()
    ref_python = args.ref_python if Path(args.ref_python).exists() else None
    import torch

    card = torch.cuda.get_device_name(0) if args.device == "cuda" and torch.cuda.is_available() else \
        f"CPU, {args.threads or torch.get_num_threads()} torch threads"
    print(f"device: {args.device} ({card}); reference: {ref_python or 'not found, ours only'}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        models = [(name, FIXTURES / name, 256 if args.quick else 2048)
                  for name in ("comet-regression", "comet-referenceless", "comet-xcomet")]
        if not args.skip_large and (not args.only or "xlmr-large-regression" in args.only.split(",")):
            large_n = (64 if args.quick else 512) if args.device == "cpu" else (512 if args.quick else 4096)
            large = Path(args.large_dir) if args.large_dir else work / "large"
            built = (large / "checkpoints" / "model.ckpt").exists() and (large / "hparams.yaml").exists()
            models.append(("xlmr-large-regression", large if built else build_large(large), large_n))
        for name, folder, n in models:
            if args.only and name not in args.only.split(","):
                continue
            data_file = work / f"{name}.json"
            data_file.write_text(json.dumps(segments(n), ensure_ascii=False), encoding="utf-8")
            row: dict = {"model": name, "segments": n}
            sides = [(mode, python) for mode, python in (("ours", sys.executable), ("ref", ref_python)) if python]
            runs: dict[str, list[dict]] = {mode: [] for mode, _ in sides}
            scores: dict[str, list[float]] = {}
            # alternating runs (ours, ref, ours, ref, ...) so a busy moment costs both sides alike
            for _ in range(args.repeats):
                for mode, python in sides:
                    got = run_side(python, mode, folder, data_file, args.device, args.batch_size, args.threads,
                                   args.timed_runs)
                    if got is not None:
                        runs[mode].append(got)
                        scores[mode] = got["scores"]
            for mode, got_runs in runs.items():
                if got_runs:
                    row[mode] = summarise(got_runs, n)
            if "ours" in scores and "ref" in scores:
                row["max_abs_diff"] = max(abs(a - b) for a, b in zip(scores["ours"], scores["ref"]))
            if "ours" in row and "ref" in row:
                for phase in PHASES:
                    if phase in row["ours"] and phase in row["ref"]:
                        ours, ref = row["ours"][phase], row["ref"][phase]
                        row[f"{phase}_ratio"] = ours["seg_per_s"] / ref["seg_per_s"]
                        row[f"{phase}_cpu_ratio"] = ref["cpu_s_per_seg"] / ours["cpu_s_per_seg"]
            results.append(row)
            print_row(name, n, row)
    print(json.dumps({"device": args.device, "card": card, "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
