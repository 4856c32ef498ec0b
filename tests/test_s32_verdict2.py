"""Session 32, verdicts against real runs (second half): the settings the OOM-but-"fits" runs stated and
the parser did not read (tests/test_s32_verdict.py ``CENSUS``, PARSE), each read generally, in both
languages, with the sentences that must not be misread."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse
from estimator import catalog
from estimator.gpu_families import family_flagship


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------- 1. the TITAN line without a model letter


@pytest.mark.parametrize("typed", ["Titan", "titan", "NVIDIA Titan", "Titans", "titan 显卡", "Titan GPUs"])
def test_a_bare_titan_is_the_titan_rtx(typed):
    """The catalog's only TITAN is the TITAN RTX (24 GiB, nvidia.com product page)."""
    assert family_flagship(typed) == "Titan-RTX"
    assert catalog.gpu("Titan-RTX").memory_gib == 24


@pytest.mark.parametrize("typed", ["Titan X", "Titan Xp", "Titan V", "titan black", "Amazon Titan"])
def test_a_titan_model_letter_is_not_swapped(typed):
    """12 GB cards not in the catalog stay unknown as typed; Amazon's Titan is not a card."""
    assert family_flagship(typed) is None


@pytest.mark.parametrize(
    "question",
    [
        "4 块 Titan 微调 glm-6b（fp16），6B 全量微调需要多少显存？",
        "4 块 titan 显卡 全量微调 chatglm-6b 够吗",
        "I have 4 NVIDIA Titan GPUs; can I full fine-tune ChatGLM-6B?",
        "Full fine-tuning ChatGLM3-6B on 4 Titan cards: does it fit?",
    ],
)
def test_four_titans_do_not_hold_a_6b_full_fine_tune(capsys, question):
    """A 6B full fine-tune: 16 bytes a parameter of states over 4 × 24 GiB is more than a card
    (25.2 GiB a GPU sized); on the reference A100 80G it said "fits"."""
    out = _ask(capsys, question)
    assert out["request"]["gpu"] == "Titan-RTX" and out["request"]["gpu_count"] == 4
    assert out["report"]["feasible"] == "no"
    assert out["interpretation"]["unknown_gpu"]  # named as typed, the card used said


def test_a_titan_x_stays_unknown_on_the_default(capsys):
    out = _ask(capsys, "2x Titan X, can I full fine-tune a 6B model?")
    assert out["interpretation"]["unknown_gpu"] == "Titan X"
    assert out["request"]["gpu"] != "Titan-RTX"


# ---------------------------------------------------------------- 2. lmdeploy without --tp runs TP 1


@pytest.mark.parametrize(
    "question",
    [
        "两张 4090 用 lmdeploy serve api_server 跑 Qwen2.5-14B，没加 --tp，能跑吗？",
        "2 张 A10 用 lmdeploy 跑 Qwen2.5-14B，--tp 参数没设置，显存够吗",
        "两张 4090 上 lmdeploy 部署 Qwen2.5-14B，忘了加 --tp，会爆显存吗",
        "I serve Qwen2.5-14B with lmdeploy on 2x RTX 4090, no --tp flag. Will it fit?",
        "lmdeploy serve Qwen2.5-14B on two RTX 4090 without --tp: does it fit?",
        "Running Qwen2.5-14B under lmdeploy on 2 A10s; I didn't pass --tp. Enough memory?",
        "pipeline('Qwen/Qwen2.5-14B-Instruct', backend_config=TurbomindEngineConfig(session_len=8192)) "
        "with lmdeploy on 2 RTX 4090, fits?",
    ],
)
def test_lmdeploy_with_no_tp_is_one_gpu_a_copy(capsys, question):
    """lmdeploy's ``--tp`` and ``TurbomindEngineConfig.tp`` default to 1 (lmdeploy/cli/utils.py,
    lmdeploy/messages.py): Qwen2.5-14B's 29.4 GB of bf16 weights on one 24 GB card do not fit."""
    out = _ask(capsys, question)
    assert out["request"]["runtime"] == "lmdeploy" and out["request"]["tp"] == 1
    assert out["request"]["gpu_count"] == 2
    assert out["report"]["feasible"] == "no"


