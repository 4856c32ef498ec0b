"""Round 5 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r5.json): ways of writing
the r5work half showed the parser missing, each read by one rule for its kind — P-Tuning's short form, a
method only fine-tuning has, LoRA pre-training, a count of an earlier setup, a command's source + target
lengths, shell-variable batch sizes, one value said of several keys, 'A 甚至 B', more serving engines, a
model after 量化, a tuned model served — tested in both languages through the CLI (``sizing-bot ask
--format json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named
from tests.real_questions import score
from tests.round_forms import ask, req

PTV2 = [
    "用 ptv2 微调 ChatGLM-6B，单卡 3090 显存够吗？",
    "ChatGLM2-6B 做 PTV2，batch_size 4，显存要多少？",
    "ptv2 训练 chatglm3-6b，8 张 V100 够不够？",
    "ptv2 fine-tuning of ChatGLM-6B on one RTX 3090: enough memory?",
    "Is ptv2 on chatglm2-6b with 2 A100s fine?",
    "How much VRAM does PTV2 need for ChatGLM3-6B?",
]


@pytest.mark.parametrize("text", PTV2)
def test_ptv2_is_p_tuning(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'ptv2' is how chatglm_finetuning and ChatGLM users shorten P-Tuning v2: the method is P-Tuning, a
    fine-tuning (before: LoRA or full was sized, 'ptv2' read as nothing)."""
    data = ask(capsys, text)
    assert (req(data, "stage"), req(data, "method")) == ("finetune", "ptuning")


TUNING_ONLY = [
    ("ptv2 显存不够，max_seq_len=1024，chatglm-6b", 1024),
    ("P-Tuning v2 跑 chatglm2-6b，maxseqlen=768，OOM 了", 768),
    ("ptv2 总是爆显存，chatglm3-6b，max_seq_len 1536", 1536),
    ("ptv2 on chatglm-6b keeps OOMing, max_seq_len=1024", 1024),
    ("P-Tuning v2 with chatglm2-6b runs out of memory, maxseqlen=768", 768),
    ("chatglm3-6b ptv2 OOM at max_seq_len 1536", 1536),
]


@pytest.mark.parametrize(("text", "seq"), TUNING_ONLY)
def test_a_tuning_only_method_reads_its_settings_as_training(
    capsys: pytest.CaptureFixture[str], text: str, seq: int
) -> None:
    """A method only fine-tuning has (P-Tuning, freeze) with no stage word: the job trains, so its
    'max_seq_len' is the training sequence (before: read as a serving engine's context limit,
    max_model_len, and the sequence sized at the default)."""
    data = ask(capsys, text)
    assert (req(data, "stage"), req(data, "seq_len"), req(data, "max_model_len")) == ("finetune", seq, None)


LORA_PRETRAINING = [
    "用 lora 预训练 Qwen2-7B，4 张 A100 够吗？",
    "QLoRA 预训练 Llama-3-8B 要多少显存",
    "单卡 4090 lora 预训练 baichuan-7B 能跑吗",
    "LoRA pretraining Qwen2-7B on 4 A100s: enough?",
    "How much memory for QLoRA pre-training of Llama-3-8B?",
    "Can one 4090 do LoRA pretraining of Baichuan-7B?",
]


