"""Session 39, round 35 en (issue 24): readers for what r35work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the form exists in both.

- an output length per request beside a serving context and no request rate ('at 32k context and 512
  output tokens each', '上下文 16k，每次输出 300 token') is named as part of the context sized, never dropped
  in silence (before, only an output with no context at all was named);
- a list of bit widths with the unit written once, after the last ('4, 8 or 16-bit LoRA', '4 or 8 bit
  quantization', '4、8 或 16 位') is each width in bits, as '4-bit, 8-bit or 16-bit' already was;
- the host's memory in brackets after its name ('the CPU RAM (900G) runs out', 'CPU 内存（512G）') is the
  host's memory, as 'CPU RAM of 900 GB' already was;
- vLLM's / SGLang's ``--cpu-offload-gb 0`` is no CPU offload, said by the user (a size above 0 is an offload
  the sizing names as not sized, as before);
- a pasted ``LoraConfig(...)`` with no trainer config is PEFT's, named as the tool (not modelled), not TRL;
- one card named with an article beside a TP 1 layout ('on an H800 … --tp 1') is one card: TP 1 × PP 1 is a
  one-GPU copy (before, any TP stated dropped the article's count);
- LightLLM's ``--max_req_total_len`` is the longest request (prompt + output) served, the serving context.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- an output length beside a serving context ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "output"),
    [
        ("Serving Llama-3-8B on one A100 with vLLM at 32k context and 512 output tokens each.", "512"),
        (
            "Serving Qwen2.5-7B on an L4 with a 16k context window; each reply is about 300 output tokens",
            "300",
        ),
        ("用 vLLM 在一张 A100 上部署 Qwen2.5-7B，上下文 16k，每次输出 300 token，吞吐多少？", "300"),
    ],
)
def test_output_beside_a_context_is_named(text: str, output: str) -> None:
    req, ignored = _ask(text)
    assert req["stage"] == "inference"
    assert any(why == "output_in_context" and output in said for why, said in ignored)


def test_output_with_a_rate_is_still_the_rate_s() -> None:
    """Must-not-misread: with a request rate the output is used (rate × output), not named."""
    req, ignored = _ask(
        "Serve Llama-3-8B on A100s at 32k context, 5 requests per second, 512 output tokens each"
    )
    assert req["target_tokens_per_s"] == pytest.approx(2560)
    assert not any(why == "output_in_context" for why, _ in ignored)


# --- bit widths listed with one unit ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "precision", "named"),
    [
        ("Can I fine-tune Llama-3-8B on a T4 with 4, 8 or 16-bit LoRA?", "int4", {"8-bit", "fp16"}),
        ("Fine-tune Mistral-7B with 4 or 8 bit quantization on one RTX 3090?", "int4", {"8-bit"}),
        ("用 4、8 或 16 位的 LoRA 在 T4 上微调 Llama-3-8B 可以吗？", "int4", {"8-bit", "fp16"}),
    ],
)
def test_bit_widths_listed_with_one_unit(text: str, precision: str, named: set[str]) -> None:
    req, ignored = _ask(text)
    assert req["precision"] == precision and req["method"] == "qlora"
    said = " ".join(t for _, t in ignored).replace(" ", "").replace("-", "")
    assert all(n.replace("-", "") in said for n in named)
    assert not any(why == "unread" and t in ("4", "8") for why, t in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama-3-8B with batch size 4, 8-bit Adam and LoRA on a 3090.",
        "LoRA rank 8 or 16 with a 4-bit base on one RTX 4090?",
        "Serve Qwen2.5-7B on 2 or 4 GPUs at 8-bit?",
    ],
)
def test_numbers_before_a_width_are_not_widths(text: str) -> None:
    """Must-not-misread: a batch, a rank or a count before a width is not one ('batch size 4, 8-bit Adam')."""
    req, ignored = _ask(text)
    assert req.get("precision") != "int4" or "4-bit" in text
    assert "precision: 4-bit" not in " ".join(t for _, t in ignored)


# --- the host's memory in brackets -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Full fine-tuning on 8 A800 (80G): the CPU RAM (900G) runs out. Why?", 900),
        ("Full fine-tuning Qwen2-7B on 4 A100s, host memory (512GB), ZeRO-3 offload to CPU.", 512),
        ("在 8 张 A800 上全参微调，CPU 内存（900G）爆了，为什么？", 900),
    ],
)
def test_host_memory_in_brackets(text: str, gib: int) -> None:
    req, ignored = _ask(text)
    got = req.get("host_memory_gib")
    assert got == gib or any(f"{gib} GB" in t and "host" in t for _, t in ignored)
    assert ("unread", str(gib)) not in ignored


def test_card_memory_in_brackets_stays_the_card_s() -> None:
    """Must-not-misread: a card's memory in brackets ('8 A800 (80G)') is the card's, never the host's."""
    req, _ = _ask("Full fine-tuning on 8 A800 (80G) with 512GB of CPU RAM.")
    assert req["gpu_count"] == 8 and req.get("host_memory_gib") != 80


