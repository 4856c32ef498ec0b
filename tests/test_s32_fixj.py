"""Session 32 fix J: a PyTorch launch's count is the user's (fresh-user trial item 1).

'torchrun --nproc_per_node 8 finetune.py, 70B LoRA' read as plain DDP, which does not fit: the answer
said so, then "Recommended 4 GPUs" with ZeRO-3 beside the 8 the launch starts. The recommendation stays
at the launched count (--nproc_per_node × --nnodes), with the plan that fits there."""

from __future__ import annotations

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> str:
    main(["ask", "--format", "text", "--", question])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("question", "gpus", "head", "rec"),
    [
        (
            "torchrun --nproc_per_node 8 sft.py: LoRA of a 70B model on A100 80G",
            8,
            "plain DDP",
            "Recommended 8 GPUs",
        ),
        (
            "用 torchrun --nproc_per_node=8 启动 train.py，对 70B 模型做 LoRA 微调，A100 80G",
            8,
            "纯 DDP",
            "推荐 8 张",
        ),
        (
            "torchrun --nnodes 2 --nproc_per_node 8 train.py, LoRA of a 70B model",
            16,
            "plain DDP",
            "Recommended 16 GPUs",
        ),
    ],
)
def test_launched_count_is_recommended(capsys, question, gpus, head, rec):
    out = _ask(capsys, question)
    lines = out.splitlines()
    assert "PyTorch DDP" in lines[0] and head in lines[0]
    assert f"{gpus}" in lines[0]
    recs = [ln for ln in lines if ln.startswith("• Recommended") or ln.startswith("• 推荐")]
    assert recs and all(ln.startswith("• " + rec) for ln in recs), recs


def test_launched_count_from_pasted_command(capsys, tmp_path):
    config = tmp_path / "launch.sh"
    config.write_text("torchrun --nproc_per_node 8 finetune.py\n")
    main(["ask", "--config", str(config), "--format", "text", "--", "70B LoRA on A100 80G"])
    out = capsys.readouterr().out
    assert "8 × A100 80G" in out.splitlines()[0]
    assert "• Recommended 8 GPUs: TP 1 × PP 1 × DP 8, ZeRO-3" in out
    assert "Recommended 4 GPUs" not in out