@pytest.mark.parametrize("text", LORA_PRETRAINING)
def test_lora_pretraining_is_continued_pretraining(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Pre-training with LoRA adapts a model that exists (LoRA freezes pre-trained weights): a continued
    pre-training (before: a fine-tuning in Chinese, a pre-training from scratch sized as fine-tuning in
    English)."""
    data = ask(capsys, text)
    assert req(data, "stage") == "continued_pretrain"
    assert req(data, "method") in ("lora", "qlora")


@pytest.mark.parametrize(
    "text",
    ["在预训练模型 Qwen2-7B 上做 lora 微调要多少显存", "LoRA on a pretrained Llama-3-8B, how much memory?"],
)
def test_lora_on_a_pretrained_model_stays_a_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """'预训练模型' / 'pretrained' name the model, not the job."""
    assert req(ask(capsys, text), "stage") == "finetune"


EARLIER_COUNTS = [
    ("现在单卡 A100 就能 LoRA 微调 Qwen2-7B，以前要 4 张卡才行，为什么？", 1, "4"),
    ("两张 4090 部署 Qwen2.5-14B 够吗？原来用 4 张 3090 跑的。", 2, "4"),
    ("单卡 H100 全参微调 Qwen2-1.5B，之前用的是 2 张 A100，显存够吗？", 1, "2"),
    ("A single A100 now fits LoRA on Qwen2-7B; previously it needed 4 cards. Why?", 1, "4"),
    ("Two 4090s for serving Qwen2.5-14B, enough? I used to run it on 4 3090s.", 2, "4"),
    ("Full fine-tuning Qwen2-1.5B on a single H100; before that I used 2 A100s. Will it fit?", 1, "2"),
]


@pytest.mark.parametrize(("text", "count", "earlier"), EARLIER_COUNTS)
def test_a_count_of_an_earlier_setup_is_named(
    capsys: pytest.CaptureFixture[str], text: str, count: int, earlier: str
) -> None:
    """A count after '以前 / 原来 / 之前 / previously / used to' up to its sentence's end is the earlier
    setup's: the count of the setup asked about is sized, the earlier one named (before: '单卡' lost to
    the earlier '4 张卡')."""
    data = ask(capsys, text)
    assert req(data, "gpu_count") == count
    assert named(data).get(earlier) == "other_setup"


@pytest.mark.parametrize(
    "text",
    [
        "之前用 8 张 A100 微调 Qwen2-72B OOM 了，要几张？",
        "I previously used 8 A100s for Qwen2-72B and it OOMed",
    ],
)
def test_an_earlier_count_alone_is_still_the_count(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """With no other count said, the earlier setup's count is the only one the message gives: kept."""
    assert req(ask(capsys, text), "gpu_count") == 8


COMMAND_LENGTHS = [
    "全量微调 chatglm2-6b：accelerate launch --config_file ds.yaml src/train_sft.py --finetuning_type full "
    "--max_source_length 1024 --max_target_length 256 --per_device_train_batch_size 2 --fp16，4 张 A100 够吗",
    "LoRA 微调 baichuan-7B：deepspeed --num_gpus 2 src/train_sft.py --finetuning_type lora "
    "--max_source_length 768 --max_target_length 512 --per_device_train_batch_size 4，要多少显存",
    "chatglm-6b 全参：accelerate launch src/train_sft.py --finetuning_type full --max_source_length 64 "
    "--max_target_length 128 --per_device_train_batch_size 1，单卡 A100 够吗",
    "Full fine-tune of chatglm2-6b: accelerate launch --config_file ds.yaml src/train_sft.py "
    "--finetuning_type full --max_source_length 1024 --max_target_length 256 --per_device_train_batch_size 2 "
    "--fp16 on 4 A100s, enough?",
    "LoRA on baichuan-7B: deepspeed --num_gpus 2 src/train_sft.py --finetuning_type lora "
    "--max_source_length 768 --max_target_length 512 --per_device_train_batch_size 4, how much memory?",
    "chatglm-6b full: accelerate launch src/train_sft.py --finetuning_type full --max_source_length 64 "
    "--max_target_length 128 --per_device_train_batch_size 1, does one A100 do?",
]
SUMS = [1280, 1280, 192, 1280, 1280, 192]


@pytest.mark.parametrize(("text", "seq"), list(zip(COMMAND_LENGTHS, SUMS, strict=True)))
def test_a_commands_source_and_target_lengths_are_one_sequence(
    capsys: pytest.CaptureFixture[str], text: str, seq: int
) -> None:
    """ChatGLM-Efficient-Tuning's ``--max_source_length`` and ``--max_target_length`` in a launcher command:
    one sample is the source then its target, so the sequence is their sum (before: both named as having
    no field and the default 2048 sized), as they already were in prose."""
    data = ask(capsys, text)
    assert req(data, "seq_len") == seq
    assert not any(k.startswith("max_source_length") for k in named(data))


