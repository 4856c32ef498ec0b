"""Session 32, fix f: findings of the fresh-user trial, sentences of our own in both languages.

1. A rollout batch is read in the named tool's unit: OpenRLHF's ``--rollout_batch_size`` (prompts a rollout)
   only with OpenRLHF or no tool named; verl's rollout batch is its ``data.train_batch_size`` (prompts a step,
   verl/trainer/config/ppo_trainer.yaml); any other tool's is named not used, with the reason.
"""

from __future__ import annotations

import pytest

from tests.test_s32_left import _ask, _notes, _text  # the same CLI helpers


def _ignored(out: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in out["interpretation"]["ignored"]}


# 1. the rollout batch in the named tool's unit

VERL = [
    "Run GRPO with verl on Llama-3.1-8B using 16 A100 GPUs, rollout batch 256, 4 rollouts per prompt, "
    "20k prompts",
    "用 verl 在 16 张 A100 上对 Llama-3.1-8B 做 GRPO，rollout batch size 256，每个 prompt 采样 4 条，"
    "2 万条 prompt",
]


@pytest.mark.parametrize("question", VERL)
def test_verl_rollout_batch_is_its_train_batch_in_prompts(capsys, question):
    out = _ask(capsys, question)
    req = out["request"]
    assert req.get("rollout_batch") is None  # not OpenRLHF's
    assert req["global_batch"] == 256  # verl's data.train_batch_size: prompts a step
    notes = _notes(out)
    assert notes["global_batch_prompts"] == {"prompts": 256, "responses": 4, "sequences": 1024}
    assert "rollout_batch_prompts" not in notes and "rollout_batch_steps" not in notes
    assert out["report"]["memory"]["plan"]["global_batch_sequences"] == 1024  # 256 prompts × 4


def test_verl_rollout_batch_said_without_openrlhf(capsys):
    en = _text(capsys, VERL[0])
    assert "--rollout_batch_size" not in en and "256 prompts × 4 responses = 1,024 sequences a step" in en
    assert "• Batch: 1,024 sequences per step" in en
    zh = _text(capsys, VERL[1])
    assert "rollout 批大小按提示词计" not in zh and "256 条提示词 × 每条 4 个回答 = 每步 1,024 条序列" in zh


OTHER_TOOL = [
    (
        "Fine-tune Mistral-7B with GRPO using TRL on 4 H100, rollout batch 128, num_generations 16, "
        "5k prompts",
        "rollout batch: 128",
    ),
    (
        "用 ms-swift 在 4 张 H100 上对 Mistral-7B 做 GRPO，rollout batch 128，num_generations 16，"
        "5000 条 prompt",
        "rollout batch: 128",
    ),
]


@pytest.mark.parametrize(("question", "typed"), OTHER_TOOL)
def test_other_tool_rollout_batch_named_not_used(capsys, question, typed):
    out = _ask(capsys, question)
    assert out["request"].get("rollout_batch") is None
    assert _ignored(out).get(typed) == "rollout_batch_other_tool"
    notes = _notes(out)
    assert "rollout_batch_prompts" not in notes and "rollout_batch_steps" not in notes


def test_other_tool_rollout_batch_reason_in_both_languages(capsys):
    en = _text(capsys, OTHER_TOOL[0][0])
    assert "a rollout batch is OpenRLHF's setting" in en and "2,048 responses" not in en
    zh = _text(capsys, OTHER_TOOL[1][0])
    assert "rollout 批大小是 OpenRLHF 的设置" in zh and "一起生成" not in zh


@pytest.mark.parametrize(
    "question",
    [
        "OpenRLHF GRPO of Gemma-2-9B on 8 H100, rollout batch 512, 4 samples per prompt, 10k prompts",
        "GRPO of Gemma-2-9B on 8 H100, rollout batch 512, 4 samples per prompt, 10k prompts",  # no tool
    ],
)
def test_openrlhf_or_no_tool_keeps_the_rollout_batch(capsys, question):
    out = _ask(capsys, question)
    assert out["request"]["rollout_batch"] == 512
    assert _notes(out)["rollout_batch_prompts"] == {"prompts": 512, "responses": 4, "sequences": 2048}


def test_openrlhf_note_agrees_with_the_engine_cap(capsys):
    """The rollout's 2,048 responses are decoded at most max_num_seqs at a time per engine (the rollout line's
    'N sequences at once'), not all together."""
    en = _text(
        capsys, "OpenRLHF GRPO of Gemma-2-9B on 8 H100, rollout batch 512, 4 samples per prompt, 10k prompts"
    )
    assert "2,048 responses a rollout, decoded up to vLLM's max_num_seqs at once per engine" in en
    zh = _text(
        capsys,
        "用 OpenRLHF 在 8 张 H100 上对 Gemma-2-9B 做 GRPO，rollout batch 512，每个 prompt 采样 4 条，1 万条",
    )
    assert "每个引擎一次最多同时生成 vLLM 的 max_num_seqs 条" in zh and "一起生成" not in zh


