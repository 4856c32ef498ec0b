"""The findings of session 29's fresh-user trial of the merged tree (RL, TRL and serving setups): answer
the job the user described (/work/notes/s29 brief s29-trfix; s28 closing note, 'noticed and left').

- #3: TRL's GRPO (and Unsloth's, which is TRL's GRPOTrainer) loads no reference model at its default beta
  0.0 (trl/trainer/grpo_config.py v1.9.0 L671; estimator/rl_reference.py): with no data given (no compute
  sized, so no k in the ledger) the advice said "Preference tuning keeps a frozen reference model"; it
  now says no reference is loaded, and names one only when it is (beta > 0 stated, DPO).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _text(question: str) -> str:
    out, _ = ask(question, None, "text", None)
    return out


def _json(question: str) -> dict:
    out, _ = ask(question, None, "json", None)
    return json.loads(out)


NO_REFERENCE = [
    "Unsloth GRPO on Qwen2.5-7B with one H100: per_device_train_batch_size 4, num_generations 8, "
    "max_completion_length 1024. Does it fit?",
    "TRL GRPO for Llama-3.1-8B on a single A100 80GB, 8 completions per prompt, completions up to 512 "
    "tokens: will it fit in memory?",
    "用Unsloth做GRPO，Qwen2.5-7B，一张H100，per_device_train_batch_size 4，num_generations 8，能放下吗？",
    "TRL 跑 GRPO，Llama-3.1-8B，单卡 A100 80G，每个 prompt 生成 8 条，显存够不够？",
]


@pytest.mark.parametrize("question", NO_REFERENCE)
def test_grpo_at_beta_zero_keeps_no_reference_model(question: str) -> None:
    text = _text(question)
    assert "frozen reference model next to" not in text and "冻结的参考模型（" not in text
    assert "No reference model is loaded" in text or "不加载参考模型" in text
    assert "beta > 0" in text


WITH_REFERENCE = [
    "TRL GRPO on Qwen2.5-7B with one H100, beta 0.04, num_generations 8: does it fit?",
    "DPO on Qwen2.5-7B with LoRA, one H100: does it fit?",
    "TRL 跑 GRPO，Qwen2.5-7B，一张 H100，beta 0.04，num_generations 8，能放下吗？",
    "用 LoRA 做 DPO，Qwen2.5-7B，一张 H100，显存够吗？",
]


@pytest.mark.parametrize("question", WITH_REFERENCE)
def test_a_loaded_reference_model_is_still_said(question: str) -> None:
    text = _text(question)
    assert "No reference model is loaded" not in text and "不加载参考模型" not in text
    assert "frozen reference model" in text or "冻结的参考模型" in text


COMMENTED_IN_MESSAGE = [
    ("LoRA Qwen2.5-7B on one 4090\n# --quantization_bit 4\nhow long for 100M tokens?", "in your message"),
    ("Serve Llama-3-8B with vLLM on one A100\n# --max-model-len 32768\nhow many users?", "in your message"),
    (
        "用 LLaMA-Factory LoRA 微调 Qwen2.5-7B，单卡 4090\n# --quantization_bit 4\n1 亿 token 要多久？",
        "在你的消息里",
    ),
    ("vLLM 部署 Qwen2.5-7B，一张 A100\n# cutoff_len: 8192\n能撑多少并发？", "在你的消息里"),
]


@pytest.mark.parametrize(("question", "said"), COMMENTED_IN_MESSAGE)
def test_a_line_commented_out_in_a_chat_message_is_the_messages(question: str, said: str) -> None:
    """#8: a '# --flag' line in a chat message with no config in it is the message's, not "your config"."""
    text = _text(question)
    assert said in text and "in your config" not in text and "在你的配置里" not in text


LF_YAML = """\
model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
do_train: true
finetuning_type: lora
# quantization_bit: 4
cutoff_len: 2048
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
num_train_epochs: 1.0
"""
"""A LLaMA-Factory LoRA YAML (examples/train_lora/llama3_lora_sft.yaml keys) with its 4-bit line put aside."""


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how long on one 4090 for 100M tokens", "in your config"),
        ("单卡 4090，1 亿 token 要多久", "在你的配置里"),
    ],
)
def test_a_line_commented_out_in_a_config_is_still_the_configs(question: str, said: str, tmp_path) -> None:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML, encoding="utf-8")
    out, _ = ask(question, None, "text", str(path))
    assert said in out and "in your message" not in out and "在你的消息里" not in out


OVER_TRAINED = [
    "Pre-train a 1B model on 3T tokens with 64 H100, how long?",
    "Pretraining TinyLlama 1.1B on 3 trillion tokens with 16 A100 40G, how long?",
    "1B模型预训练3T token，用64张H100要多久？",
    "从零预训练 Qwen2.5-0.5B，3T token，32 张 H100 要多久",
]


