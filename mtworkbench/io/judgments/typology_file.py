"""An MQM typology as a JSON file of its own (export from one project, import into another).

The file holds ``{"format": "mtworkbench-mqm-typology", "format_version": 1,
"categories": [{"name", "key", "subcategories": [{"name", "key"}]}]}`` - the same
object a bundle keeps under ``settings.mqm_typology``, with the format fields.
"""

from __future__ import annotations

import json
from pathlib import Path

from mtworkbench.core.files import read_regular_bytes
from mtworkbench.core.mqm_typology import Typology, typology_file_json, typology_from_json
from mtworkbench.core.output import write_output
from mtworkbench.io.bundle.json_checks import parse_json
from mtworkbench.io.corpora.plaintext import decode_utf8


def typology_json_text(typology: Typology) -> str:
    return json.dumps(typology_file_json(typology), ensure_ascii=False, indent=2) + "\n"


def read_typology_file(path: str | Path) -> Typology:
    """The typology in ``path``; a malformed file raises ``BundleError`` naming it and the JSON field."""
    text = decode_utf8(read_regular_bytes(path), path, strip_bom=True)
    return typology_from_json(parse_json(text, file=str(path)), "$", str(path))


def write_typology_file(typology: Typology, path: str | Path) -> None:
    write_output(path, typology_json_text(typology))
