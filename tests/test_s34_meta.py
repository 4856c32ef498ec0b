"""Session 34 (s34-meta, issue 24): the same question written with its sentences in another order reads the
same (the metamorphic sweep's ``clause_order`` family, tests/data/metamorphic_census.md). The design's rule
for two mentions of one setting (docs/design.md §8): the one asked about is sized, the other named.

- the weights' format asked about (bot.parse.asked_precision): 'bf16 … Would FP8 be faster?' sizes FP8 in
  either order; a format said of the KV cache is the cache's; a method's name named with its width;
- one card said twice, once plainly (bot.parse.unknown_card.same_card): the plain mention is the card the
  other says ('2 A100s' … '2 A100 PCIe');
- a card said only in a sentence reporting a source ('Was the official benchmark run on 8xH200?') is not
  the asker's (bot.parse.asked_model.asked_card);
- the training tool asked about (bot.parse.more_tools.asked_tools), a tool that says something a source;
- sentences not cut at 'e.g.', 'i.e.', 'etc.', 'vs.';
- a catalog family typed in lower case after an article and a size, read as the catalog spells it ('the 7b
  starcoder' as 'the 7B StarCoder'; the sweep's ``case`` family);
- the s34 rewrite families (tests/metamorphic_s34.py).
"""

from __future__ import annotations

import pytest

from bot.parse.asked_model import SENTENCE_RE
from bot.parse.precision_words import AS_INT
from tests import metamorphic
from tests import metamorphic_s34 as s34
from tests import real_questions as rq


def _read(text: str) -> tuple[dict, list[str]]:
    answer = rq.answer_json(text)
    ignored = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [i["text"] for i in ignored]


def _both_orders(first: str, second: str) -> list[tuple[dict, list[str]]]:
    sep = "" if any("\u4e00" <= c <= "\u9fff" for c in first) else " "
    return [_read(first + sep + second), _read(second + sep + first)]


# --- the format asked about ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "question", "asked", "named"),
    [
        (
            "We serve Qwen2.5-7B in bf16 on one H100 and get 4000 tok/s.",
            "Would FP8 be faster?",
            "fp8",
            "precision: bf16",
        ),
        (
            "我们现在用 bf16 在 8 张 A100 上微调 Qwen2.5-7B。",
            "换成 fp8 训练能省多少显存？",
            "fp8",
            "precision: bf16",
        ),
        (
            "With 4x 24GB RTX 4090 I run Mixtral AWQ in vLLM.",
            "Can I run the fp16 version too?",
            "fp16",
            "precision: awq (int4)",
        ),
    ],
)
def test_format_asked_about_is_sized_in_either_order(setup, question, asked, named):
    for request, ignored in _both_orders(setup, question):
        assert request["precision"] == asked
        assert named in ignored


@pytest.mark.parametrize(
    ("setup", "question"),
    [
        (
            "Serving Llama-3.1-8B-AWQ on one L40S with --kv-cache-dtype fp8.",
            "How much KV room does fp8 give?",
        ),
        ("用 vLLM 在一张 L40S 上部署 Llama-3.1-8B-AWQ，--kv-cache-dtype fp8。", "fp8 的 KV 缓存能省多少？"),
    ],
)
def test_format_of_the_kv_cache_is_not_the_weights(setup, question):
    for request, _ in _both_orders(setup, question):
        assert (request["precision"], request["kv_precision"]) == ("int4", "fp8")


def test_one_format_or_none_asked_keeps_the_order():
    request, _ = _read("Serving Qwen2.5-7B in bf16 on one H100, I tried fp8 too. How much memory is needed?")
    assert request["precision"] == "bf16"
    assert AS_INT["awq"] == AS_INT["gptq"] == " (int4)"
    assert "8bit" not in AS_INT and "fp8" not in AS_INT and "int4" not in AS_INT