@pytest.mark.parametrize("question", OVER_TRAINED)
def test_data_far_past_chinchilla_gets_a_factual_note_and_an_answer(question: str) -> None:
    """#9: D/N far above Hoffmann et al. 2022's ≈ 20 (150× for 1B on 3T) is said to be common and deliberate
    (Llama 3 8B: ≈ 15T tokens), beside the ratio; the time is still given (never a refusal)."""
    text = _text(question)
    line = next(x for x in text.splitlines() if "Chinchilla" in x)
    assert "Hoffmann" in line and "15T" in line and ("1,900" in line)
    assert "150×" in text or "150 倍" in text or "136.4×" in text or "306.1 倍" in text
    assert "hours)" in text.splitlines()[0] or "时）" in text.splitlines()[0]


@pytest.mark.parametrize(
    "question",
    [
        "Pre-train a 7B model on 140B tokens with 64 H100, how long?",
        "7B 模型预训练 2000 亿 token，64 张 H100 要多久？",
    ],
)
def test_data_near_chinchilla_gets_no_over_training_note(question: str) -> None:
    text = _text(question)
    line = next(x for x in text.splitlines() if "Chinchilla" in x and "•" in x and "20 ×" not in x)
    assert "15T" not in line and "Hoffmann" not in line


def _recipes(question: str) -> dict[str, str]:
    from bot.core.pipeline import answer
    from bot.recipes import build_recipes

    a = answer(question)
    return {r.filename: r.text for r in build_recipes(a.report, a.lang)}


LONG_LEN = [
    (
        "vllm serve meta-llama/Llama-3.1-8B-Instruct on one A100 80G with --max-model-len 262144, "
        "how many users?"
    ),
    ("用 vLLM 部署 Llama-3.1-8B-Instruct，一张 A100 80G，--max-model-len 262144，能撑几个并发？"),
]


@pytest.mark.parametrize("question", LONG_LEN)
def test_vllm_max_model_len_past_the_config_needs_the_env_var(question: str) -> None:
    """#4: 262,144 past Llama 3.1's max_position_embeddings 131,072: vLLM raises unless
    VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (vllm/config/model.py ``_get_and_verify_max_len``); said, and set in the
    recipe."""
    answer = _json(question)
    note = next(n for n in answer["report"]["warnings"] if n["code"] == "vllm_long_max_model_len")
    assert note["params"] == {"window": 131072, "length": 262144}
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" in answer["reply"]
    script = _recipes(question)["serve_vllm.sh"]
    assert "export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1\n" in script and "--max-model-len 262144" in script


@pytest.mark.parametrize(
    "question",
    [
        "vllm serve meta-llama/Llama-3.1-8B-Instruct on one A100 80G with --max-model-len 32768, "
        "how many users?",
        "用 vLLM 部署 Llama-3.1-8B-Instruct，一张 A100 80G，--max-model-len 131072，能撑几个并发？",
    ],
)
def test_vllm_max_model_len_within_the_config_needs_no_env_var(question: str) -> None:
    answer = _json(question)
    assert all(n["code"] != "vllm_long_max_model_len" for n in answer["report"]["warnings"])
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in answer["reply"]
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in _recipes(question)["serve_vllm.sh"]


def _compared(answer: dict) -> list[str]:
    return [
        line
        for line in answer["reply"].splitlines()
        if line.startswith("•") and ("GPU" in line or "张" in line)
    ]


CANNOT_RUN = [
    ("What's the cheapest card to serve Qwen2.5-7B-Instruct-AWQ with SGLang?", "V100"),
    ("Cheapest GPU to serve Qwen2.5-7B-Instruct-AWQ with vLLM for 8 users at 4k context?", "V100"),
    ("Cheapest card to serve Llama-3.1-8B in FP8 with vLLM?", "V100"),
    ("用 SGLang 部署 Qwen2.5-7B-Instruct-AWQ，最便宜用什么卡？", "V100"),
    ("用 vLLM 部署 Llama-3.1-8B，FP8 权重，最便宜用什么卡？", "V100"),
]


@pytest.mark.parametrize(("question", "card"), CANNOT_RUN)
def test_the_cheapest_card_comparison_leaves_out_cards_that_cannot_run_the_weights(
    question: str, card: str
) -> None:
    """#5: AWQ needs compute capability 7.5 in vLLM and SGLang (awq.py ``get_min_capability`` 75) and FP8
    needs FP8 tensor cores or Ampere's Marlin: a V100 (sm70) is never compared, never the cheapest."""
    answer = _json(question)
    assert answer["request"]["precision"] in ("int4", "fp8")
    lines = _compared(answer)
    assert len(lines) >= 3 and not any(card in x for x in lines)
    assert card not in answer["reply"].splitlines()[0]


