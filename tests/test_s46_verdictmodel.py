"""Session 46, part verdictmodel (issue 24 items 3–4): a named fine-tune sized as its base model.

Sources: lmsys/FastChat docs/vicuna_weights_version.md (Vicuna v1.5 from Llama 2, v1.3 from LLaMA);
lmsys/vicuna-13b-v1.5-16k config.json (LlamaForCausalLM: 40 layers, hidden 5120, 40 heads and no
num_key_value_heads — 2 × 40 × 5,120 × 2 B = 800 KiB of fp16 KV a token; rope_scaling linear 4.0 over 4,096:
a 16K window); HuggingFaceH4/zephyr-7b-beta model card (fine-tuned from mistralai/Mistral-7B-v0.1: 32
layers, 8 KV heads of 32); Dettmers et al. 2023 (QLoRA): Guanaco 33B is a LLaMA 33B fine-tune. The generic
13B shape (grouped KV) keeps 148 KiB a token (text-generation-inference#792's thread, en37-035).
"""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_json_in_process


def _subs(data: dict) -> dict[str, dict]:
    return {s["reason"]: s for s in data["interpretation"]["substitutions"]}


@pytest.mark.parametrize(
    "question",
    [
        "vicuna-13b-v1.5-16k on TGI with 2 A10G, will it fit?",
        "用 TGI 在 2 张 A10G 上部署 vicuna-13b-v1.5-16k，够吗？",
    ],
)
def test_vicuna_is_sized_as_llama_2_13b_named_as_typed(question):
    data = ask_json_in_process(question)
    sub = _subs(data)["fine_tune_base"]
    assert sub["typed"] == "vicuna-13b-v1.5-16k" and sub["used"] == "Llama-2-13B"
    assert data["request"]["model"] == "Llama-2-13B"
    assert data["interpretation"]["unknown_model"] is None
    kv = next(line for line in data["reply"].splitlines() if "KV" in line and "token" in line)
    assert "800 KiB" in kv  # 2 × 40 layers × 40 heads × 128 × 2 B, not the generic 148 KiB
    reply = data["reply"]
    assert "vicuna-13b-v1.5-16k" in reply and ("40 layers" in reply or "40 层" in reply)
    assert not [i for i in data["interpretation"]["ignored"] if i["text"] == "16k"]  # the suffix is the name


@pytest.mark.parametrize(
    ("question", "base"),
    [
        ("vicuna-13b-v1.3 on a 3090", "LLaMA-13B"),  # v1.3: LLaMA (FastChat's version table)
        ("用一张 3090 推理 vicuna-7b-v1.5", "Llama-2-7B"),
        ("guanaco-33b on 2 RTX 3090", "LLaMA-33B"),
        ("两张 3090 跑 guanaco-33b 推理", "LLaMA-33B"),
        ("zephyr-7b-beta serve on one 4090", "Mistral-7B"),
        ("一张 4090 部署 zephyr-7b-beta", "Mistral-7B"),
        ("WizardLM-13B-V1.2 inference on A10", "Llama-2-13B"),
    ],
)
def test_fine_tunes_read_as_their_base(question, base):
    p = parse(question)
    assert p.request.model == base and p.model_substitution == "fine_tune" and p.unknown_model is None


@pytest.mark.parametrize(
    "question",
    [
        "stablelm-zephyr-3b on a 3090",  # 'zephyr' not first: StableLM's own 3B, not Mistral
        "一张 3090 跑 stablelm-zephyr-3b",
        "WizardCoder-15B on A10",  # another family (StarCoder base), not in the table
        "用 A10 推理 WizardCoder-15B",
        "FooChat-13B on a 3090",  # a fine-tune the table lacks: named as typed, generic shape
        "一张 3090 推理 FooChat-13B",
    ],
)
def test_other_names_are_not_misread_as_a_known_fine_tune(question):
    p = parse(question)
    assert p.model_substitution != "fine_tune" and p.request.model is None and p.unknown_model


@pytest.mark.parametrize("question", ["Llama-2-13b-chat on A10G", "一张 A10G 推理 Llama-2-13b-chat"])
def test_a_catalog_name_is_not_a_fine_tune(question):
    p = parse(question)
    assert p.request.model == "Llama-2-13B" and p.model_substitution is None


def test_a_size_the_family_never_had_stays_unknown():
    p = parse("zephyr-13b on a 3090")  # Zephyr is 7B (Mistral) only: no base of that size
    assert p.request.model is None and p.unknown_model == "zephyr-13b"


