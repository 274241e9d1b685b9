"""Corpora read and written: plain text, SGML, WMT XML, TSV, document-level corpora,
MT Metrics Eval folders and GTM inputs."""
