"""Fine-tuning memory against measured rows (issue 25, items 1 and 4): `sizing-bot validate`'s memory
section, the held-apart split, the fitted loss factor, and a long-context row through `sizing-bot ask`.

Data: estimator/data/measured/finetune_memory.json (its README cites every source)."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main
from estimator.memory_band import LOSS_HIGH_FACTOR
from estimator.validation_memory import (
    TARGET_INSIDE,
    cases,
    evaluate,
    fit_loss_factor,
    held_apart,
    leave_one_out,
    shipped_rows,
)

GIB = 2**30


@pytest.fixture(scope="module")
def results():
    found, _ = cases()
    return [evaluate(c, grid=True) for c in found]


def test_validate_prints_the_memory_section_with_held_apart_share_at_target(capsys):
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "fine-tuning memory (estimator/data/measured/finetune_memory.json; GiB per GPU)" in out
    fit = re.search(r"^fit rows +(\d+)/(\d+) inside the band", out, re.M)
    held = re.search(r"^held-apart rows (\d+)/(\d+) inside the band", out, re.M)
    assert fit and held
    # s21 (ZeRO shards LoRA adapters' states): fit rows 81 → 83 (the ZeRO-2 Qwen-7B LoRA rows on 8 GPUs
    # were over-estimated by the whole adapter states on every GPU), held-apart 48 → 47 of 68 (69 %, one
    # under TARGET_INSIDE): the DeepSpeed ZeRO-3 LoRA rows of 70B-class models (Qwen-72B × 4, PEFT's
    # Llama-2-70B) measure ≈ 10 GiB above the modelled states, which the unsharded adapters covered by
    # accident; that ZeRO-3 cost is not modelled (left, named in the s21 fixa report).
    assert (int(fit[1]), int(fit[2])) == (83, 101)
    # s22 (fixa): ZeRO-3 gathers the frozen LoRA/QLoRA base too (up to stage3_max_live_parameters = 1e9
    # stored elements per rank; estimator.transients.gathered_weights): held-apart 47 → 49 of 68 (72 %,
    # at the target): Qwen-72B LoRA r64 s512 × 4 and PEFT's Llama-2-70B QLoRA × 2 come inside.
    assert (int(held[1]), int(held[2])) == (49, 68)
    assert int(held[1]) >= TARGET_INSIDE * int(held[2])
    assert f"LOSS_HIGH_FACTOR = {LOSS_HIGH_FACTOR:g} (shipped); refitted on the fit rows ×1.95" in out


def test_held_apart_rows_are_whole_sources_and_every_third_by_hash():
    rows = shipped_rows()
    peft = [r for r in rows if "huggingface/peft" in json.dumps(r.get("source"))]
    glm = [r for r in rows if "THUDM/" in json.dumps(r.get("source"))]
    assert len(peft) == 14 and len(glm) == 14
    assert all(held_apart(r) for r in peft + glm)
    others = [r for r in rows if r not in peft and r not in glm]
    share = sum(held_apart(r) for r in others) / len(others)
    assert 0.2 < share < 0.45  # about a third, by hash


def test_loss_factor_is_what_the_fit_rows_give_and_leave_one_out_is_reported(results):
    fit = [r for r in results if not r.case.held]
    # s21: the refit gives ×1.95 once ZeRO shards the adapters; the shipped ×2.1 is kept (a refit moves
    # every band's high end and so every borderline verdict: the lead's call, named in the report)
    assert LOSS_HIGH_FACTOR == 2.1 and fit_loss_factor(fit) == 1.95
    assert leave_one_out(fit) == pytest.approx(80 / 101, abs=0.011)
    held = [r for r in results if r.case.held]
    # s22 fixa (ZeRO-3 gathers the frozen LoRA/QLoRA base too): 37 → 38 before the fit, 47 → 49 after
    assert sum(r.inside_at(1.0) for r in held) == 38  # before the fit: 56 %
    assert sum(r.inside for r in held) == 49  # after: 72 %


def test_the_fit_never_sees_a_held_apart_row(results):
    rows = shipped_rows()
    fit = [r for r in results if not r.case.held]
    assert len(fit) == 101
    assert not any(held_apart(rows[r.case.index]) for r in fit)
    sources = {json.dumps(rows[r.case.index]["source"]) for r in fit}
    assert not any("huggingface/peft" in s or "THUDM/" in s for s in sources)


def test_ms_swift_long_context_lora_row_inside_the_band(results):
    """ms-swift Benchmark.md: qwen-7b-chat LoRA, max_length 8192, batch 1, one A100 — 48.4 GiB
    (torch.cuda.max_memory_reserved). Before the fitted loss factor the high end was 41.3 GiB."""
    row = next(
        r
        for r in results
        if r.case.label.startswith("qwen-7b-chat lora s8192 b1")
        and r.case.measured == pytest.approx(48.4 * GIB, rel=0.01)
    )
    assert row.high_at(1.0) / GIB == pytest.approx(41.3, abs=0.1)
    assert row.low <= row.case.measured <= row.high


def test_cli_ask_band_covers_the_measured_long_context_lora(capsys):
    """Through `sizing-bot ask`: Qwen-7B LoRA at 8,192 tokens on one A100 80G — the band now reaches
    ms-swift's measured 48.4 GiB (and the verdict still fits the card at the high end)."""
    assert main(["ask", "--format", "json", "Qwen-7B LoRA微调，序列长度8192，batch 1，1张A100 80G"]) == 0
    mem = json.loads(capsys.readouterr().out)["report"]["memory"]
    assert mem["per_gpu_bytes_low"] <= 48.4 * GIB <= mem["per_gpu_bytes_high"]
    assert mem["per_gpu_bytes_high"] <= mem["usable_bytes"]
