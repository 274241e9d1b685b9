"""``mtworkbench train-learned``: train the SVM human-likeness metric (Kulesza & Shieber 2004) on a bundle."""

from __future__ import annotations

import argparse
import json

from mtworkbench.cli import UsageError
from mtworkbench.cli.progress import cli_progress


def _floats(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise argparse.ArgumentTypeError("values must be positive numbers")
    return values


def register(subparsers: argparse._SubParsersAction) -> None:
    from mtworkbench.metrics.learned import DEFAULT_C_GRID, DEFAULT_SIGMA_GRID

    p = subparsers.add_parser(
        "train-learned",
        help="train the learned (SVM) metric and store it in the bundle",
        description=(
            "Train an RBF SVM to tell human from machine translations (references scored against "
            "the other references are the human examples; needs 2+ references). Grid search over "
            "C and sigma (gamma = 1/(2 sigma^2)) by accuracy on a held-out third of the segments. "
            "The model is saved in the bundle (plain JSON parameters) unless --no-save; "
            "then '--metric learned' uses it."
        ),
    )
    p.add_argument("bundle", help="a project bundle (*.mtwb.json)")
    p.add_argument("--C", dest="c_grid", type=_floats, default=list(DEFAULT_C_GRID), metavar="C,C,...",
                   help=f"C values (default {','.join(map(str, DEFAULT_C_GRID))})")
    p.add_argument("--sigma", type=_floats, default=list(DEFAULT_SIGMA_GRID), metavar="S,S,...",
                   help=f"sigma values (default {','.join(map(str, DEFAULT_SIGMA_GRID))})")
    p.add_argument("--validation", type=float, default=1 / 3, help="share of segments held out (default 1/3)")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--tokenize", choices=("13a", "intl", "none"), default="13a")
    p.add_argument("--lowercase", action="store_true")
    p.add_argument("--human", metavar="NAME[:FIELD]",
                   help="also report the segment-level correlation with this human score "
                        "(NAME:FIELD; a name with ':' works as is, see correlate --help)")
    p.add_argument("-o", "--output", metavar="MODEL.json", help="also write the model to this file")
    p.add_argument("--no-save", action="store_true", help="do not write the model into the bundle")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from mtworkbench.core.output import write_output
    from mtworkbench.io.bundle.bundle import bundle_transaction, load_bundle
    from mtworkbench.metrics.learned import Tokenisation, project_examples, train_learned

    if not 0 < args.validation < 1:
        raise UsageError("--validation must be between 0 and 1")
    with cli_progress(args, "Reading"):
        project = load_bundle(args.bundle)
    tok = Tokenisation(args.tokenize, args.lowercase)
    with cli_progress(args, "Training"):
        examples = project_examples(project, tok, args.seed)
        training = train_learned(examples, args.c_grid, args.sigma, args.validation, args.seed, tok)
    payload = {"bundle": args.bundle, "training": training.to_json()}
    model = training.model.to_json()
    project.set_learned_model(model)
    if args.human:
        with cli_progress(args, "Scoring"):
            payload["correlation"] = human_correlation(project, args.human)
        model["report"]["correlation"] = payload["correlation"]
    if args.output:
        write_output(args.output, json.dumps(project.learned_model, indent=1) + "\n")
    if not args.no_save:
        # Training ran unlocked on a copy; only the model is written, into the bundle as it is now,
        # so judgments added meanwhile by another command are kept.
        with bundle_transaction(args.bundle) as current:
            current.set_learned_model(project.learned_model)
    payload["saved"] = not args.no_save
    if args.json:
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    t = training
    print(f"trained on {t.n_train} examples, validated on {t.n_validation}")
    print(f"{'C':>8} {'sigma':>8} {'accuracy':>9} {'human':>7} {'machine':>8} {'SVs':>6}")
    for g in t.grid:
        mark = "  <- chosen" if g is t.best else ""
        print(f"{g.C:8g} {g.sigma:8g} {g.accuracy:9.4f} {g.human_accuracy:7.4f} {g.machine_accuracy:8.4f} "
              f"{g.n_support:6d}{mark}")
    if "correlation" in payload:
        c = payload["correlation"]
        r = "-" if c["r"] is None else f"{c['r']:.4f}"
        print(f"segment-level Pearson with {args.human}: r = {r} (n = {c['n']})")
    print("model saved in the bundle" if not args.no_save else "model not saved in the bundle (--no-save)")
    return 0


def human_correlation(project, human_spec: str) -> dict:
    """Segment-level Pearson (Fisher interval) of the learned score with a human score."""
    from mtworkbench.analysis.correlation import correlate
    from mtworkbench.analysis.human_scores import collect_human_scores, level_pairs
    from mtworkbench.scoring.project_scores import score_project

    human = collect_human_scores(project, human_spec)
    rated = human.rated_systems()
    (scored,) = score_project(project, ["learned"], rated)
    rows = [human.systems.index(s) for s in rated]
    m, h = level_pairs(scored.segments, scored.corpus, human, "segment", rows)
    out = correlate(m, h, "pearson", metric="learned", human=human_spec, level="segment").to_json()
    return {k: out[k] for k in ("metric", "human", "level", "method", "r", "n", "ci", "p")}
