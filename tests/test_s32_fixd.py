"""Session 32, fixes after a fresh-user trial (s32-fixd): sentences of our own, never corpus records, in
both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.parse import parse


def _ask(capsys, question: str, fmt: str = "text") -> str:
    main(["ask", "--format", fmt, "--", question])
    return capsys.readouterr().out


# -- item 6: a pasted torchrun command with nothing that shards is plain DDP, as the prose is -------------

COMMAND_DDP = [
    "torchrun --nproc_per_node 4 run_sft.py, full fine-tune Qwen2-7B on 4 A100 80GB, enough memory?",
    "torchrun --nproc_per_node=8 sft.py 全参微调 Qwen2-7B，8 张 A800 80G 显存够吗",
]


@pytest.mark.parametrize("text", COMMAND_DDP)
def test_pasted_torchrun_command_is_plain_ddp(capsys, text: str) -> None:
    import json

    req = json.loads(_ask(capsys, text, "json"))["request"]  # the whole path: the command read first
    assert req["training_tool"] == "PyTorch DDP"
    assert req["gpu_count"] in (4, 8)


COMMAND_SHARDED = [
    "torchrun --nproc_per_node 4 run_sft.py --fsdp full_shard, full fine-tune Qwen2-7B on 4 A100 80GB",
    "torchrun --nproc_per_node=8 sft.py --deepspeed ds_zero3.json 全参微调 Qwen2-7B，8 张 A800",
]


@pytest.mark.parametrize("text", COMMAND_SHARDED)
def test_pasted_torchrun_command_that_shards_is_not_ddp(capsys, text: str) -> None:
    import json

    assert json.loads(_ask(capsys, text, "json"))["request"]["training_tool"] != "PyTorch DDP"


# -- item 7: the prose reader stays under the module cap ---------------------------------------------------


def test_prose_vocab_under_the_cap() -> None:
    path = Path(__file__).resolve().parents[1] / "bot" / "parse" / "prose_vocab.py"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


# -- item 8: a bare 'Titan' names the card only before a card word or no Latin word ---------------------

TITAN_CARD = [
    ("LoRA 13B on 4 Titan GPUs", 4),
    ("2 Titans for LoRA 13B", 2),
    ("4 块 Titan 全参微调 6B", 4),
    ("用 2 张 Titan 显卡跑 7B 推理", 2),
]


@pytest.mark.parametrize(("text", "count"), TITAN_CARD)
def test_bare_titan_is_the_titan_rtx(text: str, count: int) -> None:
    parsed = parse(text)
    assert (parsed.unknown_gpu.lower().rstrip("s"), parsed.request.gpu_count) == ("titan", count)
    from estimator.gpu_families import family_flagship

    assert family_flagship(parsed.unknown_gpu) == "Titan-RTX"


TITAN_NOT_CARD = [
    "Can the Titan Ridge dock run a 7B model",
    "Titan Ridge 扩展坞能跑 7B 吗",
    "my Titan Ridge controller box, serve a 7B model",
]


@pytest.mark.parametrize("text", TITAN_NOT_CARD)
def test_titan_ridge_is_no_card(text: str) -> None:
    parsed = parse(text)
    assert parsed.request.gpu != "Titan-RTX"  # no card of the Titan family
    assert (parsed.unknown_gpu or "").lower() == "titan ridge"  # s33 #5: named as typed, not sized in silence


# -- item 1: a family word read as its one catalog card is said once as read, never "no card matches" -----

TITAN_READ = [
    (
        "Full fine-tune a 6B model on 4 Titan GPUs",
        "Read “Titan” as the Titan RTX (24 GB)",
        "No card in my catalog",
    ),
    ("2 块 Titan 跑 LoRA 13B", "把“Titan”按 Titan RTX（24 GB）估算", "目录里没有与这个名字对应的卡"),
]


@pytest.mark.parametrize(("text", "said", "not_said"), TITAN_READ)
def test_titan_read_as_the_titan_rtx_without_contradiction(
    capsys, text: str, said: str, not_said: str
) -> None:
    out = _ask(capsys, text)
    assert said in out
    assert not_said not in out
    assert "not in my catalog" not in out.split("\n")[1] and "不在我的目录中" not in out


# -- item 5: a GPU-hour figure under 10 keeps a meaningful decimal, never a bare '1' ----------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_small_gpu_hours_keep_a_decimal(lang: str) -> None:
    from bot.render.fmt import fmt_for

    f = fmt_for(lang)
    assert [f.hours(h) for h in (1.02, 0.996, 2.04, 1.34, 0.62, 1.0, 3.0, 12.4)] == [
        "1.0", "1.0", "2.0", "1.3", "0.62", "1", "3", "12",
    ]  # fmt: skip


SMALL_JOBS = [
    ("DPO on Qwen2-7B with 15k preference pairs, which GPU is cheapest?", "GPU-hours:"),
    ("用 1.5 万对偏好数据 DPO 训练 Qwen2-7B，哪张卡最便宜", "GPU 时长"),
]


@pytest.mark.parametrize(("text", "mark"), SMALL_JOBS)
def test_small_job_range_has_no_bare_one(capsys, text: str, mark: str) -> None:
    import re

    line = next(x for x in _ask(capsys, text).splitlines() if mark in x)
    figures = re.findall(r"(?<![\d.%])(\d+(?:\.\d+)?)(?![\d.%])", line.split("MFU", 1)[1])
    assert figures and all("." in x for x in figures), line