SHELL_BATCHES = [
    (
        "8 张 A100 微调 InternVL2-8B，脚本里 GPUS=8，BATCH_SIZE=128，PER_DEVICE_BATCH_SIZE=4，会 OOM 吗",
        4,
        128,
    ),
    (
        "Qwen2-7B 全参微调：GPUS=16 GPUS_PER_NODE=8 BATCH_SIZE=256 PER_DEVICE_BATCH_SIZE=2 "
        "bash finetune.sh，要多少显存",
        2,
        256,
    ),
    ("4 卡 H100 训练 Llama-3-8B，PER_DEVICE_BATCH_SIZE=1，BATCH_SIZE=32，显存够吗？", 1, 32),
    (
        "Fine-tuning InternVL2-8B on 8 A100s with GPUS=8, BATCH_SIZE=128, PER_DEVICE_BATCH_SIZE=4: "
        "will it OOM?",
        4,
        128,
    ),
    (
        "Full fine-tune of Qwen2-7B: GPUS=16 GPUS_PER_NODE=8 BATCH_SIZE=256 PER_DEVICE_BATCH_SIZE=2 "
        "bash finetune.sh",
        2,
        256,
    ),
    ("Training Llama-3-8B on 4 H100s with PER_DEVICE_BATCH_SIZE=1 and BATCH_SIZE=32, enough memory?", 1, 32),
]


@pytest.mark.parametrize(("text", "micro", "global_batch"), SHELL_BATCHES)
def test_per_device_batch_size_beside_batch_size(
    capsys: pytest.CaptureFixture[str], text: str, micro: int, global_batch: int
) -> None:
    """InternVL's finetune scripts set ``PER_DEVICE_BATCH_SIZE`` (the micro-batch) and ``BATCH_SIZE`` (the
    global batch, ``GRADIENT_ACC = BATCH_SIZE / PER_DEVICE_BATCH_SIZE / GPUS``): both read (before: the
    global batch lost, or taken as the micro-batch)."""
    data = ask(capsys, text)
    assert (req(data, "batch_size"), req(data, "global_batch")) == (micro, global_batch)


SHARED = [
    ("全参微调 Qwen2-7B，max_source_length、max_target_length 都尝试过 768，还是 OOM，4 张 A100", 1536),
    ("DPO 训练 Qwen2-1.5B，max_prompt_length、max_completion_length 都调到 512，单卡 4090", 1024),
    ("qwen2-7b 全参，max_source_length、max_target_length 都试过 1024，8 张 A800", 2048),
    (
        "Full fine-tune of Qwen2-7B: max_source_length and max_target_length were both tried 768, 4 A100s",
        1536,
    ),
    ("DPO on Qwen2-1.5B, max_prompt_length / max_completion_length both tried 512 on one 4090", 1024),
    ("qwen2-7b full, max_source_length and max_target_length both tried 1024 on 8 A800s", 2048),
]


@pytest.mark.parametrize(("text", "seq"), SHARED)
def test_one_value_tried_for_several_keys(capsys: pytest.CaptureFixture[str], text: str, seq: int) -> None:
    """'a、b 都尝试过 768', 'a and b were both tried 768': each key has the value (before: the '、' list,
    the verb 'tried', and a model name before the keys taken as a key left the value unread)."""
    data = ask(capsys, text)
    assert req(data, "seq_len") == seq
    assert not [k for k, why in named(data).items() if why == "unread"]


EVEN = [
    ("单卡 A100 就能跑 Qwen2-7B 的 sft 甚至 dpo，LoRA，要多少显存？", "DPO"),
    ("24G 的 4090 能做 Llama-3-8B 的 SFT 甚至是 DPO 吗？", "DPO"),
    ("8 张 H100 跑 Qwen2-72B 的 SFT 乃至 GRPO，显存够吗？", "GRPO"),
    ("One A100 runs SFT and even DPO for Qwen2-7B with LoRA; how much memory?", "DPO"),
    ("Can a 24G 4090 do SFT and even DPO of Llama-3-8B?", "DPO"),
    ("8 H100s for SFT and even GRPO of Qwen2-72B, enough memory?", "GRPO"),
]


