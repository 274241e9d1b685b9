"""One self-contained HTML page of a :class:`SystemComparison`.

Inline CSS and inline SVG figures, no scripts, fonts or links to fetch, so the
file opens offline in any browser. Every piece of data text (system names,
sentences, n-grams) goes through ``html.escape``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from mtworkbench import __version__
from mtworkbench.analysis.compare_systems import SystemComparison

COLOURS = ("#3b6fb6", "#e07b39")  # system A, system B; distinguishable in greyscale too

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 62em;
       color: #222; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.25em; margin-top: 1.8em;
       border-bottom: 1px solid #ccc; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f2f2f2; }
.a { color: #3b6fb6; font-weight: 600; } .b { color: #e07b39; font-weight: 600; }
.note { color: #555; font-size: 0.9em; } .sent td { max-width: 40em; }
figure { margin: 0.6em 0; } figcaption { font-size: 0.9em; color: #444; }
"""


def _fmt(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{digits}f}"


def bar_chart(title: str, categories: Sequence[str], series: Sequence[Sequence[float | None]],
              names: Sequence[str], y_label: str) -> str:
    """Grouped vertical bars as an inline SVG string (one group per category)."""
    width, height = 640, 300
    left, right, top, bottom = 60, 20, 30, 60
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s if v is not None and math.isfinite(v)]
    hi = max(values + [0.0])
    lo = min(values + [0.0])
    if hi == lo:
        hi = lo + 1.0
    span = hi - lo
    step = _nice_step(span / 5)
    lo_tick = math.floor(lo / step + 1e-9) * step
    hi_tick = math.ceil(hi / step - 1e-9) * step  # 100.00000000001 stays under the 100 tick
    span = hi_tick - lo_tick

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - lo_tick) / span)

    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
              f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">'),
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14">{escape(title)}</text>']
    t = lo_tick
    while t <= hi_tick + step / 2:
        yy = y(t)
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#e5e5e5"/>')
        parts.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" font-size="11">{_tick(t, step)}</text>')
        t += step
    parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(0 if lo_tick <= 0 <= hi_tick else lo_tick):.1f}" '
                 f'y2="{y(0 if lo_tick <= 0 <= hi_tick else lo_tick):.1f}" stroke="#888"/>')
    n = max(len(categories), 1)
    group_w = plot_w / n
    bar_w = group_w * 0.8 / max(len(series), 1)
    base = y(0 if lo_tick <= 0 <= hi_tick else lo_tick)
    for c, label in enumerate(categories):
        gx = left + c * group_w + group_w * 0.1
        for k, s in enumerate(series):
            v = s[c]
            if v is None or not math.isfinite(v):
                continue
            yv = y(v)
            top_y, h = (yv, base - yv) if yv < base else (base, yv - base)
            parts.append(f'<rect x="{gx + k * bar_w:.1f}" y="{top_y:.1f}" width="{bar_w * 0.95:.1f}" '
                         f'height="{max(h, 0.5):.1f}" fill="{COLOURS[k % 2]}"><title>{escape(names[k])} '
                         f'{escape(label)}: {_fmt(v)}</title></rect>')
        parts.append(f'<text x="{left + (c + 0.5) * group_w:.1f}" y="{top + plot_h + 16}" text-anchor="middle" '
                     f'font-size="11">{escape(label)}</text>')
    parts.append(f'<text x="14" y="{top + plot_h / 2}" font-size="11" text-anchor="middle" '
                 f'transform="rotate(-90 14 {top + plot_h / 2})">{escape(y_label)}</text>')
    for k, name in enumerate(names):
        lx = left + k * 200
        parts.append(f'<rect x="{lx}" y="{height - 22}" width="12" height="12" fill="{COLOURS[k % 2]}"/>')
        parts.append(f'<text x="{lx + 18}" y="{height - 12}" font-size="12">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _nice_step(raw: float) -> float:
    if raw <= 0:
        return 1.0
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _tick(t: float, step: float) -> str:
    digits = max(0, -math.floor(math.log10(step)) + (1 if step / 10 ** math.floor(math.log10(step)) == 2.5 else 0))
    return f"{t:.{digits}f}"


def _refs(names: Sequence[str]) -> str:
    if not names:
        return "no reference"
    return ("reference " if len(names) == 1 else "references ") + ", ".join(escape(n) for n in names)


def _ref_lines(refs: dict[str, str]) -> str:
    return "".join(f"<b>{escape(name)}</b> {escape(text)}<br>" for name, text in refs.items())


def _paired(test) -> str:
    if test is None or test.p_value is None:
        return "–"
    if test.identical:
        return "1.0000 (identical)"
    return f"{test.p_value:.4f}" + (" *" if test.significant else "")


def render_html(cmp: SystemComparison, title: str | None = None) -> str:
    a, b = escape(cmp.system_a), escape(cmp.system_b)
    title = title or f"{cmp.system_a} vs {cmp.system_b}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{escape(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{escape(title)}</h1>",
           (f'<p class="note">compare-mt analyses (Neubig et al. 2019) by mtworkbench {escape(__version__)}: '
            f'system A = <span class="a">{a}</span>, system B = <span class="b">{b}</span>; metric scores '
            f"against {_refs(cmp.score_references)}; word, n-gram and length analyses against reference "
            f"{escape(cmp.reference)}; tokenizer {escape(cmp.tokenizer)}.</p>")]
    for note in cmp.notes:
        out.append(f'<p class="note">Note: {escape(note)}</p>')

    out.append("<h2>Corpus scores</h2><table><tr><th>metric</th>"
               f'<th class="a">{a}</th><th class="b">{b}</th><th>A − B</th><th>paired bootstrap p</th></tr>')
    tests = {t.metric: t for t in cmp.significance}
    for m, (va, vb) in cmp.corpus.items():
        delta = None if va is None or vb is None else va - vb
        out.append(f"<tr><td>{escape(m)}</td><td class=n>{_fmt(va)}</td><td class=n>{_fmt(vb)}</td>"
                   f"<td class=n>{_fmt(delta)}</td><td class=n>{_paired(tests.get(m))}</td></tr>")
    out.append("</table>")
    if cmp.significance:
        n = cmp.significance[0].n_samples
        out.append(f"<p class=note>Paired bootstrap resampling (sacrebleu's test, {n} samples): * p &lt; 0.05, "
                   "the difference is significant; identical segment statistics have p = 1.</p>")

    out.append("<h2>Score by reference length</h2>")
    labels = [lb.label for lb in cmp.length_buckets]
    for m in cmp.metrics:
        series = [[lb.scores[m][k] for lb in cmp.length_buckets] for k in (0, 1)]
        out.append(f"<figure>{bar_chart(f'{m} by reference length (tokens)', labels, series, [cmp.system_a, cmp.system_b], m)}"
                   f"<figcaption>{escape(m)} of each bucket's segments scored together.</figcaption></figure>")
    out.append("<table><tr><th>length</th><th>segments</th>" + "".join(
        f'<th>{escape(m)} <span class="a">A</span></th><th>{escape(m)} <span class="b">B</span></th>'
        for m in cmp.metrics) + "</tr>")
    for lb in cmp.length_buckets:
        out.append(f"<tr><td>{escape(lb.label)}</td><td class=n>{lb.segments}</td>" + "".join(
            f"<td class=n>{_fmt(lb.scores[m][0])}</td><td class=n>{_fmt(lb.scores[m][1])}</td>"
            for m in cmp.metrics) + "</tr>")
    out.append("</table>")

    out.append(f"<h2>Word F-measure by frequency</h2><p class=note>Frequency from {escape(cmp.frequency_source)}.</p>")
    flabels = [fb.label for fb in cmp.frequency_buckets]
    series = [[fb.fmeasure[k] for fb in cmp.frequency_buckets] for k in (0, 1)]
    out.append(f"<figure>{bar_chart('word F-measure by frequency bucket', flabels, series, [cmp.system_a, cmp.system_b], 'F-measure')}</figure>")
    out.append("<table><tr><th>frequency</th><th>reference words</th><th>F A</th><th>F B</th>"
               "<th>recall A</th><th>recall B</th><th>precision A</th><th>precision B</th></tr>")
    for fb in cmp.frequency_buckets:
        out.append(f"<tr><td>{escape(fb.label)}</td><td class=n>{fb.reference_words}</td>" + "".join(
            f"<td class=n>{_fmt(v)}</td>" for v in (*fb.fmeasure, *fb.recall, *fb.precision)) + "</tr>")
    out.append("</table>")

    out.append("<h2>N-grams one system matches more often</h2><p class=note>Ranked by (m<sub>A</sub> + 1) / "
               "(m<sub>A</sub> + m<sub>B</sub> + 2), compare-mt's smoothed share (n = 1..4).</p>")
    for label, rows, cls in ((cmp.system_a, cmp.ngrams_a, "a"), (cmp.system_b, cmp.ngrams_b, "b")):
        out.append(f'<h3>matched more by <span class="{cls}">{escape(label)}</span></h3>'
                   f"<table><tr><th>n-gram</th><th>matches A</th><th>matches B</th><th>share</th></tr>")
        for g in rows:
            out.append(f"<tr><td>{escape(g.ngram)}</td><td class=n>{g.matches_a}</td><td class=n>{g.matches_b}</td>"
                       f"<td class=n>{_fmt(g.score, 3)}</td></tr>")
        out.append("</table>")

    out.append("<h2>Sentences that differ most</h2>")
    for m in cmp.metrics:
        diffs = [d for d in cmp.differences if d.metric == m]
        if not diffs:
            continue
        out.append(f"<h3>by {escape(m)}</h3><table class=sent><tr><th>segment</th><th>A</th><th>B</th>"
                   "<th>texts</th></tr>")
        for d in diffs:
            out.append(
                f"<tr><td>{escape(d.segment)}</td><td class=n>{_fmt(d.score_a)}</td><td class=n>{_fmt(d.score_b)}</td>"
                f"<td><b>src</b> {escape(d.source)}<br>{_ref_lines(d.references or {cmp.reference: d.reference})}"
                f'<span class="a">A</span> {escape(d.output_a)}<br><span class="b">B</span> {escape(d.output_b)}</td></tr>')
        out.append("</table>")

    out.append("<h2>Human error counts by reference length</h2>")
    if cmp.errors is None:
        out.append("<p class=note>This project has no MQM/ESA error spans.</p>")
    else:
        severities = sorted({s for eb in cmp.errors for s in eb.counts})
        out.append("<table><tr><th>length</th>" + "".join(
            f"<th>{escape(s)} A</th><th>{escape(s)} B</th>" for s in severities) + "</tr>")
        for eb in cmp.errors:
            out.append(f"<tr><td>{escape(eb.label)}</td>" + "".join(
                f"<td class=n>{eb.counts.get(s, [0, 0])[0]}</td><td class=n>{eb.counts.get(s, [0, 0])[1]}</td>"
                for s in severities) + "</tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
