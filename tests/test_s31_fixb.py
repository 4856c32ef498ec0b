"""Session 31 fix B: Huawei Atlas 800 servers read as their 8 Ascend 910B NPUs; other Atlas models named
as typed, never an A100 in silence.

An Atlas 800T A2 / 800I A2 server holds 8 Ascend 910B NPUs (Huawei's product pages; the catalog's
Ascend-910B interconnect note: 'HCCS (in-node, 8 NPUs per Atlas 800T A2 server)'), so N servers are 8·N
NPUs of the catalog's 64 GB 910B, 8 a machine.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("Fine-tune Qwen2.5-14B on three Atlas 800T A2 servers", 24),
        ("用 3 台 Atlas 800T A2 服务器微调 Qwen2.5-14B", 24),
        ("Serve Qwen2.5-32B on an Atlas 800I A2 box for 16 concurrent users", 8),
        ("两台 Atlas 800I A2 部署 Qwen2.5-32B，并发 16", 16),
    ],
)
def test_counted_atlas_servers_are_eight_910b_each(capsys, question, count):
    out = _ask(capsys, question)
    req = out["request"]
    assert req["gpu"] == "Ascend-910B"
    assert req["gpu_count"] == count
    subs = out["interpretation"]["substitutions"]
    assert [s["used"] for s in subs if s["reason"] == "atlas_server"] == [f"{count} × Ascend 910B"]
    assert out["interpretation"]["unknown_gpu"] is None


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-72B 用 Atlas 800 部署要几台，4k 上下文，并发 40",
        "How many Atlas 800I A2 servers to serve Qwen2.5-72B at 40 concurrent 4k requests?",
    ],
)
def test_atlas_servers_asked_for_are_sized_on_910b_never_a_runtime(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["gpu"] == "Ascend-910B"
    ignored = json.dumps(out["interpretation"]["ignored"], ensure_ascii=False).lower()
    assert "atlas" not in ignored and "800" not in ignored  # was 'runtime: Atlas' and '800' unused
    subs = out["interpretation"]["substitutions"]
    assert [s["used"] for s in subs if s["reason"] == "atlas_server"] == ["8 × Ascend 910B"]


def test_atlas_reading_is_said_in_each_language(capsys):
    main(["ask", "--", "用 2 台 Atlas 800T A2 训练 Qwen2.5-7B"])
    zh = capsys.readouterr().out
    assert "16 张 Ascend 910B" in zh and "一台 Atlas 800（A2）服务器装 8 张昇腾 910B" in zh
    main(["ask", "--", "Train Qwen2.5-7B on 2 Atlas 800T A2 servers"])
    en = capsys.readouterr().out
    assert "16 × Ascend 910B" in en and "an Atlas 800 (A2) server holds 8 Ascend 910B NPUs" in en


@pytest.mark.parametrize("question", ["Atlas 300V 部署 Qwen2.5-7B", "Serve Qwen2.5-7B on an Atlas 300V card"])
def test_other_atlas_models_are_named_as_typed(capsys, question):
    out = _ask(capsys, question)
    assert (out["interpretation"]["unknown_gpu"] or "").lower() == "atlas 300v"


def test_atlas_a3_is_not_read_as_an_a2_server(capsys):
    out = _ask(capsys, "Atlas 800I A3 部署 Qwen2.5-72B")
    assert out["request"]["gpu"] != "Ascend-910B"
    assert "a3" in (out["interpretation"]["unknown_gpu"] or "").lower()


# Item 2: a Colab / Kaggle notebook's card is one card (Colab FAQ: one GPU a notebook; Kaggle's 'T4 x2'
# says its count), never a count the plan picks (was 'at least 2 × T4 (ZeRO-3)' for a free Colab T4).


@pytest.mark.parametrize(
    "question",
    [
        "Can I LoRA fine-tune Qwen2.5-14B with Unsloth on a free Colab T4?",
        "免费 Colab 的 T4 上用 Unsloth 微调 Qwen2.5-14B 行吗",
        "QLoRA Qwen2.5-14B with Unsloth on a T4 in free Colab",
    ],
)
def test_a_colab_card_is_one_card(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["gpu"] == "T4"
    assert out["request"]["gpu_count"] == 1


def test_one_colab_t4_says_no_first_for_a_model_too_big(capsys):
    main(["ask", "--", "Unsloth fine-tune Gemma 3 27B on a free Colab T4?"])
    en = capsys.readouterr().out.splitlines()[0]
    assert "does not fit on 1 × T4" in en and "ZeRO-3" not in en
    main(["ask", "--", "免费 Colab 的 T4 上用 Unsloth 微调 Gemma 3 27B 行吗"])
    zh = capsys.readouterr().out.splitlines()[0]
    assert "1 张 T4 放不下" in zh and "ZeRO-3" not in zh


def test_kaggle_two_t4_stay_two(capsys):
    out = _ask(capsys, "Kaggle T4 x2 上用 Unsloth 微调 Qwen2.5-14B")
    assert out["request"]["gpu_count"] == 2
