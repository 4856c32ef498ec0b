"""Serving on consumer cards beyond one machine (trial s11, part z3): when no pipeline of the cards holds
the model (note ``pipeline_never_fits``) no count-based line or multi-machine warning is given for a count
that does not exist; when the recommended count of consumer cards exceeds one machine, serving gets the
same warning as training (note ``personal_beyond_one_machine``). Asserted through ``sizing-bot ask`` in
text and JSON, in both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

NEVER = {
    "en": "serve DeepSeek-V3 bf16 with SGLang on 16 RTX 4090",
    "zh": "DeepSeek-V3 bf16 用 SGLang 部署 16张4090",
}
BEYOND = {
    "en": "serve Llama-3.1-70B bf16 on 16 RTX 4090 for 64 concurrent users",
    "zh": "Llama-3.1-70B bf16 用16张4090部署，64 并发",
}


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> str:
    main(["ask", "--format", fmt, question])
    return capsys.readouterr().out


def codes(d: dict) -> list[str]:
    return [w["code"] for w in d["report"]["warnings"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_count_fits_says_no_count(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    d = json.loads(ask(capsys, NEVER[lang]))
    assert "pipeline_never_fits" in codes(d)
    assert "personal_beyond_one_machine" not in codes(d)  # old code: 'That takes 488 cards'
    for reply in (d["reply"], ask(capsys, NEVER[lang], "text")):
        assert "488" not in reply  # no '488 cards', no 'On 488 GPUs: up to 0 concurrent'
        if lang == "en":
            assert "nor on any number of them" in reply
            assert "more than one machine holds" not in reply
            assert "concurrent sequences at 4K context" not in reply
        else:
            assert "多少张都放不下" in reply
            assert "超过一台机器能装的数量" not in reply
            assert "4K 上下文下最多约" not in reply


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_beyond_one_machine_of_consumer_cards_warns(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    # s48 trialfix #4: the user's own 16 cards hold the load, so they have the two machines: the warning
    # says their traffic crosses the network between them (was: personal_beyond_one_machine, 'That takes
    # 16 cards … not a home setup', which denied the setup they stated); 8 cards keep the old warning.
    d = json.loads(ask(capsys, BEYOND[lang]))
    inf = d["report"]["inference"]
    assert (inf["min_gpus"], inf["recommended_gpus"]) == (8, 16)  # TP=8 × PP=2 for 64 × 4K
    [note] = [w for w in d["report"]["warnings"] if w["code"] == "personal_machines_stated"]
    assert note["params"] == {"gpus": 16, "machines": 2, "gpu": "NVIDIA GeForce RTX 4090"}
    for reply in (d["reply"], ask(capsys, BEYOND[lang], "text")):
        if lang == "en":
            assert "Your 16 NVIDIA GeForce RTX 4090 cards span 2 machines with no fast links" in reply
            assert "not a home setup" not in reply
        else:
            assert "你的 16 张 NVIDIA GeForce RTX 4090 分在 2 台机器上" in reply
            assert "不是家用配置" not in reply
    eight = json.loads(ask(capsys, BEYOND[lang].replace("16", "8")))
    [note] = [w for w in eight["report"]["warnings"] if w["code"] == "personal_beyond_one_machine"]
    assert note["params"] == {"gpus": 16, "gpus_per_node": 8, "gpu": "NVIDIA GeForce RTX 4090"}
    assert ("not a home setup" if lang == "en" else "不是家用配置") in eight["reply"]


def test_replicas_within_one_machine_each_get_no_warning(capsys: pytest.CaptureFixture[str]) -> None:
    d = json.loads(ask(capsys, "serve Llama-3.1-70B on 16 RTX 4090"))
    inf = d["report"]["inference"]
    assert (inf["recommended_gpus"], inf["replicas"]) == (8, 2)  # two independent 8-card replicas
    assert "personal_beyond_one_machine" not in codes(d)
