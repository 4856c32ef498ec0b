"""Session 37 part grpo.

1. An RL job with no tool nor rollout engine named is sized on TRL's default path: ``GRPOConfig.use_vllm``
   defaults to False (huggingface/trl@f2cd5771 trl/trainer/grpo_config.py L577–583), so the policy's own
   ``model.generate`` runs on each training GPU (grpo_trainer.py L1558–1560, L1861) on its local generation
   batch, ``per_device_train_batch_size`` (transformers default 8) × ``steps_per_generation`` (=
   ``gradient_accumulation_steps``, default 1; grpo_config.py L1077–1079), each sequence prompt + completion;
   under ZeRO-3 the whole policy is gathered first (``ds3_gather_for_generation`` default True, L492). The
   reply says so, with what vLLM colocate (``vllm_gpu_memory_utilization`` 0.3 of each card, L646) or server
   mode (a card of its own) would change.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import estimate
from estimator.models import SizingRequest

# Qwen2.5-7B config.json: 28 layers, 4 KV heads, head_dim 128 → K and V in bf16: 2·28·4·128·2 = 57,344 B/token
KV_PER_TOKEN = 2 * 28 * 4 * 128 * 2
CONTEXT = 512 + 1024  # TRL's prompt length used by the estimator (said as assumed) + the stated completion


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    main(["ask", text, "--format", "json"])
    return json.loads(capsys.readouterr().out)


def _req(**extra: object) -> SizingRequest:
    fields = dict(
        stage="finetune",
        method="full",
        model="Qwen2.5-7B",
        gpu="A100-SXM4-80GB",
        gpu_count=4,
        algorithm="grpo",
    )
    return SizingRequest(**(fields | {"num_generations": 8, "max_completion_length": 1024} | extra))


def test_unstated_tool_generates_in_trainer() -> None:
    """No tool: 8 sequences a GPU (TRL's per-device default 8 × 1 step) × 1,536 tokens of KV cache =
    8 · 1,536 · 57,344 = 704,643,072 B, and under ZeRO-3 on DP 4 the gathered bf16 policy 2 · 7.61e9 B."""
    memory = estimate(_req()).memory
    assert memory.plan.zero_stage == 3 and memory.plan.dp == 4
    assert memory.breakdown["kv_cache"] == 8 * CONTEXT * KV_PER_TOKEN == 704_643_072
    assert memory.breakdown["gathered_weights"] == pytest.approx(2 * 7.61e9)


def test_named_engine_is_not_the_trainer() -> None:
    """vLLM colocated (stated) takes its 0.3 share instead; verl (its own vLLM/SGLang engine) is not TRL."""
    for extra in ({"rollout_colocated": True}, {"training_tool": "verl"}):
        memory = estimate(_req(**extra)).memory
        assert memory.breakdown.get("kv_cache", 0.0) == 0.0, extra


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "Qwen2.5-7B GRPO 训练，每个 prompt 采样 8 个，回答最长 1024，4张A100够不够",
            # zh names server mode in Chinese words (test_polish: no English word in a zh reply)
            ("TRL GRPOTrainer", "use_vllm False", "vllm_gpu_memory_utilization 0.3", "独立服务模式"),
        ),
        (
            "GRPO training Qwen2.5-7B, 8 samples per prompt, completions up to 1024, is 4x A100 enough?",
            ("TRL's GRPOTrainer", "use_vllm False", "vllm_gpu_memory_utilization 0.3", "trl vllm-serve"),
        ),
    ],
)
def test_reply_says_generation_assumed(capsys: pytest.CaptureFixture[str], text: str, words: tuple) -> None:
    """The reply names the generation it sized and what vLLM colocate / server would change (24 GiB =
    0.3 × the A100 80G's 80 GiB)."""
    out = ask(capsys, text)
    reply = out["reply"]
    for word in words:
        assert word in reply, word
    assert "24 GiB" in reply
    kv = out["report"]["memory"]["breakdown"]["kv_cache"]
    assert kv == 8 * CONTEXT * KV_PER_TOKEN


def test_stated_colocate_has_no_trainer_note(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, "GRPO Qwen2.5-7B with TRL, vllm colocate, 8 generations, completions 1024, 4x A100 80G")
    assert "use_vllm False" not in out["reply"]


# --- 3. a deployment onto a card kind asks the fewest that fit ------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("DeepSeek-R1 671B 满血部署在昇腾910B上", None),
        ("Qwen2.5-72B 部署到 H100 上", None),
        ("在 A800 上部署 Qwen2.5-72B", None),
        ("想把 Qwen2.5-72B 上线到 H100 上", None),
        ("在 A800 上跑 Qwen2.5-7B", 1),  # one card the user runs on
        ("Qwen2.5-72B 在一张 A800 上部署", 1),  # the count said
        ("deploy Qwen2.5-72B on an H100", 1),  # the article says one
        ("在 i9-14900K + RTX 4090 上部署 Qwen2.5-7B", 1),  # a host's CPU and its card: one machine
    ],
)
def test_deploy_on_card_kind_has_no_count(text: str, count: int | None) -> None:
    from bot.parse import parse

    assert parse(text).request.gpu_count == count


