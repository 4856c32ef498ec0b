"""s38 fixs2: serving answers a fresh-user trial found wrong (continued).

#1 the user's one card first: DeepSeek-R1-Distill-Qwen-32B GPTQ int4 on one RTX 4090 (no context said; the
   reasoning model's 32K does not fit one card) is answered on that card at the longest --max-model-len it
   starts with — KV per token 2 × 64 layers × 8 KV heads × 128 × 2 B = 262,144 B (256 KiB); the KV cache
   of vLLM's start-up log on one 4090 holds 9,568 tokens → 9 × 1,024 = 9,216 — and the 32K option
   (2 × RTX 4090, TP=2) is said beside it; the KV-cache line and the concurrency line are both at 9K on
   one GPU. A stated context, a stated count that fits, or weights that do not fit one card: unchanged.

#3 a fork's ledger lines name the fork: Aphrodite (PygmalionAI/aphrodite-engine, a vLLM fork whose
   ``EngineArgs.gpu_memory_utilization`` is 0.90) reads "Aphrodite default gpu_memory_utilization = 0.9
   (a fork of vLLM …)", not "vLLM default …", in both locales; vLLM's own line is unchanged.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator.runtimes import RUNTIMES, Aphrodite, Vllm

APHRODITE_EN = "serve Llama-3.1-8B with aphrodite-engine on one A100"
APHRODITE_ZH = "用 aphrodite 在一张 A100 上部署 Llama-3.1-8B"


def _assumption(text: str, field: str):
    report = answer(text).report
    return next(a for a in report.assumptions if a.field == field)


def test_fork_params_name_the_fork_and_its_upstream() -> None:
    assert Aphrodite().fork_params == {"runtime": "Aphrodite", "upstream": "vLLM"}
    assert Vllm().fork_params == {}
    assert all(rt.fork_params == {} for name, rt in RUNTIMES.items() if name != "Aphrodite")


def test_fork_share_is_vllms_value_under_its_own_reason() -> None:
    share = Aphrodite().utilization_assumed(None, 1, None)  # type: ignore[arg-type]
    assert share is not None and share.value == 0.9 and share.why == "fork_utilization"
    assert Vllm().utilization_assumed(None, 1, None).why == "vllm_utilization"  # type: ignore[arg-type,union-attr]
    assert Aphrodite(0.8).utilization_assumed(None, 1, None) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, share_line, workspace_line",
    [
        (
            APHRODITE_EN,
            "Aphrodite default gpu_memory_utilization = 0.9 (a fork of vLLM, with its default)",
            "what Aphrodite's start-up profiling keeps besides weights and KV cache, sized as in vLLM",
        ),
        (
            APHRODITE_ZH,
            "Aphrodite 默认 gpu_memory_utilization = 0.9（它是 vLLM 的分支，沿用其默认值）",
            "Aphrodite 启动时的显存剖析在权重和 KV 缓存之外保留的部分，按它所分支的 vLLM 计算",
        ),
    ],
)
def test_aphrodite_assumptions_name_aphrodite(text: str, share_line: str, workspace_line: str) -> None:
    reply = render(answer(text), "text")
    assert share_line in reply and workspace_line in reply
    assert "vLLM default gpu_memory_utilization" not in reply and "vLLM 默认" not in reply
    a = _assumption(text, "gpu_memory_utilization")
    assert a.value == 0.9 and a.why == "fork_utilization"


def test_vllm_keeps_its_own_line() -> None:
    reply = render(answer("serve Llama-3.1-8B with vLLM on one A100"), "text")
    assert "vLLM default gpu_memory_utilization = 0.9" in reply and "a fork of" not in reply


QWEN32_EN = "DeepSeek-R1-Distill-Qwen-32B GPTQ int4 on one 4090, how many tokens/s for one user?"
QWEN32_ZH = "DeepSeek-R1-Distill-Qwen-32B GPTQ int4 一张4090 单用户每秒多少 token？"
KV_PER_TOKEN = 2 * 64 * 8 * 128 * 2  # layers × KV heads × head size × bf16, K and V


@pytest.mark.parametrize("text", [QWEN32_EN, QWEN32_ZH])
def test_one_card_first_at_its_longest_context(text: str) -> None:
    out = answer(text)
    inf = out.report.inference
    assert inf.kv_bytes_per_token == KV_PER_TOKEN == 262_144
    assert inf.kv_capacity_tokens == 9_568  # vLLM's start-up log on one 4090 (weights 19.2 GB, 0.9 share)
    ctx = _assumption(text, "context")
    assert ctx.value == 9_568 // 1024 * 1024 == 9_216 and ctx.why == "own_cards_context"
    assert out.report.request.seq_len == 9_216 and out.report.request.gpu_count == 1
    assert inf.min_gpus == 1 and inf.tp == 1
    # weights + one 9,216-token sequence within the budget: 19.19 GB + 2.42 GB + workspace ≤ usable
    assert inf.weights_bytes + 9_216 * KV_PER_TOKEN + inf.workspace_bytes_per_gpu <= inf.usable_bytes_per_gpu
    option = next(n for n in out.report.warnings if n.code == "own_cards_option")
    assert (
        option.params["context"] == 32_768
        and option.params["gpus"] == 2
        and option.params["gpu"] == "RTX 4090"
    )
    assert 31 <= option.params["speed"] <= 61  # the 2-GPU answer's one-sequence speed (its 31–61 band)


def test_one_card_first_reply_en() -> None:
    reply = render(answer(QWEN32_EN), "text")
    head = reply.splitlines()[0]
    assert "on 1 × RTX 4090" in head and "does not fit" not in head and "2 GPUs" not in head
    assert "256 KiB per token × 9K context × 1 concurrent = 2.4 GB" in reply  # 9,216 × 262,144 B
    assert "On one GPU: one sequence at a time at 9K context" in reply  # the same layout
    assert "--max-model-len 9216" in reply
    assert (
        "With the 32K context this model is otherwise given (see the assumptions), it needs 2 × RTX 4090"
        in reply
    )


def test_one_card_first_reply_zh() -> None:
    reply = render(answer(QWEN32_ZH), "text")
    assert "1 张 RTX 4090：放得下" in reply.splitlines()[0]
    assert "每 token 256 KiB × 上下文 9K × 并发 1 = 2.4 GB" in reply
    assert (
        "--max-model-len 9216" in reply
        and "按这个模型原本假设的 32K 上下文（见假设），需要 2 × RTX 4090" in reply
    )
    assert "With the" not in reply


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-R1-Distill-Qwen-32B GPTQ int4 on one 4090 with a 32K context, tokens/s for one user?",
        "DeepSeek-R1-Distill-Qwen-32B GPTQ int4 一张4090，32K 上下文，单用户每秒多少 token？",
        "Llama-3.1-70B bf16 on one 4090, tokens/s?",  # the weights alone do not fit one card
        "DeepSeek-R1-Distill-Qwen-32B GPTQ int4 on two 4090s, tokens/s for one user?",  # 32K fits two
    ],
)
def test_one_card_first_leaves_other_questions(text: str) -> None:
    report = answer(text).report
    assert "own_cards_option" not in [n.code for n in report.warnings]
    assert all(a.why != "own_cards_context" for a in report.assumptions)
