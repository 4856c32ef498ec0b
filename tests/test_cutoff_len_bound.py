"""Issue 24: LLaMA-Factory ``cutoff_len`` caps a sample, it is not every sample's length. Memory is sized
at the cap; the time from samples × cutoff_len is an upper bound, said — without packing a batch is padded
to its own longest sample (LLaMA-Factory's SFT data collator: transformers DataCollatorForSeq2Seq,
padding=True), with ``packing: true`` samples are joined into cutoff_len-token sequences. A stated average
length is used for the time, the cap for memory."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

LF_YAML = """model_name_or_path: Qwen/Qwen2.5-7B-Instruct
stage: sft
finetuning_type: lora
dataset: my_data
cutoff_len: 4096
max_samples: 50000
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
num_train_epochs: 3
bf16: true
"""
QUESTION = {"zh": "用这个配置在4张A100上训练要多久", "en": "how long does this config take on 4 A100s"}


def _ask(capsys, *argv: str) -> dict:
    main(["ask", "--format", "json", *argv])
    return json.loads(capsys.readouterr().out)


def _text(capsys, *argv: str) -> str:
    main(["ask", *argv])
    return capsys.readouterr().out


def _codes(data: dict) -> dict[str, dict]:
    return {w["code"]: w["params"] for w in data["report"]["warnings"]}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_cutoff_len_without_packing_is_an_upper_bound(capsys, lang):
    question = QUESTION[lang] + "\n" + LF_YAML
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["seq_len"], req["num_samples"], req["packing"]) == (4096, 50000, None)
    assert req["tokens"] == 50000 * 4096 * 3
    assert _codes(data)["time_bound_padded"] == {"length": 4096, "tool": "LLaMA-Factory"}
    text = _text(capsys, "--lang", lang, question)
    assert ("是上限" in text and "该批最长的样本" in text) if lang == "zh" else ("an upper bound" in text)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_packing_true_is_read_and_worded(capsys, lang):
    """s24 trial #14: packed, the time counts the dataset's own tokens — 50,000 samples × the 512-token
    average (estimator.defaults.TOKENS_PER_SAMPLE) × 3 epochs — not samples × cutoff_len (an upper bound
    that only unpacked, padded batches have): packing leaves no padding."""
    question = QUESTION[lang] + "\n" + LF_YAML + "packing: true\n"
    data = _ask(capsys, question)
    assert data["request"]["packing"] is True
    assert data["request"]["tokens"] == 50000 * 512 * 3
    assert "packing: True" not in {i["text"] for i in data["interpretation"]["ignored"]}
    codes = _codes(data)
    assert "time_bound_packed" not in codes and "time_bound_padded" not in codes
    [per] = [a for a in data["assumptions"] if a["field"] == "tokens_per_sample"]
    assert (per["value"], per["why"]) == (512, "samples_packed_average")
    text = _text(capsys, "--lang", lang, question)
    assert ("不按 4,096 补齐" in text) if lang == "zh" else ("(not padded to 4,096)" in text)


@pytest.mark.parametrize(
    "question",
    [
        "LoRA微调Qwen2.5-7B，4张A100，5万条样本，平均每条800 token，cutoff_len 4096，3个epoch",
        "LoRA fine-tune Qwen2.5-7B on 4 A100, 50k samples averaging 800 tokens, cutoff_len 4096, 3 epochs",
    ],
)
def test_a_stated_average_times_the_run_and_the_cap_sizes_memory(capsys, question):
    data = _ask(capsys, question)
    req = data["request"]
    assert (req["seq_len"], req["tokens_per_sample"]) == (4096, 800)
    assert req["tokens"] == 50000 * 800 * 3  # the time: the average sample, three epochs
    codes = _codes(data)
    assert "time_bound_padded" not in codes and "time_bound_packed" not in codes


# -- one reader of a team's size (issue 24 item 4) ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("our team of 5 engineers wants to fine-tune llama-3-8b", 5),
        ("4 people on the team, lora on qwen2.5-7b", 4),
        ("a team of four wants to fine-tune", 4),
        ("团队 5 个工程师，想微调 qwen2.5-7b", 5),
        ("我们组 3 个人，lora 微调", 3),
        ("a 20-person team", 20),
        ("fine-tune qwen2.5-7b on 8 a100", None),
    ],
)
def test_one_team_size_reader(text, size):
    from bot.parse import output_forms
    from bot.parse.schedule_words import team_size

    assert team_size(text) == size
    assert not hasattr(output_forms, "team_size")  # the second reader is gone


@pytest.mark.parametrize(
    "question",
    ["our team of 5 engineers wants to LoRA fine-tune Llama-3-8B", "团队 5 个工程师，LoRA 微调 Llama-3-8B"],
)
def test_a_team_on_a_training_question_is_no_load(capsys, question):
    data = _ask(capsys, question)
    assert data["request"].get("concurrency") is None
    assert any(
        i["reason"] == "team_size" or i["text"].startswith("team") for i in data["interpretation"]["ignored"]
    )


# -- Xinference --n-worker (issue 24 item 6) -----------------------------------------------------------

XINF = (
    "xinference launch --model-name qwen2.5-instruct --size-in-billions 72 --model-engine vllm "
    "--n-gpu 4 --replica 2 --n-worker {workers}"
)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_xinference_n_worker_spreads_a_copy_over_machines(capsys, lang):
    """Xinference docs 'Distributed Inference': with --n-worker N, --n-gpu is the GPUs per worker, so a copy
    holds N × n-gpu GPUs on N machines; 2 replicas of 2 workers × 4 GPUs = 16 GPUs."""
    question = {"zh": "这样要几张A100", "en": "how many A100s is this"}[lang]
    data = _ask(capsys, XINF.format(workers=2) + "\n" + question)
    req = data["request"]
    assert (req["gpu_count"], req["tp"], req["pp"], req["gpus_per_node"]) == (16, 4, 2, 4)
    assert not any(i["text"].startswith("--n-worker") for i in data["interpretation"]["ignored"])


def test_xinference_one_worker_changes_nothing(capsys):
    data = _ask(capsys, XINF.format(workers=1) + "\nhow many A100s is this")
    req = data["request"]
    assert (req["gpu_count"], req["tp"], req.get("pp"), req.get("gpus_per_node")) == (8, 4, None, None)
    assert not any(i["text"].startswith("--n-worker") for i in data["interpretation"]["ignored"])


# -- an unknown tool by its place, no list of names that are not tools (issue 24 item 5) ---------------


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "the EasyContext launcher on 16 A100, how long to fine-tune Qwen2-72B",
            "training_tool: EasyContext",
        ),
        ("deploy Qwen2.5-7B via MyServe on 2 L4", "runtime: MyServe"),
        ("用 OpenDiLoCo 在 4 张 A100 上微调 Llama-3-8B 要多久", "training_tool: OpenDiLoCo"),
    ],
)
def test_a_name_in_a_tools_place_is_named(capsys, text, item):
    ignored = {i["text"]: i["reason"] for i in _ask(capsys, text)["interpretation"]["ignored"]}
    assert item in ignored


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune Qwen2.5-7B in JupyterLab on one A100",  # a place, not the job's means
        "Fine-tuning Qwen2.5-7B on 4 A100 ends in CudaOutOfMemory, how much VRAM is needed?",  # a state
        "train Llama-3-8B with PyTorch on 8 A100",  # the model reader's vocabulary: no model, no tool here
        "Fine-tune Llama-3-8B with GaLore on 2 A100",  # the optimizer reader's
    ],
)
def test_a_name_out_of_a_tools_place_or_known_elsewhere_is_not_a_tool(capsys, text):
    from bot.parse import unknown_tools

    assert not hasattr(unknown_tools, "NOT_TOOLS")
    ignored = _ask(capsys, text)["interpretation"]["ignored"]
    assert not [i for i in ignored if i["text"].startswith(("training_tool: ", "runtime: "))]
