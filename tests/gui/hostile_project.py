"""A project whose every id, name and text is markup (issue 20, item 4).

Each string carries a marker tag that a rich-text view would interpret: a
heading, bold, a link, and an image naming a local file. A view shows them
safely when the literal characters appear (plain text) or when its rich text
holds them escaped; ``RAW_TAGS`` are the substrings that must never reach a
rich-text view unescaped.
"""

from __future__ import annotations

import json
from pathlib import Path

from mtworkbench.resources import demo_project_path

IMG = '<img src="file:///tmp/mtwb-hostile.png">'
DOC = "<i>DOC</i>"
REF = "<h1>REF2</h1>"
SYS = f"<b>SYS</b>{IMG}"
JUDGE = '<a href="http://example.com/">JUDGE</a>'
ANNOTATOR = "<u>ANN</u>"
ETYPE = "<s>TYPE</s>"
COMMENT = f"=HYPERLINK(\"http://x\",\"y\") <b>COMMENT</b>{IMG}"
SEGMENT_MARKUP = f" <h1>TEXT</h1>{IMG}"
FORMULA_SYSTEM = "=SUM(A1)"

# Never in a rich-text view as is: each would be drawn or loaded.
RAW_TAGS = ("<h1>", "<img", "<a href", "<b>SYS", "<i>DOC", "<u>ANN", "<s>TYPE", "<b>COMMENT")


def write_hostile_bundle(target: Path) -> Path:
    data = json.loads(demo_project_path().read_text(encoding="utf-8"))
    data["name"] = f"<h1>NAME</h1>{IMG}"
    doc = data["documents"][0]
    doc["id"] = DOC
    first = doc["paragraphs"][0]["segments"][0]
    first["source"] += SEGMENT_MARKUP
    ref = data["references"][0]
    ref["id"] = REF
    ref["translator"] = "<b>TRANSLATOR</b>"
    ref["texts"]["1"] += SEGMENT_MARKUP
    system = data["systems"][0]
    system["id"] = SYS
    system["texts"]["1"] += SEGMENT_MARKUP
    # A second system whose id is a spreadsheet formula (Copy TSV and Export CSV must neutralise it).
    # (Its texts: the demo's second translation, shipped as the human system human-ref2.)
    second = next(s for s in data["systems"] if s["id"] == "human-ref2")
    data["systems"].append({"id": FORMULA_SYSTEM, "kind": "machine", "texts": dict(second["texts"])})
    data["settings"]["metrics"] = ["bleu", "chrf", "gtm", "meteor", "nee"]
    data["settings"]["baseline"] = SYS  # the demo's baseline mt, renamed above
    data["judges"] = [JUDGE, "plain judge"]
    data["settings"]["entity_types"].append({"name": ETYPE, "key": "X", "color": "#123456"})
    text = ref["texts"]["1"]
    data["entity_spans"] = [
        {"id": "<b>SPAN</b>", "reference": REF, "segment": "1", "start": 0, "end": 3, "type": ETYPE,
         "annotator": ANNOTATOR},
        {"id": "span-2", "reference": REF, "segment": "1", "start": 0, "end": 3, "type": "PERSON",
         "annotator": "other"},
        {"id": "span-3", "reference": REF, "segment": "1", "start": text.index("<h1>"),
         "end": text.index("<h1>") + 4, "type": ETYPE, "annotator": ANNOTATOR},
    ]
    judgments = []
    segments = [s["id"] for p in doc["paragraphs"] for s in p["segments"]]
    for n, segment in enumerate(segments[:12]):
        for judge_index, judge in enumerate((JUDGE, "plain judge")):
            for sys in data["systems"]:
                judgments.append({
                    "id": f"<b>J{judge_index}-{sys['id']}-{segment}</b>", "judge": judge, "system": sys["id"],
                    "segment": segment, "reference": REF, "adequacy": 1 + (n + judge_index) % 5,
                    "fluency": 1 + (n * 2 + judge_index) % 5, "comment": COMMENT,
                })
    data["judgments"] = judgments
    target.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return target
