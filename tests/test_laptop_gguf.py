"""A laptop card on llama.cpp with no format said (session 19, trial 19b item 3).

'笔记本是 3050Ti Laptop 4G，16G 内存，能本地跑 qwen2.5-7b 吗？用 llama.cpp' sized bf16 weights (15.2 GB) on a
4 GB card, read the speed at an A100's 2,039 GB/s, printed '约 ? token/s' and suggested '5 张 3050Ti'. Now:
Q4_K_M (4.85 bits a weight: Qwen2.5-7B's 7.6B → 4.6 GB with 16-bit embeddings), partial offload to the
16 GB of RAM, no speed for a card known by its memory only, no 'n cards' alternative."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process

ZH = "笔记本是 3050Ti Laptop 4G，16G 内存，能本地跑 qwen2.5-7b 吗？用 llama.cpp"
EN = "My laptop has a 3050 Ti Laptop 4GB and 16GB RAM. Can I run qwen2.5-7b locally with llama.cpp?"


@pytest.mark.parametrize("text", [ZH, EN])
def test_a_laptop_card_on_llama_cpp_gets_q4_k_m_with_offload_and_no_borrowed_speed(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask_in_process(capsys, text)
    # Q4_K_M, not 2.0: Qwen2.5-7B's tensor mix (estimator.gguf_mix, s23) 4.91 bits; published file 4.68 GB
    assert answer["report"]["inference"]["bytes_per_param"] == pytest.approx(0.614, abs=0.001)
    assert "Q4_K_M" in answer["reply"].splitlines()[0]  # as llama.cpp writes it (s24 review #5)
    split = answer["report"]["inference"]["layer_split"]
    assert split["gpu_bandwidth"] == 0.0 and split["tokens_per_s_low"] is None
    assert 0 < split["gpu_layers"] < split["layers"] == 28  # Qwen2.5-7B: 28 layers, some kept on the CPU
    reply = answer["reply"]
    assert "? token" not in reply and "约 ?" not in reply and "≈ ?" not in reply
    assert "2,039" not in reply and "token/s" not in reply.split("\n\n")[0]
    rest = reply.split("\n", 1)[1]  # the headline's '1 张 3050Ti' / '1 × 3050 Ti' is the laptop's one card
    assert "张 3050" not in rest and "× 3050" not in rest
