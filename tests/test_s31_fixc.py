"""Session 31 fix C: 'can I run X on my card' answered on the user's one personal card (trial s31).

A model named without a precision on one personal card (a GeForce card, count said as one or assumed)
that does not fit there even in 4-bit: the answer is GGUF Q4_K_M via llama.cpp with the layers that do
not fit kept in CPU memory (estimator.layer_offload), not bf16 on N cards. Figures: Qwen3-30B-A3B has
30.5B parameters (Qwen/Qwen3-30B-A3B config.json), 48 layers; Llama 3.1 70B 70.6B, 80 layers; Q4_K_M is
~4.85 bits per weight (llama.cpp quantize table), so 18.5 GB and 42.5 GB of weights.
"""

from __future__ import annotations

import json

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _headline(out: dict) -> str:
    return out["reply"].splitlines()[0]


def test_moe_on_one_3060_english_runs_q4_with_cpu_offload(capsys):
    out = _ask(capsys, "can I run Qwen3-30B-A3B on my 3060 12GB?")
    inf = out["report"]["inference"]
    assert inf["weight_format"] == "q4_k_m"
    assert inf["runtime"] == "llama.cpp"
    assert round(inf["weights_bytes"] / 1e9, 1) == 18.5
    split = inf["layer_split"]
    assert split["fits_gpu"] is True and split["layers"] == 48 and 0 < split["gpu_layers"] < 48
    assert split["tokens_per_s_low"] > 10  # an MoE's 3B active parameters: tens of tokens/s
    head = _headline(out)
    assert "Q4_K_M" in head and "1 × RTX 3060" in head and "tokens/s" in head
    assert "bf16" not in head and "does not fit" not in head


def test_dense_70b_on_my_4090_chinese_runs_q4_with_cpu_offload(capsys):
    out = _ask(capsys, "Llama 3.1 70B 在我的 4090 上能跑吗")
    inf = out["report"]["inference"]
    assert inf["weight_format"] == "q4_k_m"
    assert round(inf["weights_bytes"] / 1e9, 1) == 42.5
    split = inf["layer_split"]
    assert split["fits_gpu"] is True and split["layers"] == 80 and split["gpu_layers"] < 80
    head = _headline(out)
    assert "Q4_K_M" in head and "1 张 RTX 4090" in head and "token/s" in head
    assert "bf16" not in head and "放不下" not in head


def test_moe_on_3060_chinese_single_card_said(capsys):
    out = _ask(capsys, "一张 3060 12G 能跑 Qwen3-30B-A3B 吗")
    inf = out["report"]["inference"]
    assert inf["weight_format"] == "q4_k_m"
    assert "Q4_K_M" in _headline(out) and "1 张 RTX 3060" in _headline(out)


def test_how_many_cards_keeps_the_released_weights(capsys):
    """'How many 4090s for Llama 3.1 70B' asks a count, not about one card: bf16 across cards, as before."""
    inf = _ask(capsys, "Llama 3.1 70B 需要几张 4090")["report"]["inference"]
    assert inf["weight_format"] == "bf16"
    assert inf["min_gpus"] > 1


def test_named_server_keeps_the_released_weights(capsys):
    """vLLM named: it loads the released weights, so bf16 across cards, as before."""
    inf = _ask(capsys, "can I run Llama 3.1 70B on my 4090 with vLLM?")["report"]["inference"]
    assert inf["weight_format"] == "bf16"


def test_rest_beyond_a_home_machines_ram_keeps_the_released_weights(capsys):
    """405B in Q4_K_M (≈ 245 GB) leaves ≈ 206 GiB for CPU memory on a 24 GB card: more than a home machine's
    128 GiB taken when none is said, so the answer stays the cards it needs."""
    inf = _ask(capsys, "Llama 3.1 405B 在我的 4090 上能跑吗")["report"]["inference"]
    assert inf["weight_format"] == "bf16"


def test_stated_ram_holding_the_rest_runs_q4(capsys):
    out = _ask(capsys, "can I run Llama 3.1 405B on my 4090 with 256GB RAM?")
    inf = out["report"]["inference"]
    assert inf["weight_format"] == "q4_k_m"
    assert inf["layer_split"]["host_bytes"] / 2**30 > 200  # the rest, in the 256 GiB stated


def _sizes(out: dict) -> dict[str, dict]:
    return {s["size"]: s for s in out["family_fits"]["sizes"]}


def test_family_on_my_4090_english_shows_70b_in_q4_with_cpu_offload(capsys):
    """Llama 3 on one 4090: 70B in the weights used on that card, Q4_K_M (46.1 GB with 4K of KV cache
    and llama.cpp's buffers), running with ~19.8 GB in CPU memory — not bf16's 16 cards."""
    out = _ask(capsys, "which Llama 3 fits on my 4090?")
    big = _sizes(out)["70B"]
    assert big["weight_format"] == "q4_k_m" and big["fits"] is False and big["runtime"] == "llama.cpp"
    low, high = big["offload_tokens_per_s"]
    assert 1 < low < high < 5  # 70B dense, layers in dual-channel DDR4/DDR5: a few tokens/s
    assert round(big["host_bytes"] / 1e9, 1) == 19.8
    line = next(li for li in out["reply"].splitlines() if li.startswith("• 70B"))
    assert "runs with CPU offload (Q4_K_M, 46.1 GB: 19.8 GB in CPU memory" in line
    assert "bf16" not in line


def test_family_on_3060_chinese_lists_every_size_in_its_local_weights(capsys):
    out = _ask(capsys, "千问2.5 哪些尺寸能在 3060 12G 上跑")
    sizes = _sizes(out)
    for s in sizes.values():
        if not s["fits"]:
            assert s["weight_format"] == "q4_k_m"  # comparable: no bf16 row among those that do not fit
    assert sizes["32B"]["offload_tokens_per_s"] is not None  # 32B Q4_K_M ≈ 20 GB: 12 GB card + RAM
    line = next(li for li in out["reply"].splitlines() if li.startswith("• 32B"))
    assert "CPU 内存" in line and "Q4_K_M" in line and "token/s" in line


def test_family_usable_memory_figures_say_their_runtime(capsys):
    """Rows sized for llama.cpp (no share cap) and for vLLM (90 %) show different usable memory: each
    names its runtime (one answer, two figures, the reason said)."""
    lines = _ask(capsys, "Qwen3 哪些尺寸能在 3060 12G 上跑")["reply"].splitlines()
    fits = [li for li in lines if "放得下（" in li]
    assert len(fits) >= 2
    assert all("llama.cpp" in li or "vLLM" in li for li in fits)
    english = _ask(capsys, "which Llama 3 fits on my 4090?")["reply"].splitlines()
    # one figure only: no runtime named. s36: the need beside the usable memory, both without the CUDA
    # context (weights 16.06 + KV 0.54 + workspace 1.09 = 17.7 GB; it was 18.8 with the 1.07 GB context)
    assert "• 8B: fits (bf16, 17.7 GB of 23.0 GB)" in english