def test_full_r1_on_910b_fewest(capsys: pytest.CaptureFixture[str]) -> None:
    """DeepSeek-R1 in bf16 (the 910B loads no FP8): 671e9 · 2 B = 1,342 GB of weights + 36.8 GB of KV cache
    over 61.2 GB usable less 1.1 GB workspace per card = 22.9 cards, so 24 (TP 8 × PP 3): the fewest that fit,
    not one card that does not."""
    out = ask(capsys, "DeepSeek-R1 671B 满血部署在昇腾910B上")
    assert out["request"]["gpu_count"] is None
    assert out["reply"].splitlines()[0].startswith("DeepSeek-R1")
    assert "1 张" not in out["reply"].splitlines()[0]
    assert out["report"]["inference"]["min_gpus"] == 24


# --- 2. a tokens/s target with no prompt length: the GPUs cover prefill too --------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "Serve Llama-3.1-70B on H100s at 5000 tokens/s output, how many GPUs?",
            "3,072 prompt tokens and 1,024 output tokens (say yours)",
        ),
        (
            "Llama-3.1-70B 部署在 H100 上，要每秒 5000 token 输出，要几张卡",
            "3,072 个提示词 token、1,024 个输出 token",
        ),
    ],
)
def test_target_without_prompt_sizes_prefill(
    capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    """4K context assumed, 3/4 of it the prompt: 5,000 ÷ 1,024 × 3,072 = 15,000 prompt tokens/s; one TP-8 copy
    prefills 3,072 tokens in 0.0835 s (2 · 70.6e9 FLOPs a token at the prefill MFU), so prefill takes
    15,000 × 0.0835 ÷ 3,072 = 0.41 of its second beside decode's 5,000 ÷ 5,010 = 1.0: 2 copies, 16 GPUs
    (decode alone: 8)."""
    out = ask(capsys, text)
    inf = out["report"]["inference"]
    assert (inf["tp"], inf["replicas"], inf["recommended_gpus"]) == (8, 2, 16)
    (note,) = [w["params"] for w in out["report"]["warnings"] if w["code"] == "prefill_decode_share_assumed"]
    assert note["prefill_tokens_per_s"] == round(5000 / 1024 * 3072) == 15_000
    # the throughput share leaves out the TTFT's tensor-parallel all-reduces (s39 fixs #1: MLPerf-fitted)
    compute = inf["prefill_seconds"] - inf["prefill_allreduce_seconds"]
    assert note["prefill_share"] == pytest.approx(15_000 * compute / 3072)
    assert 0.40 < note["prefill_share"] < 0.42 and (note["load_gpus"], note["gpus"]) == (8, 16)
    assert words in out["reply"]


def test_stated_prompt_keeps_its_note(capsys: pytest.CaptureFixture[str]) -> None:
    """A prompt length said: no 'assumed' note (s20 #4's prefill_decode_share where it applies)."""
    out = ask(
        capsys,
        "Serve Llama-3.1-70B on H100s at 5000 tokens/s output, 3000 tokens in and 1000 out, how many GPUs?",
    )
    codes = {w["code"] for w in out["report"]["warnings"]}
    assert "prefill_decode_share_assumed" not in codes


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        (
            "GRPO Qwen2.5-7B with verl, 8 samples per prompt, completions up to 1024, is 4x A100 80G enough?",
            "rollout_verl_not_modelled",
            "gpu_memory_utilization 0.5",  # verl rollout.yaml L32
        ),
        (
            "OpenRLHF 做 Qwen2.5-7B 的 GRPO，每个 prompt 8 个，4张A100够不够",
            "rollout_openrlhf_apart",
            "gpu_memory_utilization 0.95",  # OpenRLHF train_ppo_ray.py --vllm.gpu_memory_utilization
        ),
    ],
)
def test_named_tool_engine_named_as_not_counted(
    capsys: pytest.CaptureFixture[str], text: str, code: str, words: str
) -> None:
    out = ask(capsys, text)
    assert code in {w["code"] for w in out["report"]["warnings"]}
    assert words in out["reply"] and "use_vllm False" not in out["reply"]
