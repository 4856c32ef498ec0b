"""Several models in one message (issue 24, item 4): the one the question asks about is sized and every
other is named as not sized; a name typed apart from its size ('Qwen2.5-Omni 7B', '250B-A25B') is one
model. Through ``sizing-bot ask``, both languages, phrasings of our own."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, text: str, fmt: str = "json"):
    assert main(["ask", "--format", fmt, text]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _others(data: dict) -> list[str]:
    return [
        i["text"].removeprefix("model: ")
        for i in data["interpretation"]["ignored"]
        if i["text"].startswith("model: ") and i["reason"] == "other_setup"
    ]


ASKED_LATER = {
    "en": "I ran Mistral-7B fine on one 3090. How many 3090s for a LoRA of Yi-34B?",
    "zh": "之前一张 3090 跑 Mistral-7B 没问题。Yi-34B 做 LoRA 要几张 3090？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_of_the_question_is_sized_and_the_earlier_one_named(capsys, lang):
    data = _ask(capsys, ASKED_LATER[lang])
    assert data["request"]["model"] == "Yi-34B"
    assert data["request"]["params_total"] == pytest.approx(34.4e9, rel=0.01)  # Yi-34B config.json
    assert _others(data) == ["Mistral-7B"]
    text = _ask(capsys, ASKED_LATER[lang], "text")
    assert "Mistral-7B" in text and "Yi" in text.splitlines()[0]


AFTER_CONTRAST = {
    "en": "A 13B serves fine on one A100, but how many A100s does a 34B need?",
    "zh": "13B 推理一张 A100 就够了，但 34B 推理要几张 A100？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_size_after_but_is_the_one_asked_about(capsys, lang):
    data = _ask(capsys, AFTER_CONTRAST[lang])
    assert data["request"]["params_total"] == 34e9
    assert _others(data) == ["13B"]


LAST_CLAUSE = {
    "en": "Qwen-72B runs on 8 A100s for us; what about a 7B?",
    "zh": "我们 Qwen-72B 用 8 张 A100 部署，7B 呢？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_last_clause_of_the_question_is_the_one_asked_about(capsys, lang):
    data = _ask(capsys, LAST_CLAUSE[lang])
    # s28-gen: a bare size after a model of a family is that family's release (Qwen-7B: 7.72B, its config)
    assert data["request"]["params_total"] == 7.72e9 and data["request"]["model"] == "Qwen-7B"
    assert _others(data) == ["Qwen-72B"]


LISTED = {
    "en": "Serving Gemma-2-9B and Phi-3-mini side by side: memory for each?",
    "zh": "同时部署 Gemma-2-9B 和 Phi-3-mini，各要多少显存？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_models_listed_together_size_the_first_and_name_the_second(capsys, lang):
    data = _ask(capsys, LISTED[lang])
    assert data["request"]["model"] == "Gemma-2-9B"
    assert _others(data) == ["Phi-3-mini"]
    assert "Phi-3-mini" in _ask(capsys, LISTED[lang], "text")


def test_one_model_named_twice_is_not_another_model(capsys):
    data = _ask(capsys, "LoRA of Qwen2.5-7B on one 4090: can the 7B fit with 4k context?")
    assert data["request"]["model"] == "Qwen2.5-7B" and _others(data) == []


NAME_THEN_SIZE = {
    "en": "How much GPU memory to serve Qwen2.5-Omni 7B in bf16?",
    "zh": "bf16 部署 Qwen2.5-Omni 7B 要多少显存？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_with_a_tag_before_its_size_is_one_unknown_model(capsys, lang):
    data = _ask(capsys, NAME_THEN_SIZE[lang])
    assert data["interpretation"]["unknown_model"] == "Qwen2.5-Omni 7B"
    assert data["request"]["params_total"] == 7e9 and _others(data) == []


MOE_APART = {
    "en": "Pre-training Nemotron 4 Ultra 250B-A25B on 1T tokens: how many H100 GPU-hours?",
    "zh": "预训练 Nemotron 4 Ultra 250B-A25B，1T token，要多少 H100 卡时？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_active_size_after_a_total_is_the_moe_not_a_gpu(capsys, lang):
    """'A25B' after '250B-' is the active size (not a card like 'A100'); a catalog family of another
    size (Nemotron-4-340B) is not that model: it is named as typed and suggested."""
    data = _ask(capsys, MOE_APART[lang])
    req = data["request"]
    assert (req["params_total"], req["params_active"]) == (250e9, 25e9)
    assert req["gpu"].startswith("H100") and data["interpretation"]["unknown_gpu"] is None
    # s48 trialfix #3: named as typed, the active size glued to it kept (was "Nemotron 4 Ultra 250B")
    assert data["interpretation"]["unknown_model"] == "Nemotron 4 Ultra 250B-A25B"


TWO_CARDS = {
    "en": "The blog ran it on 8x H100 80GB, and I only have 4x L40S 48GB. What would make 4 L40S enough "
    "for a LoRA of Qwen2.5-32B?",
    "zh": "博客里用的是 8 张 H100 80G，我只有 4 张 L40S 48G。Qwen2.5-32B 做 LoRA，4 张 L40S 怎么配才够？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_card_the_question_names_is_sized_first_with_its_own_count(capsys, lang):
    data = _ask(capsys, TWO_CARDS[lang])
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("L40S", 4)
    assert _ask(capsys, TWO_CARDS[lang], "text").splitlines()[0].count("L40S") >= 1


BY_MEMORY = {
    "en": "Two H800 (80G) served it fine; after moving to 4 A100 (40G) memory got tight. How much "
    "concurrency can 4 cards of 40G hold for Qwen2.5-32B?",
    "zh": "两张 H800（80G）部署 Qwen2.5-32B 没问题；换到 4 张 A100（40G）后显存很紧。4 张 40G 能撑多少并发？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_asked_about_by_its_memory_is_that_card(capsys, lang):
    data = _ask(capsys, BY_MEMORY[lang])
    assert data["request"]["gpu"] == "A100-SXM4-40GB" and data["request"]["gpu_count"] == 4
    assert data["report"]["hardware"]["memory_gib"] == 40


QUOTED_SOURCE = {
    "en": "I have one 24GB RTX 4090 for a LoRA of Llama-3.1-8B. Can it work? The README lists 4 A100s, "
    "surely that's not needed?",
    "zh": "我有一张 24G 的 4090，想 LoRA 微调 Llama-3.1-8B，可以吗？README 里写要 4 张 A100，不至于吧？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_setup_quoted_from_a_source_is_not_the_askers(capsys, lang):
    data = _ask(capsys, QUOTED_SOURCE[lang])
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("RTX-4090", 1)


VISIBLE_DEVICES = {
    "en": "Our server has 8 H100s, but I launch with CUDA_VISIBLE_DEVICES=0,1,2 llamafactory-cli train "
    "lora.yaml for a LoRA of Llama-3.1-70B. Is that enough memory?",
    "zh": "服务器有 8 张 H100，我用 CUDA_VISIBLE_DEVICES=0,1,2 llamafactory-cli train lora.yaml 对 "
    "Llama-3.1-70B 做 LoRA，显存够吗？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_visible_devices_before_a_command_are_its_gpus(capsys, lang):
    data = _ask(capsys, VISIBLE_DEVICES[lang])
    assert data["request"]["gpu_count"] == 3
    ignored = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert ignored.get("gpu_count: 8") == "config_differs"


RATE_ON_CARDS = {
    "en": "Someone measured Qwen2.5-72B at 2500 tokens/s on 4xH200. What should it reach?",
    "zh": "有人测 Qwen2.5-72B 在 4xH200 上 2500 tokens/s，用 4 张 H200 能到多少？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_count_after_a_rate_and_on_is_the_gpus(capsys, lang):
    assert _ask(capsys, RATE_ON_CARDS[lang])["request"]["gpu_count"] == 4


UNKNOWN_CARDS = {
    "en": ("Full fine-tune of Qwen2.5-1.5B on 2 Titan Xp cards?", "Titan Xp", 2),
    "zh": (
        "6 张 MLU370（每张 48G）部署 Qwen2.5-72B 够吗？",
        "MLU370",
        6,
    ),  # 910B2 is the Ascend 910B (round 6)
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unknown_card_is_named_as_typed(capsys, lang):
    question, name, count = UNKNOWN_CARDS[lang]
    data = _ask(capsys, question)
    assert data["interpretation"]["unknown_gpu"] == name and data["request"]["gpu_count"] == count
    assert name in _ask(capsys, question, "text")


OLLAMA_TAG = {
    "en": "ollama run granite3.3:8b with num_ctx 32768 on a 12GB card: enough VRAM?",
    "zh": "12G 显卡上 ollama run granite3.3:8b，num_ctx 32768，显存够吗？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_ollama_tag_is_the_model_as_typed(capsys, lang):
    data = _ask(capsys, OLLAMA_TAG[lang])
    assert data["interpretation"]["unknown_model"] == "granite3.3:8b"
    assert data["request"]["params_total"] == 8e9


CALLED_BY_NAME = {
    "en": ("How many GPUs would pre-training the Marlin models on 2T tokens take?", "Marlin"),
    "zh": ("按 2T token 预训练 Marlin 模型要多少张 GPU？", "Marlin"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_capitalized_name_called_a_model_is_named_as_typed(capsys, lang):
    question, name = CALLED_BY_NAME[lang]
    data = _ask(capsys, question)
    assert data["interpretation"]["unknown_model"] == name
    assert name in _ask(capsys, question, "text")


def test_a_capitalized_first_word_is_not_a_name(capsys):
    data = _ask(capsys, "Reward models for RLHF of a 7B: how many A100s?")
    assert data["interpretation"]["unknown_model"] is None and data["request"]["params_total"] == 7e9


PUBLICATION = {
    "en": "How many A100 hours did the ORCA work need, roughly?",
    "zh": "ORCA 论文的训练大概用了多少 A100 卡时？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_before_work_or_paper_is_the_model_asked_about(capsys, lang):
    """No size is known for it: the reply names it and asks for one (exit code 2, nothing sized)."""
    assert main(["ask", "--format", "json", PUBLICATION[lang]]) == 2
    assert json.loads(capsys.readouterr().out)["interpretation"]["unknown_model"] == "ORCA"


CARD_BEFORE_TRAINING = {
    "en": ("H800 pretraining of a 7B on 1T tokens: how many GPU-hours?", "H800-SXM5-80GB"),
    "zh": ("A800 预训练 13B，1T token 要多少卡时？", "A800-80GB"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_card_before_a_training_word_is_the_card_not_a_model(capsys, lang):
    question, gpu = CARD_BEFORE_TRAINING[lang]
    data = _ask(capsys, question)
    assert data["request"]["gpu"] == gpu and data["interpretation"]["unknown_model"] is None


WORDS_BETWEEN = {
    "en": "We own 4 brand-new NVIDIA H100 GPUs: can they serve Qwen2.5-72B in bf16?",
    "zh": "我们有 4 张全新的 NVIDIA H100，bf16 部署 Qwen2.5-72B 够吗？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_words_between_a_count_and_its_cards(capsys, lang):
    data = _ask(capsys, WORDS_BETWEEN[lang])
    assert (data["request"]["gpu"], data["request"]["gpu_count"]) == ("H100-SXM5-80GB", 4)


def test_a_quantity_word_between_is_not_a_count(capsys):
    data = _ask(capsys, "5 people using H100 GPUs to serve Llama-3.1-70B: memory?")
    assert data["request"]["gpu_count"] != 5


NODES_OF_M_GPUS = {
    "en": "Pre-training a 13B on 1T tokens with four 8-GPU H100 servers: how many days?",
    "zh": "用 3 台 8 卡 H100 服务器预训练 13B，1T token 要几天？",
}


@pytest.mark.parametrize(("lang", "count"), [("en", 32), ("zh", 24)])
def test_nodes_of_m_gpus_multiply(capsys, lang, count):
    assert _ask(capsys, NODES_OF_M_GPUS[lang])["request"]["gpu_count"] == count


TIERED = {
    "en": "Serving byt5-xl in TGI on one L4: how much memory?",
    "zh": "一张 L4 上用 TGI 部署 byt5-xl 要多少显存？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_with_a_size_tier_is_named_as_typed(capsys, lang):
    """'byt5-xl' (a size tier, not a size): no catalog entry and no size, so the reply names it and asks."""
    assert main(["ask", "--format", "json", TIERED[lang]]) == 2
    assert json.loads(capsys.readouterr().out)["interpretation"]["unknown_model"] == "byt5-xl"


MOE_WORDS = {
    "en": "A MoE with total 235B and active 22B: how many H20 to serve it in fp8?",
    "zh": "总参 235B、激活 22B 的 MoE，fp8 部署要几张 H20？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_total_and_active_said_before_the_sizes(capsys, lang):
    req = _ask(capsys, MOE_WORDS[lang])["request"]
    assert (req["params_total"], req["params_active"]) == (235e9, 22e9)


MOE_GLUED = {
    "en": "Pre-training a 60B-A6B MoE on 2T tokens: how many H800 GPU-hours?",
    "zh": "预训练一个 60B-A6B 的 MoE，2T token，要多少 H800 卡时？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_size_with_its_active_size_glued(capsys, lang):
    data = _ask(capsys, MOE_GLUED[lang])
    req = data["request"]
    assert (req["params_total"], req["params_active"]) == (60e9, 6e9)
    assert req["gpu"] == "H800-SXM5-80GB" and data["interpretation"]["unknown_gpu"] is None


CALLED_SIZED = {
    "en": "How many A100 hours did SFT of the Ember2 model (3B) take? And of Qwen2.5-7B?",
    "zh": "Ember2 模型（3B）做 SFT 用了多少 A100 卡时？Qwen2.5-7B 呢？",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_called_a_model_with_its_size_beside_a_catalog_model(capsys, lang):
    data = _ask(capsys, CALLED_SIZED[lang])
    assert data["interpretation"]["unknown_model"] == "Ember2" and data["request"]["params_total"] == 3e9
    assert _others(data) == ["Qwen2.5-7B"]
