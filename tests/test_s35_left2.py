"""s35-left2: questions the bot did not read, each tested with sentences of our own (must-read and
must-not-misread), in both languages where the form exists.

1. Budget-to-model questions: the budget (or the cards) is the given and the model size the unknown.
   A fine-tune that asks the largest model its money budget trains on its data
   ('$5000, biggest model we can full finetune on H100 for 1B tokens') is sized at
   N = budget ÷ price × 3600 × peak × MFU ÷ (k·D), k = 6 full (Kaplan et al. 2020 §2.1), 4 LoRA
   (request.largest_asked); 'what can I serve on 2x4090 for 50 users' / '两张4090能部署什么' asks which
   model the cards serve (report.largest_served: weights + KV cache of the load).
2. ``sizing-bot chat``: one conversation over standard input through the bots' conversation code
   (bot.cli_chat): follow-ups, /reset, /quit, end of input, no traceback on bad input.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json

H100_PEAK = 989.4e12  # H100 SXM dense BF16 FLOP/s (NVIDIA H100 datasheet), estimator/data/gpus.toml
MIDDLE_PRICE = 2.5  # US$ per H100-hour: the middle of the catalog's $1.50–3.50 (estimator/data/prices.toml)


def _json(text: str) -> dict[str, Any]:
    return answer_json(text)


# 1. budget → the largest model ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "k"),
    [
        ("$5000, biggest model we can full finetune on H100 for 1B tokens", 6),
        ("预算5000美元，用H100全参微调1B token，最大能训多大的模型", 6),
        ("$5000, biggest model we can LoRA finetune on H100 for 1B tokens", 4),
    ],
)
def test_largest_model_a_finetune_budget_trains(text: str, k: int) -> None:
    d = _json(text)
    r = d["request"]
    assert d["answered"] == "sized"
    assert r["stage"] == "finetune" and r["largest_asked"] is True
    assert r["budget"] == 5000 and r["currency"] == "USD" and r["tokens"] == 1e9
    assert "params_total" in r["assumed_fields"]
    # N = $5000 ÷ $2.5 × 3600 s × 989.4 TFLOP/s × MFU ÷ (k × 1e9 tokens); full at MFU 0.28: 332.4B.
    # s49 trial #3: that size's plan (full recompute on 96 GPUs, the scale-out) costs $5,391 – $12,579, over
    # the budget the reply then names; the size is shrunk until the quoted cost's middle is within it: 185B
    # full ($2,760 – $6,440), 306B LoRA ($2,001 – $4,669), never above the count-free inverse
    hours = 5000 / MIDDLE_PRICE
    assert r["params_total"] <= hours * 3600 * H100_PEAK * r["mfu"] / (k * 1e9) * (1 + 1e-6)
    cost = d["report"]["shown"]["cost"]
    assert (cost["low"] + cost["high"]) / 2 <= 5000 * 1.001
    if k == 6:
        assert r["params_total"] == pytest.approx(185.0e9, rel=1e-2)


def test_a_finetune_budget_without_the_question_still_asks_for_the_model() -> None:
    d = _json("$5000 full finetune on H100 for 1B tokens, how many GPUs?")
    assert d["request"]["largest_asked"] is None
    assert d["answered"] != "sized"
    assert "need the model" in d["reply"]


@pytest.mark.parametrize(
    ("text", "count", "load"),
    [
        ("what can I serve on 2x4090 for 50 users", 2, 50),
        ("what could we run on one 4090?", 1, None),
        ("两张4090能部署什么，50个并发", 2, 50),
        ("两张4090能跑什么模型？", 2, None),
    ],
)
def test_what_the_cards_serve(text: str, count: int, load: int | None) -> None:
    d = _json(text)
    assert d["answered"] == "sized"
    assert d["request"]["gpu"] == "RTX-4090" and d["request"]["gpu_count"] == count
    if load:
        assert d["request"]["concurrency"] == load
    rows = d["report"]["largest_served"]
    assert rows and all(row["params_max"] > 1e9 and row["examples"] for row in rows)


def test_what_the_cards_serve_values() -> None:
    """2 × 24 GB at 50 sequences of 4K context: 16-bit weights up to ≈ 7.9B, 4-bit ≈ 16B (the KV cache of
    the load takes the rest); one sequence on the same cards holds more."""
    rows = {
        row["precision"]: row["params_max"]
        for row in _json("what can I serve on 2x4090 for 50 users")["report"]["largest_served"]
    }
    one = {
        row["precision"]: row["params_max"]
        for row in _json("what can I serve on 2x4090")["report"]["largest_served"]
    }
    assert rows["bf16"] < 2 * 24e9 / 2  # below the weights-only bound: 48 GB ÷ 2 B per parameter
    assert rows["bf16"] < one["bf16"] and rows["q4_k_m"] < one["q4_k_m"]


@pytest.mark.parametrize(
    "text",
    [
        "4090能跑什么速度",
        "what can I run to speed up Llama 3 8B on 4090",
        "what can I do with a 7B model on an A100?",
        "A100 上 Llama 3 8B 能跑什么 batch size",
    ],
)
def test_not_a_largest_question(text: str) -> None:
    assert parse(text).asks_largest is False


# 2. `sizing-bot chat`: a conversation on the terminal ---------------------------------------------------


def _chat(lines: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "chat", *args],
        input=lines,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_chat_follow_up_reset_and_end_of_input() -> None:
    """A follow-up changes the question before (the card: A100 → H100, the model and data kept); after
    /reset the same follow-up has nothing to change; bad input gets the help; end of input is exit 0."""
    done = _chat(
        "7B模型1万亿token要多少A100\n那H100呢？\n/reset\n那H100呢？\n\n\x01\x02 ???\nwhat about 30 days?\n",
        "--format",
        "json",
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 6  # the blank line is skipped
    first, second, reset, lost, junk, late = replies
    assert first["request"]["gpu"] == "A100-SXM4-80GB" and first["request"]["tokens"] == 1e12
    assert second["request"]["gpu"] == "H100-SXM5-80GB"
    assert second["request"]["params_total"] == 7e9 and second["request"]["tokens"] == 1e12  # kept
    assert reset == {
        "reset": True,
        "reply": "已开始新的对话：下一个问题不再接着前面的问题。",
    }  # the chat's zh
    assert lost["answered"] is None and lost["request"]["params_total"] is None  # nothing to follow up
    assert junk["understood"] is False and late["understood"] is False


def test_chat_text_and_quit() -> None:
    done = _chat("How many A100s to pre-train a 7B model on 1T tokens?\n/quit\n7B on 1T tokens\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stdout.count("A100") >= 1 and done.stdout.startswith("7B pre-training on 1T tokens")
    assert done.stdout.count("pre-training on 1T tokens ≈") == 1  # nothing answered after /quit


def test_chat_lang_and_bad_offer() -> None:
    done = _chat("/reset\n", "--lang", "en")
    assert done.stdout.strip() == "New conversation: the next question does not follow up the ones before."
    bad = _chat("", "--presales", "/nonexistent/offer.toml")
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


# 3. LLaMA-Factory's demo datasets have their row count; max_samples applies per dataset ----------------

LF = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
do_train: true
finetuning_type: lora
dataset: {dataset}
template: qwen
cutoff_len: 2048
{cap}per_device_train_batch_size: 1
num_train_epochs: 3.0
bf16: true
"""


