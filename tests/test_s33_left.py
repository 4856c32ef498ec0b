"""Session 33, part left: answers true to the job as typed (the open findings of the second s32 trial).

1. One answer, one story: a serving answer's headline, detail lines, price and JSON take one plan — the
   GPUs sized, the sequences held and the KV cache's dtype — also where the user's memory share does not
   start the model and the answer is re-sized at the smallest share that does
   (estimator.serving_capacity.held_at_share; TGI's ``--cuda-memory-fraction``,
   text-generation-inference launcher/src/main.rs, default 1.0).
"""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main

HOURS_A_MONTH = 730  # estimator: a month of renting around the clock (365 × 24 ÷ 12)


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _text(capsys, question: str) -> str:
    main(["ask", "--", question])
    return capsys.readouterr().out


# 1. One answer, one story

TGI_SHARE_EN = (
    "TGI on one L4 with --cuda-memory-fraction 0.5, Llama 3 8B, fp8 kv cache, how many users can it take?"
)
TGI_SHARE_ZH = "TGI 在一张 L4 上跑 Llama 3 8B，--cuda-memory-fraction 0.5，fp8 KV cache，最多能支持多少并发？"


@pytest.mark.parametrize("question", [TGI_SHARE_EN, TGI_SHARE_ZH])
def test_raised_share_holds_the_sequences_counted_on_the_users_gpu(capsys, question):
    out = _ask(capsys, question)
    inf = out["report"]["inference"]
    assert out["report"]["feasible_reason"] == "stated_share"
    assert inf["serving_gpus"] == 1 and inf["tp"] == 1  # the user's one L4, never a 4-GPU layout
    assert inf["kv_precision"] == "fp8" and inf["kv_capacity_tokens"] > 0
    # 1 L4 at share 0.9: 24 GiB × 0.9 − 16.06 GB weights − 1.3 GB workspace ≈ 1.1 GiB ÷ 256 MiB a sequence
    assert inf["concurrency"] == inf["max_concurrency"] == inf["priced_concurrency"] == 4
    conc = [a["value"] for a in out["assumptions"] if a["field"] == "concurrency"]
    assert conc == [4]  # was 66: what 4 GPUs at share 0.5 hold


def _kv_line(text: str) -> tuple[str, int | None]:
    """The detail line of the KV cache: its dtype and the sequences it is counted for (None where the
    line gives one sequence's, as 'how many fit' answers do)."""
    line = next(x for x in text.splitlines() if x.startswith(("• KV cache (", "• KV 缓存（")))
    held = re.search(r"× (?:并发 )?([\d,]+)(?: concurrent)? =", line)
    return line, int(held.group(1).replace(",", "")) if held else None


CONSISTENCY = (
    TGI_SHARE_EN,
    TGI_SHARE_ZH,
    "TGI --cuda-memory-fraction 0.5 on one L4 for Qwen2.5-7B, how much memory is usable for the KV cache?",
    "用 TGI 在一张 L4 上部署 Qwen2.5 7B，cuda-memory-fraction 0.5，KV cache 用 fp8，能撑多少并发",
    "vLLM with gpu_memory_utilization 0.6 on one RTX 4090 serving Qwen2.5-7B-Instruct, how many concurrent?",
    "Serve Llama 3.1 70B with vLLM on 4 H100, 32 users at 8k context",
    "用 SGLang 在 2 张 A100 80G 上部署 Qwen2.5-32B，fp8 kv cache，最多多少并发？",
    "How many A10G to serve Mistral 7B for 50 concurrent users?",
    "vLLM 部署 Qwen2.5-14B，一张 L40S，上下文 16k，能跑几路并发",
    "Llama 3 8B on one T4 with vLLM, how many sequences at 2k context?",
)


@pytest.mark.parametrize("question", CONSISTENCY)
def test_detail_lines_price_and_json_take_the_headlines_plan(capsys, question):
    out = _ask(capsys, question)
    inf = out["report"]["inference"]
    text = _text(capsys, question)
    kv, held = _kv_line(text)
    assert f"({inf['kv_precision']})" in kv or f"（{inf['kv_precision']}）" in kv  # JSON dtype == text
    assert held in (None, inf["concurrency"])  # the KV line's load is the JSON's
    if out["request"].get("concurrency_asked"):  # "how many": the load is what the GPUs hold
        assert inf["concurrency"] == inf["priced_concurrency"] <= max(1, inf["max_concurrency"])
    if inf.get("cost_per_month") and inf.get("gpu_hours_per_month") is None:
        low = next(a["value"] for a in out["assumptions"] if a["field"] == "price_per_gpu_hour")
        per_gpu = float(re.match(r"[\d.]+", low).group(0)) * HOURS_A_MONTH
        assert round(inf["cost_per_month"]["low"] / per_gpu) == inf["serving_gpus"]  # priced on the count
    first = text.splitlines()[0]
    n = inf["serving_gpus"]
    named = (f"{n} × ", f"{n} 张", f"at least {n} ", f"至少 {n} ")
    assert any(form in first for form in named), first  # the headline names that count


# 2. Steps asked: the time of those steps on the global batch and length assumed


def _used(out: dict, reason: str) -> list[str]:
    return [i["text"] for i in out["interpretation"]["ignored"] if i["reason"] == reason]


