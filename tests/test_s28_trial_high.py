"""The HIGH findings of session 28's fresh-user trial (/work/notes/s28/trial.md): answer the job the user
described.

- H1: beside a training config that sets its own length and sample count (LLaMA-Factory ``cutoff_len``,
  ``max_samples``), '平均每条 1200 token' / 'avg 1,200 tokens per sample' is each sample's mean length,
  not a sequence length that disagrees with the config: the time is samples × mean length × epochs
  (200K × 1,200 × 2 = 4.8×10⁸ tokens; LoRA 4ND = 4 × 14.7B × 4.8×10⁸ = 2.82×10¹⁹ FLOPs).
- H2: a serving question with a GPU count and no load, whose 16-bit weights need more GPUs and whose FP8
  weights fit the count, is answered on the user's GPUs in FP8 at the sequences they hold: serving GPUs,
  TP and the monthly cost (2 × 730 h × $0.30–0.80 = $438–1,168) are for 2 × RTX 4090, never an assumed
  16 sequences on 8; bf16's 4 GPUs in one line (estimator/serving_capacity.fits_only_in_fp8).
- H3: an RL batch counted in prompts ('batch 8 prompts', '8 prompts per step', '每步8个prompt') is the
  step's prompts over all GPUs: 1000 steps × 8 = 8,000 prompts, × 6 completions of 512 + 1,024 tokens =
  73.7M tokens, timed. Unsloth runs TRL's GRPOTrainer (beta 0.0: no reference model,
  estimator/rl_reference.py) and, with no method named, its loader's default QLoRA, said in the ledger.
- H4: 'how many A100 to LoRA Llama-3-8B and serve it?' asks two jobs: the LoRA fine-tuning is sized and
  the serving named as the second question (bot/parse/second_stage.py), never the serving alone.
- H5: pipeline stages are timed with PP micro-batches in flight, as vLLM runs them (PP-size concurrent
  batches: vllm/config/vllm.py ``max_concurrent_batches``): each stage reads its own layers' KV cache, so
  Llama-3.3-70B TP 8 × PP 3 at 500 sequences of 8K decodes ≈ 9.4K tokens/s (was 4,164), ≈ 90 % of
  three TP-8 copies on the same 24 GPUs (10,384 at 492), and the $/Mtok follows ($1.07, was $2.40).
  "3 replicas of TP 8" / "3 份 TP8 副本" is the data-parallel size (bot/parse/data_parallel.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import ask

LF_YAML = """\
model_name_or_path: Qwen/Qwen2.5-14B-Instruct
stage: sft
do_train: true
finetuning_type: lora
lora_rank: 64
lora_target: all
deepspeed: examples/deepspeed/ds_z2_config.json
dataset: my_sft_data
template: qwen
cutoff_len: 8192
max_samples: 200000
per_device_train_batch_size: 4
gradient_accumulation_steps: 8
num_train_epochs: 2.0
bf16: true
"""
"""A LLaMA-Factory LoRA SFT YAML in its examples' keys (examples/train_lora/llama3_lora_sft.yaml)."""


def _json(question: str, config: Path | None = None) -> dict:
    out, _ = ask(question, None, "json", str(config) if config else None)
    return json.loads(out)


@pytest.fixture
def lf_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "lf.yaml"
    path.write_text(LF_YAML, encoding="utf-8")
    return path


MEAN_LENGTH = [
    "4张4090能跑吗，大概要多久，平均每条1200 token",
    "4张4090能跑吗，要多久？每条样本平均 1200 token",
    "Will 4x 4090 work and how long? avg 1,200 tokens per sample",
    "Does it fit on 4 RTX 4090s, and how long? Each sample averages 1200 tokens.",
]


@pytest.mark.parametrize("question", MEAN_LENGTH)
def test_a_mean_sample_length_beside_a_config_is_per_sample(question: str, lf_yaml: Path) -> None:
    answer = _json(question, lf_yaml)
    request = answer["request"]
    assert request["seq_len"] == 8192  # the config's cutoff_len: the cap and the memory's length
    assert request["tokens_per_sample"] == 1200
    assert request["tokens"] == pytest.approx(200_000 * 1_200 * 2)  # × 2 epochs
    assert not any(i["reason"] == "config_differs" for i in answer["interpretation"]["ignored"])
    assert answer["report"]["flops"] == pytest.approx(4 * 14.7e9 * 200_000 * 1_200 * 2, rel=0.01)


@pytest.mark.parametrize("question", MEAN_LENGTH[:1] + MEAN_LENGTH[2:3])
def test_a_mean_sample_length_in_a_pasted_config_is_per_sample(question: str) -> None:
    answer = _json(LF_YAML + "\n" + question)
    assert (answer["request"]["seq_len"], answer["request"]["tokens_per_sample"]) == (8192, 1200)
    assert answer["report"]["flops"] == pytest.approx(4 * 14.7e9 * 200_000 * 1_200 * 2, rel=0.01)