def test_api_rollout_batch_with_verl_is_not_noted(capsys):
    """A request that sets rollout_batch beside verl: verl decodes its own batch, so no OpenRLHF note."""
    from estimator.ledger import Ledger
    from estimator.models import SizingRequest
    from estimator.rollout_batch import note_rollout_batch

    req = SizingRequest.model_validate(
        {"stage": "finetune", "training_tool": "verl", "rollout_batch": 512, "gpu_count": 8}
    )
    ledger = Ledger()
    note_rollout_batch(req, 8, ledger)
    assert not [n for n in ledger.notes if str(n.code).startswith("rollout_batch")]


# 2. Two machines of different cards: used together (data parallel) or given a stage each


@pytest.mark.parametrize(
    ("question", "gpu", "count", "other"),
    [
        (
            "Box one has 4 A100 80GB, box two has 4 L40S. Fine-tune Llama-3-8B with FSDP on both machines",
            "L40S",
            8,  # all the cards, at the L40S's 48 GB
            "4 × A100 SXM4 80GB",
        ),
        (
            "一台 4×H100 服务器和一台 4×A100 40GB 服务器，两台一起用 ZeRO-3 全参微调 Qwen2.5-32B",
            "A100-SXM4-40GB",
            8,
            "4 × H100 SXM5 80GB",
        ),
    ],
)
def test_two_machines_used_together_are_one_data_parallel_run(capsys, question, gpu, count, other):
    out = _ask(capsys, question)
    req = out["request"]
    assert (req["gpu"], req["gpu_count"]) == (gpu, count)
    ignored = _ignored(out)
    assert ignored.get(other) == "other_machine_dp"
    assert "other_machine" not in ignored.values()


def test_two_machines_data_parallel_said_in_both_languages(capsys):
    en = _text(
        capsys, "Box one has 4 A100 80GB, box two has 4 L40S. Fine-tune Llama-3-8B with FSDP on both machines"
    )
    assert "8 × L40S" in en.splitlines()[0] and "the slower card paces each step" in en
    assert "cannot form one tensor-parallel group" not in en
    zh = _text(
        capsys,
        "一台 4×H100 服务器和一台 4×A100 40GB 服务器，两台一起用 ZeRO-3 全参微调 Qwen2.5-32B",
    )
    assert "8 张 A100 40G" in zh.splitlines()[0] and "每一步由较慢的卡决定快慢" in zh


@pytest.mark.parametrize(
    ("question", "gpu", "count", "other"),
    [
        (
            "We have a server with 4 A100 for fine-tuning and a box with 2 L4 for serving. "
            "Fine-tune Mistral-7B with LoRA, is it enough?",
            "A100-SXM4-80GB",
            4,
            "2 × L4",
        ),
        (
            "微调用一台 4 张 A100 的服务器，上线用一台 2 张 L4 的机器，LoRA 微调 Mistral-7B 够不够？",
            "A100-SXM4-80GB",
            4,
            "2 × L4",
        ),
    ],
)
def test_machines_given_stages_size_the_stage_asked(capsys, question, gpu, count, other):
    out = _ask(capsys, question)
    req = out["request"]
    assert (req["gpu"], req["gpu_count"]) == (gpu, count)
    assert _ignored(out).get(other) == "other_stage_machine"


def test_stage_machine_reason_in_both_languages(capsys):
    zh = _text(
        capsys, "微调用一台 4 张 A100 的服务器，上线用一台 2 张 L4 的机器，LoRA 微调 Mistral-7B 够不够？"
    )
    assert "你分给另一个阶段的机器" in zh and "张量并行组" not in zh
    en = _text(
        capsys,
        "We have a server with 4 A100 for fine-tuning and a box with 2 L4 for serving. Fine-tune Mistral-7B "
        "with LoRA, is it enough?",
    )
    assert "the machine you gave the other stage" in en and "tensor-parallel group" not in en


@pytest.mark.parametrize(
    ("question", "other", "said"),
    [
        (
            "I have one 8×A100 box and one 4×H100 box, fine-tune Llama-3-8B fully, enough?",
            "4 × H100 SXM5 80GB",
            "say 'across both machines' to size that",
        ),
        (
            "我有一台 8×A100 和一台 4×H100，全参微调 Llama-3-8B 够吗",
            "4 × H100 SXM5 80GB",
            "说“两台一起”就按那样估算",
        ),
    ],
)
def test_other_machine_in_training_worded_by_stage(capsys, question, other, said):
    out = _ask(capsys, question)
    assert out["request"]["gpu"] == "A100-SXM4-80GB" and out["request"]["gpu_count"] == 8
    assert _ignored(out).get(other) == "other_machine_training"
    text = _text(capsys, question)
    assert said in text and "tensor-parallel group" not in text and "张量并行组" not in text
