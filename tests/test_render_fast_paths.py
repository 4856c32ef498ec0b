"""The render's fast paths of session 10 (issue 23 item 7) write what the code they replace wrote: the
memory bars from per-language label tables and a table of the 81 padded bars. Each is compared with the
former code, written out here, on the corpus answers' memory breakdowns and on made-up ones at the edges
(empty, one part, parts under the chart's floor, a zero total, fractions at each eighth's rounding)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.core.pipeline import answer
from bot.render.fmt import bar, display_width, fmt_for, ljust, rjust
from bot.render.i18n import translate
from bot.render.memory_text import _memory_bars, _padded_bar
from bot.render.wording import MEMORY_PARTS, MIN_CHART_BYTES

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]
GIB = 2**30


def _bars_before(m: SimpleNamespace, f: object) -> str:
    """``memory_text._memory_bars`` before session 10, as it was."""
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_CHART_BYTES]
    total = sum(v for _, v in parts) or m.per_gpu_bytes or 1.0
    labels = [translate(f.lang, MEMORY_PARTS[k]) if k in MEMORY_PARTS else k for k, _ in parts]  # type: ignore[attr-defined]
    w_label = max((display_width(lab) for lab in labels), default=0)
    values = [f.gib(v) for _, v in parts]  # type: ignore[attr-defined]
    w_val = max((len(v) for v in values), default=0)
    return "\n".join(
        f"{ljust(lab, w_label)} {ljust(bar(v / total, 10), 10)} {rjust(val, w_val)}"
        for lab, (_, v), val in zip(labels, parts, values, strict=True)
    )


def _made_up() -> list[SimpleNamespace]:
    rng = random.Random(10)
    keys = [*MEMORY_PARTS, "an unknown part", "其他"]
    out = [
        SimpleNamespace(breakdown={}, per_gpu_bytes=0.0),
        SimpleNamespace(breakdown={"weights": 0.0}, per_gpu_bytes=80 * GIB),
        SimpleNamespace(breakdown={"weights": MIN_CHART_BYTES / 2}, per_gpu_bytes=0.0),
        SimpleNamespace(breakdown={"weights": 14 * GIB}, per_gpu_bytes=14 * GIB),
        SimpleNamespace(breakdown={"an unknown part": 3 * GIB, "weights": 1e12}, per_gpu_bytes=0.0),
    ]
    for _ in range(300):
        chosen = rng.sample(keys, rng.randint(1, len(keys)))
        out.append(
            SimpleNamespace(
                breakdown={k: rng.choice([0.0, MIN_CHART_BYTES, rng.uniform(0, 200) * GIB]) for k in chosen},
                per_gpu_bytes=rng.uniform(0, 100) * GIB,
            )
        )
    return out


def _corpus() -> list[object]:
    reports = [answer(q).report for q in QUESTIONS]
    return [r.memory for r in reports if r is not None and r.memory is not None]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_bars_as_before(lang: str) -> None:
    f = fmt_for(lang)
    memories = [*_corpus(), *_made_up()]
    assert len(memories) > 350
    for m in memories:
        assert _memory_bars(m, f) == _bars_before(m, f)  # type: ignore[arg-type]


def test_padded_bar_as_before() -> None:
    rng = random.Random(8)
    edges = [e / 80 + d for e in range(81) for d in (-1e-12, 0.0, 1e-12)]
    halves = [(e + 0.5) / 80 for e in range(80)]  # where round() goes half to even
    fractions = [*edges, *halves, -1.0, -1e-9, 1e-9, 1.5, float("inf"), *(rng.random() for _ in range(9_999))]
    for x in fractions:
        assert _padded_bar(x) == ljust(bar(x, 10), 10)
