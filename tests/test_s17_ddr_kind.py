"""Trial s17 #6: 'DDR5 双通道' beside a llama.cpp/Ollama layer split still showed a host-bandwidth range from
DDR4-3200. A RAM kind said without its rate narrows the range to that generation's JEDEC rates × the
channels (estimator.host_ddr: DDR4 2,400–3,200, DDR5 4,800–5,600 MT/s; 8 bytes a channel), and the RAM
size said after it ('内存 DDR5 双通道 128G') is read, not left unread."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.host_ddr import ddr_band

CASES = [
    ("用 llama.cpp -ngl 40 在一张 RTX 4090 上跑 Qwen2.5-72B Q4_K_M，内存 DDR5 双通道 128G，速度多少？",
     5, 2, 128, (76.8e9, 89.6e9), "2 通道 DDR5，按常见频率 4,800–5,600 MT/s"),
    ("llama.cpp with -ngl 40 on one RTX 4090 for Qwen2.5-72B Q4_K_M, 128GB DDR4 RAM in quad channel. Speed?",
     4, 4, 128, (76.8e9, 102.4e9), "4-channel DDR4 at its common speeds, 2,400–3,200 MT/s"),
    ("Ollama on an RTX 3090 with num_gpu 30 for Llama-3.1-70B Q4_K_M, 64GB DDR5. How fast?",
     5, None, 64, (76.8e9, 89.6e9), "2-channel DDR5"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "ddr", "channels", "ram", "band", "words"), CASES)
def test_the_ram_kind_narrows_the_host_bandwidth(capsys, question, ddr, channels, ram, band, words):
    main(["ask", "--format", "json", question])
    d = json.loads(capsys.readouterr().out)
    req, split = d["request"], d["report"]["inference"]["layer_split"]
    assert (req["host_ddr"], req["host_channels"], req["host_memory_gib"]) == (ddr, channels, ram)
    assert (split["host_bandwidth_low"], split["host_bandwidth_high"]) == pytest.approx(band)
    assert split["host_bandwidth_basis"] == "ddr"
    assert not [i for i in d["interpretation"]["ignored"] if i["text"] == str(ram)]
    main(["ask", question])
    assert words in capsys.readouterr().out


def test_a_rate_said_is_still_one_figure(capsys):
    main(
        ["ask", "--format", "json", "llama.cpp -ngl 40, RTX 4090, Qwen2.5-72B Q4_K_M, DDR5-6000 dual channel"]
    )
    split = json.loads(capsys.readouterr().out)["report"]["inference"]["layer_split"]
    assert split["host_bandwidth_low"] == split["host_bandwidth_high"] == pytest.approx(96e9)
    assert split["host_bandwidth_basis"] == "stated"


def test_ddr_band():
    assert ddr_band(5, None) == pytest.approx((76.8e9, 89.6e9))
    assert ddr_band(4, 8) == pytest.approx((153.6e9, 204.8e9))
    assert ddr_band(None, 4) == pytest.approx((102.4e9, 179.2e9))  # DDR4-3200 to DDR5-5600, 4 channels
    assert ddr_band(None, None) is None
