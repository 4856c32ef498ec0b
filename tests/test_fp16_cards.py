"""Cards without bf16 serve in fp16 (s8 fix item 4): V100 and T4 have no bf16 (catalog: no bf16 peak;
NVIDIA V100/T4 datasheets list FP16 tensor cores only); vLLM refuses bf16 below compute capability 8.0
and runs a bf16 checkpoint as float16 under ``--dtype auto``. The answer named "bf16" on them; the
dtype named and used is fp16 now (the same 2 bytes per weight), with the reason in the ledger."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("question", "headline", "why"),
    [
        ("serve Llama-3-8B on one V100", "Meta Llama 3 8B fp16 inference on 1 × V100 32G", "has no bf16"),
        ("部署 Llama-3-8B，一张 V100", "Meta Llama 3 8B fp16 推理，1 张 V100 32G", "不支持 bf16"),
        ("部署 Llama-3-8B，一张 V100，bf16", "Meta Llama 3 8B fp16 推理，1 张 V100 32G", "不支持 bf16"),
        ("serve Qwen2.5-3B on one T4 in bf16", "fp16 inference on 1 × T4", "has no bf16"),
    ],
)
def test_no_bf16_card_serves_fp16(capsys, question: str, headline: str, why: str) -> None:
    answer = _ask(capsys, question)
    inf = answer["report"]["inference"]
    assert answer["request"]["precision"] == "fp16"
    assert (inf["weight_format"], inf["kv_precision"], inf["bytes_per_param"]) == ("fp16", "fp16", 2.0)
    (precision,) = [a for a in answer["assumptions"] if a["field"] == "precision"]
    assert precision["why"] == "fp16_no_bf16"
    assert headline in answer["reply"].splitlines()[0] and why in answer["reply"]
    said = answer["interpretation"]["substitutions"]  # a stated bf16: its own line (s8 review item 7)
    assert said == (
        [{"typed": "bf16", "used": "fp16", "reason": "fp16_no_bf16"}] if "bf16" in question else []
    )
    lines = answer["reply"].split("\n\n")[0].splitlines()
    lines = [line for line in lines if not (said and line.startswith(("V100", "T4")))]
    assert "bf16" not in "\n".join(lines).replace("no bf16", "")  # headline and figures
    recipe = next(r for r in answer["report"]["recipes"] if r["tool"] == "vllm")
    assert "--dtype float16" in recipe["text"]


def test_bf16_card_keeps_bf16(capsys) -> None:
    answer = _ask(capsys, "serve Llama-3-8B on one A100")
    assert (
        answer["request"]["precision"] == "bf16" and answer["report"]["inference"]["kv_precision"] == "bf16"
    )