# --- vLLM's / SGLang's --cpu-offload-gb ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve Qwen2.5-72B-AWQ --tensor-parallel-size 4 --cpu-offload-gb 0 on 4 L40S",
        "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B --cpu-offload-gb 0 on one A10",
    ],
)
def test_cpu_offload_gb_zero_is_no_offload(text: str) -> None:
    req, ignored = _ask(text)
    assert req["offload"] is False
    assert not any("cpu-offload-gb" in t for _, t in ignored)


def test_cpu_offload_gb_above_zero_stays_named() -> None:
    """Must-not-misread: an offload of 20 GB is no 'no offload'; the sizing names it, as before."""
    req, ignored = _ask("vllm serve Qwen2.5-72B --tensor-parallel-size 4 --cpu-offload-gb 20 on 4 L40S")
    assert req.get("offload") is None
    assert ("not_sized", "--cpu-offload-gb: 20") in ignored


# --- a pasted LoraConfig alone is PEFT's -----------------------------------------------------------------


def test_lora_config_alone_is_peft() -> None:
    req, ignored = _ask(
        "LoRA fine-tune of flan-t5-xl on an A100 80GB with "
        'LoraConfig(r=16, lora_alpha=32, target_modules=["q", "v"])'
    )
    assert req.get("training_tool") != "TRL" and req["lora_rank"] == 16
    assert ("no_field", "training_tool: PEFT") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "SFT of Llama-3-8B: SFTConfig(per_device_train_batch_size=2, bf16=True), LoraConfig(r=16) on an A100",
        "Tune Llama-3-8B with TrainingArguments(per_device_train_batch_size=4), LoraConfig(r=8) on a 4090",
    ],
)
def test_lora_config_beside_a_trainer_config_stays_the_trainer_s(text: str) -> None:
    """Must-not-misread: with a trainer's config pasted too, the tool is the trainer's (TRL's table)."""
    req, ignored = _ask(text)
    assert req["training_tool"] == "TRL"
    assert ("no_field", "training_tool: PEFT") not in ignored


# --- one card with an article beside TP 1 ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Serving llama-7b on an H800 with vLLM --tp 1, why is it slow?",
        "在一张 A100 上用 vllm --tensor-parallel-size 1 部署 Qwen2.5-7B，吞吐多少？",
    ],
)
def test_one_card_beside_tp_one(text: str) -> None:
    req, _ = _ask(text)
    assert req["gpu_count"] == 1 and req["tp"] == 1


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Serving llama-7b with vLLM --tp 1 on H800s, how many do I need?", None),
        ("Serving llama-7b on an H800 with vLLM --tp 2", 2),
    ],
)
def test_tp_above_one_or_plural_cards_is_no_single_card(text: str, count: int | None) -> None:
    """Must-not-misread: plural cards leave the count open; a TP above one is its own world size."""
    req, _ = _ask(text)
    assert req["gpu_count"] == count


# --- LightLLM's longest request --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("llama-7b on an H800: python -m lightllm.server.api_server --tp 1 --max_req_total_len 32768", 32768),
        ("LightLLM 部署 llama-7b，--max_req_total_len 16384，单卡 A100 够吗？", 16384),
    ],
)
def test_lightllm_longest_request_is_the_context(text: str, tokens: int) -> None:
    req, ignored = _ask(text)
    assert tokens in (req.get("seq_len"), req.get("max_model_len"))
    assert ("unread", str(tokens)) not in ignored


def test_output_beside_a_typed_speed_is_named() -> None:
    """A speed the user typed ('is 83 tok/s expected?') is no request rate: the output is still named."""
    _, ignored = _ask(
        "Serving Qwen2.5-7B on one RTX 3090 with vLLM, max-model-len 32768, 1024 output tokens per request: "
        "I get 48.9 tokens/s for one request. Is about 83 tok/s expected?"
    )
    assert any(why == "output_in_context" and "1,024" in said for why, said in ignored)


# --- an online-RL job's cards by role, in English --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "With one node of 8 GPUs, one GPU is reserved for vLLM generation and the other 7 for GRPO training",
        "GRPO on Qwen2.5-7B: 1 GPU is dedicated to vLLM rollout and the remaining 7 GPUs to training.",
        "GRPO 训练 Qwen2.5-7B：1 张卡给 vllm 做 rollout，其余 7 张训练。",
    ],
)
def test_rollout_and_trainer_cards_are_one_job(text: str) -> None:
    req, ignored = _ask(text)
    assert req["gpu_count"] == 8 and req["algorithm"] == "grpo"
    assert ("rollout_share", "1") in ignored


def test_a_single_engine_gpu_is_no_role_split() -> None:
    """Must-not-misread: a serving engine on one GPU and no trainer count is no RL job of 1 + N cards."""
    req, ignored = _ask("One GPU is reserved for vLLM generation of Qwen2.5-7B; tokens/s on an A100?")
    assert req.get("gpu_count") in (None, 1)
    assert not any(why == "rollout_share" for why, _ in ignored)
