"""Session 47, drop: stated numbers and names the reply neither used nor named (the project's first rule:
every number and setting the user states is used, or named in the reply as not used and why).

Item 1 — a GPTQ/AWQ group size glued in a model's name ('pygmalion-7b-4bit-128g', TheBloke's
'Llama-2-13B-GPTQ-4bit-32g'): part of the name (AutoGPTQ's group_size), never a number; before, '-128g'
was read as −128 and named a nonpositive number (bot.parse.group_size).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _named(answer: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# ---- item 1: a quantization group size glued in a model's name ----------------------------------------

GROUP_SIZES = [
    ("How much VRAM to serve pygmalion-7b-4bit-128g on a 3090?", 7e9),
    ("Serving TheBloke/Llama-2-13B-GPTQ-4bit-32g on a 3060 12GB, will it fit?", 13e9),
    ("Can a T4 serve vicuna-7b-awq-g64?", 7e9),
    ("用 3090 部署 vicuna-13b-gptq-4bit-128g 需要多少显存", 13e9),
    ("Llama-2-13B-GPTQ-4bit-64g 在 4090 上推理要多少显存", 13e9),
    ("pygmalion-7b-4bit-128g 部署在一张 T4 上够吗", 7e9),
]  # fmt: skip


@pytest.mark.parametrize(("question", "params"), GROUP_SIZES)
def test_a_group_size_in_a_name_is_no_number(capsys, question, params):
    a = _ask(capsys, question)
    assert a["request"]["params_total"] == pytest.approx(params, rel=0.05)
    assert a["request"]["precision"] == "int4"
    assert not [t for t, why in _named(a) if why == "nonpositive"]
    assert not [t for t, _ in _named(a) if "128" in t or "32" in t or "64" in t]


MEMORY_NOT_GROUP = [
    ("Llama-2-7B-Chat-GPTQ on a T4, the server has 128G of RAM, serve it", "host_memory: 128 GB"),
    ("Llama-2-7B-Chat-GPTQ 在 T4 上跑，机器 128G 内存", "host_memory: 128 GB"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "host"), MEMORY_NOT_GROUP)
def test_a_memory_said_apart_from_the_name_is_still_read(capsys, question, host):
    """'128G' apart from a name (a host's RAM) is still that memory, named as not needed (all on the GPU)."""
    a = _ask(capsys, question)
    assert (host, "all_on_gpu") in _named(a)


def test_group_size_blank_keeps_other_text():
    from bot.parse.group_size import blank_group_sizes
    from bot.parse.normalize import MODEL_MARK

    s = f"serve {MODEL_MARK}     -4bit-128g on a 3090 with 128g ram"
    out = blank_group_sizes(s)
    assert len(out) == len(s)
    assert "-4bit " in out and "-128g" not in out
    assert out.endswith("with 128g ram")
    assert blank_group_sizes("a server-128g box") == "a server-128g box"  # no name, no tag before it


# ---- item 5: an input length said with no job word -----------------------------------------------------

PROMPT_NO_JOB = [
    ("Qwen3-32B 做企业级商用，输入 128K token，要几张 H100", 128_000),
    ("Qwen2.5-72B 做客服，输入 64K token，要几张 A100", 64_000),
    ("Qwen3-32B for enterprise use, inputs of 128K tokens, how many H100s?", 128_000),
    ("Qwen3-32B for enterprise use, 128K-token inputs, how many H100s", 131_072),
]  # fmt: skip


@pytest.mark.parametrize(("question", "prompt"), PROMPT_NO_JOB)
def test_an_input_length_without_a_job_word_is_the_prompt(capsys, question, prompt):
    """The input length is the prompt sized (it was dropped in silence: no field, no item, 4K sized)."""
    a = _ask(capsys, question)
    assert a["request"]["stage"] == "inference"
    assert a["request"]["prompt_tokens"] == prompt
    assert a["request"]["seq_len"] == prompt


TRAINED_INPUT = [
    ("Qwen2.5-7B 输入 32K token 训练要几张 A100", 32_768),
    ("微调 Qwen2.5-7B，输入 8K token，要几张 A100", 8_192),
    ("Fine-tune Qwen2.5-7B with 8K-token inputs, how many A100s?", 8_192),
]  # fmt: skip


@pytest.mark.parametrize(("question", "seq"), TRAINED_INPUT)
def test_an_input_length_of_a_training_job_is_still_its_sequence(capsys, question, seq):
    a = _ask(capsys, question)
    assert a["request"]["stage"] in ("finetune", "pretrain")
    assert a["request"]["seq_len"] == seq
    assert a["request"]["prompt_tokens"] is None


# ---- item 7: a comparison of GPU links asked, which the sizing cannot answer ----------------------------

LINKS_ASKED = [
    ("NVLink vs PCIe, how much does it matter for fine-tuning Llama-3-8B on 4 A100s?", "NVLink vs PCIe", 4),
    ("Serving Llama-3-70B on 4 H100s: PCIe or NVLink, what's the difference?", "PCIe or NVLink", 4),
    ("8 张 A100 训 Qwen2-7B，NVLink 和 PCIe 差多少", "NVLink 和 PCIe", 8),
    ("4 张 H100 部署 Llama-3-70B，PCIe 跟 NVLink 区别大吗", "PCIe 跟 NVLink", 4),
]  # fmt: skip


@pytest.mark.parametrize(("question", "typed", "count"), LINKS_ASKED)
def test_a_link_comparison_is_named_as_asked_and_not_answered(capsys, question, typed, count):
    a = _ask(capsys, question)
    assert (typed, "link_compare") in _named(a)
    assert a["request"]["gpu_count"] == count  # the job is still sized as said


def test_the_link_comparison_reason_is_worded_in_both_languages(capsys):
    main(["ask", "--", "8 张 A100 训 Qwen2-7B，NVLink 和 PCIe 差多少"])
    zh = capsys.readouterr().out
    assert "“NVLink 和 PCIe”（比较 GPU 互联，问了但没有回答" in zh
    main(["ask", "--", "NVLink vs PCIe, how much does it matter for fine-tuning Llama-3-8B on 4 A100s?"])
    assert "a comparison of GPU links, asked and not answered" in capsys.readouterr().out


ONE_LINK = [
    "Fine-tune Qwen2-7B on 4 A100 PCIe cards, 100M tokens, how long?",
    "Our A100s have NVLink; fine-tune Qwen2-7B on 8 of them, 100M tokens",
    "4 张 A100 PCIe 训 Qwen2-7B，100M tokens 要多久",
    "8 张带 NVLink 的 A100 训 Qwen2-7B，100M tokens 要多久",
]  # fmt: skip


@pytest.mark.parametrize("question", ONE_LINK)
def test_one_link_said_is_no_comparison(capsys, question):
    a = _ask(capsys, question)
    assert not [t for t, why in _named(a) if why == "link_compare"]


# ---- item 3: a second card with its own count in another clause -----------------------------------------


def test_another_cards_row_is_sized_at_its_own_count(capsys):
    """'4x H200 …, 2x B200': the B200 row was sized at the headline's 4 while its 2 was named other_setup."""
    a = _ask(capsys, "The recipe says 4x H200, and a new config serves Qwen2.5-72B on 2x B200")
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("H200-SXM-141GB", 4)
    assert not [t for t, why in _named(a) if t == "2"]
    main(["ask", "--", "The recipe says 4x H200, and a new config serves Qwen2.5-72B on 2x B200"])
    assert "• B200: 2 GPUs" in capsys.readouterr().out


def test_another_cards_count_in_a_chinese_clause_is_named_with_its_card(capsys):
    a = _ask(capsys, "官方推荐 4 张 H200，新配置用 2 张 B200 跑 Qwen2.5-72B 推理")
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("B200-HGX-180GB", 2)
    assert {("4", "other_setup"), ("H200", "other_setup")} <= set(_named(a))


def test_compared_options_keep_their_own_counts(capsys):
    """The neighbour the rule came from: options weighed ('8x H100 or 16x A100') each at its count."""
    a = _ask(capsys, "8x H100 or 16x A100, which fine-tunes Llama-3-8B on 1B tokens sooner?")
    assert (a["request"]["gpu"], a["request"]["gpu_count"]) == ("H100-SXM5-80GB", 8)
    assert not [t for t, why in _named(a) if why in ("other_setup", "repeated")]


ROW_COUNTS = [
    ("Pretraining a 1B model on 20B tokens: 8 H100s reach 40% MFU, 16 A100s reach 35% MFU. "
     "How many days each?", "• A100 80G: 268 A100-hours, about 16 GPUs"),
    ("预训练 1B 模型，20B tokens：8 张 H100 的 MFU 是 40%，16 张 A100 的 MFU 是 35%，各要几天？",
     "• A100 80G：268 A100·时，16 张卡约 17 小时"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "row"), ROW_COUNTS)
def test_another_cards_row_uses_its_count_and_names_its_other_value(capsys, question, row):
    main(["ask", "--", question])
    out = capsys.readouterr().out
    assert row in out
    a = _ask(capsys, question)
    assert ("35%", "other_setup") in _named(a) and ("16", "other_setup") not in _named(a)


DOCUMENT_NO_JOB = [
    ("Llama-3-70B for legal review, 100K-token documents, how many H100s", 100_000),
    ("Qwen2.5-72B 审合同，10 万 token 的合同，要几张 A100", 100_000),
]  # fmt: skip


@pytest.mark.parametrize(("question", "prompt"), DOCUMENT_NO_JOB)
def test_a_documents_length_without_a_job_word_is_the_prompt(capsys, question, prompt):
    """Before, '100K-token documents' with no job word was 100K training tokens: a pre-training answer."""
    a = _ask(capsys, question)
    assert (a["request"]["stage"], a["request"]["prompt_tokens"], a["request"]["tokens"]) == (
        "inference",
        prompt,
        None,
    )


CORPUS_OF_DOCUMENTS = [
    "We have 20B tokens of legal documents and Llama-3-8B, how many H100s?",
    "Llama-3-8B 预训练，200 亿 token 的法律文档，要几张 H100",
]  # fmt: skip


@pytest.mark.parametrize("question", CORPUS_OF_DOCUMENTS)
def test_a_corpus_of_documents_is_still_training_tokens(capsys, question):
    a = _ask(capsys, question)
    assert a["request"]["stage"] == "pretrain"
    assert a["request"]["tokens"] == 20e9
    assert a["request"]["prompt_tokens"] is None
