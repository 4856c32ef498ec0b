"""s26-verd2: llama.cpp without flash attention keeps one layer's fp32 KQ scores in each device's compute
buffer, n_ctx × n_ubatch × n_head × 4 bytes (src/llama-graph.cpp ``build_attn_mha``, the non-flash branch:
``kq = ggml_mul_mat(ctx0, k, q)`` with F32 precision; estimator.runtimes.llama_cpp.kq_score_bytes), only
when the user turns it off ('-fa off', '--flash-attn 0', 'without flash attention' beside llama.cpp)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from estimator.catalog import gpu, model
from estimator.runtimes.base import Load
from estimator.runtimes.llama_cpp import LlamaCpp, kq_score_bytes
from tests.real_questions import answer_json

LLAMA8 = model("Llama-3.1-8B")  # 32 query heads (config.json num_attention_heads)
KQ_8K = 8192 * 512 * 32 * 4  # n_ctx × n_ubatch × n_head × 4 B = 536,870,912 bytes (0.5 GiB)
CMD = "llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 8192 -ngl 99{fa} on one RTX 3060 12GB"
ZH = "llama.cpp 跑 Llama-3.1-8B Q4_K_M，上下文 8192，{fa}一张 RTX 3060 12GB 够吗？"


def test_kq_scores_are_one_layers_fp32_matrix_at_the_ubatch():
    assert kq_score_bytes(LLAMA8, 8192) == KQ_8K
    assert kq_score_bytes(LLAMA8, 256) == 256 * 256 * 32 * 4  # a context below n_ubatch: that many tokens
    card = gpu("RTX-3060")
    on, off = LlamaCpp(), LlamaCpp(flash_attention=False)
    extra = off.workspace_bytes(LLAMA8, card, 1, Load(8192)) - on.workspace_bytes(LLAMA8, card, 1, Load(8192))
    assert extra == pytest.approx(KQ_8K)


@pytest.mark.parametrize(
    "text, want",
    [
        (CMD.format(fa=" -fa off"), False),
        (CMD.format(fa=" --flash-attn 0"), False),
        (CMD.format(fa=" -fa on"), True),
        (CMD.format(fa=""), None),
        (ZH.format(fa="不开 flash attention，"), False),
        ("serve Llama-3.1-8B with vLLM without flash attention on one A100", None),
    ],
)
def test_the_switch_is_read_only_as_llama_cpps(text, want):
    assert parse(text).request.flash_attention is want


def test_en_fa_off_adds_the_kq_scores_and_says_so():
    off, on = answer_json(CMD.format(fa=" -fa off")), answer_json(CMD.format(fa=""))
    extra = (
        off["report"]["inference"]["workspace_bytes_per_gpu"]
        - on["report"]["inference"]["workspace_bytes_per_gpu"]
    )
    assert extra == pytest.approx(KQ_8K)
    from bot.cli import ask

    assert "-fa off" in ask(CMD.format(fa=" -fa off"), None, "text")[0].splitlines()[0]


def test_zh_without_flash_attention_beside_llama_cpp():
    off = answer_json(ZH.format(fa="不开 flash attention，"))["report"]["inference"]
    on = answer_json(ZH.format(fa=""))["report"]["inference"]
    assert off["workspace_bytes_per_gpu"] - on["workspace_bytes_per_gpu"] == pytest.approx(KQ_8K)


def test_a_vllm_question_still_names_it_as_not_used():
    d = answer_json("serve Llama-3.1-8B with vLLM without flash attention on one A100")
    assert "flash_attention: off" in {i["text"] for i in d["interpretation"]["ignored"]}
