"""ZeRO stage 0 is PyTorch DDP with no sharding (Rajbhandari et al. 2020 §5: stages 1–3 partition optimizer
states, gradients, parameters): the answer says "plain DDP (no ZeRO)", never "ZeRO-0" (s22 closing, left)."""

from __future__ import annotations

from tests.cli_run import ask_quietly

EN = "7B full fine-tune on 8 A100 80G, plain DDP (no DeepSpeed), 1B tokens"
ZH = "7B 全参微调，8张A100，纯 DDP，10亿 token"


def test_plain_ddp_headline_and_layout_en() -> None:
    text = ask_quietly(EN)
    assert text.splitlines()[0] == "7B full fine-tuning (plain DDP without ZeRO) does not fit on 8 × A100 80G"
    assert "TP 1 × PP 1 × DP 8, plain DDP (no ZeRO), selective recompute" in text
    assert "ZeRO-0" not in text


def test_plain_ddp_headline_and_layout_zh() -> None:
    text = ask_quietly(ZH)
    assert text.splitlines()[0] == "7B 全参微调（不用 ZeRO 的纯 DDP）：8 张 A100 80G 放不下"
    assert "TP 1 × PP 1 × DP 8，纯 DDP（不用 ZeRO），选择性重计算" in text
    assert "ZeRO-0" not in text