@pytest.mark.parametrize(
    "question",
    ["4张4090能跑吗，大概要多久，序列长度 4096", "Will 4x 4090 work and how long? seq_len 4096"],
)
def test_a_sequence_length_beside_a_config_still_differs(question: str, lf_yaml: Path) -> None:
    """Must not misread: a sequence length (no sample word) is the config's to set, and named."""
    answer = _json(question, lf_yaml)
    assert answer["request"]["seq_len"] == 8192
    assert answer["request"].get("tokens_per_sample") is None
    assert any(i["reason"] == "config_differs" for i in answer["interpretation"]["ignored"])


GEMMA_ON_TWO = [
    "Does Gemma-2-27B fit on 2x 4090 for inference with vLLM at 16k context?",
    "两张4090用vLLM部署Gemma-2-27B，16k上下文，放得下吗",
]


@pytest.mark.parametrize("question", GEMMA_ON_TWO)
def test_every_serving_figure_is_on_the_stated_cards(question: str) -> None:
    answer = _json(question)
    inf = answer["report"]["inference"]
    assert (inf["serving_gpus"], inf["tp"], inf["weight_format"]) == (2, 2, "fp8")
    assert inf["concurrency"] == inf["max_concurrency"] == inf["priced_concurrency"] >= 1
    low = 0.30 if answer["lang"] == "en" else 1.8  # $0.30–0.80 / ¥1.8–3.5 a 4090-hour (the catalog's)
    assert inf["cost_per_month"]["low"] == pytest.approx(2 * 730 * low)  # 2 GPUs × 730 h, not 4 or 8
    # Gemma 2's config window is 8,192: vLLM refuses 16K as typed (s30-fixc), FP8 fits once it is allowed
    assert answer["report"]["feasible_reason"] == "max_model_len_past_config"
    assert answer["report"]["feasible_with_override"] == "borderline"
    why = {a["field"]: a["why"] for a in answer["assumptions"]}
    assert why["concurrency"] == "most_held" and why["precision"] == "fp8_on_count"
    reply = answer["reply"]
    assert "8 GPUs" not in reply and "8 张" not in reply
    assert ("at least 4" in reply) or ("至少要 4 张" in reply)  # bf16's count, in one line


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("Does Gemma-2-27B fit on 2x 4090 for inference with vLLM at 16k context, 20 concurrent users?", 20),
        ("两张H100用vLLM部署Gemma-2-27B，16k上下文，放得下吗", 16),  # bf16 fits: the team's 16 stays
    ],
)
def test_a_stated_load_or_fitting_weights_keep_their_sizing(question: str, concurrency: int) -> None:
    """Must not misread: a stated load is sized as stated; 16-bit weights that fit keep the default."""
    answer = _json(question)
    assert answer["report"]["inference"]["concurrency"] == concurrency
    assert "most_held" not in {a["why"] for a in answer["assumptions"]}


UNSLOTH_GRPO = [
    "Unsloth GRPO on Llama-3.1-8B, one A100 80GB, num_generations 6, max_completion_length 1024, "
    "1000 steps, batch 8 prompts - how long?",
    "Unsloth GRPO on Llama-3.1-8B, one A100 80GB, num_generations 6, max_completion_length 1024, "
    "1000 steps, 8 prompts per step - how long?",
    "用Unsloth跑GRPO，Llama-3.1-8B，一张A100 80G，num_generations 6，max_completion_length 1024，"
    "1000步，每步8个prompt，要多久？",
]


@pytest.mark.parametrize("question", UNSLOTH_GRPO)
def test_rl_steps_times_prompts_give_a_time(question: str) -> None:
    answer = _json(question)
    request = answer["request"]
    assert (request["global_batch"], request["num_samples"]) == (8, 8000)
    assert request["tokens"] == pytest.approx(8000 * 6 * (512 + 1024))
    assert answer["report"]["gpu_hours"]["likely"] > 0
    assert not any(i["reason"] == "steps_need_batch" for i in answer["interpretation"]["ignored"])


@pytest.mark.parametrize("question", UNSLOTH_GRPO[:1] + UNSLOTH_GRPO[2:])
def test_unsloth_grpo_is_qlora_said_and_has_no_reference_model(question: str) -> None:
    answer = _json(question)
    assert answer["request"]["method"] == "qlora"
    assert {a["field"]: a["why"] for a in answer["assumptions"]}["method"] == "unsloth_default"
    assert "reference" not in answer["report"]["memory"]["breakdown"]


