"""The serving pipeline's stage count (estimator.serving_layout.pipeline_stages, s11 review item 6):
the fixed point of pp = ⌈total / room per stage at pp⌉ is iterated until it holds, at most one layer
per stage. SGLang's reserve grows with TP × PP (estimator.runtimes.sglang), so the room per stage
shrinks as stages are added: DeepSeek-V3 (61 layers) in BF16, 1,342 GB, over RTX 4090 nodes of TP 8
has 14.7 GiB per GPU at PP 2, 3.98 GiB at PP 16 and none at PP 32 — no pipeline holds it. Before, the
loop stopped after 8 rounds and returned PP 983 (more stages than layers) with "up to 0 concurrent
sequences" and no word that it does not fit."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.runtimes import SGLang
from estimator.serving_layout import NO_LOAD, layout_for, pipeline_stages, room_per_gpu

V3 = catalog.model("DeepSeek-V3")
RTX4090 = catalog.gpu("RTX-4090")


def test_room_per_stage_shrinks_and_runs_out():
    rt = SGLang(None)
    rooms = [room_per_gpu(V3, RTX4090, 8, rt, load) / 2**30 for load in _loads((2, 16, 32))]
    assert rooms[0] == pytest.approx(14.70, abs=0.01) and rooms[1] == pytest.approx(3.98, abs=0.01)
    assert rooms[2] < 0


def _loads(pps):
    return [NO_LOAD._replace(pp=pp) for pp in pps]


def test_pipeline_converges_or_says_none_and_never_exceeds_the_layers():
    rt = SGLang(None)
    fp8 = pipeline_stages(6.7e11, V3, RTX4090, 8, rt)  # 670 GB: 8 stages hold it
    assert fp8 == 8
    per_stage = room_per_gpu(V3, RTX4090, 8, rt, _loads((8,))[0]) * 8
    assert per_stage * 8 >= 6.7e11 > room_per_gpu(V3, RTX4090, 8, rt, _loads((4,))[0]) * 8 * 4
    assert pipeline_stages(1.342e12, V3, RTX4090, 8, rt) is None  # no pipeline holds 1,342 GB
    assert layout_for(1.342e12, 0.0, V3, RTX4090, rt) == (8, V3.layers)  # capped: 61, was 983


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "serve DeepSeek-V3 in bf16 with SGLang on RTX 4090, 10 concurrent users, 4k context",
            "No pipeline of these GPUs holds the model: even 61 stages of TP 8",
        ),
        (
            "用 SGLang 部署 DeepSeek-V3，bf16，RTX 4090，10 并发，4k 上下文",
            "这些卡组成的任何流水线都放不下模型：即使 61 段",
        ),
    ],
)
def test_cli_says_no_pipeline_fits(capsys, text: str, line: str):
    assert main(["ask", "--format", "json", text]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["request"]["runtime"] == "SGLang"
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "pipeline_never_fits"]
    assert (note["params"]["tp"], note["params"]["pp"]) == (8, 61)
    assert "pipeline_across_nodes" not in {w["code"] for w in d["report"]["warnings"]}
    assert line in d["reply"]


HEADLINE = {
    "en": (
        "serve DeepSeek-V3 in bf16 with SGLang on 16 RTX 4090, 10 concurrent users, 4k context",
        "DeepSeek-V3 (671B MoE) bf16 (SGLang) inference does not fit on 16 × RTX 4090, nor on any number "
        "of them: no pipeline of these GPUs holds the model",
        "at least 488 GPUs needed",
    ),
    "zh": (
        "用 SGLang 部署 DeepSeek-V3，bf16，16 张 RTX 4090，10 并发，4k 上下文",
        "DeepSeek-V3 (671B MoE) bf16（SGLang） 推理：16 张 RTX 4090 放不下，多少张都放不下：这些卡组成的"
        "任何流水线都放不下模型",
        "至少要 488 张，推荐 488 张",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cli_headline_says_no_number_of_these_gpus_fits(capsys, lang: str):
    """With ``pipeline_never_fits`` (TP 8 × 61 stages, one layer each, holds no sequence: 0 concurrent
    on 488 GPUs) the headline says no number of these GPUs holds the model, not "at least 488 needed",
    and no ``does_not_fit_requested`` note says "at least 488 are needed" either."""
    text, headline, old = HEADLINE[lang]
    assert main(["ask", "--format", "json", text]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["request"]["gpu_count"], d["report"]["feasible"]) == (16, "no")
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "pipeline_never_fits"]
    assert (note["params"]["tp"], note["params"]["pp"]) == (8, 61)
    assert "does_not_fit_requested" not in {w["code"] for w in d["report"]["warnings"]}  # "at least 488"
    first = d["reply"].splitlines()[0]
    assert first.startswith(headline), first
    assert old not in first