@pytest.mark.parametrize(
    "question",
    [
        "两张 4090 用 lmdeploy serve api_server 跑 Qwen2.5-14B，加了 --tp 2，能跑吗？",
        "lmdeploy on 2x RTX 4090 with TurbomindEngineConfig(tp=2) for Qwen2.5-14B, fits?",
        "I serve Qwen2.5-14B with lmdeploy on 2x RTX 4090 --tp 2, no --session-len set. Will it fit?",
    ],
)
def test_a_stated_tp_is_kept(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["tp"] == 2 and out["report"]["feasible"] != "no"


def test_no_tp_is_not_read_for_tgi_or_without_a_flag():
    """TGI shards over every visible GPU by default (launcher/src/main.rs): its 'no --tp' is not TP 1;
    a message with no flag keeps the plan's TP."""
    assert parse("TGI on 2x A10 serving Qwen2.5-14B, no --tp flag set, does it fit?").request.tp is None
    assert parse("两张 4090 用 lmdeploy 跑 Qwen2.5-14B，能跑吗？").request.tp is None
    assert parse("两张 4090 用 lmdeploy 跑 Qwen2.5-14B，--tp 2 没问题吧？").request.tp == 2


# ---------------------------------------------------------------- 4. torchrun with nothing that shards: DDP


@pytest.mark.parametrize(
    "question",
    [
        "全量微调 Qwen2.5-7B，用 torchrun 的情况下报 OOM。机器配置：双卡 A800，batch_size 为 1。",
        "用 torchrun 在 2 张 A800 上全参微调 Qwen2.5-7B，显存够吗",
        "python -m torch.distributed.launch 起 2 卡全参微调 Qwen2.5-7B，A800 80G，够不够",
        "Full fine-tuning Qwen2.5-7B with torchrun on 2 A800 80G, batch size 1: does it fit?",
        "I launch my finetune script via torchrun on two A800s to fully fine-tune Qwen2.5-7B. Enough memory?",
        "Using torch.distributed.launch on 2x A800 80GB for a full fine-tune of Qwen2.5-7B, fits?",
    ],
)
def test_torchrun_alone_is_plain_ddp(capsys, question):
    """PyTorch DDP keeps a whole replica on every GPU: 7.6B × 16 bytes of weights, gradients and Adam
    states (ZeRO §3, stage 0) is ~113 GiB before activations, more than an 80 GiB A800; the verdict is
    on the DDP run, with ZeRO-3 offered after it (estimator.verdicts.tool_runs_ddp)."""
    out = _ask(capsys, question)
    assert out["request"]["training_tool"] == "PyTorch DDP"
    assert out["report"]["feasible"] == "no"
    assert "ddp_does_not_fit" in [w["code"] for w in out["report"]["warnings"]]
    reasons = {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}
    assert all(r == "launcher_ddp" for t, r in reasons.items() if t.startswith("launcher: "))


@pytest.mark.parametrize(
    "question",
    [
        "torchrun with deepspeed zero3: full fine-tune Qwen2.5-7B on 2 A800 80G, fits?",
        "4 张 A100 80G 用 torchrun + FSDP 全参微调 Qwen2.5-7B",
        "torchrun 跑 Megatron，张量并行 2，全参微调 Qwen2.5-7B，2 张 A800",
        "accelerate launch on 2 A800 to fully fine-tune Qwen2.5-7B, fits?",
        "LLaMA-Factory 用 torchrun 全参微调 Qwen2.5-7B，2 张 A800",
        "用 vllm 在 2 张 A800 上部署 Qwen2.5-7B，torchrun 起的",
    ],
)
def test_torchrun_beside_what_shards_is_not_ddp(capsys, question):
    """DeepSpeed, FSDP, Megatron's TP, accelerate (its config may shard), a named tool, or serving: the
    launch says nothing of the layout."""
    out = _ask(capsys, question)
    assert out["request"].get("training_tool") != "PyTorch DDP"
