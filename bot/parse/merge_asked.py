"""Merging a LoRA adapter into its base asked (s46 trial #2): 'how much memory to merge a LoRA adapter into
Llama 3.1 70B?', '把 70B 的 LoRA 合并回基座需要多少内存？', 'merge_and_unload on a 70B'.

Before, the LoRA word made the reply a LoRA fine-tuning plan (two A100s, adapters, activations): a job the
user did not ask. A merge loads the base and adds each adapter's B·A into its weights (PEFT
``LoraModel.merge_and_unload``): no gradients, optimizer states or activations, so the memory is the base's
weights at the dtype loaded, 16-bit in the usual scripts. The cue ``merge_asked`` makes the stage a served
(merged) model with the LoRA method dropped, and the reply's first line the merge's memory
(:mod:`bot.render.merge_head`). Callers test for 'merg' / '合并' / '融合' and an adapter word first.
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.served_adapters import NOT_MERGED_RE

_ADAPTER = r"(?:q?lora|adapters?|适配器|peft)"
ASKS_MERGE_RE = rc(
    rf"\bmerg(?:e|ing|ed)?\b(?!\s+(?:the\s+|our\s+|my\s+)?(?:data|datasets?|corpus|samples))[^.?!;]{{0,40}}?{_ADAPTER}|{_ADAPTER}[^.?!;]{{0,40}}?\bmerg(?:e|ing)\b"
    r"|merge[_\s]*and[_\s]*unload|\bmerge[_\s]*lora\b"
    rf"|(?:合并|融合|merge)(?!\s*(?:数据|语料|样本))[^,，。?？;；]{{0,16}}?{_ADAPTER}|{_ADAPTER}[^,，。?？;；]{{0,16}}?(?:合并|融合)"
)
"""A LoRA merge named: 'merge a LoRA adapter', 'merging the QLoRA weights', 'the LoRA … merged back',
PEFT's ``merge_and_unload``, LLaMA-Factory's ``export`` of a merged model said as 'merge lora';
'把 LoRA 合并回基座', 'LoRA 权重融合'. Not 'merged dataset' (no adapter word near it)."""
_TRAINING_RE = rc(
    r"\b(?:train(?:ing)?|fine[\s\-]?tun\w*|finetun\w*|sft)\b[^.?!;]{0,30}?\b(?:on|with|for)\s+\d"
    r"|(?:训练|微调)[^,，。?？;；]{0,12}?\d+(?:\.\d+)?\s*(?:万|亿|k|m|b)?\s*(?:条|token|样本|步|epoch)"
    r"|\d+(?:\.\d+)?\s*(?:k|m|b|万|亿)?\s*(?:tokens?|samples|examples|条|个\s*epoch|epochs?)\b"
)
"""A training run said with its data beside the merge ('LoRA fine-tune on 100k samples, then merge'):
the run is what is sized, the merge a step after it."""


_TRAINS_RE = rc(r"\b(?:train|training|fine[\s\-]?tun(?:e|ing)|finetun(?:e|ing)|sft)\b|(?:微调|训练)(?!好|完)")
"""A training job said beside the merge ('想用 megatron 去 lora 微调 Qwen3-235B … lora 训练和
lora 合并的脚本', 'fine-tune with LoRA, then merge'): the training is sized, the merge a step after it;
'the LoRA I trained', '训练好的 LoRA', '训完' are a run done, not a job asked."""


_NEEDS_RE = rc(
    r"memory|\bram\b|vram|显存|内存|how\s+much|需要多少|要多少|多大|够不够|够吗|\benough\b|\bneed|\bfit"
    r"|放得下|跑得动|能不能|可以吗"
)
"""What the merge needs asked ('how much memory', 'enough RAM', '需要多少内存', '够不够'); not a speed of
the merged model ('after merging the LoRA, how many tokens/s?': a serving question)."""


_DONE_MERGE_RE = rc(
    r"\b(?:i|we|i've|we've|i\s+have|we\s+have|already|just|after)\s+(?:already\s+|just\s+)?merg(?:ed|ing)\b"
    r"|\bmerged\s+(?:model|weights|checkpoint)|(?:已经?|刚)(?:把[^,，。?？;；]{0,16}?)?(?:合并|融合)"
    r"|(?:合并|融合)(?:好|完|过)|(?:合并|融合)(?:之|以)?后"
)
"""A merge already done (s46 review B5): 'I merged my LoRA into Llama 3.1 8B; how much VRAM to serve it',
'after merging the adapter', 'the merged model', '合并好了…部署要多少显存', '已合并', '合并后的模型': the
question is about the merged model, not the merge."""
_PAST_RUN_RE = rc(
    r"\bafter\s+(?:the\s+|my\s+|our\s+)?(?:train(?:ing)?|fine[\s\-]?tun\w*|finetun\w*|sft)\b[^.?!;,]{0,40}"
    r"|\b(?:i|we)\s+(?:have\s+|had\s+|already\s+)?(?:trained|fine[\s\-]?tuned|finetuned)\b[^.?!;,]{0,40}"
    r"|(?:训练|微调|训|调)(?:完|好)(?:了|之?后|以后)?[^,，。?？;；]{0,20}"
)
"""A training run already done (s46 review B5): 'after training on 50k samples', 'we fine-tuned it on 10k
samples', '训练完 5 万条数据后', '微调好以后': its data describes the adapter, no training asked."""


def asks_merge(s: str) -> bool:
    """Whether the normalized ``s`` asks what merging a LoRA adapter into its base needs, with no training
    run's data said beside it (then the training is sized, as before): a merge already done is no merge
    asked (:data:`_DONE_MERGE_RE`), and a training run already done (:data:`_PAST_RUN_RE`) is not one
    asked."""
    if ASKS_MERGE_RE.search(s) is None or _NEEDS_RE.search(s) is None or _DONE_MERGE_RE.search(s):
        return False
    if NOT_MERGED_RE.search(s):  # 'without merging', '不要合并': adapters served apart
        return False
    rest = _PAST_RUN_RE.sub(" ", s) if ("after" in s or "ed" in s or "完" in s or "好" in s) else s
    return _TRAINING_RE.search(rest) is None and _TRAINS_RE.search(rest) is None
