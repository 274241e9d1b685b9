"""Suggestions from a spaCy pipeline folder the user has on disk (never a download).

A pipeline folder is data: ``spacy.load(DIR)`` builds its components from ``config.cfg``, and a
config can name code (a ``[components.x] factory`` registered by a plugin package, a custom
function in a ``@registry`` section, a ``code`` file given at training time). Before loading,
``check_pipeline`` reads the config as text (configparser, nothing resolved or executed) and
refuses the folder, naming what it references, when:

* a component's ``factory`` is not one spaCy itself registers (e.g. a plugin or a custom one);
* a component is ``source``d from another pipeline (that is another folder, loaded in turn);
* any value names a function from outside spaCy's and Thinc's own registries
  (``@architectures = "my_plugin.Model.v1"``; spaCy's are ``spacy.…``, Thinc's have no prefix);
* the folder has a ``code`` entry or Python files beside the config.

Only then is the folder loaded, with spaCy's entry points for plugins left as spaCy leaves
them: a factory that is not spaCy's own never gets that far.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mtworkbench.core.errors import DataError
from mtworkbench.core.suggestions import Suggestion

# What spaCy 3.7+ registers itself (``spacy.registry.factories`` of a plain install).
SPACY_FACTORIES = frozenset({
    "attribute_ruler", "doc_cleaner", "entity_linker", "entity_ruler", "future_entity_ruler", "lemmatizer",
    "merge_entities", "merge_noun_chunks", "merge_subtokens", "morphologizer", "ner", "parser", "senter",
    "sentencizer", "span_finder", "span_ruler", "spancat", "spancat_singlelabel", "tagger", "textcat",
    "textcat_multilabel", "tok2vec", "token_splitter", "trainable_lemmatizer", "beam_ner", "beam_parser",
    "experimental_arc_predicter", "experimental_arc_labeler", "experimental_coref", "experimental_span_resolver",
    "experimental_char_ner_tokenizer", "experimental_edit_tree_lemmatizer",
})
# Registered-function names: spaCy's own start with "spacy." (or "spacy-legacy."), Thinc's are bare
# (``Adam.v1``, ``compounding.v1``); anything with another dotted prefix comes from another package.
_FUNCTION = re.compile(r"^(spacy|spacy-legacy|spacy_legacy)\.[A-Za-z0-9_.]+$|^[A-Za-z0-9_]+\.v\d+$")


@dataclass(frozen=True)
class PipelineInfo:
    folder: Path
    language: str
    components: tuple[str, ...]
    labels: tuple[str, ...]  # the entity labels its NER predicts


def _config(folder: Path) -> configparser.ConfigParser:
    path = folder / "config.cfg"
    if not path.is_file():
        raise DataError(f"{folder}: not a spaCy pipeline folder (no config.cfg); choose the folder "
                        "nlp.to_disk() wrote, with config.cfg and meta.json")
    parser = configparser.ConfigParser(interpolation=None, strict=False, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keep keys as written
    try:
        parser.read_string(path.read_text(encoding="utf-8"), source=str(path))
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: not a readable spaCy config: {exc}") from None
    return parser


def check_pipeline(folder: str | Path) -> PipelineInfo:
    """The pipeline's language and components, or a DataError naming what it would run."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(f"{folder}: not a folder; choose a spaCy pipeline folder")
    config = _config(folder)
    cfg = folder / "config.cfg"
    python = sorted(p.name for p in folder.glob("*.py"))
    if python:
        raise DataError(f"{folder}: holds Python code ({', '.join(python)}); a pipeline with its own code "
                        "is refused, only spaCy's built-in components are loaded")
    for section in config.sections():
        for key, raw in config.items(section):
            value = raw.strip().strip('"')
            if key == "code" and value and value.lower() not in ("null", "none"):
                raise DataError(f"{cfg}: [{section}] code = {raw.strip()} names code to run; refused")
            if key.startswith("@") and not _FUNCTION.match(value):
                raise DataError(f"{cfg}: [{section}] {key} = {raw.strip()} is a function from outside spaCy; "
                                "refused (only spaCy's built-in functions are loaded)")
    components = []
    for section in config.sections():
        parts = section.split(".")
        if len(parts) != 2 or parts[0] != "components":
            continue
        if config.has_option(section, "source"):
            raise DataError(f"{cfg}: [{section}] is sourced from {config.get(section, 'source')}; refused "
                            "(it would load another pipeline)")
        factory = config.get(section, "factory", fallback="").strip().strip('"')
        if factory not in SPACY_FACTORIES:
            raise DataError(f"{cfg}: [{section}] factory = \"{factory}\" is not one of spaCy's built-in "
                            "components; a pipeline with other components is refused")
        components.append(parts[1])
    language = config.get("nlp", "lang", fallback="").strip().strip('"')
    if not language:
        raise DataError(f"{cfg}: [nlp] has no lang")
    return PipelineInfo(folder, language, tuple(components), _ner_labels(folder, components))


def _ner_labels(folder: Path, components: Iterable[str]) -> tuple[str, ...]:
    """The entity labels ``meta.json`` lists for the pipeline's NER components (none if unreadable)."""
    import json

    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return ()
    by_component = meta.get("labels", {}) if isinstance(meta, dict) else {}
    labels: list[str] = []
    for name in components:
        found = by_component.get(name, []) if isinstance(by_component, dict) else []
        labels += [x for x in found if isinstance(x, str)] if name.endswith("ner") else []
    return tuple(dict.fromkeys(labels))


def load_pipeline(folder: str | Path):
    """``spacy.load`` of a checked folder (``check_pipeline``); spaCy missing is a clear error."""
    info = check_pipeline(folder)
    try:
        import spacy
    except ImportError:
        raise DataError("pre-annotation with a spaCy pipeline needs spaCy: pip install 'mtworkbench[annotate]'"
                        ) from None
    try:
        return spacy.load(info.folder)
    except (OSError, ValueError, KeyError) as exc:
        raise DataError(f"{info.folder}: spaCy could not load the pipeline: {exc}") from None


def suggest_entities(nlp, texts: dict[str, str], target: str, source: str) -> list[Suggestion]:
    """The pipeline's entities in each segment's text, as suggestions (character offsets)."""
    out: list[Suggestion] = []
    segments = list(texts)
    for sid, doc in zip(segments, nlp.pipe(texts[s] for s in segments), strict=True):
        for ent in doc.ents:
            if ent.end_char > ent.start_char:
                out.append(Suggestion(target, sid, ent.start_char, ent.end_char, ent.label_, source))
    return out
