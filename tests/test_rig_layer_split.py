"""A machine of different cards on llama.cpp or Ollama holds the sum of their memory (session 19, trial 19b
E-item 1: 'a 4090 plus a 3060 12GB … Qwen2.5-32B Q4_K_M in Ollama with 32k context' said "it does not
start … at least 2 of these GPUs" although the user has two). llama.cpp's default split is by each device's
free memory (src/llama-model.cpp, "default split, by free memory"), so 24 + 12 GiB = 36 GiB is sized as
2 cards of 18 GiB each; vLLM/SGLang tensor parallelism stays sized on the smaller card."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, named

E1 = (
    "I have a 4090 plus a 3060 12GB in the same box. Can I run Qwen2.5-32B Q4_K_M in Ollama with 32k context?"
)
Z1 = "我的电脑里一张 4090 加一张 3060 12G，用 ollama 跑 qwen2.5-32b q4_k_m，32k 上下文行吗"


@pytest.mark.parametrize("text", [E1, Z1])
def test_a_rig_on_ollama_is_sized_on_its_summed_memory(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask_in_process(capsys, text)
    request = answer["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_memory_gib"]) == ("RTX-4090", 2, 18.0)
    assert named(answer)["RTX 3060 12GB"] == "mixed_rig_sum"  # s45: its typed 12G, part of the 36 GiB summed
    head = answer["reply"].splitlines()[0]
    assert "36 GiB" in head and "18 GiB" in head
    assert "RTX 4090 + RTX 3060" in head
    assert "does not" not in head and "放不下" not in head


def test_a_rig_on_vllm_stays_sized_on_the_smaller_card(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask_in_process(capsys, E1.replace("Ollama", "vLLM"))
    assert (answer["request"]["gpu"], answer["request"]["gpu_count"]) == ("RTX-3060", 2)
    assert "mixed_rig_sum" not in named(answer).values()