@pytest.mark.parametrize(("text", "other"), EVEN)
def test_a_then_even_b_sizes_a_and_names_b(capsys: pytest.CaptureFixture[str], text: str, other: str) -> None:
    """'SFT 甚至 DPO', 'SFT and even DPO': two setups, the first sized and the harder one named (before: the
    second sized and the first dropped in silence)."""
    data = ask(capsys, text)
    assert req(data, "algorithm") == "sft"
    assert named(data).get(f"algorithm: {other}") == "other_setup"


ENGINES = [
    ("用 MindIE 在 8 张 910B 上部署 Qwen2.5-72B，吞吐能到多少？", "MindIE"),
    ("mindformers 推理 qwen1.5-7b 只有 6 tokens/s，正常吗？", "MindFormers"),
    ("MindIE 部署 DeepSeek-R1-Distill-Qwen-32B，4 张 910B 够吗？", "MindIE"),
    ("Serving Qwen2.5-72B with MindIE on 8 Ascend 910B: what throughput?", "MindIE"),
    ("MindFormers inference of qwen1.5-7b gives only 6 tokens/s, normal?", "MindFormers"),
    ("Can 4 Ascend 910B serve DeepSeek-R1-Distill-Qwen-32B with MindIE?", "MindIE"),
]


@pytest.mark.parametrize(("text", "engine"), ENGINES)
def test_ascend_engines_are_named(capsys: pytest.CaptureFixture[str], text: str, engine: str) -> None:
    """Huawei Ascend's MindIE and MindSpore's MindFormers: serving engines the sizing has no model of,
    named (before: dropped in silence)."""
    data = ask(capsys, text)
    assert req(data, "stage") == "inference"
    assert named(data).get(f"runtime: {engine}") == "runtime_not_modelled"


QUANTIZED = [
    ("我想量化 MiniCPM-V-2_6，然后部署，要多少显存？", "MiniCPM-V-2_6"),
    ("先量化 FooLM-Chat-v2 再用 lmdeploy 推理，A800 够吗", "FooLM-Chat-v2"),
    ("量化 XComposer2-VL 之后显存能降多少？", "XComposer2-VL"),
    ("I want to quantize MiniCPM-V-2_6 and then serve it; how much memory?", "MiniCPM-V-2_6"),
    ("After we quantize FooLM-Chat-v2, can lmdeploy serve it on an A800?", "FooLM-Chat-v2"),
    ("How much memory is saved by quantizing XComposer2-VL?", "XComposer2-VL"),
]


@pytest.mark.parametrize(("text", "name"), QUANTIZED)
def test_the_model_a_quantization_is_about(capsys: pytest.CaptureFixture[str], text: str, name: str) -> None:
    """A name after '量化' / 'quantize' is the model, an unknown one named as typed (before: the name dropped,
    its digits read as numbers)."""
    assert ask_in_process(capsys, text, want_code=2)["interpretation"]["unknown_model"] == name


SERVED_AFTER_TUNING = [
    "用 swift 微调、合并后用 lmdeploy 部署 Qwen2-7B，推理时显存占用多少？",
    "Qwen2-7B 微调并合并后用 vllm 推理，单卡 4090 够吗？",
    "LoRA 微调再合并后，用 vllm 部署 Llama-3-8B 要多少显存",
    "Serving the fine-tuned and merged Qwen2-7B with lmdeploy: how much memory?",
    "Deploying a LoRA-tuned, merged Llama-3-8B with vllm on one 4090, enough?",
    "Deploying the merged Llama-3-8B (LoRA fine-tuned) with vllm, how much memory?",
]


