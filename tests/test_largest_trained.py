"""The largest model a set of GPUs fine-tunes (estimator/largest_trained.py; trial s21 #9): "I have 8x
4090, what's the biggest model I can full fine-tune?" / "8张4090最大能全参微调多大的模型".

Bounds come from sources, not from the estimator:
- full fine-tuning with Adam in mixed precision keeps 16 bytes of model states per parameter (ZeRO,
  Rajbhandari et al. 2020 §3.1: 2Ψ + 2Ψ + 12Ψ), so one 24 GB RTX 4090 (23.99 GiB) cannot hold the states of
  24 GiB ÷ 16 B = 1.61B parameters, with or without activations;
- QLoRA "finetunes a 65B parameter model on a single 48GB GPU" (Dettmers et al. 2023, abstract: Guanaco
  65B, sequences of 512 in its runs) and "33B on a single 24GB consumer GPU" (§5, Guanaco 33B).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.core.conversation import Conversation
from bot.parse import parse
from estimator.models import Method, SizingRequest, Stage
from estimator.sizing import estimate


def _rows(**kw) -> dict[str, object]:
    report = estimate(SizingRequest(stage=Stage.finetune, **kw))
    assert report.largest_trained is not None
    return {row.method.value: row for row in report.largest_trained}


def test_one_4090_cannot_hold_the_model_states_of_a_full_fine_tune_above_1_6b():
    rows = _rows(gpu="RTX-4090", method=Method.full)
    states_bound = 24 * 2**30 / 16  # ZeRO §3.1: 16 bytes of states per parameter
    assert rows["full"].params_max < states_bound
    assert rows["full"].params_tight is None or rows["full"].params_tight < states_bound
    assert rows["full"].params_max > 0.3e9  # a 360M model (SmolLM2) is a routine single-card full fine-tune


def test_qlora_65b_on_one_48gb_card_as_the_qlora_paper_ran_it():
    rows = _rows(gpu="RTX-A6000", method=Method.qlora, seq_len=512)
    assert rows["qlora"].params_max >= 65e9  # Dettmers et al. 2023, abstract
    assert rows["qlora"].params_max < 48 * 2**30 / 0.5  # NF4: half a byte a weight is the floor


def test_qlora_33b_on_one_24gb_card_at_most_at_the_edge():
    rows = _rows(gpu="RTX-3090", method=Method.qlora, seq_len=512)
    assert max(rows["qlora"].params_max, rows["qlora"].params_tight or 0) >= 33e9  # QLoRA §5, Guanaco 33B


def test_without_a_method_full_lora_and_qlora_in_order_of_size():
    rows = _rows(gpu="A100-SXM4-80GB", gpu_count=8)
    assert list(rows) == ["full", "lora", "qlora"]
    assert rows["full"].params_max < rows["lora"].params_max
    assert rows["full"].params_max < rows["qlora"].params_max
    # eight 80 GB cards: 640 GiB ÷ 16 B of states is 43B; a full fine-tune's comfortable bound is below it
    assert rows["full"].params_max < 640 * 2**30 / 16
    # a QLoRA base larger than one card must be sharded (FSDP-QLoRA: a borderline verdict), so the
    # comfortable bound's NF4 base fits one 80 GB card and a larger size is only at the edge
    assert rows["qlora"].params_max * 0.5 < 80 * 2**30
    assert rows["qlora"].params_tight > rows["qlora"].params_max


def test_the_comfortable_bound_is_a_yes_of_the_ordinary_estimate():
    """What this answer says fits, the question naming that size says fits (one memory model)."""
    rows = _rows(gpu="RTX-4090", gpu_count=8, method=Method.full)
    best, tight = rows["full"].params_max, rows["full"].params_tight
    at = estimate(SizingRequest(stage=Stage.finetune, method=Method.full, gpu="RTX-4090", gpu_count=8,
                                params_total=best))  # fmt: skip
    assert at.feasible == "yes"
    assert tight is not None and tight > best
    edge = estimate(SizingRequest(stage=Stage.finetune, method=Method.full, gpu="RTX-4090", gpu_count=8,
                                  params_total=tight))  # fmt: skip
    assert edge.feasible == "borderline"


@pytest.mark.parametrize(
    "text",
    [
        "I have 8x 4090, what's the biggest model I can full fine-tune?",
        "8张4090最大能全参微调多大的模型",
        "8 块 4090 全参微调最多能训多大的模型？",
        "what's the largest model I can fully fine-tune on eight RTX 4090s",
    ],
)
def test_the_question_in_both_languages_is_read_and_answered(text):
    parsed = parse(text)
    assert parsed.asks_largest and parsed.request.method == Method.full
    assert parsed.request.gpu == "RTX-4090" and parsed.request.gpu_count == 8
    rows = estimate(parsed.request).largest_trained
    assert rows is not None and [r.method for r in rows] == [Method.full]


def test_a_question_naming_a_model_is_not_a_largest_question():
    report = estimate(parse("can I full fine-tune Qwen2.5-7B on 8x 4090?").request)
    assert report.largest_trained is None and report.memory is not None


def test_ask_answers_in_text_and_json(capsys):
    assert main(["ask", "8张4090最大能全参微调多大的模型", "--format", "text"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("8 × RTX 4090 全参微调最大约 ") and "B 的模型" in first
    assert (
        main(["ask", "I have 8x 4090, what's the biggest model I can full fine-tune?", "--format", "json"])
        == 0
    )
    row = json.loads(capsys.readouterr().out)["report"]["largest_trained"][0]
    assert row["method"] == "full" and 1e9 < row["params_max"] < 8 * 24 * 2**30 / 16


@pytest.mark.parametrize(
    ("first", "then", "rows"),
    [
        (
            "I have 8x 4090, what's the biggest model I can full fine-tune?",
            "and with LoRA?",
            "largest_trained",
        ),
        ("8张4090最大能全参微调多大的模型", "那用 QLoRA 呢", "largest_trained"),
        ("一张4090能跑多大的模型", "那3090呢", "largest_served"),
    ],
)
def test_a_follow_up_of_a_which_model_question_still_asks_it(first, then, rows):
    """Before s21 the follow-up ('and with LoRA?', '那3090呢') was answered with the help text: the merged
    request has no model, and only the first message said 'which model'."""
    chat = Conversation()
    chat.ask(1, 1, first)
    after = chat.ask(1, 1, then)
    report = after.answer.report
    assert report is not None and getattr(report, rows)
    if rows == "largest_trained":
        assert [r.method for r in report.largest_trained] in ([Method.lora], [Method.qlora])
