"""A serving question that never fits prints no negative memory figure (session 12, defects item 2).

DeepSeek-V3 bf16 with SGLang on RTX 4090: no pipeline of these cards holds the model (note
``pipeline_never_fits``); the layout tried last is TP 8 × PP 61 = 488 GPUs. SGLang's default
``mem_fraction_static`` there is (capacity − reserved) / capacity with reserved = 2.8 + 0.1 × 488 GiB
+ 4 GiB for data-parallel attention = 55.6 GiB (sglang/srt/server_args.py
``_handle_mem_fraction_static``, v0.5.2; estimator.runtimes.sglang): (23.76 − 55.6) / 23.76 = −1.34.
Its reserve, (1 + 1.34) × 22.76 GiB free = 53.26 GiB, is more than the card: the old reply said
"usable per GPU: -30.5 GiB" and "Usable GPU memory: -134%". The reply now says what does not fit; the
JSON keeps SGLang's figures as computed (a public contract: fields are never renamed or dropped)."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from estimator import catalog
from estimator.runtimes.base import visible_bytes
from estimator.runtimes.sglang import sglang_mem_fraction

GIB = 2**30
NEVER = {
    "en": "serve DeepSeek-V3 bf16 with SGLang on 16 RTX 4090",
    "zh": "DeepSeek-V3 bf16 用 SGLang 部署 16张4090",
}
USABLE = {
    "en": "usable per GPU: none — SGLang's reserve on this layout, 49.4 GiB per GPU, is more than the "
    "22.8 GiB free on each",
    "zh": "每卡可用 无——SGLang 在这个布局下每卡预留 49.4 GiB，超过每卡空闲的 22.8 GiB",
}
"""s24 trial #3: 53.3 → 49.4 GiB: SGLang's default is plain TP (enable_dp_attention=False), so its reserve
no longer adds the 4 GiB of DP attention (estimator.runtimes.sglang.SGLANG_DP_ATTENTION_GIB)."""
SHARE = {
    "en": "Usable GPU memory: none — the engine's reserve on this layout is more than each GPU's memory",
    "zh": "可用显存比例：无——推理引擎在这个布局下的预留超过每卡显存",
}
NEGATIVE = re.compile(r"(?<![\w.])[-−]\s?\d")
"""A minus sign before a figure ('-30.5 GiB', '-134%'); not a date's or a range's dash."""


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> str:
    main(["ask", "--format", fmt, question])
    return capsys.readouterr().out


def test_sglang_default_fraction_on_488_rtx_4090_is_below_zero():
    """The estimator's figure the old reply printed: SGLang's own formula, not changed here."""
    gpu = catalog.gpu("RTX-4090")
    assert visible_bytes(gpu) / GIB == pytest.approx(23.76)
    assert sglang_mem_fraction(gpu, 8 * 61, dp_attention=True) == pytest.approx(-1.34)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_never_fitting_serving_says_what_does_not_fit_with_no_negative_figure(capsys, lang):
    d = json.loads(ask(capsys, NEVER[lang]))
    inf = d["report"]["inference"]
    assert (inf["tp"], inf["pp"], d["report"]["feasible"]) == (8, 61, "no")
    assert inf["usable_bytes_per_gpu"] / GIB == pytest.approx(22.76, abs=0.01)
    assert inf["workspace_bytes_per_gpu"] / GIB == pytest.approx(49.43, abs=0.01)  # s24: no DP attention
    assert inf["engine_reserve_exceeds_memory"] is True  # the estimator marks the negative figures
    [share] = [a for a in d["assumptions"] if a["field"] == "gpu_memory_utilization"]
    # the contract keeps the engine's figure; s24 trial #3: SGLang's default is plain TP (no DP attention's
    # 4 GiB): (23.76 − 51.6) / 23.76 = −1.172, reserve (1 + 1.172) × 22.76 GiB = 49.43 GiB
    assert share["value"] == pytest.approx(-1.172)
    for fmt in ("json", "text", "markdown", "html"):
        reply = d["reply"] if fmt == "json" else ask(capsys, NEVER[lang], fmt)
        assert not NEGATIVE.findall(reply), (fmt, NEGATIVE.findall(reply))
        assert "30.5" not in reply and "134" not in reply
        if fmt in ("json", "text"):
            assert USABLE[lang] in reply
            assert SHARE[lang] in reply


@pytest.mark.parametrize(
    "question",
    [
        "serve DeepSeek-V3 on 8 RTX 4090",
        "部署 Llama-3.1-405B 用 4 张 4090",
        "serve Llama-3.1-405B bf16 with SGLang on 4 RTX 4090",
    ],
)
def test_serving_that_does_not_fit_the_users_gpus_prints_no_negative_figure(capsys, question):
    """Questions that do not fit the user's cards but fit on more: usable memory stays a figure."""
    d = json.loads(ask(capsys, question))
    assert d["report"]["feasible"] == "no"
    assert not NEGATIVE.findall(d["reply"]), NEGATIVE.findall(d["reply"])


@pytest.mark.parametrize(
    ("question", "exceeds"),
    [
        ("serve Llama-3-70B on 4 H100 with vLLM, 32 users", False),
        ("Llama-3-70B 用 SGLang 部署 4张H100", False),
        (NEVER["en"], True),
        (NEVER["zh"], True),
    ],
)
def test_the_reserve_flag_is_the_estimators(capsys, question, exceeds):
    """``engine_reserve_exceeds_memory`` (JSON addition, review 9): set where the engine's share is nil
    or below, so a reader of the JSON need not redo the runtime's share to know the figures are not
    memory; the reply's 'none —' wording follows it."""
    inf = json.loads(ask(capsys, question))["report"]["inference"]
    assert inf["engine_reserve_exceeds_memory"] is exceeds
    assert (inf["workspace_bytes_per_gpu"] >= inf["usable_bytes_per_gpu"]) is exceeds
