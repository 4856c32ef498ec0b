"""s29 fresh-user trial, part fixa: a start-up question past the model config's max_position_embeddings
(vLLM refuses it as typed) and an Unsloth GRPO run with steps but no lengths."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    ("q", "first"),
    [
        (
            "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 262144 on 2 H100, will it start?",
            "no, not as typed — vLLM refuses max_model_len 262,144, past the model config's "
            "max_position_embeddings (131,072); VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 forces it to start, its KV "
            "cache then holding 432,016 tokens (TP=1 × 2 replicas), but output past 131,072 tokens is not "
            "guaranteed",
        ),
        (
            "一张 H100 用 vLLM 跑 Llama-3.1-8B-Instruct，max_model_len 200000 能启动吗？",
            "按所写的设置不能 —— max_model_len 200,000 超过模型 config 的 max_position_embeddings"
            "（131,072），vLLM 拒绝启动；设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 可强制启动，此时 KV 缓存可容纳 "
            "432,016 个 token（TP=1），但超过 131,072 个 token 的输出质量没有保证",
        ),
    ],
)
def test_start_question_past_max_position_embeddings_is_a_no_as_typed(capsys, q: str, first: str) -> None:
    """s29 trial #1: the memory holds the length (432,016 KV tokens of 128 KiB on an H100's 0.9 share
    after 16 GB of weights), but vLLM refuses a max_model_len past config.json's
    max_position_embeddings (131,072 for Llama 3.1) unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: the headline
    said "yes — vLLM starts" above a warning saying it refuses. It now answers the setting as typed."""
    d = ask_in_process(capsys, q)
    assert d["report"]["inference"]["kv_capacity_tokens"] == 432_016
    head = d["reply"].splitlines()[0]
    assert first in head
    assert "yes — vLLM starts" not in head and "时 vLLM 能启动" not in head


@pytest.mark.parametrize(
    ("q", "said"),
    [
        (
            "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 8 --max-model-len 163840 on 8 H100, "
            "will it start?",
            "past the model config's max_position_embeddings (32,768)",
        ),
        (
            "8 张 H20 上 vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 8 "
            "--max-model-len 150000，能启动吗",
            "超过模型 config 的 max_position_embeddings（32,768），vLLM 拒绝启动",
        ),
    ],
)
def test_vllm_checks_the_instruct_config_window_not_the_yarn_one(capsys, q: str, said: str) -> None:
    """s29 trial #1: Qwen2.5's Instruct config.json says max_position_embeddings 32768 (YaRN ×4 is added
    by hand for 131,072); the catalog records 131,072 as max_context, 32,768 as native_context. vLLM
    derives its limit from the config, so the refusal names 32,768, not 131,072."""
    d = ask_in_process(capsys, q)
    note = next(w for w in d["report"]["warnings"] if w["code"] == "vllm_long_max_model_len")
    assert note["params"]["window"] == 32_768
    assert said in d["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("q", "prompts", "tokens", "used"),
    [
        (
            "TRL GRPO Qwen2.5-7B on 8 H100, per_device_train_batch_size 4, num_generations 8, max_steps 200",
            800,
            800 * 8 * 768,
            "200 × 4 per device × 1 accumulation × 8 GPUs ÷ 8 completions per prompt = 800 prompts",
        ),
        (
            "用 Unsloth 做 GRPO 训练 Llama-3.1-8B，一张 H100，per_device_train_batch_size 4，"
            "num_generations 4，max_steps 300，要多久？",
            300,
            300 * 4 * 768,
            "300 × 4 per device × 1 accumulation × 1 GPUs ÷ 4 completions per prompt = 300 prompts",
        ),
    ],
)
def test_grpo_steps_with_no_length_are_timed_on_trl_defaults(
    capsys, q: str, prompts: int, tokens: int, used: str
) -> None:
    """s29 trial #2: GRPO steps on TRL's GRPOConfig (TRL, or Unsloth, which patches TRL's trainer) with no
    length were 'not used … needs the sequence length'. TRL's max_prompt_length 512 + max_completion_length
    256 are assumed and said: each step's prompts × G completions × 768 tokens are timed."""
    d = ask_in_process(capsys, q)
    assert d["request"]["num_samples"] == prompts
    said = {a["field"]: a for a in d["assumptions"]}
    assert said["seq_len"]["value"] == 768 and said["tokens_per_sample"]["value"] == 768
    note = next(w for w in d["report"]["warnings"] if w["code"] == "samples_to_tokens")
    assert note["params"]["tokens"] == tokens
    assert d["report"]["gpu_hours"]["likely"] > 0
    assert "needs the sequence length" not in d["reply"] and "需要序列长度" not in d["reply"]
    assert [i["reason"] for i in d["interpretation"]["ignored"]] == ["steps_per_device"]
    assert used in d["interpretation"]["ignored"][0]["text"]


@pytest.mark.parametrize(
    ("q", "line", "method"),
    [
        (
            "用 Unsloth 微调 Llama-3.1-8B，一张 4090 够吗",
            "按 Unsloth 的默认假设为 QLoRA（load_in_4bit = True）；要按 16 位 LoRA 或全量微调估算请说明。",
            "qlora",
        ),
        (
            "Unsloth GRPO Mistral 7B on 2 L40S, how much memory?",
            "QLoRA assumed: Unsloth's default (load_in_4bit = True); say LoRA in 16-bit or full fine-tuning "
            "to size that instead.",
            "qlora",
        ),
        ("Unsloth LoRA 16-bit fine-tune Llama-3.1-8B on one 4090, does it fit?", None, "lora"),
    ],
)
def test_unsloth_default_qlora_is_said_under_the_headline(
    capsys, q: str, line: str | None, method: str
) -> None:
    """s29 trial #2: the headline said "(QLoRA)" with 4-bit never stated; only the details' ledger said
    why. Unsloth's loader defaults to load_in_4bit = True: one line under the headline says it was assumed;
    a stated method gets no such line."""
    d = ask_in_process(capsys, q)
    assert (
        d["request"]["method"] == method
        or next(a["value"] for a in d["assumptions"] if a["field"] == "method") == method
    )
    head = d["reply"].split("\n\n")[0]
    if line is None:
        assert "QLoRA assumed" not in d["reply"] and "假设为 QLoRA" not in d["reply"]
    else:
        assert line in head
