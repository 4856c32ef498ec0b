"""The meaning table (:mod:`bot.parse.configs.meaning`, issue 24 items 1–3): each tool's keys → request
field + conversion, the one place the pasted-config and prose readers are built from.

1. Reflection: every key of a row is in that tool's flag table (``bot/recipes/flags/<tool>.json``, taken
   from the tool's own source), every key a reader dispatches on is a row, every field is a request field.
2. Table-driven: for EVERY numeric row, the key written as a pasted line and in prose in both languages
   (generated from the row, not hand-written) gives the row's field that value, through the JSON contract
   (``sizing-bot ask --format json``, in process).
3. Real configs from the new tools' own example directories (tests/data/configs/, sources in README.md)
   read exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.parse.configs.launchers import MEGATRON, SERVE_FLAGS, SERVE_NO_FIELD
from bot.parse.configs.meaning import (
    ALIASES,
    CONVERSIONS,
    MEANING,
    SERVING,
    SHARED_DEFAULT,
    SOURCES,
    TRAINING,
    UNTABLED,
    bare,
    short_forms,
    training_rows,
)
from bot.parse.configs.training import HANDLERS, NO_FIELD_KEYS
from bot.parse.configs.vocab import known
from estimator.models import SizingRequest
from tests.cli_run import ask_in_process

CONFIGS = Path(__file__).parent / "data" / "configs"

# -- 1. reflection ----------------------------------------------------------------------------------------


def test_every_row_is_a_key_of_its_tools_own_table() -> None:
    missing = [
        (tool, key)
        for tool, rows in MEANING.items()
        if tool not in UNTABLED
        for key in rows
        if not known(tool, ALIASES.get((tool, key), key))
    ]
    assert missing == []
    assert set(SOURCES) == set(MEANING) == {*TRAINING, *SERVING, "megatron"}


def test_every_row_names_a_request_field_and_a_known_conversion() -> None:
    fields = set(SizingRequest.model_fields) | {"model"}
    for tool, rows in MEANING.items():
        for key, (field, conv) in rows.items():
            assert conv in CONVERSIONS, (tool, key, conv)
            assert field is None or field in fields, (tool, key, field)
            assert (field is None) == (conv in ("no_field", "accumulation")), (tool, key)


def test_every_reader_key_is_a_row_and_a_shared_key_means_one_thing() -> None:
    rows = training_rows()
    assert set(HANDLERS) | set(NO_FIELD_KEYS) == set(rows)
    for tool in TRAINING:
        for key, row in MEANING[tool].items():
            assert rows[bare(key)] == row or bare(key) in SHARED_DEFAULT, (
                tool,
                key,
            )  # 'gradient_accumulation_steps' in 5 tools: one meaning (axolotl's batch_size: its own row)
    for tool in SERVING:
        for flag, row in MEANING[tool].items():
            assert SERVE_FLAGS[tool].get(flag) == row or (row[0] is None and flag in SERVE_NO_FIELD)
    assert MEANING["megatron"] == MEGATRON
    assert all(short not in rows for short in short_forms())


# -- 2. every numeric row, pasted and in prose, both languages --------------------------------------------

VALUES: dict[str, Any] = {
    "seq_len": 3072, "batch_size": 3, "lora_rank": 48, "epochs": 3, "global_batch": 96,
    "num_generations": 6, "max_completion_length": 1536, "rollout_tp": 2, "zero_stage": 2,
    "num_samples": 5000, "tp": 2, "pp": 2, "max_model_len": 16384, "concurrency": 24,
    "prompt_tokens": 1000, "gpu_memory_utilization": 0.85,
}  # fmt: skip
"""A value per field, inside its bounds and unlike any default."""
ENGINES = {"vllm": "vLLM", "sglang": "SGLang", "lmdeploy": "lmdeploy", "tgi": "TGI", "llama.cpp": "llama.cpp",
           "trtllm": "TensorRT-LLM", "xinference": "Xinference"}  # fmt: skip


def _context(tool: str, field: str) -> tuple[str, str]:
    """(English, Chinese) question the row's setting belongs to."""
    if tool in SERVING:
        engine = ENGINES[tool]
        return f"Serve Qwen2.5-72B on 8 H100 with {engine}", f"用 {engine} 部署 Qwen2.5-72B，8 张 H100"
    if tool == "megatron":
        return (
            "Pretrain a 7B model on 64 H100 with Megatron-LM",
            "用 Megatron-LM 在 64 张 H100 上预训练 7B 模型",
        )
    if field == "lora_rank":
        return "LoRA fine-tune Qwen2.5-7B on 8 A100", "LoRA 微调 Qwen2.5-7B，8 张 A100"
    if field in ("num_generations", "max_completion_length", "rollout_tp"):
        return "GRPO on Qwen2.5-7B with 8 H100", "GRPO 训练 Qwen2.5-7B，8 张 H100"
    return "Full fine-tune Qwen2.5-7B on 8 A100", "全参微调 Qwen2.5-7B，8 张 A100"


