"""A training job that does not fit the user's GPUs gets its own tool's settings first, even when another
row (another stack, QLoRA) also fits at the user's count. ms-swift DPO of Qwen2.5-14B with LoRA at
4,096 tokens on 4 × RTX 4090: logits 13.9 GiB (152,064-token vocabulary; design §3.3) of 28.9 GiB per
GPU; Liger's chunked loss (ms-swift ``use_liger_kernel``) brings the
high end to 19.5 GiB on the user's 24 GiB cards — before, the line was left out because Megatron-LM
fits on 4 too, and the reply offered Megatron-LM and QLoRA only."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

GIB = 2**30
ASK = {
    "zh": "用ms-swift做DPO训练Qwen2.5-14B，LoRA，序列长度4096，4张4090",
    "en": "DPO training Qwen2.5-14B with ms-swift, LoRA, sequence length 4096, 4 RTX 4090",
}
OWN = {"zh": "• 在你的 4 张卡上：", "en": "• On your 4 GPUs: "}
OTHER = {"zh": "• 换一个工具（NVIDIA NeMo", "en": "• Another tool (NVIDIA NeMo"}  # LoRA: NeMo (s29 trial #7)
# s21 fixa: ZeRO-3 shards the adapters (high end was 19.5 GiB)
HIGH = {"zh": "（此时区间上限为每卡 20.9 GiB）", "en": "(the high end is then 20.9 GiB per GPU)"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_liger_line_comes_before_megatron_and_qlora(capsys, lang):
    assert main(["ask", "--format", "json", ASK[lang]]) == 0
    data = json.loads(capsys.readouterr().out)
    m = data["report"]["memory"]
    assert m["fits_requested"] is False and m["plan_gpus"] == 4
    assert round(m["breakdown"]["logits"] / GIB, 1) == 13.9
    # s21 fixa: ZeRO-3 shards the adapters (was 28.9); s23: ZeRO-3 all-gathers the frozen base too
    # (stage3_max_live_parameters = 1e9 bf16 elements, 1.86 GiB + 8 % fragmentation): 28.2 -> 30.2
    assert round(m["per_gpu_bytes"] / GIB, 1) == 30.2
    assert [(c["setting"], c["value"]) for c in m["fit_change"]] == [("chunked_loss", True)]
    # s21 fixa: adapters sharded; s23: + ZeRO-3's gathered frozen base at the high end (18.7 -> 20.9)
    assert round(m["fit_change"][-1]["per_gpu_bytes_high"] / GIB, 1) == 20.9
    other = next(a for a in m["alternatives"] if a["change"] == "other_stack")
    assert other["min_gpus"] == 4  # another row fits at the user's count too
    reply = data["reply"]
    own = next(x for x in reply.splitlines() if x.startswith(OWN[lang]))
    assert "use_liger_kernel" in own and HIGH[lang] in own
    assert reply.index(OWN[lang]) < reply.index(OTHER[lang])
