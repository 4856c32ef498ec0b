"""s38 fixs2: serving answers a fresh-user trial found wrong (continued).

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