@pytest.mark.parametrize(
    ("question", "steps", "batch"),
    [
        ("8 张 A100 全参微调 Qwen2.5-7B，跑一千步要多久", 1000, 128),  # fine-tuning: 128 sequences a step
        ("Full fine-tune Llama 3 8B on 8 H100 for 2000 steps, how long?", 2000, 128),
        ("Qwen2.5-7B LoRA 训练两万个 step 要多久，4 张 4090", 20_000, 128),
        ("Qwen2.5-7B 全参微调 8 张 A100，每步多久", 1, 128),
        ("how long per step for verl GRPO on 8 H100 with Qwen2.5-7B", 1, 1024),  # verl: 1,024 prompts × n 1
    ],
)
def test_steps_asked_are_timed_on_the_batch_assumed(capsys, question, steps, batch):
    out = _ask(capsys, question)
    seq = next(a["value"] for a in out["assumptions"] if a["field"] == "seq_len")
    # the fine-tuning default length, said in the assumptions; verl's RL runs its own 512 + 512 (s51 trial #4:
    # data.max_prompt_length + data.max_response_length, estimator.rl_defaults.OWN_LENGTH_TOOLS)
    assert seq == (1024 if "verl" in question else 2048)
    assert out["request"]["tokens"] == steps * batch * seq  # 6·N·(global batch × length) a step
    assert _used(out, "steps_default_batch") and not _used(out, "steps_need_batch")
    assert out["report"]["gpu_hours"] is not None


def test_a_step_is_timed_in_seconds(capsys):
    # 6 × 7.62e9 × 262,144 tokens = 1.2e16 FLOPs ÷ (8 × 312 TFLOPS × 40 % MFU) ≈ 12 s
    text = _text(capsys, "Qwen2.5-7B 全参微调 8 张 A100，每步多久")
    assert "约 12 秒" in text.splitlines()[0]
    text = _text(capsys, "Full fine-tune Qwen2.5-7B on 8 A100, how long does each step take?")
    assert "about 12 seconds" in text.splitlines()[0]


@pytest.mark.parametrize(
    "question",
    ["第一步怎么做：Qwen2.5-7B 全参微调要几张 A100", "Step one: how many A100 to fine-tune Qwen2.5-7B?"],
)
def test_a_first_step_is_no_step_count(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["tokens"] is None
    assert not _used(out, "steps_default_batch")


# 5. A price's unit is no number stated

PER_MILLION = (
    "serve Qwen2.5-7B with vLLM on one 4090, what is the cost per million tokens?",
    "Llama 3 8B on one L4 with vLLM, price per 1M output tokens?",
    "Qwen2.5-7B 用 vLLM 部署在一张 4090 上，每百万 token 成本多少？",
    "Qwen2.5-7B 部署在一张 4090 上，每百万输出 token 多少钱？",
)


@pytest.mark.parametrize("question", PER_MILLION)
def test_per_million_is_the_price_unit_not_a_number(capsys, question):
    out = _ask(capsys, question)
    ignored = [i["text"] for i in out["interpretation"]["ignored"]]
    assert not any("百万" in t or "million" in t.lower() or "1m" in t.lower() for t in ignored), ignored
    assert out["report"]["inference"]["cost_per_million_tokens"] is not None  # what answers it


@pytest.mark.parametrize(
    "question",
    ["pretrain a 1B model on a million tokens on one H100", "1B 模型在一张 H100 上预训练一百万 token 要多久"],
)
def test_a_million_tokens_of_data_is_still_read(capsys, question):
    assert _ask(capsys, question)["request"]["tokens"] == 1e6


# 5. An unknown card name is named as typed


@pytest.mark.parametrize(
    "question", ["Can the Titan Ridge dock run a 7B model", "我的 Titan Ridge 扩展坞能跑 7B 模型吗"]
)
def test_a_thunderbolt_dock_is_named_never_sized_silently(capsys, question):
    text = _text(capsys, question)
    assert "“Titan Ridge”" in text  # named as typed: Intel's Thunderbolt 3 controller, no GPU
    assert "not in my catalog" in text or "不在我的目录中" in text  # was sized on an A100 in silence


@pytest.mark.parametrize("question", ["4 块 Titan 全参微调 6B", "2 Titans for LoRA on Llama 2 7B"])
def test_a_bare_titan_is_still_the_titan_rtx(capsys, question):
    assert _ask(capsys, question)["request"]["gpu"] == "Titan-RTX"


# 5. A bare torchrun line with Trainer arguments is no TRL

BARE_TORCHRUN = (
    "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Meta-Llama-3-8B --bf16 True"
)


@pytest.mark.parametrize("lead", ["", "全参微调要多少显存？\n"])
def test_a_trainer_script_under_torchrun_is_not_labelled_trl(capsys, lead):
    text = _text(capsys, lead + BARE_TORCHRUN)
    first = text.splitlines()[0]
    assert "TRL" not in first and ("PyTorch DDP" in first or "Hugging Face" in first), first


def test_trls_own_keys_still_name_trl(capsys):
    question = "torchrun --nproc_per_node 8 sft.py --model_name_or_path Qwen/Qwen2.5-7B --max_seq_length 2048"
    assert _ask(capsys, question)["request"]["training_tool"] == "TRL"
