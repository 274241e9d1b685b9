"""The manual is reachable: docs/README.md links every page in docs/, every relative link in
the README and the manual points at a file that exists, and every screenshot in docs/images/
is shown on some page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def test_the_index_links_every_page():
    linked = set(LINK.findall((DOCS / "README.md").read_text(encoding="utf-8")))
    missing = [p.name for p in pages() if p.name != "README.md" and p.name not in linked]
    assert not missing, f"docs/README.md: add a line for each of {missing}"


def test_every_relative_link_resolves():
    broken = []
    for page in [ROOT / "README.md", *pages()]:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_every_screenshot_is_shown():
    shown = {Path(t).name for page in [ROOT / "README.md", *pages()]
             for t in LINK.findall(page.read_text(encoding="utf-8"))}
    unshown = [p.name for p in sorted((DOCS / "images").glob("*.png")) if p.name not in shown]
    assert not unshown, f"docs/images: shown on no page: {unshown}"


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    first_screen = "\n".join(readme.splitlines()[:20])
    assert first_screen.startswith("# mtworkbench")
    assert "](docs/images/" in first_screen
    assert "python3.11 dev.py app\npython3.11 dev.py test" in first_screen
