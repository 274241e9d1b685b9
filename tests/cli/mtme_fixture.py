"""A small mt-metrics-eval test set with two language pairs, written to a folder."""

from __future__ import annotations

import random
from pathlib import Path

TARGET_WORDS = {
    "de-en": ("the", "house", "river", "green", "light", "stone", "tree", "runs", "fast", "blue", "old", "city"),
    "en-ja": ("東京", "の", "猫", "は", "大きい", "川", "が", "本", "を", "読む", "青い", "家"),
}
SOURCE_WORDS = {
    "de-en": ("das", "Haus", "über", "Straße", "Mädchen", "grün", "Licht", "Stein"),
    "en-ja": ("the", "cat", "reads", "a", "book", "by", "blue", "river"),
}
SYSTEMS = ("sysA", "sysB", "sysC", "sysD")


def write_mtme(root: Path, n_segments: int = 24, seed: int = 7) -> Path:
    rng = random.Random(seed)
    for lp, words in TARGET_WORDS.items():
        sep = "" if lp.endswith("ja") else " "
        (root / "sources").mkdir(parents=True, exist_ok=True)
        (root / "documents").mkdir(exist_ok=True)
        (root / "references").mkdir(exist_ok=True)
        (root / "human-scores").mkdir(exist_ok=True)
        (root / "system-outputs" / lp).mkdir(parents=True, exist_ok=True)
        sources = [" ".join(rng.choices(SOURCE_WORDS[lp], k=6)) for _ in range(n_segments)]
        refs = [sep.join(rng.choices(words, k=rng.randint(5, 9))) for _ in range(n_segments)]
        (root / "sources" / f"{lp}.txt").write_text("\n".join(sources) + "\n", encoding="utf-8")
        (root / "documents" / f"{lp}.docs").write_text(
            "".join(f"news\tdoc{i // 8}\n" for i in range(n_segments)), encoding="utf-8")
        (root / "references" / f"{lp}.refA.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
        (root / "system-outputs" / lp / "refA.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
        human = []
        for k, system in enumerate(SYSTEMS):
            keep = 0.95 - 0.2 * k
            outs = []
            for ref in refs:
                tokens = list(ref) if not sep else ref.split()
                outs.append(sep.join(t if rng.random() < keep else rng.choice(words) for t in tokens))
            (root / "system-outputs" / lp / f"{system}.txt").write_text("\n".join(outs) + "\n", encoding="utf-8")
            human += [f"{system}\t{-k * 2 - rng.random():.3f}" for _ in range(n_segments)]
        (root / "human-scores" / f"{lp}.mqm.seg.score").write_text("\n".join(human) + "\n", encoding="utf-8")
    return root