def _lf(tmp_path: Any, dataset: str, cap: int | None) -> dict[str, Any]:
    from bot.cli import ask

    path = tmp_path / "lf.yaml"
    path.write_text(LF.format(dataset=dataset, cap=f"max_samples: {cap}\n" if cap else ""), encoding="utf-8")
    out, _ = ask("how long on one A100?", None, "json", str(path))
    return json.loads(out)


@pytest.mark.parametrize(
    ("dataset", "cap", "samples", "cap_reason"),
    [
        # rows counted in hiyouga/LLaMA-Factory data/ (dataset_info.json's files): alpaca_zh_demo.json 1,000,
        # alpaca_en_demo.json 999, identity.json 91; loader.py truncates each: min(rows, max_samples)
        ("alpaca_zh_demo", 100000, 1000, "cap_above_rows"),
        ("alpaca_zh_demo", 500, 500, None),
        ("alpaca_zh_demo,identity", 100, 100 + 91, None),
        ("alpaca_en_demo,identity", None, 999 + 91, None),
        ("my_support_logs", 100000, 100000, "samples_cap"),  # the user's own file: sized at the cap, said
        ("alpaca_zh_demo,my_support_logs", 5000, 5000, "samples_cap"),  # one uncounted: the cap, as before
    ],
)
def test_demo_dataset_rows(
    tmp_path: Any, dataset: str, cap: int | None, samples: int, cap_reason: str | None
) -> None:
    d = _lf(tmp_path, dataset, cap)
    assert d["request"]["num_samples"] == samples
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    demo = all(n in ("alpaca_zh_demo", "alpaca_en_demo", "identity") for n in dataset.split(","))
    assert ignored[f"dataset: {dataset}"] == ("demo_rows" if demo else "not_sized")
    if cap_reason:
        assert ignored[f"max_samples: {cap}"] == cap_reason
    elif cap:
        assert f"max_samples: {cap}" not in ignored  # used: it cuts a file


