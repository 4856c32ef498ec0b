"""The stated-layout note names the load its GPU count is for (trial s18 #5: '32 for this load' in a --config
vLLM answer named no load). Sentences of our own."""

from __future__ import annotations

from tests.real_questions import answer_json


def test_note_names_its_load() -> None:
    # 70B on RTX A6000 (48 GiB, ECC off by default) at TP 4: a copy holds 3 sequences of 8K, so 32 sequences
    # take 11 copies = 44 GPUs; a TP 8 copy holds them all on 8. s24: was an L40S 48GB, which now exposes its
    # ECC-on 46,068 MiB (44.99 GiB): SGLang's TP-4 fraction 0.744 leaves (44.99 - 11.5 reserved) = 33.5 GiB a
    # card, less the CUDA context, for 131.4 / 4 = 32.85 GiB of weights and 0.625 GiB of one 8K sequence, so
    # TP 4 holds no sequence there (stated_layout_too_small, pinned below)
    text = "serve Llama-3.3-70B with SGLang --tp 4 on 4x RTX A6000 48GB, 32 concurrent users at 8k context?"
    data = answer_json(text)
    note = next(w for w in data["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    assert (note["params"]["gpus"], note["params"]["load"], note["params"]["free_gpus"]) == (44, 32, 8)
    assert "44 to run 32 sequences at once" in data["reply"]
    zh = answer_json("SGLang --tp 4 部署 Llama-3.3-70B，4 张 RTX A6000 48GB，32 并发、8k 上下文，放得下吗？")
    assert "同时跑 32 条序列需要 44 张" in zh["reply"]
    l40s = answer_json(text.replace("RTX A6000", "L40S"))
    [small] = [w for w in l40s["report"]["warnings"] if w["code"].startswith("stated_layout")]
    assert (small["code"], small["params"]["tp"], small["params"]["free_tp"]) == (
        "stated_layout_too_small",
        4,
        8,
    )
