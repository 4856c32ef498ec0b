"""The stated-layout note names the load its GPU count is for (trial s18 #5: '32 for this load' in a --config
vLLM answer named no load). Sentences of our own."""

from __future__ import annotations

from tests.real_questions import answer_json


def test_note_names_its_load() -> None:
    # 70B on L40S at TP 4: a copy holds 3 sequences of 8K, so 32 sequences take 11 copies = 44 GPUs;
    # a TP 8 copy holds them all on 8
    text = "serve Llama-3.3-70B with SGLang --tp 4 on 4x L40S 48GB, 32 concurrent users at 8k context?"
    data = answer_json(text)
    note = next(w for w in data["report"]["warnings"] if w["code"] == "stated_layout_needs_more")
    assert (note["params"]["gpus"], note["params"]["load"], note["params"]["free_gpus"]) == (44, 32, 8)
    assert "44 to run 32 sequences at once" in data["reply"]
    zh = answer_json("SGLang --tp 4 部署 Llama-3.3-70B，4 张 L40S 48GB，32 并发、8k 上下文，放得下吗？")
    assert "同时跑 32 条序列需要 44 张" in zh["reply"]