def test_demo_dataset_rows_said_in_both_languages(tmp_path: Any) -> None:
    from bot.cli import ask

    path = tmp_path / "lf.yaml"
    path.write_text(LF.format(dataset="alpaca_zh_demo", cap="max_samples: 100000\n"), encoding="utf-8")
    en, _ = ask("how long on one A100?", None, "text", str(path))
    zh, _ = ask("一张A100要多久？", None, "text", str(path))
    assert "on 6.1M tokens" in en.splitlines()[0]  # 1,000 samples × 2,048 tokens (cutoff_len) × 3 epochs
    assert "“dataset: alpaca_zh_demo” (LLaMA-Factory's own demo data" in en
    assert "“max_samples: 100000” (a cap on the samples read from each dataset: the demo data named" in en
    assert "“dataset: alpaca_zh_demo”（LLaMA-Factory 自带的示例数据" in zh


@pytest.mark.parametrize(
    "text",
    [
        "LLaMA-Factory LoRA Qwen2.5-7B on one A100, dataset: alpaca_zh_demo, max_samples: 100000, how long?",
        "用LLaMA-Factory在一张A100上LoRA微调Qwen2.5-7B，dataset: alpaca_zh_demo，"
        "max_samples: 100000，要多久？",
    ],
)
def test_demo_dataset_rows_in_prose(text: str) -> None:
    assert _json(text)["request"]["num_samples"] == 1000


# 4. ZeRO-3 with offload_optimizer alone on LoRA: the optimizer states offloaded, not the parameters -------

DS3_OPTIMIZER_ONLY = {
    "train_micro_batch_size_per_gpu": 1,
    "gradient_accumulation_steps": 8,
    "bf16": {"enabled": True},
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": True}},
}


def _ds(tmp_path: Any, config: dict[str, Any], question: str) -> dict[str, Any]:
    from bot.cli import ask

    path = tmp_path / "ds.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    out, _ = ask(question, None, "json", str(path))
    return json.loads(out)


def test_zero3_offload_optimizer_alone_keeps_the_lora_base_on_the_gpus(tmp_path: Any) -> None:
    """Llama 3 8B LoRA on 2 × A100 40G under ZeRO-3: with offload_param the base (16 GB in bf16) leaves the
    GPUs (s34 fixe: 16.3 GiB per GPU); with offload_optimizer alone it stays, sharded over the 2 GPUs
    (8 GB each), so each GPU holds more (24.1 GiB) and no CPU offload is said of the sized run."""
    q = "LoRA fine-tune Llama-3-8B on 2 A100 40GB with this ds config"
    alone = _ds(tmp_path, DS3_OPTIMIZER_ONLY, q)
    both = json.loads(json.dumps(DS3_OPTIMIZER_ONLY))
    both["zero_optimization"]["offload_param"] = {"device": "cpu"}
    params = _ds(tmp_path, both, q)
    r = alone["request"]
    assert (r["offload"], r["offload_params"], r["zero_stage"], r["method"]) == (True, False, 3, "lora")
    assert params["request"]["offload_params"] is None
    gib = 1024**3
    per_alone = alone["report"]["memory"]["per_gpu_bytes"] / gib
    per_params = params["report"]["memory"]["per_gpu_bytes"] / gib
    assert (
        alone["report"]["memory"]["plan"]["offload"] is False
        and params["report"]["memory"]["plan"]["offload"]
    )
    assert per_alone - per_params == pytest.approx(16.06e9 / 2 / gib, abs=0.5)  # the base's half stays
    assert alone["report"]["memory"]["offloaded_bytes"] is None
    ignored = {i["text"]: i["reason"] for i in alone["interpretation"]["ignored"]}
    assert ignored["offload_optimizer: cpu"] == "optimizer_offload_adapters"
    assert "(CPU offload)" not in alone["reply"].splitlines()[0]


@pytest.mark.parametrize(
    ("text", "params"),
    [
        (
            "LoRA fine-tune Llama-3-8B on 2 A100 40GB, ZeRO-3 + offload_optimizer to cpu, no offload_param",
            False,
        ),
        ("LoRA微调Llama-3-8B，2张A100 40G，ZeRO-3，只开 offload_optimizer（优化器卸载到CPU）", False),
        ("LoRA fine-tune Llama-3-8B on 2 A100 40GB, ZeRO-3 with optimizer offload", False),
        ("LoRA fine-tune Llama-3-8B on 2 A100 40GB, ZeRO-3, offload optimizer and params to CPU", None),
        ("LoRA微调Llama-3-8B，2张A100 40G，ZeRO-3，优化器和参数都卸载到CPU", None),
        ("LoRA fine-tune Llama-3-8B on 2 A100 40GB, ZeRO-3 with CPU offload", None),  # not said: params (s34)
    ],
)
def test_which_offload_is_said(text: str, params: bool | None) -> None:
    d = _json(text)
    r = d["request"]
    assert r["offload"] is True and r["offload_params"] is params
    sized = d["report"]["memory"]["offloaded_bytes"] is not None
    assert sized is (params is None)  # the parameters' offload sized only when they are offloaded


