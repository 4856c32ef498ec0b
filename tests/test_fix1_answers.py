"""New-user trial (fix1), items 2–4, through ``sizing-bot ask`` in both languages: "how long?" for a
fine-tune with no data size asks for it on line 1; steps; fractional counts; absurd sizes; gibberish;
a follow-up with no history; a config's name as typed."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


@pytest.mark.parametrize(
    ("question", "words"),
    [
        (
            "LoRA fine-tune Qwen2.5-14B on 4 A100 80G, how long will it take?",
            ("How long", "samples", "100M"),
        ),
        ("LoRA fine-tune Qwen2.5-14B on 4 A100 80G，要多久", ("要多久", "样本数", "token")),
        ("用4张A100 80G对Qwen2.5-14B做LoRA微调，要多久", ("要多久", "样本数", "token")),
    ],
)
def test_how_long_without_data_asks_for_it_on_line_one(capsys, question, words):
    text = ask(capsys, question, "text")
    first = text.splitlines()[0]
    assert all(w in first for w in words), first
    assert "“" in first  # an example of a data size
    d = ask(capsys, question)
    assert "duration_needs_data" in {w["code"] for w in d["report"]["warnings"]}
    assert d["report"]["gpu_hours"] is None and d["report"]["memory"] is not None  # memory still answered


def test_how_long_with_data_gives_a_time_and_no_request(capsys):
    d = ask(capsys, "LoRA fine-tune Qwen2.5-14B on 4 A100 80G on 50k samples of 2k tokens, how long?")
    assert d["report"]["gpu_hours"] is not None
    assert "duration_needs_data" not in {w["code"] for w in d["report"]["warnings"]}


LMF_YAML = """
```yaml
model_name_or_path: Qwen/Qwen2.5-14B
stage: sft
finetuning_type: lora
lora_target: all
cutoff_len: 4096
max_samples: 100000
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
num_train_epochs: 3
bf16: true
```"""


@pytest.mark.parametrize("lead", ["LoRA fine-tune on 4 A100 80G, how long?", "用4张A100 80G做LoRA微调要多久"])
def test_llamafactory_max_samples_sizes_the_data(capsys, lead):
    """max_samples 100,000 × cutoff_len 4,096 × 3 epochs = 1.2288e9 tokens, at most (was "not used")."""
    d = ask(capsys, lead + LMF_YAML)
    assert d["stack_config"]["used"].get("max_samples") == "num_samples"
    assert not any(k.startswith("max_samples") for k in d["stack_config"]["unused"])
    assert d["request"]["num_samples"] == 100_000
    assert d["report"]["gpu_hours"] is not None
    conv = next(w for w in d["report"]["warnings"] if w["code"] == "samples_to_tokens")
    assert conv["params"]["tokens"] == 100_000 * 4096 * 3
    assert "duration_needs_data" not in {w["code"] for w in d["report"]["warnings"]}


@pytest.mark.parametrize(
    ("question", "typed", "words"),
    [
        ("GRPO on Qwen2.5-7B with 8 H100 for 1000 steps, how long?", "1000 steps", "global batch"),
        ("用8张H100对Qwen2.5-7B做GRPO，训练1000步要多久", "1000步", "全局 batch"),
    ],
)
def test_steps_without_batch_and_length_say_what_they_need(capsys, question, typed, words):
    # s33 #2: timed on the global batch and length assumed (128 × 2,048), saying so (was not used)
    d = ask(capsys, question)
    said = {"text": f"{typed}: 1,000 × 128 × 2,048 = 262,144,000 token", "reason": "steps_default_batch"}
    assert said in d["interpretation"]["ignored"]
    assert d["request"]["tokens"] == 1000 * 128 * 2048
    assert not any(i["reason"] == "unread" for i in d["interpretation"]["ignored"])
    text = ask(capsys, question, "text")
    line = next(li for li in text.splitlines() if typed in li)
    assert words in line, line


@pytest.mark.parametrize(
    ("question", "tokens"),
    [
        ("SFT Qwen2.5-7B on 8 H100 for 1000 steps, global batch 128, 4k tokens per sample, how long?", 512e6),
        ("8张H100全参微调Qwen2.5-7B，训练1000步，global batch 128，序列长度4096", 1000 * 128 * 4096),
        ("SFT Qwen2.5-7B on 8 H100 for 2k iterations, global batch 64, seq len 2048", 2000 * 64 * 2048),
        # "序列 4096" and "seq_len 4096" (a closing review's questions: the 4096 was "not understood")
        ("GRPO 训练 Qwen2.5-7B，8 张 H100，1000步，全局batch 64，序列 4096，要多久", 1000 * 64 * 4096),
        ("SFT Qwen2.5-7B on 8 H100, 1000 steps, global batch 64, seq_len 4096, how long?", 1000 * 64 * 4096),
    ],
)
def test_steps_times_global_batch_times_length_give_the_tokens(capsys, question, tokens):
    d = ask(capsys, question)
    conv = next(w for w in d["report"]["warnings"] if w["code"] == "samples_to_tokens")
    assert conv["params"]["tokens"] == pytest.approx(tokens)
    assert d["report"]["gpu_hours"] is not None
    assert not d["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("question", "words"), [("那H100呢", "不保留历史"), ("what about H100?", "keeps no history")]
)
def test_a_follow_up_in_ask_says_ask_keeps_no_history(capsys, question, words):
    assert main(["ask", question]) == 2
    out = capsys.readouterr().out
    assert words in out.splitlines()[0] and "restarted" not in out and "重启" not in out


@pytest.mark.parametrize(
    ("question", "typed", "count", "words"),
    [
        ("serve Llama-3.1-70B on 3.5 A100s", "3.5", 4, "GPUs come whole"),
        ("用2.5张A100部署Qwen2.5-7B", "2.5", 3, "整张"),  # round() would have said 2
    ],
)
def test_a_fractional_gpu_count_is_rounded_up_and_named(capsys, question, typed, count, words):
    d = ask(capsys, question)
    assert d["request"]["gpu_count"] == count
    assert {"text": typed, "reason": "fractional_count"} in d["interpretation"]["ignored"]
    text = ask(capsys, question, "text")
    assert any(typed in line and words in line for line in text.splitlines()[:3]), text[:400]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("train a 1000000B model on 1T tokens with H100", ("1,000,000B", "100T")),
        ("1000000B模型用H100预训练1T token要多久", ("1,000,000B", "100T")),
    ],
)
def test_an_absurd_model_size_is_refused_with_the_bound(capsys, question, words):
    """MAX_PARAMS (estimator/request.py) = 1e14: 1e15 is refused, not replaced by another size (it was
    sized as '1000T', and with the size dropped as the 50B that 1T tokens make compute-optimal)."""
    assert main(["ask", question]) == 2
    out = capsys.readouterr().out
    assert all(w in out for w in words), out[:400]
    assert "50B" not in out and "1000T" not in out
    d = ask(capsys, question)
    assert d["report"] is None and d["understood"] is False


def test_a_large_real_size_is_still_sized(capsys):
    d = ask(capsys, "train a 2T model on 10T tokens with H100")
    assert d["request"]["params_total"] == 2e12 and d["report"]["gpu_hours"] is not None
