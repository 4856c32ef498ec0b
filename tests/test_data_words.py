"""Issue 22 item 8: data words. Pairs, samples, rows, examples, conversations, 条, 对, 组 count data
(count × length); a DPO pair is a chosen and a rejected sequence (Rafailov et al. 2023), so its tokens
count twice and the reply says so; a quantity that rounds to zero is given as its real figure, never
"0 GPU-hours" or a column of "0 days"; "within a month" / "一个月内" is a deadline. Through the CLI, in
both languages; expected tokens and GPU-hours from C = k·N·D (k = 8 for full DPO: 6ND + the reference
model's forward 2ND) and the catalog's peak, not from the reply."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from estimator import catalog


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _gpu_hours(d: dict, k: float, tokens: float) -> float:
    """k·N·D / (dense 16-bit peak × the answer's MFU × 3,600 s)."""
    spec, gpu = catalog.model(d["request"]["model"]), catalog.gpu(d["request"]["gpu"])
    return k * spec.params_total * tokens / (gpu.peak_flops_16bit * d["report"]["mfu"]["likely"] * 3600)


@pytest.mark.parametrize(
    "question",
    [
        "DPO Qwen2.5-7B on 20k preference pairs of 1k tokens on H100",
        "Qwen2.5-7B on 20k preference pairs of 1k tokens on H100",  # preference pairs: DPO
        "DPO微调Qwen2.5-7B，2万对偏好数据，每条1k token，H100",
        "DPO微调Qwen2.5-7B，2万组偏好数据，每条1k token，H100",
    ],
)
def test_dpo_pairs_count_a_chosen_and_a_rejected_sequence(capsys, question):
    d = ask(capsys, question)
    req = d["request"]
    assert (req["num_samples"], req["tokens_per_sample"], req["samples_are_pairs"]) == (20_000, 1_000, True)
    assert req["algorithm"] == "dpo" and req["stage"] == "finetune"
    assert req["tokens"] == 20_000 * 2 * 1_000  # was 1,000: "1k tokens" read as the whole data set
    gh = _gpu_hours(d, 8.0, 40e6)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(gh, rel=1e-9)
    assert gh > 1  # 2.6 H100-hours, not "0 H100-hours"
    reply = d["reply"]
    zh = d["lang"] == "zh"
    said = "2万 对 × 2 条序列（chosen 和 rejected）× 1,000 token = 4000万 token" if zh else (
        "20K pairs × 2 sequences (chosen and rejected) × 1,000 tokens = 40M tokens"
    )  # fmt: skip
    assert said in reply
    assert not re.search(r"(?<![\d.])0 (H100-hours|H100·时)", reply)
    assert ask(capsys, question, "text").splitlines()[0] == reply.splitlines()[0]


@pytest.mark.parametrize(
    ("question", "samples", "per"),
    [
        ("LoRA Qwen2.5-7B on 50k training examples of 2k tokens on A100", 50_000, 2_000),
        ("LoRA Qwen2.5-7B on 10k chat conversations of 1k tokens on A100", 10_000, 1_000),
        ("SFT Qwen2.5-7B on 10k QA pairs of 1k tokens on A100", 10_000, 1_000),  # SFT pairs: one sequence
        ("LoRA微调Qwen2.5-7B，3万条指令数据，每条2k token，A100", 30_000, 2_000),
        ("LoRA微调Qwen2.5-7B，5000组对话，每条1k token，A100", 5_000, 1_000),
    ],
)
def test_data_words_are_counts_times_length(capsys, question, samples, per):
    d = ask(capsys, question)
    req = d["request"]
    assert (req["num_samples"], req["tokens_per_sample"]) == (samples, per)
    assert req["tokens"] == samples * per and req["stage"] == "finetune"
    assert not d["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("DPO Qwen2.5-7B on 1k tokens on H100", ("under a second", "GPUs → minutes (range):")),
        ("DPO微调Qwen2.5-7B，1k token，H100", ("不到 1 秒", "卡数 → 分钟（区间）：")),
    ],
)
def test_tiny_jobs_give_the_real_figure_never_zeros(capsys, question, words):
    d = ask(capsys, question)
    gh = _gpu_hours(d, 8.0, 1_000)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(gh, rel=1e-9)
    text = ask(capsys, question, "text")
    head = text.splitlines()[0]
    shown = d["report"]["shown"]["gpu_hours"]["likely"]  # the count's own, recompute paid (s40-fixh #3)
    assert shown >= gh and f"{float(f'{shown:.2g}'):.6f}" in head  # 6.6e-05 → "0.000066", not "0"
    assert words[0] in head
    assert words[1] in text and not re.search(r"(?<![\d.])0 (days|天)", text)
    table = text.split(words[1], 1)[1].split("\n\n", 1)[0]
    numbers = re.findall(r"(?<![\d.])\d[\d.,]*", table.split("→", 1)[1])
    assert numbers and all(float(n.replace(",", "")) > 0 for n in numbers)


@pytest.mark.parametrize(
    ("question", "days"),
    [
        ("LoRA Qwen2.5-7B on 20k training examples of 2k tokens on A100 within a month", 30),
        ("Full fine-tune Qwen2.5-7B on 1B tokens on H100 in a week", 7),
        ("LoRA微调Qwen2.5-7B，2万条数据，每条2k token，A100，一个月内", 30),
    ],
)
def test_within_a_month_is_a_deadline(capsys, question, days):
    d = ask(capsys, question)
    assert d["request"]["deadline_days"] == days
    assert "deadline_days" not in {a["field"] for a in d["assumptions"]}  # stated, not the default


@pytest.mark.parametrize("question", ["7B对齐训练，1万条数据，A100", "Qwen2.5-7B和14B对比，LoRA，A100"])
def test_dui_after_a_number_is_pairs_only_as_a_measure_word(capsys, question):
    d = ask(capsys, question)
    assert d["request"].get("samples_are_pairs") is None  # 对齐 (alignment), 对比 (compare) are not pairs
    assert d["request"]["num_samples"] in (None, 10_000)
