"""s39 fixm: Macs, RAM and llama.cpp answered as they run.

#1 A Mac is one chip: one Mac short of the model in the GPU's default share of its unified memory is
   told so first, then the lever (``sudo sysctl iogpu.wired_limit_mb=N``, N worked out) and the speed on
   that one chip — never "on the 2 GPUs that hold it" — or, where N would leave macOS less than
   MACOS_RESERVE_GIB, the lighter GGUF weights that fit with the share raised.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.mac_lever import MACOS_RESERVE_GIB
from bot.render.renderer import render

# --- #1 a Mac is one chip ----------------------------------------------------------------------------

MAC_EN = "ollama run deepseek-r1:32b on my mac mini m4 pro 24gb, how fast?"
MAC_ZH = "mac mini m4 pro 24g 用ollama跑deepseek-r1:32b 速度多少"


def test_reserve_is_four_gib() -> None:
    assert MACOS_RESERVE_GIB == 4


@pytest.mark.parametrize("text", [MAC_EN, MAC_ZH])
def test_mac_short_of_share_gets_the_lever_not_two_gpus(text: str) -> None:
    """DeepSeek-R1-Distill-Qwen-32B Q4_K_M: 32.5B × 4.85 bits / 8 ≈ 19.7 GB of weights + 4K × 256 KiB of
    fp16 KV ≈ 1.1 GB + 0.1 GB workspace ≈ 19.4 GiB: over the 2/3 × 24 GiB = 16 GB (15 GiB) default share.
    Rounded up to a whole GiB: 20 GiB = 20,480 MiB, leaving 24 − 20 = 4 GiB ≥ the 4 GiB reserve, so the
    lever is offered with the one-chip speed."""
    out = render(answer(text), "text")
    head = out.splitlines()[0]
    assert "GPUs that hold it" not in out and "2 GPU" not in head and "2 张" not in head
    assert "iogpu.wired_limit_mb=20480" in head
    assert "4 GiB" in head and "20 GiB" in head
    assert "8.4" in head  # the same speed as on a 48 GB M4 Pro, where it fits as is (below)
    assert head.index("19.3 GiB") < head.index("wired_limit_mb=20480")  # 'does not fit' first


def test_same_speed_where_it_fits() -> None:
    out = render(answer(MAC_EN.replace("24gb", "48gb")), "text").splitlines()[0]
    assert "fits" in out and "8.4" in out and "wired_limit_mb=" not in out


def test_no_lever_names_lighter_weights() -> None:
    """Qwen2.5-32B Q5_K_M on 24 GB: 32.8B × 5.69 / 8 ≈ 23.3 GB ≈ 21.7 GiB + KV ≈ 22.6 GiB in all: under the
    Mac's 24 GiB (so not 'more than the whole memory') but rounding up to 23 GiB leaves 1 GiB < 4 GiB: no
    lever. Room for weights with the share at 24 − 4 = 20 GiB: ≈ 18.8 GiB ≈ 4.9 bits a weight, so
    Q4_K_M (4.85 bits) is the heaviest GGUF step that fits."""
    head = render(answer("qwen2.5 32b q5_k_m gguf on llama.cpp on a mac mini m4 pro 24gb, how fast?"), "text")
    head = head.splitlines()[0]
    assert "wired_limit_mb=" not in head and "less than 4 GiB" in head
    assert "Q4_K_M weights fit" in head and "tokens/s" not in head


def test_far_beyond_the_mac_unchanged() -> None:
    """19.3 GiB on a 16 GB Mac: more than its whole memory, no lever, no speed (trial2 #12)."""
    out = render(answer("ollama run deepseek-r1:32b on a mac mini m4 16gb, how fast?"), "text")
    head = out.splitlines()[0]
    assert "wired_limit_mb" not in head and "tokens/s" not in head and "9.7 GiB" in head


def test_mac_16g_qwen14b_fits_on_one() -> None:
    """Qwen2.5-14B Q4_K_M: 14.8B × 4.85 / 8 ≈ 8.9 GB + 0.8 GB KV ≈ 9.1 GiB ≤ 2/3 × 16 GiB ≈ 9.7 GiB
    (s39 trial)."""
    out = render(answer("mac mini m4 16g 用ollama跑qwen2.5 14b能跑吗"), "text")
    head = out.splitlines()[0]
    assert "放得下" in head and ("1 张" in head or "一台" in head)
    assert "2 张" not in out