def test_a_dataset_word_in_prose_is_no_key() -> None:
    """'custom dataset: 8*A800' is a sentence, not LLaMA-Factory's key: the 8 GPUs are read as before."""
    r = _json("full fine-tune Llama-3-8B on a custom dataset: 8*A800, 200k samples averaging 252 tokens")[
        "request"
    ]
    assert r["gpu_count"] == 8 and r["num_samples"] == 200000


# 5. misreads: a step's number is no count; an organisation in a repository path is no tool -------------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("DeepSpeed-Chat step 3 RLHF for facebook/opt-1.3b on 8 A100, how long?", "step 3"),
        ("running step-2 (reward model) of DeepSpeed-Chat with opt-350m on 1 A100", "step-2"),
        ("Stage 2 of DeepSpeed-Chat: reward model, facebook/opt-350m, 1 A100", "stage 2"),
        ("OOM at step 3 of training Llama-3-8B full finetune on 8 A100", "step 3"),
        ("phase 1 of our recipe: full fine-tune Llama-3-8B on 8 A100", "phase 1"),
        ("the 3rd step of DeepSpeed-Chat (RLHF) with opt-1.3b on 8 A100", "3rd step"),
        ("用DeepSpeed-Chat跑第3步RLHF，opt-1.3b，8张A100要多久", "第3步"),
        ("DeepSpeed-Chat 第三步 RLHF，opt-1.3b，8张A100", "第三步"),
        ("按教程步骤2训练奖励模型，opt-350m，1张A100", "步骤2"),
    ],
)
def test_a_step_number_is_named_not_counted(text: str, label: str) -> None:
    d = _json(text)
    ignored = {i["text"]: i["reason"] for i in d["interpretation"]["ignored"]}
    assert ignored.get(label) == "step_label"
    assert not any(reason == "unread" for reason in ignored.values())
    assert d["request"]["num_samples"] is None  # no optimizer steps were read from it
    assert d["request"]["zero_stage"] is None


@pytest.mark.parametrize(
    ("text", "steps_or_stage"),
    [
        ("训练1000步，Qwen2.5-7B LoRA，global batch 64，seq 2048，一张A100", ("num_samples", 64000)),
        ("full fine-tune Llama-3-8B with DeepSpeed ZeRO stage 3 on 8 A100", ("zero_stage", 3)),
        ("full fine-tune Llama-3-8B on 8 A100 with deepspeed stage 2", ("zero_stage", 2)),
    ],
)
def test_counts_and_zero_stages_are_still_read(text: str, steps_or_stage: tuple[str, int]) -> None:
    field, value = steps_or_stage
    d = _json(text)
    assert d["request"][field] == value
    assert not any(i["reason"] == "step_label" for i in d["interpretation"]["ignored"])


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("用facebook/opt-1.3b微调，1张A100", "OPT-1.3B"),
        ("基于 deepseek-ai/DeepSeek-V3 部署，8张H200", "DeepSeek-V3"),
        ("用 meta-llama/Llama-3.1-8B-Instruct 做 LoRA 微调，1张A100", "Llama-3.1-8B"),
    ],
)
def test_an_org_in_a_repository_path_is_no_tool(text: str, model: str) -> None:
    d = _json(text)
    assert d["request"]["model"] == model and d["request"]["training_tool"] is None
    assert not any(
        i["text"].startswith(("training_tool:", "runtime:"))
        and "/" not in i["text"]
        and i["reason"] == "no_field"
        for i in d["interpretation"]["ignored"]
    )
    names = [i["text"] for i in d["interpretation"]["ignored"]]
    assert not any(
        n in names for n in ("training_tool: facebook", "runtime: deepseek-ai", "training_tool: meta-llama")
    )


def test_a_tool_path_is_still_a_tool() -> None:
    """A tool's own path ('EasyContext/train.py') names the tool: only a model's repository has an owner."""
    d = _json("用 EasyContext/train.py 微调 Qwen2-72B，8张A100")
    assert {"text": "training_tool: EasyContext", "reason": "no_field"} in d["interpretation"]["ignored"]