@pytest.mark.parametrize("text", SERVED_AFTER_TUNING)
def test_a_tuned_and_merged_model_served(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """'微调、合并后 … 部署 / 推理': the fine-tuning is done, the question is about serving the result
    (before: sized as a fine-tuning)."""
    assert req(ask(capsys, text), "stage") == "inference"


TWO_FORMATS = [
    "lmdeploy 用 TurbomindEngineConfig(model_format='awq', tp=1) 部署 Qwen2-7B，torch_dtype=torch.bfloat16，"
    "为什么显存这么大？",
    "用 AWQ 量化的 Qwen2-7B 在 vllm 上跑，--dtype bfloat16，显存要多少？",
    "GPTQ int4 的 Llama-3-8B 用 lmdeploy 部署，torch_dtype=torch.float16，要几张 4090？",
    "Serving Qwen2-7B with lmdeploy TurbomindEngineConfig(model_format='awq', tp=1), "
    "torch_dtype=torch.bfloat16: why so much memory?",
    "An AWQ-quantized Qwen2-7B on vllm with --dtype bfloat16: how much memory?",
    "GPTQ int4 Llama-3-8B served by lmdeploy, torch_dtype=torch.float16: how many 4090s?",
]


@pytest.mark.parametrize("text", TWO_FORMATS)
def test_a_weight_format_beside_a_dtype_setting_is_named(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """A weight format in the names ('awq', 'GPTQ int4') beside a dtype setting ('torch_dtype=torch.bfloat16',
    '--dtype bfloat16'): the setting is sized, as before, and the format is named (before: dropped in
    silence). Since s32 a ``TurbomindEngineConfig(model_format='awq', …)`` call is read as the lmdeploy
    command it configures (bot.parse.configs.lmdeploy_call): TurboMind loads the AWQ int4 weights whatever
    torch_dtype a script sets, so int4 is sized and the bf16 named as differing from the config."""
    data = ask(capsys, text)
    if "EngineConfig(" in text:
        assert data["request"]["precision"] == "int4"
        assert named(data).get("precision: bf16") == "config_differs"
        return
    assert named(data).get("precision: int4") == "repeated"


THAN = [
    ("用 lmdeploy 推理 Llama-3-8B 比用 transformers 慢？", "transformers"),
    ("vllm 部署 Qwen2-7B 显存比起 transformers 还多，正常吗？", "transformers"),
    ("lmdeploy 跑 Qwen2-7B，显存相较 vllm 为什么更大？", "lmdeploy"),
    ("Why does lmdeploy serving Llama-3-8B run slower than transformers?", "transformers"),
    ("vllm takes more memory than transformers for Qwen2-7B, is that normal?", "transformers"),
    ("lmdeploy uses more memory than vllm for Qwen2-7B, why?", "lmdeploy"),
]


@pytest.mark.parametrize(("text", "other"), THAN)
def test_an_engine_compared_with_than_is_named(
    capsys: pytest.CaptureFixture[str], text: str, other: str
) -> None:
    """'A 比用 B 大', 'A 相较 B', 'A … than B': two engines compared, one sized and the other named (before:
    the other dropped in silence when no 'vs' / '对比' word stood between them)."""
    assert named(ask(capsys, text)).get(f"runtime: {other}") == "other_setup"


def test_scorer_takes_algorithms_each_used_or_named() -> None:
    """'sft 甚至 dpo' stated as both: one sized, the other named (as stages and runtimes are)."""
    record = {"stated": {"algorithm": ["sft", "dpo"]}}
    answer: dict[str, Any] = {"request": {"algorithm": "sft"}, "interpretation": {"ignored": []}}
    assert score(record, answer) == ["algorithm"]
    answer["interpretation"]["ignored"] = [{"text": "algorithm: DPO", "reason": "other_setup"}]
    assert score(record, answer) == []


def test_scorer_takes_a_bit_width_as_its_integer_format() -> None:
    """'4-bit / 8-bit' stated as int4 and int8: 'precision: 8-bit' named names int8."""
    record = {"stated": {"precision": ["int4", "int8"]}}
    answer: dict[str, Any] = {"request": {"precision": "int4"}, "interpretation": {"ignored": []}}
    assert score(record, answer) == ["precision"]
    answer["interpretation"]["ignored"] = [{"text": "precision: 8-bit", "reason": "repeated"}]
    assert score(record, answer) == []
