"""s24 fresh-user trial findings (trfix part): the host RAM a CPU offload needs said with no RAM stated
(#6); more below as they are fixed."""

from __future__ import annotations

import pytest
from cli_run import ask_json, ask_text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "全参微调 Qwen2.5-14B，deepspeed zero3 + offload，8张4090 24G，能跑起来吗？每卡显存多少",
            "CPU 卸载每台机器需要约 353 GB 的主机内存（服务器的内存，不是显存）",
        ),
        (
            "full fine-tune Qwen2.5-14B with DeepSpeed ZeRO-3 + CPU offload on 8 RTX 4090 24GB: does it fit?",
            "CPU offload needs ≈ 353 GB of host RAM per machine (the server's RAM, besides the GPUs)",
        ),
    ],
)
def test_offload_says_the_host_ram_it_needs(question: str, said: str) -> None:
    """#6: DeepSpeed's estimate_zero3_model_states_mem_needs with optimizer offload, 14.77B × 16 B × 1.5 on
    one machine ≈ 353 GB (report.host_ram), more than a typical 8 × 4090 box's 128–256 GB: said in the
    text, not only in the JSON."""
    assert said in ask_text(question)
    assert ask_json(question)["report"]["host_ram"]["needed_bytes"] == pytest.approx(352.8e9, rel=0.01)