@pytest.mark.parametrize(
    ("question", "method", "batch"),
    [  # must not misread: a stated method stays; a per-device batch with no prompt word is a micro-batch
        (
            "Unsloth full fine-tuning GRPO on Llama-3.1-8B, one A100 80GB, 1000 steps, batch 8 prompts",
            "full",
            None,
        ),
        ("TRL GRPO on Llama-3.1-8B, one A100 80GB, num_generations 6, batch size 8 per device", "full", 8),
        ("用Unsloth LoRA 跑 GRPO，Llama-3.1-8B，一张A100 80G，每卡 batch 8", "lora", 8),
    ],
)
def test_stated_methods_and_micro_batches_stay(question: str, method: str, batch: int | None) -> None:
    request = _json(question)["request"]
    assert request["method"] == method
    assert request["batch_size"] == (batch or request["batch_size"])
    assert request["global_batch"] == (None if batch else 8)


def test_unsloth_grpo_reference_default_is_trls() -> None:
    """TRL v1.9.0 grpo_config.py ``beta: float = field(default=0.0``: Unsloth patches that trainer."""
    from estimator.rl_reference import TRL_GRPO_BETA, default_kl

    assert default_kl("Unsloth", "grpo") == TRL_GRPO_BETA == 0.0


@pytest.mark.parametrize(
    "question",
    [
        "how many A100 to LoRA Llama-3-8B and serve it?",
        "QLoRA Qwen2.5-7B on a 4090, then deploy it",
        "用LoRA微调Llama-3-8B然后部署，要几张A100",
    ],
)
def test_an_adapter_job_then_serving_sizes_the_training_and_names_the_serving(question: str) -> None:
    answer = _json(question)
    assert answer["request"]["stage"] == "finetune"
    assert answer["request"]["method"] in ("lora", "qlora")
    assert ("You also asked about serving it" in answer["reply"]) or ("你还问了部署" in answer["reply"])


@pytest.mark.parametrize(
    "question",
    [
        "I have a LoRA adapter for Llama-3-8B, how many A100 to serve it?",
        "LoRA adapters for Qwen2.5-7B: serve it on a 4090",
        "我有一个 LoRA 适配器，Llama-3-8B，部署要几张A100",
    ],
)
def test_a_served_adapter_stays_a_serving_question(question: str) -> None:
    """Must not misread: a trained adapter that is served is no training job."""
    assert _json(question)["request"]["stage"] == "inference"


SEVENTY_B = (
    "How many H100s to serve Llama-3.3-70B for 500 concurrent users at 8k context with vLLM, "
    "and what's the monthly cost?"
)
REPLICAS = [
    "Serve Llama-3.3-70B on 24 H100 with vLLM as 3 replicas of TP 8, 500 concurrent users at 8k context",
    "用vLLM部署Llama-3.3-70B，24张H100，3 份 TP8 副本，500并发，8k上下文，吞吐和月成本多少",
]


def test_a_pipeline_decodes_like_replicas_on_the_same_gpus() -> None:
    piped = _json(SEVENTY_B)["report"]["inference"]
    copies = _json(REPLICAS[0])["report"]["inference"]
    assert (piped["serving_gpus"], piped["tp"], piped["pp"]) == (24, 8, 3)
    assert (copies["serving_gpus"], copies["tp"], copies["pp"], copies["replicas"]) == (24, 8, 1, 3)
    ratio = piped["decode_tokens_per_s"]["aggregate"] / copies["decode_tokens_per_s"]["aggregate"]
    assert 0.85 < ratio < 1.0  # the hops between nodes cost a little; a serial pipeline gave 0.40
    cost = piped["cost_per_million_tokens"]["low"]
    assert cost == pytest.approx(24 * 1.5 / (piped["priced_tokens_per_s"] * 3600) * 1e6, rel=1e-6)
    assert cost < 1.5  # was $2.40 with the pipeline timed as serial


@pytest.mark.parametrize("question", REPLICAS)
def test_replicas_of_a_tp_group_are_read(question: str) -> None:
    answer = _json(question)
    inf = answer["report"]["inference"]
    assert (answer["request"]["gpu_count"], inf["tp"], inf["replicas"]) == (24, 8, 3)
    assert not answer["interpretation"]["ignored"]  # '3' no longer 'unread'


def test_replicas_beside_another_count_are_named() -> None:
    """Must not misread: 3 copies of TP 8 are 24 GPUs; beside 32 the user's count stands, the 3 named."""
    answer = _json("Serve Llama-3.3-70B on 32 H100 with vLLM as 3 replicas of TP 8, 500 concurrent users")
    assert answer["request"]["gpu_count"] == 32
    assert {"text": "dp: 3", "reason": "no_field"} in answer["interpretation"]["ignored"]