# --- cards ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "question", "gpu", "memory"),
    [
        (
            "I fine-tune Llama-3.1-8B with LoRA on 2 A100 PCIe.",
            "Shouldn't 2 A100s be enough?",
            "A100-PCIe-80GB",
            None,
        ),
        ("我用 2 张 A100 40G 做 Qwen2.5-7B 的 LoRA 微调。", "两张 A100 够吗？", "A100-SXM4-40GB", 40.0),
        (
            "My server is 8xH20 (96G) serving DeepSeek-V3.",
            "Was the official benchmark run on 8xH200?",
            "H20-96GB",
            96.0,
        ),
        (
            "我们的机器是 8 卡 H20（96G），部署 DeepSeek-V3。",
            "官方测试是在 8 卡 H200 上做的吗？",
            "H20-96GB",
            96.0,
        ),
    ],
)
def test_card_reads_the_same_in_either_order(setup, question, gpu, memory):
    for request, _ in _both_orders(setup, question):
        assert (request["gpu"], request["gpu_memory_gib"]) == (gpu, memory)


def test_two_variants_of_one_card_stay_two():
    request, _ = _read("A100 40G 和 A100 80G 哪个适合全参微调 Qwen2.5-7B？")
    assert (request["gpu"], request["gpu_memory_gib"]) == ("A100-SXM4-40GB", 40.0)
    request, _ = _read("Is 2x A100 40GB enough for LoRA on Qwen2.5-7B, or do I need 2x A100 80GB?")
    assert request["gpu"] == "A100-SXM4-40GB"


# --- training tools -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "question", "tool", "named"),
    [
        (
            "I failed with 4 H20 GPUs using TRL for GRPO.",
            "I'd like to train Qwen2.5-7B with verl instead: how many H20 GPUs are needed?",
            "verl",
            "training_tool: TRL",
        ),
        (
            "QLoRA of Mixtral 8x7B with axolotl OOMs on 2 RTX 3090.",
            "LLaMA-Factory says Mixtral QLoRA needs only 32GB, so shouldn't 2x 24GB fit?",
            "axolotl",
            "training_tool: LLaMA-Factory",
        ),
        (
            "之前用 TRL 在 4 张 H20 上训 Qwen2.5-7B 失败了。",
            "想用 verl 做 GRPO，需要几张 H20？",
            "verl",
            "training_tool: TRL",
        ),
    ],
)
def test_tool_asked_about_in_either_order(setup, question, tool, named):
    for request, ignored in _both_orders(setup, question):
        assert request["training_tool"] == tool
        assert named in ignored


def test_one_tool_that_says_is_still_the_tool():
    request, _ = _read(
        "LLaMA-Factory says CUDA out of memory when I fine-tune Qwen2.5-7B with LoRA on one RTX 4090."
    )
    assert request["training_tool"] == "LLaMA-Factory"


def test_sentences_are_not_cut_at_abbreviations():
    text = "Unsloth fits 80k. Can ms-swift do more, e.g. 128k? Ours vs. theirs, i.e. ours. Fine etc. ok."
    assert [m.group(0).strip() for m in SENTENCE_RE.finditer(text) if m.group(0).strip()] == [
        "Unsloth fits 80k.",
        "Can ms-swift do more, e.g. 128k?",
        "Ours vs. theirs, i.e. ours.",
        "Fine etc. ok.",
    ]


# --- letter case ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "when i use dpo to train the 7b starcoder on 16 a100s, it goes oom.",
        "WHEN I USE DPO TO TRAIN THE 7B STARCODER ON 16 A100S, IT GOES OOM.",
        "When I use DPO to train the 7B StarCoder on 16 A100s, it goes OOM.",
    ],
)
def test_catalog_family_in_any_case_is_named(text):
    request, _ = _read(text)
    answer = rq.answer_json(text)
    assert answer["interpretation"]["unknown_model"].lower() == "starcoder 7b"
    assert (request["params_total"], request["gpu_count"]) == (7e9, 16)


@pytest.mark.parametrize(
    "text", ["how do i fine-tune a 3b llama on one a100?", "the 7b qwen model on 2 a100s?"]
)
def test_family_spelled_plainly_is_not_a_new_name(text):
    assert rq.answer_json(text)["interpretation"].get("unknown_model") is None


# --- the s34 rewrite families ---------------------------------------------------------------------------


