"""Session 47, fixyarn: the review's findings B2–B5 (/work/notes/s47/review/report.md) on earlier counts and
RoPE / YaRN scaling factors, each with the failing form and its must-not-misread neighbours, in English and
Chinese.

B2 — a bare number after a word of the present ('We used 2 A100s before and now have 8', '2 A100s
before, now 8', '之前 2 张 A100，现在有 8') is the current count of the card just named: it is sized
and the earlier one named ``other_setup`` (bot.parse.earlier_counts.present_count).
B3 — a YaRN factor with no stage word is serving's, the stage the estimate defaults to.
B4 — the user's factor is carried into the window vLLM checks (request.rope_scaling_factor).
B5 — 'rope factor 4', a span across a version's '.', and the window extended to ('扩到 128k').
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


# ---- B2: a bare current count after 'now' / '现在' ---------------------------------------------------------

_FT = "fine-tune Llama 3 8B on 1B tokens"
NOW_BARE = [
    (f"We used 2 A100s before and now have 8, how long to {_FT}?", 8, "2"),  # the review's sentence
    (f"2 A100s before, now 8, how long to {_FT}?", 8, "2"),  # the review's sentence
    (f"We used 2 A100s before, now we have 8 and want to {_FT}. How long?", 8, "2"),
    (f"We had 2 H100s before. Now 8. How long to {_FT}?", 8, "2"),
    (f"Previously we ran on 4 L40S cards, currently 16; how long to {_FT}?", 16, "4"),
    ("之前用 2 张 A100，现在有 8，全参微调 Llama 3 8B 1B tokens 要多久？", 8, "2"),
    ("以前只有 2 张 A100，现在 8 张，全参微调 Llama 3 8B 1B tokens 要多久？", 8, "2"),
    ("原来 4 张 H100，目前有 16 张了，全参微调 Llama 3 8B 1B tokens 要多久？", 16, "4"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count", "past"), NOW_BARE)
def test_bare_count_after_now_is_sized(capsys, question, count, past):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count
    assert (past, "other_setup") in _named(a)
    assert (str(count), "other_setup") not in _named(a)


NOT_A_COUNT = [  # a number after 'now' that is no count: the earlier count stays the only one said
    (f"We used 2 A100s before and now want to {_FT}, how long?", 2),
    (f"We used 2 A100s before; now an 8B model, how long to {_FT}?", 2),
    (f"Previously 2 A100s, now 8 hours left: can we {_FT}?", 2),
    ("以前 2 张 A100，现在 8 个小时内要全参微调 Llama 3 8B 1B tokens，行吗？", 2),
    ("之前用 2 张 A100，现在想全参微调 Llama 3 8B 1B tokens，要多久？", 2),
    ("之前用 2 张 A100，现在 8B 的模型，全参微调 1B tokens 要多久？", 2),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count"), NOT_A_COUNT)
def test_number_after_now_that_is_no_count(capsys, question, count):
    a = _ask(capsys, question)
    assert a["request"]["gpu_count"] == count


# ---- B3: a YaRN factor with no stage word: serving, the stage the estimate defaults to ---------------------

NO_STAGE_WORD = [
    ("Qwen2.5-7B with YaRN factor 4 on one L40S", "YaRN factor 4"),  # the review's sentence
    ("Qwen2.5-7B, YaRN factor 4, one L40S enough?", "YaRN factor 4"),
    ("Can one L40S take Qwen2.5-7B with yarn factor 4?", "yarn factor 4"),
    ("Qwen2.5-7B 开 YaRN factor 4，一张 L40S 够吗？", "YaRN factor 4"),
    ("一张 L40S 跑 Qwen2.5-7B，YaRN factor 4，行吗？", "YaRN factor 4"),
    ("Qwen2.5-7B 用 yarn factor 4 放在一张 L40S 上可以吗", "yarn factor 4"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "said"), NO_STAGE_WORD)
def test_factor_without_a_stage_word_is_used(capsys, question, said):
    a = _ask(capsys, question)
    assert a["request"]["stage"] == "inference"
    assert a["request"]["max_model_len"] == 131_072  # Qwen2.5 README: 32,768 native × factor 4
    assert (said, "rope_factor_used") in _named(a)


TRAINING_FACTOR = [  # a training job's factor: no serving length takes it
    "LoRA fine-tune Qwen2.5-7B with YaRN factor 4 on one L40S, 100M tokens, how long?",
    "Pretrain a 7B on 1B tokens with YaRN factor 4, 8 H100s, how long?",
    "Qwen2.5-7B 用 YaRN factor 4 做 LoRA 微调，100M tokens，一张 L40S 要多久？",
    "Qwen2.5-7B 开 YaRN factor 4 训练 1B tokens，8 张 H100 要多久？",
]


@pytest.mark.parametrize("question", TRAINING_FACTOR)
def test_training_factor_sets_no_serving_length(capsys, question):
    a = _ask(capsys, question)
    assert a["request"]["stage"] != "inference"
    assert a["request"].get("max_model_len") is None
    assert any(reason == "no_field" for _, reason in _named(a) if "factor" in _.lower())


# ---- B5: 'rope factor', a '.' inside a model name, and the window extended to ------------------------------

EXTENDED_TO = [  # the first: the review's sentence
    ("用 YaRN 把 Qwen2.5-14B 扩到 128k，rope factor 4，需要几张 A100", "rope factor 4", 131_072),
    ("Qwen2.5-14B 开 YaRN 扩展到 64k，rope factor 4，要几张 A100？", "rope factor 4", 65_536),
    ("Qwen2.5-14B 用 rope factor 4 拉到 128K，A100 要几张", "rope factor 4", 131_072),
    ("Use YaRN to extend Qwen2.5-14B to 128k, rope factor 4, how many A100s?", "rope factor 4", 131_072),
    ("Qwen2.5-14B, rope factor 4: stretch the context to 128k, how many A100s?", "rope factor 4", 131_072),
    ("Extend Qwen2.5-14B's context to 64K with YaRN, factor 4. How many A100s?", "YaRN, factor 4", 65_536),
]  # fmt: skip


@pytest.mark.parametrize(("question", "said", "length"), EXTENDED_TO)
def test_window_extended_to_is_the_length(capsys, question, said, length):
    a = _ask(capsys, question)
    assert a["request"]["max_model_len"] == length  # vLLM reads '128k' as 131,072
    assert (said, "rope_factor_used") in _named(a)
    assert not any(reason == "unread" for _, reason in _named(a))


FACTOR_ACROSS_NAME = [  # the factor read past the '.' of a version, with no window said
    ("YaRN on Qwen2.5-7B, factor 4, one L40S", 131_072),
    ("Qwen2.5-7B, rope factor 4, one L40S enough?", 131_072),
    ("YaRN 跑 Qwen2.5-7B，factor 4，一张 L40S 够吗", 131_072),
    ("一张 L40S 上 Qwen2.5-7B 的 rope factor 设为 4 行吗", 131_072),
]


@pytest.mark.parametrize(("question", "length"), FACTOR_ACROSS_NAME)
def test_factor_across_a_version_dot(capsys, question, length):
    a = _ask(capsys, question)
    assert a["request"]["max_model_len"] == length
    assert any(reason == "rope_factor_used" for _, reason in _named(a))


NOT_A_FACTOR = [  # 'rope' without a factor word after it, a sentence's end between, a length for a factor
    "Qwen2.5-7B with rope theta 1000000 and factor 4 on one L40S",
    "We tried YaRN. Qwen2.5-7B factor 4 on one L40S?",
    "Qwen2.5-7B rope scaling factor 32k on one L40S",
    "试过 YaRN。Qwen2.5-7B factor 4 一张 L40S 够吗",
    "Qwen2.5-7B 的 rope theta 1000000，factor 4，一张 L40S",
]


@pytest.mark.parametrize("question", NOT_A_FACTOR)
def test_not_a_rope_factor(capsys, question):
    a = _ask(capsys, question)
    assert not any(reason == "rope_factor_used" for _, reason in _named(a))
    assert a["request"].get("max_model_len") is None


# ---- B4: the user's factor carried into the window vLLM checks ---------------------------------------------

USER_FACTOR = [  # Llama 3 8B: config.json max_position_embeddings 8192, no rope_scaling (meta-llama card)
    "Serve Llama-3-8B with YaRN factor 4 on one L40S",  # the review's sentence
    "Serve Llama-3-8B with vLLM, YaRN factor 4, on one L40S",
    "Llama-3-8B on one L40S, rope scaling factor 4, vLLM: will it start?",
    "用 vLLM 部署 Llama-3-8B，开 YaRN factor 4，一张 L40S",
    "Llama-3-8B 推理，rope factor 4，一张 L40S 够吗",
    "一张 L40S 上用 vLLM 跑 Llama-3-8B，yarn factor 4",
]


@pytest.mark.parametrize("question", USER_FACTOR)
def test_user_factor_passes_the_start_up_check(capsys, question):
    a = _ask(capsys, question)
    assert a["request"]["rope_scaling_factor"] == 4
    assert a["request"]["max_model_len"] == 32_768  # 8,192 × 4
    codes = {n["code"] for n in a["report"]["warnings"]}
    assert "vllm_long_max_model_len" not in codes  # vLLM scales the derived length by the factor
    assert "rope_scaling_set" in codes  # how to set it, and no quality promise past 8,192
    assert "beyond_context_window" not in codes


DOCUMENTED_FACTOR = [  # Qwen2.5: its card documents YaRN factor 4 over 32,768
    "Serve Qwen2.5-7B with vLLM, YaRN factor 4 on one L40S",
    "用 vLLM 部署 Qwen2.5-7B，开 YaRN factor 4，一张 L40S",
]


@pytest.mark.parametrize("question", DOCUMENTED_FACTOR)
def test_documented_factor_keeps_its_note(capsys, question):
    a = _ask(capsys, question)
    codes = {n["code"] for n in a["report"]["warnings"]}
    assert "rope_scaling_needed" in codes
    assert not codes & {"rope_scaling_set", "vllm_long_max_model_len", "release_config_windows"}


NO_FACTOR = [  # a length past the window with no factor said: vLLM's refusal as typed stays
    "Serve Llama-3-8B with vLLM at max_model_len 32768 on one L40S",
    "用 vLLM 部署 Llama-3-8B，max_model_len 32768，一张 L40S",
]


@pytest.mark.parametrize("question", NO_FACTOR)
def test_no_factor_keeps_the_refusal(capsys, question):
    a = _ask(capsys, question)
    assert a["request"].get("rope_scaling_factor") is None
    codes = {n["code"] for n in a["report"]["warnings"]}
    assert "vllm_long_max_model_len" in codes
