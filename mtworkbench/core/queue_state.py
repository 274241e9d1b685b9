"""A judge's stored work queue as typed records, and its JSON form.

``JudgeQueue`` is what ``Project.judge_queues[judge]`` holds and what the
bundle saves under ``judge_queues``. Its fields are in the order of the JSON
object, so ``to_json`` (``dataclasses.asdict``) writes exactly the bytes
earlier versions wrote; ``from_json`` checks every field and names the JSON
path of the first one that is wrong, so garbage is refused when a bundle is
loaded rather than failing later in the judging view.

Ids (systems, segments, references) are not checked against the project
here: an id may vanish after the queue was built (``JudgeSession`` says so
when the queue is opened).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mtworkbench.core.json_reader import JsonReader
from mtworkbench.core.suggested_spans import SuggestedSpan

QUEUE_FORMAT = 1
REFERENCE_MODES = ("per-document", "per-segment", "fixed")
DISPLAY_OPTIONS = ("show_source", "highlight_overlap")
# The rating protocols a queue can serve (a subset of model.PROTOCOLS: "scalar"
# only arrives by import). ``da_basis`` says what a DA rater compares against.
QUEUE_PROTOCOLS = ("ldc", "da", "esa", "mqm", "rank")
DA_BASES = ("reference", "source")
MQM_MAX_ERRORS = 5  # Google's protocol: at most five errors a segment
RANK_MAX_SYSTEMS = 5  # relative ranking: at most five systems side by side (WMT, Appraise)
# Quality-control items (DA "BAD references", ESA too): degraded copies hidden among the items.
BAD_PROTOCOLS = ("da", "esa")
# A queue served in batches (core.queue_batches) counts a batch in items or in whole documents.
BATCH_UNITS = ("items", "documents")
# Protocol and batch fields with their defaults; left out of the JSON when default so an
# LDC queue is written byte for byte as before and old bundles load unchanged.
_PROTOCOL_DEFAULTS = {"protocol": "ldc", "da_basis": "reference", "max_errors": MQM_MAX_ERRORS,
                      "max_systems": RANK_MAX_SYSTEMS, "bad_rate": 0.0,
                      "batch_size": 0, "batch_unit": "items", "batches": None, "suggestions": ""}
# The same for an item: only a ranking item writes systems, only a BAD copy qc and text.
_ENTRY_DEFAULTS: dict[str, Any] = {"systems": None, "qc": "", "text": None, "suggested": None}
# Queues whose items may carry a model's error spans as suggestions (ESA-AI, MQM pre-marked).
SUGGESTION_PROTOCOLS = ("esa", "mqm")


@dataclass
class QueueEntry:
    """One item of a queue: a system's segment shown against a reference.

    A relative-ranking item shows several systems' segments side by side:
    ``systems`` lists them in the order shown (``system`` is the first), and
    ``judgment`` is then the id of the ranking (``Judgment.ranking``) it produced.
    """

    system: str
    segment: str
    reference: str | None
    repeat: bool = False
    judgment: str | None = None  # id of the judgment the item produced, once rated
    systems: list[str] | None = None  # ranking items only; left out of the JSON otherwise
    # A quality-control item: qc "bad" and the degraded text shown instead of the
    # system's (the rater is not told; the judgment carries both, see Judgment.qc).
    qc: str = ""
    text: str | None = None
    # The model's error spans pre-marked for the judge (None: the queue suggests none;
    # a BAD item, whose text the model never saw, has none).
    suggested: list[SuggestedSpan] | None = None


@dataclass
class JudgeQueue:
    """The whole state of one judge's queue: how it was drawn, its items, the position."""

    format: int
    seed: int
    repeat_share: float
    min_repeat_gap: int
    reference_mode: str
    reference: str | None
    systems: list[str] | None
    documents: list[str] | None
    show_source: bool
    highlight_overlap: bool
    items: list[QueueEntry] = field(default_factory=list)
    position: int = 0
    protocol: str = "ldc"
    da_basis: str = "reference"
    max_errors: int = MQM_MAX_ERRORS
    max_systems: int = RANK_MAX_SYSTEMS
    bad_rate: float = 0.0  # BAD items as a share of the distinct items (0: none)
    batch_size: int = 0  # distinct items or documents a batch (0: one batch)
    batch_unit: str = "items"
    batches: list[int] | None = None  # the size of each batch in queue order (None: one batch)
    suggestions: str = ""  # where the items' suggested spans came from (a metric spec); "" none

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for entry, item in zip(out["items"], self.items):
            if item.suggested is not None:
                entry["suggested"] = [s.to_json() for s in item.suggested]
        for key, default in _PROTOCOL_DEFAULTS.items():
            if out[key] == default:
                del out[key]
        for entry in out["items"]:
            for key, default in _ENTRY_DEFAULTS.items():
                if entry[key] == default:
                    del entry[key]
        return out

    @classmethod
    def from_json(cls, value: Any, path: str = "$", file: str | None = None) -> JudgeQueue:
        """Check every field of a stored queue; raise ``BundleError`` naming the bad one."""
        check = JsonReader(file)
        optional = set(_PROTOCOL_DEFAULTS)
        obj = check.keys(value, path, set(cls.__dataclass_fields__) - optional, optional)
        obj = {**_PROTOCOL_DEFAULTS, **obj}
        if obj["format"] != QUEUE_FORMAT or isinstance(obj["format"], bool):
            check.fail(f"unsupported queue format {obj['format']!r}; this program reads {QUEUE_FORMAT}", f"{path}.format")
        items = []
        for i, item in enumerate(check.list(obj["items"], f"{path}.items")):
            where = f"{path}.items[{i}]"
            raw = check.keys(item, where, set(QueueEntry.__dataclass_fields__) - set(_ENTRY_DEFAULTS),
                             set(_ENTRY_DEFAULTS))
            raw = {**_ENTRY_DEFAULTS, **raw}
            systems = check.optional_str_list(raw["systems"], f"{where}.systems")
            if systems is not None and (len(systems) < 2 or len(set(systems)) < len(systems)
                                        or systems[0] != raw["system"]):
                check.fail("expected two or more distinct systems, the first being the item's system",
                           f"{where}.systems")
            qc = check.str(raw["qc"], f"{where}.qc")
            if qc not in ("", "bad"):
                check.fail(f"expected empty or 'bad', found {qc!r}", f"{where}.qc")
            shown = check.optional_str(raw["text"], f"{where}.text")
            if (shown is None) != (qc == ""):
                check.fail("a BAD item (qc 'bad') needs the text it shows, and only a BAD item has one",
                           f"{where}.text")
            suggested = None
            if raw["suggested"] is not None:
                suggested = [SuggestedSpan.from_json(x, f"{where}.suggested[{k}]", check)
                             for k, x in enumerate(check.list(raw["suggested"], f"{where}.suggested"))]
            items.append(QueueEntry(
                system=check.str(raw["system"], f"{where}.system"),
                segment=check.str(raw["segment"], f"{where}.segment"),
                reference=check.optional_str(raw["reference"], f"{where}.reference"),
                repeat=check.flag(raw["repeat"], f"{where}.repeat"),
                judgment=check.optional_str(raw["judgment"], f"{where}.judgment"),
                systems=systems,
                qc=qc,
                text=shown,
                suggested=suggested,
            ))
        position = check.int(obj["position"], f"{path}.position")
        if not 0 <= position <= len(items):
            check.fail(f"expected an integer from 0 to {len(items)}, found {position}", f"{path}.position")
        mode = check.choice(obj["reference_mode"], f"{path}.reference_mode", REFERENCE_MODES)
        check.share(obj["repeat_share"], f"{path}.repeat_share")
        gap = check.int(obj["min_repeat_gap"], f"{path}.min_repeat_gap")
        if gap < 0:
            check.fail(f"expected a non-negative integer, found {gap}", f"{path}.min_repeat_gap")
        protocol = check.choice(obj["protocol"], f"{path}.protocol", QUEUE_PROTOCOLS)
        for i, item in enumerate(items):
            if (item.systems is not None) != (protocol == "rank"):
                check.fail("a ranking queue's items list the systems shown, other queues' items do not",
                           f"{path}.items[{i}].systems")
        basis = check.choice(obj["da_basis"], f"{path}.da_basis", DA_BASES)
        max_errors = check.int(obj["max_errors"], f"{path}.max_errors")
        if max_errors < 1:
            check.fail(f"expected a positive integer, found {max_errors}", f"{path}.max_errors")
        max_systems = check.int(obj["max_systems"], f"{path}.max_systems")
        if max_systems < 2:
            check.fail(f"expected an integer of at least 2, found {max_systems}", f"{path}.max_systems")
        check.share(obj["bad_rate"], f"{path}.bad_rate")
        batch_size = check.int(obj["batch_size"], f"{path}.batch_size")
        if batch_size < 0:
            check.fail(f"expected a non-negative integer, found {batch_size}", f"{path}.batch_size")
        batch_unit = check.choice(obj["batch_unit"], f"{path}.batch_unit", BATCH_UNITS)
        batches = None
        if obj["batches"] is not None:
            batches = [check.int(n, f"{path}.batches[{i}]")
                       for i, n in enumerate(check.list(obj["batches"], f"{path}.batches"))]
            if any(n < 1 for n in batches) or sum(batches) != len(items):
                check.fail(f"expected positive batch sizes adding up to the {len(items)} items",
                           f"{path}.batches")
        suggestions = check.str(obj["suggestions"], f"{path}.suggestions")
        if suggestions and protocol not in SUGGESTION_PROTOCOLS:
            check.fail(f"only {' and '.join(SUGGESTION_PROTOCOLS)} queues carry suggested spans", f"{path}.suggestions")
        return cls(
            format=QUEUE_FORMAT,
            seed=check.int(obj["seed"], f"{path}.seed"),
            repeat_share=obj["repeat_share"],  # kept as written (int or float) for a byte-identical save
            min_repeat_gap=gap,
            reference_mode=mode,
            reference=check.optional_str(obj["reference"], f"{path}.reference"),
            systems=check.optional_str_list(obj["systems"], f"{path}.systems"),
            documents=check.optional_str_list(obj["documents"], f"{path}.documents"),
            show_source=check.flag(obj["show_source"], f"{path}.show_source"),
            highlight_overlap=check.flag(obj["highlight_overlap"], f"{path}.highlight_overlap"),
            items=items,
            position=position,
            protocol=protocol,
            da_basis=basis,
            max_errors=max_errors,
            max_systems=max_systems,
            bad_rate=obj["bad_rate"],  # as written, like repeat_share
            batch_size=batch_size,
            batch_unit=batch_unit,
            batches=batches,
            suggestions=suggestions,
        )
