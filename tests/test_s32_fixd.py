"""Session 32, fixes after a fresh-user trial (s32-fixd): sentences of our own, never corpus records, in
both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.parse import parse

# -- item 6: a pasted torchrun command with nothing that shards is plain DDP, as the prose is -------------

COMMAND_DDP = [
    "torchrun --nproc_per_node 4 run_sft.py, full fine-tune Qwen2-7B on 4 A100 80GB, enough memory?",
    "torchrun --nproc_per_node=8 sft.py 全参微调 Qwen2-7B，8 张 A800 80G 显存够吗",
]


@pytest.mark.parametrize("text", COMMAND_DDP)
def test_pasted_torchrun_command_is_plain_ddp(text: str) -> None:
    req = parse(text).request
    assert req.training_tool == "PyTorch DDP"
    assert req.gpu_count in (4, 8)


COMMAND_SHARDED = [
    "torchrun --nproc_per_node 4 run_sft.py --fsdp full_shard, full fine-tune Qwen2-7B on 4 A100 80GB",
    "torchrun --nproc_per_node=8 sft.py --deepspeed ds_zero3.json 全参微调 Qwen2-7B，8 张 A800",
]


@pytest.mark.parametrize("text", COMMAND_SHARDED)
def test_pasted_torchrun_command_that_shards_is_not_ddp(text: str) -> None:
    assert parse(text).request.training_tool != "PyTorch DDP"


# -- item 7: the prose reader stays under the module cap ---------------------------------------------------


def test_prose_vocab_under_the_cap() -> None:
    path = Path(__file__).resolve().parents[1] / "bot" / "parse" / "prose_vocab.py"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500
