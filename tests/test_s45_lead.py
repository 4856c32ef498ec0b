"""Session 45 (lead): consumer cards people ask about that the catalog lacked (round 41's zh part saw
'RTX 3080 Ti 跑 Qwen3-8B' sized on an A100 for reference). Values from NVIDIA's GeForce spec pages
(SM count × boost × 512 FLOPs a clock an SM with FP32 accumulate, the GA10x/Blackwell GeForce rate;
bandwidth = bus width × data rate), each entry's ``source`` in estimator/data/gpus.toml."""

from __future__ import annotations

import pytest

from estimator import catalog
from tests.cli_run import ask_json_in_process


@pytest.mark.parametrize(
    ("gpu_id", "tflops", "memory_gib", "bandwidth"),
    [
        ("RTX-3080-Ti", 68.2, 12, 912),  # 80 SMs × 1.665 GHz × 512; 384-bit × 19 Gbps
        ("RTX-3070-Ti", 43.5, 8, 608),  # 48 × 1.77 × 512; 256-bit × 19 Gbps
        ("RTX-5060-Ti-16GB", 47.4, 16, 448),  # 36 × 2.572 × 512 = 759 AI TOPS / 16; 128-bit × 28 Gbps
        ("RTX-5070", 61.7, 12, 672),  # 48 × 2.512 × 512 = 988 / 16; 192-bit × 28 Gbps
    ],
)
def test_the_cards_values(gpu_id: str, tflops: float, memory_gib: int, bandwidth: int) -> None:
    gpu = catalog.gpu(gpu_id)
    assert gpu.peak_tflops_bf16 == tflops
    assert gpu.memory_gib == memory_gib
    assert gpu.memory_bandwidth_gbps == bandwidth


@pytest.mark.parametrize(
    ("text", "gpu_id"),
    [
        ("RTX 3080 Ti 跑 Qwen3-8B 够吗", "RTX-3080-Ti"),
        ("can a 3080 Ti run Qwen3-8B?", "RTX-3080-Ti"),
        ("3070ti 能跑 7B 模型吗", "RTX-3070-Ti"),
        ("5060 Ti 16G 能跑 Qwen3-8B 吗", "RTX-5060-Ti-16GB"),
        ("will an RTX 5070 run Qwen3-8B?", "RTX-5070"),
        # must not misread: the Ti and the plain cards stay their own
        ("will an RTX 5070 Ti run Qwen3-8B?", "RTX-5070-Ti"),
        ("can an RTX 3080 run Qwen3-8B?", "RTX-3080-10GB"),
        ("RTX 3070 跑 Qwen3-8B 够吗", "RTX-3070"),
    ],
)
def test_the_card_asked_is_the_card_sized(text: str, gpu_id: str) -> None:
    report = ask_json_in_process(text)
    assert report["request"]["gpu"] == gpu_id
    assert report["interpretation"]["unknown_gpu"] is None


@pytest.mark.parametrize(
    ("text", "title_part"),
    [
        ("Qwen2.5-14B推理 一张4090够吗", "Qwen2.5 14B Q8_0"),
        ("Can one RTX 4090 serve Qwen2.5-14B?", "Qwen2.5 14B Q8_0"),
    ],
)
def test_dingtalk_title_keeps_an_escaped_underscore(
    capsys: pytest.CaptureFixture[str], text, title_part
) -> None:
    """The chat list's title is plain text: the headline's escaped 'Q8\\_0' is 'Q8_0', not 'Q8\\0'
    (s45 trial #8)."""
    import json

    from bot.cli import main
    from bot.dingtalk.card import plain_title

    assert main(["preview", "dingtalk", text]) == 0
    sent = json.loads(capsys.readouterr().out)[0]["send"][0]
    assert title_part in sent["markdown"]["title"]
    assert "\\" not in sent["markdown"]["title"]
    assert plain_title("**a\\_b** *c*") == "a_b c"  # markup dropped, the escaped character kept
