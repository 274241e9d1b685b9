from __future__ import annotations

import pytest

from mtworkbench.core.errors import DataError
from mtworkbench.io.corpora.plaintext import import_plain, read_lines, split_lines


def test_empty_and_whitespace_lines_are_kept(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"one\n\n   \nfour\r\nfive")
    assert read_lines(f) == ["one", "", "   ", "four", "five"]


def test_only_line_feed_breaks_lines():
    assert split_lines("a\u2028b\x0cc\nd\n") == ["a\u2028b\x0cc", "d"]
    assert split_lines("") == []
    assert split_lines("\n") == [""]


def test_invalid_utf8_names_file_and_byte_offset(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"ok\nbad \xc3\x28 here\n")
    with pytest.raises(DataError, match=r"bad.txt: invalid UTF-8 at byte offset 7 \(line 2\)"):
        read_lines(f)


def test_byte_order_mark_is_kept_as_sacrebleu_keeps_it(tmp_path):
    # The score contract: lines are read without any change but the line ending.
    f = tmp_path / "bom.txt"
    f.write_bytes("\ufeffTere\n".encode("utf-8"))
    assert read_lines(f) == ["\ufeffTere"]


def test_line_count_mismatch_names_every_file_and_count(tmp_path):
    (tmp_path / "src.txt").write_text("a\nb\nc\n")
    (tmp_path / "ref.txt").write_text("a\nb\n")
    (tmp_path / "mt.txt").write_text("a\nb\nc\n")
    with pytest.raises(DataError) as info:
        import_plain(tmp_path / "src.txt", [tmp_path / "ref.txt"], [("mt", tmp_path / "mt.txt")])
    msg = str(info.value)
    assert "src.txt: 3 lines" in msg and "ref.txt: 2 lines" in msg and "mt.txt: 3 lines" in msg


def test_import_builds_project(tmp_path):
    (tmp_path / "src.txt").write_text("a\n\nc\n")
    (tmp_path / "r1.txt").write_text("A\n\nC\n")
    (tmp_path / "r2.txt").write_text("AA\nBB\nCC\n")
    (tmp_path / "mt.txt").write_text("x\ny\nz\n")
    p = import_plain(tmp_path / "src.txt", [tmp_path / "r1.txt", tmp_path / "r2.txt"], [("mt", tmp_path / "mt.txt")], "et", "en")
    assert p.segment_ids == ["1", "2", "3"]
    assert [r.id for r in p.references] == ["ref1", "ref2"]
    assert p.reference_text("ref1", "2") == ""
    assert p.system_text("mt", "3") == "z"
    assert (p.source_language, p.target_language) == ("et", "en")