def test_hf_links_family():
    text = "用 vllm serve Qwen/Qwen2.5-7B-Instruct 部署，配置 examples/sft.yaml，要几张 4090？"
    tail = " 部署，配置 examples/sft.yaml，要几张 4090？"
    assert dict(s34.hf_links(text, "zh")) == {
        "url": "用 vllm serve https://huggingface.co/Qwen/Qwen2.5-7B-Instruct" + tail,
        "revision": "用 vllm serve Qwen/Qwen2.5-7B-Instruct@main" + tail,
    }
    assert list(s34.hf_links("Serve Llama-3.1-8B on one A100?", "en")) == []
    assert list(s34.hf_links("How long on 16 or 32 A100/A800 (80G) GPUs?", "en")) == []


def test_labelled_parts_family():
    text = "Serving meta-llama/Llama-3.1-8B on 2 A100s. How much KV cache fits?"
    assert list(s34.labelled_parts(text, "en")) == [
        ("labels", "Setup: Serving meta-llama/Llama-3.1-8B on 2 A100s.\nQuestion: How much KV cache fits?")
    ]
    assert list(s34.labelled_parts("一张 4090 能跑 7B 吗？", "zh")) == []
    assert (
        list(s34.labelled_parts("我们有 8 张 A100。想微调 Qwen2.5-7B。", "zh")) == []
    )  # the last does not ask


@pytest.mark.parametrize(
    "text",
    [
        "Serving meta-llama/Llama-3.1-8B-Instruct on 2 A100 80GB with vLLM. How much KV cache is left?",
        "我们有 8 张 H100。用 vLLM 部署 Qwen/Qwen2.5-72B-Instruct 需要几张卡？",
    ],
)
def test_new_families_leave_the_reading_alone(text):
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"
    base = rq.answer_json(text)["request"]
    keys = ("model", "params_total", "gpu", "gpu_count", "stage", "runtime")
    for rewrite in (s34.hf_links, s34.labelled_parts):
        for _, variant in rewrite(text, lang):
            request = rq.answer_json(variant)["request"]
            assert [request.get(k) for k in keys] == [base.get(k) for k in keys], variant


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        (
            "Fine-tuning https://huggingface.co/GSAI-ML/LLaDA-8B-Instruct on 2x A100 40GB. How much memory?",
            "LLaDA-8B-Instruct",  # s48 names: whole as typed (was "LLaDA-8B")
            8e9,
        ),
        (
            "用 lmdeploy 部署 https://huggingface.co/liuhaotian/llava-v1.6-vicuna-7b，--tp 4 够吗？",
            "llava-v1.6-vicuna-7b",
            7e9,
        ),
    ],
)
def test_model_by_its_hugging_face_link_is_named(text, name, params):
    answer = rq.answer_json(text)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["params_total"] == params


def test_model_by_its_link_is_the_catalog_model():
    request, _ = _read("Serving https://huggingface.co/Qwen/Qwen2.5-7B-Instruct on one L4. How many users?")
    assert (request["model"], request["gpu"]) == ("Qwen2.5-7B", "L4")


def test_families_declared_once():
    names = [f.name for f in metamorphic.FAMILIES]
    assert names.count("hf_links") == names.count("labelled_parts") == 1


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("On an H100 bf16 gives 4481 tok/s. Shouldn't FP8 be 1.2-1.7x faster", True),
        ("I failed with TRL. I'd like to use verl instead: how many H20 GPUs are needed", True),
        ("We train a 13B on one H100 — is a 35% speed-up reasonable", True),
        ("We have 8 A100. Time: 3 days", False),
        ("stage: sft, do_train: true", False),
        ("我们有 8 张 A100，训练 7B 要几张", True),
    ],
)
def test_last_sentence_asks_without_its_mark(text, asks):
    from bot.parse.asked_end import ASKED_END_RE

    assert (ASKED_END_RE.search(text) is not None) == asks


def test_format_asked_without_its_mark_reads_the_same():
    typed = "On an H100 Qwen2.5-7B in bf16 gives 4481 tok/s. Shouldn't FP8 be 1.2-1.7x faster?"
    assert _read(typed)[0]["precision"] == _read(typed[:-1])[0]["precision"] == "fp8"
