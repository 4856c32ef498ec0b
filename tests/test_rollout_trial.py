"""GRPO rollouts from the fresh-user trial (s8-t3 item 2): "GRPO Qwen2.5-7B 8 A800, 16 generations per
prompt, max completion length 1024, 10000 prompts" decoded "8 sequences at once" (fewer than one
prompt's 16 completions), with 0-token prompts (the completion was the whole sequence), and the GPU-hours
band added the rollouts' fixed hours to both ends while still claiming the published runs' 80 % interval.

Now: a decode batch of at least G (TRL's ``RepeatSampler`` keeps a prompt's ``num_generations`` together;
its vLLM server generates them with ``n`` = G), at most vLLM's ``max_num_seqs`` 256 and what the engine's
memory holds; TRL's ``max_prompt_length`` 512 when only the completion length is known, said; the
rollouts carry the training part's relative uncertainty (estimator/rollout.py)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.rollout import engine_usable_bytes
from estimator.weights import kv_bytes_per_sequence, weight_bytes

QUESTIONS = {
    "en": "GRPO Qwen2.5-7B 8 A800, 16 generations per prompt, max completion length 1024, 10000 prompts",
    "zh": "GRPO 训练 Qwen2.5-7B，8张A800，每个prompt生成16条，max_completion_length 1024，1万条prompt",
}
PROMPT_LINE = {
    "en": "Prompt tokens: 512 — prompt tokens of each rollout when only the completion length is given",
    "zh": "512 — 只给出补全长度时每条采样的提示词 token 数（TRL GRPOConfig 的 max_prompt_length 默认值）",
}
INTERVAL_LINE = {
    "en": "80% of comparable published runs fell in this range",
    "zh": "可比的公开训练记录中有 80% 落在这个区间内",
}


def _ask(capsys, question: str, fmt: str = "json") -> str:
    assert main(["ask", "--format", fmt, question]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_trial_grpo_rollouts(capsys, lang: str) -> None:
    answer = json.loads(_ask(capsys, QUESTIONS[lang]))
    req, rep = answer["request"], answer["report"]
    ro = rep["rollout"]
    # each sequence: TRL's 512-token prompt + the stated 1,024-token completion (was 0 + 1,024)
    assert (ro["prompt_tokens"], ro["completion_tokens"], req["seq_len"]) == (512, 1024, 1536)
    assert req["tokens"] == 10_000 * 16 * 1536
    (said,) = [a for a in answer["assumptions"] if a["field"] == "prompt_tokens"]
    assert (said["value"], said["why"]) == (512, "rl_prompt_default")
    # one prompt's 16 completions at once on a one-GPU engine (was 8). s27-trgen: the zh question's
    # max_completion_length names TRL, whose model.generate decodes each rank's own 8
    # (per_device_train_batch_size 8 × 1, TRL's RepeatSampler spreads a prompt's 16 over two ranks)
    # s37 grpo #1: the en question names no tool nor engine: TRL's default path too, as zh (was 16: vLLM)
    batch = {"en": 8, "zh": 8}[lang]
    assert (ro["decode_tp"], ro["decode_batch"]) == (1, batch)
    qwen, a800 = catalog.model("Qwen2.5-7B"), catalog.gpu("A800-80GB")
    step = (weight_bytes(qwen, 7.61e9, "bf16") + batch * kv_bytes_per_sequence(qwen, 1024)) / (
        a800.memory_bandwidth_gbps * 1e9 * 0.5
    )
    # s26-trfix4: the zh question's 'max_completion_length' names TRL, whose use_vllm defaults to False: its
    # own model.generate decodes, eager, at a quarter of the engines' bandwidth share (transformers
    # llm_optims.md: up to 4x from a static cache + torch.compile; estimator/trainer_decode.py): ≈ 252
    eager = {"en": 4, "zh": 4}[lang]
    assert ro["in_trainer"] is (eager == 4)
    speed = batch / step / eager
    assert ro["decode_tokens_per_s_per_gpu"] == pytest.approx(speed, rel=1e-6)  # ≈ 1,009 tokens/s (en)
    assert ro["gpu_hours"] == pytest.approx(10_000 * 16 * 1024 / speed / 3600, rel=1e-6)
    # the whole band is the training part's interval (×0.764–×1.604), rollouts included
    train, total = ro["training_gpu_hours"], rep["gpu_hours"]
    assert total["likely"] == pytest.approx(train["likely"] + ro["gpu_hours"], rel=1e-9)
    assert total["low"] / total["likely"] == pytest.approx(train["low"] / train["likely"], rel=1e-9)
    assert total["high"] / total["likely"] == pytest.approx(train["high"] / train["likely"], rel=1e-9)
    assert total["high"] / total["likely"] == pytest.approx(1.604, abs=0.001)
    text = _ask(capsys, QUESTIONS[lang], fmt="text")
    assert INTERVAL_LINE[lang] in text and PROMPT_LINE[lang] in text


def test_decode_batch_bounded_by_engine_memory(capsys) -> None:
    """64 completions of 8,192 tokens on a 24 GB card: the KV cache of 8,704 tokens per sequence beside
    the 15.2 GB of bf16 weights holds 15 sequences, not 64."""
    answer = json.loads(
        _ask(
            capsys,
            # s26-trfix4: vLLM said (the key names TRL, whose default generates in the trainer, unbounded)
            "GRPO Qwen2.5-7B on 8 RTX 4090, vLLM rollouts, 64 generations per prompt, max_completion_length "
            "8192, 2000 prompts",
        )
    )
    ro = answer["report"]["rollout"]
    qwen, card = catalog.model("Qwen2.5-7B"), catalog.gpu("RTX-4090")
    free = engine_usable_bytes(card) - weight_bytes(qwen, 7.61e9, "bf16")  # vLLM's usable, as serving says
    assert ro["decode_batch"] == int(free // kv_bytes_per_sequence(qwen, 512 + 8192)) == 15