# Item 3: a GPU count with no card nor memory: the verdict is on the assumed card (the reference A100 80G,
# estimator.defaults), and the reply says so plainly — not a verdict on the asker's own cards.


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("Fine-tune Qwen2.5-VL-3B with LoRA on 2 GPUs: will it fit?", "the verdict is for A100 80G"),
        ("用 2 张卡 LoRA 微调 Qwen2.5-VL-3B，放得下吗？", "结论是按这里假设的 A100 80G 给出的"),
    ],
)
def test_a_count_without_a_card_names_the_assumed_card(question, line):
    data = ask_json_in_process(question)
    sub = _subs(data)["card_assumed"]
    assert (sub["typed"], sub["used"]) == ("2", "A100-SXM4-80GB") and data["request"]["gpu_count"] == 2
    assert line in data["reply"]


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune Qwen2.5-VL-3B with LoRA on 2 A100s: will it fit?",  # the card named
        "用 2 张 A100 LoRA 微调 Qwen2.5-VL-3B，放得下吗？",
        "Fine-tune Qwen2.5-VL-3B with LoRA on 2 x 24GB GPUs",  # a memory: sized by it (gpu_by_memory)
        "两张 24G 的卡 LoRA 微调 Qwen2.5-VL-3B",
        "How many GPUs to pretrain a 7B on 1T tokens?",  # no count stated: the answer's own count
        "预训练 7B、1T token 需要多少张卡？",
        "2台DGX 训练 70B",  # the DGX line already says the card is assumed: said once
    ],
)
def test_a_card_memory_or_no_count_is_not_called_assumed(question):
    assert "card_assumed" not in _subs(ask_json_in_process(question))


@pytest.mark.parametrize(
    "question",
    ["用 vicuna-7b 做 LoRA 微调，一张 4090 够吗", "Use vicuna-7b to do a LoRA fine-tune on one 4090"],
)
def test_a_fine_tune_in_a_tools_slot_is_the_model_not_a_tool(question):
    p = parse(question)  # before: named 'training_tool: vicuna-7b' as not used
    assert p.request.model == "Llama-2-7B" and not [u for u in p.unused_numbers if "vicuna" in u[0]]


@pytest.mark.parametrize(
    ("question", "beyond"),
    [
        ("Serve vicuna-13b-v1.5-16k at 16k context on one A100 80G", False),  # its own 16K window
        ("用一张 A100 80G 部署 vicuna-13b-v1.5-16k，上下文 16k", False),
        ("Serve vicuna-13b-v1.5 at 16k context on one A100 80G", True),  # Llama 2's 4,096: past it
        ("用一张 A100 80G 部署 vicuna-13b-v1.5，上下文 16k", True),
    ],
)
def test_the_context_suffix_is_the_releases_window(question, beyond):
    data = ask_json_in_process(question)
    codes = [w["code"] for w in data["report"]["warnings"]]
    assert ("beyond_context_window" in codes) is beyond and data["request"]["model"] == "Llama-2-13B"


@pytest.mark.parametrize(
    ("question", "typed", "base"),
    [
        ("Nous-Hermes-Llama2-13b on a 4090", "Nous-Hermes-Llama2-13b", "Llama-2-13B"),
        ("用一张 4090 部署 Nous-Hermes-Llama2-13b", "Nous-Hermes-Llama2-13b", "Llama-2-13B"),
        ("dolphin-2.6-mistral-7b on a 3090", "dolphin-2.6-mistral-7b", "Mistral-7B"),
        ("一张 3090 跑 dolphin-2.6-mistral-7b", "dolphin-2.6-mistral-7b", "Mistral-7B"),
    ],
)
def test_a_derivative_glued_before_a_catalog_name_is_named_whole(question, typed, base):
    p = parse(question)  # before: typed 'Llama2-13b' / 'mistral-7b' (and '2.6' named as a number not read)
    assert (p.model_typed, p.request.model, p.model_substitution) == (typed, base, "fine_tune")
    assert not p.unused_numbers


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("meta-llama-3-8b on a 4090", "meta-llama-3-8b"),  # the catalog's own alias, whole
        ("一张 4090 部署 meta-llama-3-8b", "meta-llama-3-8b"),
        ("unsloth/llama-3-8b-bnb-4bit on a 4090", "llama-3-8b"),  # an organization, not a derivative
        ("一张 4090 部署 Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B-Instruct"),
    ],
)
def test_an_alias_or_an_organization_is_no_derivative(question, typed):
    p = parse(question)
    assert p.model_typed == typed and p.model_substitution is None