@pytest.mark.parametrize(
    "question",
    [
        "Cheapest card to serve Qwen2.5-7B-Instruct-GPTQ-Int4 with vLLM?",
        "vLLM 部署 Qwen2.5-7B-Instruct-GPTQ-Int4，最便宜用什么卡？",
    ],
)
def test_gptq_still_compares_a_v100(question: str) -> None:
    """vLLM's GPTQ kernels run from compute capability 6.0 (gptq.py ``get_min_capability`` 60): kept."""
    assert any("V100" in x for x in _compared(_json(question)))


SMALL_LORA = [
    "LoRA fine-tune Qwen2.5-7B with LLaMA-Factory on one 3090, cutoff_len 8192",
    "LoRA fine-tune Qwen2.5-32B with LLaMA-Factory: how many RTX 4090?",
    "LLaMA-Factory LoRA 微调 Qwen2.5-32B，4090 要几张？",
    "用 LLaMA-Factory 对 Qwen2.5-7B 做 LoRA，单卡 3090，cutoff_len 8192",
]


@pytest.mark.parametrize("question", SMALL_LORA)
def test_a_lora_that_fits_a_node_in_the_users_tool_offers_no_other_stack(question: str) -> None:
    """#7: the user's tool first (issue 24 item 3); a LoRA LLaMA-Factory runs within one node gets no
    Megatron/NeMo row (before: 'Another stack (Megatron-LM …) would allow: 2 GPUs' for a 7B LoRA)."""
    answer = _json(question)
    assert answer["request"]["training_tool"] == "LLaMA-Factory"
    assert all(a["change"] != "other_stack" for a in answer["report"]["memory"]["alternatives"])
    assert "Megatron" not in answer["reply"] and "NeMo" not in answer["reply"]


BIG_LORA = [
    "LoRA fine-tune Qwen2.5-72B with LLaMA-Factory on 4x 4090",
    "LLaMA-Factory LoRA 微调 Llama-3-70B 要几张 4090？",
]


@pytest.mark.parametrize("question", BIG_LORA)
def test_a_lora_past_one_node_names_a_tool_that_runs_lora(question: str) -> None:
    """Past one node in the user's tool (16 RTX 4090), another tool is named for what TP/PP adds: NeMo's
    LoRA on Megatron-Core (8 GPUs), never Megatron-LM, which has no LoRA."""
    answer = _json(question)
    row = next(a for a in answer["report"]["memory"]["alternatives"] if a["change"] == "other_stack")
    assert row["min_gpus"] == 8 and answer["report"]["memory"]["min_gpus"] == 16
    assert "NeMo" in answer["reply"] and "Megatron-LM" not in answer["reply"]


STEPS = [
    # (question, samples trained, sequences a step, micro-batch run, tokens)
    (
        "Unsloth GRPO on Qwen2.5-7B with one H100: per_device_train_batch_size 4, num_generations 8, "
        "max_prompt_length 512, max_completion_length 1024, max_steps 1000. How long?",
        1_000, 8, 8, 1_000 * 8 * 1_536,
    ),
    (
        "TRL GRPO on Llama-3.1-8B with 8 H100: per_device_train_batch_size 4, num_generations 16, "
        "max_completion_length 1024, 1000 steps. How long?",
        2_000, 32, 4, 2_000 * 16 * 1_536,
    ),
    (
        "用TRL做SFT，Qwen2.5-7B LoRA，2张A100 80G，per_device_train_batch_size 4，max_seq_length 2048，"
        "max_steps 1000，要多久？",
        8_000, 8, 4, 8_000 * 2_048,
    ),
    (
        "Unsloth 跑 GRPO，Qwen2.5-7B，一张 H100，per_device_train_batch_size 8，num_generations 8，"
        "max_prompt_length 512，max_completion_length 1024，训练 500 步，要多久？",
        500, 8, 8, 500 * 8 * 1_536,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("question", "samples", "step", "micro", "tokens"), STEPS)
def test_steps_with_a_per_device_batch_are_timed_as_the_trainer_runs_them(
    question: str, samples: int, step: int, micro: int, tokens: int
) -> None:
    """#1, #2: TRL's per_device_train_batch_size counts completions (generation_batch_size = per-device ×
    processes × steps_per_generation, divisible by num_generations: trl/trainer/grpo_config.py v1.9.0);
    Unsloth sets a per-device batch that does not divide to num_generations (unsloth/models/rl.py). The
    steps ('max_steps 1000' in prose too) become samples, timed, and the plan's step is the same batch."""
    answer = _json(question)
    request = answer["request"]
    assert request["num_samples"] == samples and request["tokens"] == pytest.approx(tokens)
    assert request["global_batch"] == step and request["batch_size"] == micro
    assert answer["report"]["gpu_hours"] is not None
    assert all(
        i["reason"] != "not_sized" or "max_steps" not in i["text"]
        for i in answer["interpretation"]["ignored"]
    )
    plan = answer["report"]["memory"]["plan"]
    assert plan["micro_batch"] * plan["gradient_accumulation"] * plan["dp"] == step
