"""The design review of session 25's merged change (s25-int..s25-merge), each finding with sentences that
must be read and sentences that must not be misread, in both languages (sentences written for these tests):

1. a right quotient 'A/B=C' keeps its total A unless a per-device batch key precedes it; the share is named
   (bot/parse/worked_sums.py, reason ``worked_share``);
2. Liger read per clause: negated before or after the name is off, a question or a bare mention sets nothing
   (named ``liger_asked``), a positive cue sets it on (bot/parse/liger_words.py);
3. two size-less versions of one family: the size takes neither (bot/parse/version_context.py);
4. run_clm.py's ``block_size`` is the sequence length beside run_clm/max_train_samples only
   (bot/parse/inline_keys.py);
5. the D-part rule only after a 4-digit GeForce number: 'A100 d_model' keeps the A100 (bot/parse/gpus.py);
6. comparison rows: hours under a day, one money style (bot/render/row_time.py);
7. ``shown.gpu_hours_quoted``: the whole figure the text quotes (estimator/shown_cost.py);
8. one env → path → load step for the offer (bot/settings/presales_path.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse.worked_sums import results_of_sums, shares_not_used
from estimator.shown_cost import quoted_gpu_hours
from tests.real_questions import answer_json


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# 1 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "question",
    [
        "Full fine-tune Qwen2.5-7B on 8 A100 80GB, dataset 80000/8=10000 samples per GPU, seq 2048, "
        "3 epochs, how long?",
        "全参微调 Qwen2.5-7B，8 张 A100 80GB，数据 80000/8=10000 条每卡，序列 2048，3 个 epoch，要多久？",
    ],
)
def test_a_per_gpu_share_of_a_total_keeps_the_total(question: str) -> None:
    """80,000 samples × 2,048 tokens × 3 epochs = 491.52M tokens (was 10,000 samples: 8× too few)."""
    answer = answer_json(question)
    assert answer["request"]["num_samples"] == 80_000
    assert answer["request"]["tokens"] == 80_000 * 2048 * 3
    assert ("80000/8=10000", "worked_share") in _ignored(answer)


def test_a_per_device_batch_key_takes_the_quotient() -> None:
    assert results_of_sums("单卡 bs 也要 19200/24=800") == "单卡 bs 也要 800"
    assert results_of_sums("per-gpu batch 256/8 = 32") == "per-gpu batch 32"
    assert shares_not_used("per-gpu batch 256/8 = 32") == []


def test_a_global_batch_quotient_keeps_the_global_batch() -> None:
    assert results_of_sums("global batch 256/8=32") == "global batch 256"
    assert results_of_sums("全局 batch 256/8=32") == "全局 batch 256"
    assert shares_not_used("Global batch 256/8=32") == [("256/8=32", "worked_share")]


def test_a_wrong_sum_is_never_named_as_a_share() -> None:
    assert shares_not_used("dataset 80000/8=9000 samples") == []


# 2 ---------------------------------------------------------------------------------------------------
_FT = "Full fine-tune Qwen2.5-7B on 8 A100, seq 4096, "
_FT_ZH = "全参微调 Qwen2.5-7B，8 张 A100，序列 4096，"


@pytest.mark.parametrize(
    ("question", "chunked"),
    [
        (_FT + "not using the Liger kernel. Memory?", False),
        (_FT + "I don't use Liger. Memory?", False),
        (_FT + "with Liger kernel disabled. Memory?", False),
        (_FT + "Liger is off. Memory?", False),
        (_FT_ZH + "不使用 liger，显存够吗", False),
        (_FT_ZH + "没有开 liger kernel，显存够吗", False),
        (_FT_ZH + "liger 关了，显存够吗", False),
        (_FT + "using the Liger kernel. Memory?", True),
        (_FT + "Liger enabled. Memory?", True),
        (_FT_ZH + "开启 liger 内核，显存够吗", True),
    ],
)
def test_liger_negated_or_said_on(question: str, chunked: bool) -> None:
    assert answer_json(question)["request"]["chunked_loss"] is chunked


@pytest.mark.parametrize(
    "question",
    [
        _FT + "memory? Would Liger help?",
        _FT + "Liger fused cross-entropy: memory?",
        _FT_ZH + "要不要开 liger？显存够吗",
        _FT_ZH + "liger 有用吗？显存够吗",
    ],
)
def test_liger_asked_about_sets_nothing_and_is_named(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["chunked_loss"] is None
    assert ("Liger kernel", "liger_asked") in _ignored(answer)


# 3 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "question",
    [
        "Compare Llama-2 and Llama 3: how many A100s to LoRA Llama 70B?",
        "比较 Llama-2 和 Llama 3：LoRA 微调 Llama 70B 要几张 A100？",
    ],
)
def test_two_versions_named_the_size_takes_neither(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["model"] == "Llama-3.3-70B"  # the latest release, as s25-int sized it
    assert {"model: Llama-2", "model: Llama 3"} <= {t for t, _ in _ignored(answer)}


@pytest.mark.parametrize(
    "question",
    [
        "I'm training Llama-2. How long to LoRA Llama 70B on 8 H100 with 1B tokens?",
        "我在训 Llama-2。8 张 H100 用 LoRA 训 Llama 70B，10亿 token 要多久？",
    ],
)
def test_one_version_named_still_gives_the_release(question: str) -> None:
    assert answer_json(question)["request"]["model"] == "Llama-2-70B"


# 4 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "question",
    [
        "SFT Qwen2.5-7B on 4 A100 with run_clm.py --max_train_samples 50000 --block_size 2048",
        "用 run_clm.py 在 4 张 A100 上 SFT Qwen2.5-7B，--max_train_samples 50000 --block_size 2048，要多久",
    ],
)
def test_run_clm_block_size_is_the_sequence_length(question: str) -> None:
    """run_clm.py group_texts: every sample is block_size tokens: 50,000 × 2,048 = 102.4M (was 25.6M)."""
    request = answer_json(question)["request"]
    assert (request["seq_len"], request["tokens"]) == (2048, 50_000 * 2048)


@pytest.mark.parametrize(
    "question",
    [
        "Serve Qwen2.5-7B with vLLM on one A100, block_size 16, max_model_len 8192, 20 users",
        "用 vLLM 在一张 A100 上部署 Qwen2.5-7B，block_size 16，max_model_len 8192，20 个用户",
    ],
)
def test_vllm_block_size_is_never_a_length(question: str) -> None:
    request = answer_json(question)["request"]
    assert request["seq_len"] != 16 and request["max_model_len"] == 8192


# 5 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("Serve Qwen2.5-7B on an A100 d_model 4096 context 8k", "A100-SXM4-80GB"),
        ("在 A100 d_model 4096 上部署 Qwen2.5-7B，上下文 8k", "A100-SXM4-80GB"),
        ("Serve Qwen2.5-7B on an H100 d-model 4096, context 8k", "H100-SXM5-80GB"),
    ],
)
def test_a_catalog_card_before_d_underscore_is_that_card(question: str, gpu: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["gpu"] == gpu and answer["interpretation"]["unknown_gpu"] is None


@pytest.mark.parametrize(
    "question", ["Can an RTX 5090 D serve Qwen2.5-14B at int4?", "RTX 5090 D 能部署 int4 的 Qwen2.5-14B 吗？"]
)
def test_a_geforce_d_part_is_still_named_as_typed(question: str) -> None:
    """s25 trfix3 put the RTX 5090 D in the catalog (32 GB, 1,792 GB/s): the D part is its own card, never
    the RTX 5090 the rule keeps it from matching."""
    answer = answer_json(question)
    assert answer["request"]["gpu"] == "RTX-5090D" and answer["interpretation"]["unknown_gpu"] is None


# 6 ---------------------------------------------------------------------------------------------------
def test_cloud_rows_say_hours_and_one_money_style_zh() -> None:
    """LoRA Llama-3-8B on 100M tokens: 3.2 H100-hours on 1 GPU (0.13 days) and 7.1 A100-hours; the rows'
    money all with cents since one amount (¥60) is under 100 (bot.render.fmt.needs_cents)."""
    lines = answer_json("租哪种云GPU来LoRA微调Llama-3-8B，1亿token")["reply"].splitlines()
    cheapest = "整个任务总费用最低：H100 80G，¥60.00 – ¥160.00（按 ¥15.00–40.00/卡·时，1 张约 3.2 小时）"
    assert lines[0] == cheapest
    assert lines[1] == "• H100 80G：3.2 H100·时，1 张卡约 3.2 小时，¥60.00 – ¥160.00"
    assert lines[2] == "• A100 80G：7.1 A100·时，1 张卡约 7.1 小时，¥120.00 – ¥240.00"


def test_cloud_rows_say_hours_and_one_money_style_en() -> None:
    question = "Which cloud GPUs should I rent to LoRA fine-tune Llama-3-8B on 100M tokens?"
    lines = answer_json(question)["reply"].splitlines()
    assert "0.13 days" not in "\n".join(lines[:3])
    assert lines[1] == "• H100 80G: 3.2 H100-hours, about 1 GPU, ≈ 3.2 hours, $6.00 – $14.00"
    assert lines[2] == "• A100 80G: 7.1 A100-hours, about 1 GPU, ≈ 7.1 hours, $9.60 – $20.00"


# 7 ---------------------------------------------------------------------------------------------------
def test_quoted_gpu_hours_are_the_billed_whole_hours_from_ten_up() -> None:
    assert quoted_gpu_hours(16_845.3) == 16_846
    assert quoted_gpu_hours(320.3) == 321
    assert quoted_gpu_hours(6.8) == 6.8


def test_shown_gpu_hours_quoted_in_the_json() -> None:
    """DPO 70B on 500M tokens, H100 vs A100 (tests/test_s25_rend.py): the row quotes 321 H100-hours."""
    data = answer_json("DPO Llama-3-70B on 500M tokens on 24 H100s or 24 A100 80GB, which is cheaper?")
    shown = data["report"]["shown"]
    assert shown["gpu_hours_quoted"] == quoted_gpu_hours(shown["gpu_hours"]["likely"])
    assert shown["gpu_hours_quoted"] == int(shown["gpu_hours_quoted"])  # whole from 10 up


# 8 ---------------------------------------------------------------------------------------------------
def test_one_offer_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import cli
    from bot.settings import presales, presales_path

    monkeypatch.setattr(presales_path, "presales_path_from_env", lambda: None)
    assert presales_path.load_offer() is None
    assert cli.load_offer(None) is None
    assert presales.presales_from_env() is None
    offer = presales_path.load_offer("presales.example.toml")
    assert offer is not None and offer.provider == "Example GPU Cloud"