NUMERIC = ("int", "float", "epochs", "generations", "zero_stage")
ROWS = [
    (tool, key, field)
    for tool, rows in MEANING.items()
    for key, (field, conv) in rows.items()
    if conv in NUMERIC
    and field in VALUES
    and not (tool == "llama.cpp" and key in ("-c", "--ctx-size"))
    and SHARED_DEFAULT.get(bare(key), tool) == tool  # axolotl's batch_size: tests/test_meaning_review.py
]


def _forms(tool: str, key: str, field: str) -> list[str]:
    en, zh = _context(tool, field)
    value = VALUES[field]
    if key.startswith("-"):
        return [f"{en}\n{key} {value}", f"{en}, with {key} {value}", f"{zh}，用了 {key} {value}"]
    if len(key) == 1:  # peft's 'r': a letter alone in a sentence is no key, only 'r=8' is
        return [f"{en}\n{key}: {value}", f"{en}, {key}={value}", f"{zh}，{key}={value}"]
    return [f"{en}\n{key}: {value}", f"{en}, {key} set to {value}", f"{zh}，{key} 是 {value}"]


@pytest.mark.parametrize(("tool", "key", "field"), ROWS, ids=[f"{t}:{k}" for t, k, _ in ROWS])
def test_every_numeric_row_is_read_pasted_and_in_prose(
    capsys: pytest.CaptureFixture[str], tool: str, key: str, field: str
) -> None:
    for text in _forms(tool, key, field):
        request = ask_in_process(capsys, "ask", "--format", "json", text)["request"]
        assert request[field] == VALUES[field], text


ACCUMULATION_ROWS = [
    (t, k) for t, rows in MEANING.items() for k, (_, conv) in rows.items() if conv == "accumulation"
]


@pytest.mark.parametrize(("tool", "key"), ACCUMULATION_ROWS)
def test_every_accumulation_row_makes_the_global_batch(
    capsys: pytest.CaptureFixture[str], tool: str, key: str
) -> None:
    """micro 2 × accumulation 6 × 8 data-parallel GPUs = 96 sequences per step."""
    for text in (
        f"Full fine-tune Llama-3-8B on 8 H100, batch size per gpu 2, {key} set to 6",
        f"全量微调 Llama-3-8B，8 张 H100，每卡 batch 2，用了 {key}=6",
    ):
        request = ask_in_process(capsys, "ask", "--format", "json", text)["request"]
        assert (request["batch_size"], request["global_batch"]) == (2, 96), text


# -- 3. a real config from a new tool's own examples --------------------------------------------------------


def test_verl_grpo_example_script_is_read_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    """volcengine/verl@b178a3c examples/grpo_trainer/run_deepseek7b_llm.sh: its Hydra overrides, through
    the verl rows (sequence = max_prompt_length 512 + max_response_length 1024; GPUs = 8 per node × 1)."""
    script = (CONFIGS / "verl" / "run_deepseek7b_llm.sh").read_text()
    data = ask_in_process(capsys, "ask", "--format", "json", "How much memory per GPU for this?\n" + script)
    request = data["request"]
    want = {
        "stage": "finetune", "method": "full", "model": "DeepSeek-LLM-7B", "gpu_count": 8, "seq_len": 1536,
        "batch_size": 80, "algorithm": "grpo", "epochs": 15.0, "offload": False, "recompute": "full",
        "global_batch": 1024, "num_generations": 5, "max_completion_length": 1024, "rollout_tp": 2,
    }  # fmt: skip
    assert {k: request[k] for k in want} == want
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named["actor_rollout_ref.actor.ppo_mini_batch_size: 256"] == "no_field"
    # the rollout engine's own share is used (s11 review 8): its usable memory, not vLLM's default 0.9
    assert request["rollout_gpu_memory_utilization"] == 0.6
    assert "actor_rollout_ref.rollout.gpu_memory_utilization: 0.6" not in named
    assert "actor_rollout_ref.actor.fsdp_config.param_offload: False" not in named  # used: no offload
    assert named["actor_rollout_ref.actor.optim.lr: 1e-06"] == "not_sized"  # verl's own key, not unknown
    assert "unknown_key" not in named.values() and "unread" not in named.values()


# -- 4. a boolean key after a negation, every row, both languages ------------------------------------------

OFF = {"recompute": "none", "offload_bool": False, "param_offload_bool": False}
BOOLEAN_ROWS = [(t, k, f, c) for t, rows in MEANING.items() for k, (f, c) in rows.items() if c in OFF]


@pytest.mark.parametrize(
    ("tool", "key", "field", "conv"), BOOLEAN_ROWS, ids=[f"{r[0]}:{r[1]}" for r in BOOLEAN_ROWS]
)
def test_every_boolean_row_is_turned_off_by_a_negation(
    capsys: pytest.CaptureFixture[str], tool: str, key: str, field: str, conv: str
) -> None:
    """'without gradient_checkpointing', '没开 --adam_offload': the key's field set to off (before, the
    prose read the key's name alone as on: recompute full, offload on)."""
    for text in (
        f"Full fine-tune Qwen2.5-7B on 8 A100 without {key}",
        f"全参微调 Qwen2.5-7B，8 张 A100，没开 {key}",
    ):
        request = ask_in_process(capsys, "ask", "--format", "json", text)["request"]
        want = "full" if key.startswith("disable_") else OFF[conv]  # not disabling: on
        assert request[field] == want, text
