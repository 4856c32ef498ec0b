"""Session 43, round 39 en (issue 24): readers for what r39work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages.

- serving engines the sizing has no model of, named (``runtime_not_modelled``): FlexGen
  (github.com/FMInference/FlexLLMGen), Ray Serve's LLM serving (docs.ray.io serve/llm), KubeAI
  (github.com/kubeai-project/kubeai), and MLC written alone or as its chat CLI (github.com/mlc-ai/mlc-llm);
  'ray tracing', 'flexible generation' and an 'MLC-based SSD' name nothing (ipex-llm keeps its naming as typed
  by bot.parse.tool_slots, test_s34_r28en);
- the host's memory said as a total ('the 7.62 GiB total CPU memory') or as what it is raised to ('raise the
  RAM to 100GB', 'CPU 内存加到 100G'); a size the weights move to on the card ('from RAM to 24GB of VRAM') is
  never the host's;
- a Cloud TPU slice written bare ('a v5e-8 (2x4)') or before a full stop ('a TPU v5e-8.') is its chips (v5e
  and v6e names count chips: cloud.google.com/tpu/docs/v5e 'accelerator type'), never a negative '-8'.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


# --- serving engines named as typed -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Serving an 8B Llama with IPEX-LLM's vLLM on two Arc A770s, how fast?", "IPEX-LLM"),
        ("用 IPEX-LLM 在 Arc A770 上跑 Qwen2-7B，速度多少？", "IPEX-LLM"),
        ("How fast is OPT-30B with FlexGen on one RTX 3090 and 64 GB of RAM?", "FlexGen"),
        ("用 FlexGen 在一张 3090 上跑 OPT-30B，内存 64G 够吗？", "FlexGen"),
        ("Ray Serve LLM with Qwen2.5-7B on 8 replicas: what throughput?", "Ray Serve"),
        ("用 Ray Serve 部署 Qwen2.5-7B，8 个副本", "Ray Serve"),
        ("A Llama 3.3 70B profile for one GH200 in KubeAI: is it enough?", "KubeAI"),
        ("Speed report for MLC on a Pixel 8 Pro: a 3B q4f16_1 model decodes at 2.5 tokens/s", "MLC-LLM"),
        ("用 MLC 在手机上跑 Gemma 2B，每秒 4 个 token 正常吗？", "MLC-LLM"),
        ("./mlc_chat_cli --local-id Llama-2-7b-chat-hf-q4f16_1 gives 8 tok/s on my phone", "MLC-LLM"),
    ],
)
def test_an_engine_the_sizing_lacks_is_named(text: str, name: str) -> None:
    """Named, never dropped in silence nor read as another tool."""
    _, ignored = _ask(text)
    assert ("runtime_not_modelled", f"runtime: {name}") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "The ray tracing demo and Llama 3 8B share one RTX 4090: how much memory is left?",
        "Flexible generation lengths: serve Llama 3 8B on one A100 with outputs up to 2048 tokens",
        "光线追踪 (ray tracing) 和 Llama 3 8B 一起跑在 4090 上，显存够吗？",
        "Our SSD is MLC-based; serving Llama 3 8B on one L4, how many users?",
    ],
)
def test_no_engine_from_a_common_word(text: str) -> None:
    _, ignored = _ask(text)
    named = [t for r, t in ignored if r == "runtime_not_modelled"]
    assert not any(t in named for t in ("runtime: Ray Serve", "runtime: FlexGen", "runtime: MLC-LLM"))


# --- the host's memory as a total or as what it is raised to -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Mistral 7B on an RTX 3060 warns that 4.00 GiB of the 7.62 GiB total CPU memory go to swap", 7.62),
        ("Serving Llama 3 8B on one L4, the VM has 32 GB installed system RAM", 32.0),
    ],
)
def test_a_total_host_memory_is_read(text: str, gib: float) -> None:
    request, ignored = _ask(text)
    assert request["host_memory_gib"] == gib or any(t == f"host_memory: {gib:g} GB" for _, t in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning gpt-neo 2.7B on a P100 where I can raise the RAM to 100GB",
        "微调 gpt-neo 2.7B，CPU 内存加到100G还是 OOM",
    ],
)
def test_memory_raised_to_is_the_hosts(text: str) -> None:
    _, ignored = _ask(text)
    assert ("no_field", "host_memory: 100 GB") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "Moving the weights from RAM to 24GB of VRAM on my 4090 for Llama 3 8B",
        "Moving the weights from RAM to 24GB VRAM on my 4090 for Llama 3 8B",
        "微调 Qwen2-7B，把权重从内存搬到 24G 显存的 4090 上",
    ],
)
def test_a_size_on_the_card_is_not_the_hosts(text: str) -> None:
    request, ignored = _ask(text)
    assert request["host_memory_gib"] is None
    assert not any(str(t).startswith("host_memory") for _, t in ignored)
    assert request["gpu"] == "RTX-4090"


# --- Cloud TPU slices written bare or before a full stop ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Deploying Gemma-2B with TGI on a v5e-8 (2x4) fails with NotEnoughMemory", 8),
        ("Serving Gemma-2B with TGI on a TPU v5e-8.", 8),
        ("Gemma-2B 在 v5e-8 上部署报错，显存不够吗", 8),
        ("在 TPU v5e-4 上部署 Gemma-2B。", 4),
        ("Llama 3 8B on TPU v4-8.", 4),  # v4 names count TensorCores, two a chip
    ],
)
def test_a_tpu_slice_is_its_chips(text: str, count: int) -> None:
    request, ignored = _ask(text)
    assert request["gpu"] in ("TPUv5e", "TPUv4") and request["gpu_count"] == count
    assert not any(r == "nonpositive" for r, _ in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tune Llama 2 7B on one A100 with weight decay 1e-8",
        "微调 Llama 2 7B，一张 A100，eps 设为 1e-8",
    ],
)
def test_no_tpu_from_a_small_number(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpu"] == "A100-SXM4-80GB" and request["gpu_count"] == 1


# --- a product-line word between a count and its card -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Serving an 8B Llama with vLLM on two Arc A770s: why is the second card no help?", 2),
        ("用两张 Arc A770 跑 Llama 3 8B，速度多少？", 2),
        ("Fine-tune Llama 2 7B on 4 Tesla V100 cards.", 4),
        ("用 4 张 Tesla V100 微调 Llama 2 7B", 4),
        ("I have 4 GeForce RTX 3090 and want Llama 3 70B.", 4),
    ],
)
def test_a_line_word_keeps_the_count(text: str, count: int) -> None:
    request, _ = _ask(text)
    assert request["gpu_count"] == count


# --- a count with its product in brackets -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        ("Pretraining a 600M model with Megatron-LM on 64 (8*8) 32GB V100s: 4.3 s per iteration", 64, 8),
        ("Pretraining a 600M model on 16 (2x8) A100s, how long for 100B tokens?", 16, 8),
        ("用 64（8*8）张 V100 预训练 600M 模型要多久？", 64, 8),
    ],
)
def test_a_count_with_its_product_is_nodes_times_cards(text: str, count: int, per_node: int) -> None:
    request, ignored = _ask(text)
    assert request["gpu_count"] == count and request["gpus_per_node"] == per_node
    assert not any(r == "unread" for r, _ in ignored)


@pytest.mark.parametrize(
    "text",
    [
        "Pretraining a 600M model on 64 (8*4) V100s, how long?",  # 8*4 is not 64: left as written
        "Serving Llama 3 8B on one A100 for images of 1024 (32x32) patches",  # no card after the brackets
    ],
)
def test_a_product_that_is_not_the_count_is_no_layout(text: str) -> None:
    request, _ = _ask(text)
    assert request["gpus_per_node"] is None and request["gpu_count"] != 32 * 32


# --- a timed run with the time first ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        (
            "My RTX 3080 in the Petals swarm runs llama-65b slowly: about 2 minutes for 200 tokens.",
            200,
        ),
        (
            "My RTX 3080 in the Petals swarm runs llama-65b slowly: 3 s to generate 128 tokens.",
            128,
        ),
        ("我把 RTX 3080 加入 Petals 集群跑 llama-65b，推理还是很慢：大约 2 分钟生成了 200 个 token", 200),
    ],
)
def test_a_timed_run_with_the_time_first_is_its_output(text: str, tokens: int) -> None:
    _, ignored = _ask(text)
    assert ("output_in_context", f"output_tokens: {tokens}") in ignored


@pytest.mark.parametrize(
    "text",
    [
        "My RTX 3080 in the Petals swarm runs llama-65b slowly: 10 seconds for 4096 tokens of prompt.",
        "Fine-tuning Llama 3 8B on 8 A100s takes 5 s for 8192 tokens per step.",
    ],
)
def test_a_prompt_or_a_step_is_no_output(text: str) -> None:
    _, ignored = _ask(text)
    assert not any(str(t).startswith("output_tokens") for _, t in ignored)
