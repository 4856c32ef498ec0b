"""A serving question for each GPU's memory ('每张卡显存占多少', 'What's the memory per GPU', 'how much VRAM
does each card use'): the answer then states the per-GPU figure on the user's count, fitting or not
(trial s25 #2: 'does not fit on 4 × A10G' with no per-GPU number;
:attr:`estimator.models.Inference.bytes_per_gpu`)."""

from __future__ import annotations

from bot.parse.regex import rc

_CARD = r"(?:gpu|card|device)s?"
_TRAIN = r"train(?:ing)?|fine[\s\-]?tun(?:e|ing)|finetun(?:e|ing)|q?lora|pre[\s\-]?train(?:ing)?|sft"
"""Training verbs after 'how much VRAM to …', 'memory needed for …' (s35-fixa #2)."""
ASKS_MEMORY_RE = rc(
    r"(?:每|单|一)\s*(?:张|块|个)?\s*(?:卡|显卡|gpu)\s*(?:的|上)?\s*(?:显存|内存)\s*(?:占用?|用|要|需要|是|吃)?\s*(?:多少|多大|几)"
    r"|(?:显存|内存)\s*(?:占用?|用量?|要|需要|吃)\s*(?:了|掉)?\s*(?:多少|多大|几)"
    rf"|\b(?:memory|vram)\s+(?:usage\s+|footprint\s+|use\s+)?(?:per|on\s+each|of\s+each|for\s+each|each)\s+{_CARD}\b"
    rf"|\bper[\s\-]+{_CARD}\s+(?:memory|vram)\b"
    rf"|\bhow\s+much\s+(?:memory|vram)\s+(?:does|will|would)\s+(?:each|every|one)\s+{_CARD}\b"
    rf"|\bhow\s+much\s+(?:memory|vram)\s+(?:per|on\s+each)\s+{_CARD}\b"
    r"|(?:要|需要|得|占|吃)\s*(?:多少|多大|几\s*g)\s*(?:的)?\s*(?:显存|内存)"
    rf"|\bhow\s+much\s+(?:gpu\s+)?(?:memory|vram)\s+(?:is\s+|would\s+be\s+)?(?:needed|required|do\s+i\s+need|does\s+it\s+(?:need|take)|to\s+(?:run|serve|load|host|{_TRAIN}))\b"
    rf"|\b(?:memory|vram)\s+(?:needed|required|requirements?)\s+(?:to|for)\s+(?:run|serve|load|host|inference|deploy|{_TRAIN})"
)
"""The question asks each GPU's memory (Chinese: per card, or how much memory it takes; English: memory
per GPU / per-GPU memory / how much memory each GPU uses), or the memory a model needs ('需要多少显存',
'vram needed to run …', 'how much VRAM to run …': with no count stated the headline leads with the memory,
weights + KV cache + runtime, then the cards; trial s35 #3)."""


ASKS_MEMORY_FOR_RE = rc(
    r"\bhow\s+much\s+(?:gpu\s+)?(?:memory|vram)\s+"
    r"(?:for|(?:does|will|would)\s+\S+(?:\s+\S+){0,3}?\s+(?:need|take|use|occupy|consume)\b)"
)
"""'how much vram for llama3.1 8b …', 'how much memory does llama 3 70b need' (s38 fixm #1; s50 trial #3:
'how much GPU memory does the KV cache take', '… will it use': the verbs users write, not only 'need'): read
only when the message says 'how much' (one ``in`` test), apart from :data:`ASKS_MEMORY_RE`, whose presence
gate this branch's words would widen (a search more on every memory question)."""


def asks_memory(s: str) -> bool:
    """Whether the lower-cased message ``s`` asks each GPU's memory (call it only when ``s`` says
    'memory', 'vram', '显存' or '内存': most messages do not)."""
    return ASKS_MEMORY_RE.search(s) is not None or (
        "how much" in s and ASKS_MEMORY_FOR_RE.search(s) is not None
    )


ASKS_THROUGHPUT_RE = rc(
    r"吞吐(?:量)?\s*(?:大概|大约|能|能有|能到|可以|有|是|会是)?\s*(?:多少|几|多大|多高)"
    r"|\b(?:what(?:'s|\s+is|\s+would\s+be)?|how\s+much)\s+(?:the\s+)?(?:total\s+|aggregate\s+|max(?:imum)?\s+)?"
    r"throughput\b|\bthroughput\s*\?"
)
"""A serving question for the throughput ('吞吐大概多少token/s', 'what throughput can I expect'): tokens/s in
total at the most sequences the GPUs hold, not one stream (trial s25 #13: a single 3090 answered '36 token/s
(1 sequence at a time)' where it holds 12 at 4K). Read as how many fit (``concurrency_asked``) when no load
is stated."""


def asks_throughput(s: str) -> bool:
    """Whether the lower-cased message ``s`` asks the serving throughput (call it only when ``s`` says
    '吞吐' or 'throughput')."""
    return ASKS_THROUGHPUT_RE.search(s) is not None


ASKS_USABLE_RE = rc(
    r"(?:可用|能用|剩余|剩下|留给\s*kv\s*(?:缓存|cache)?)\s*(?:的)?\s*(?:显存|内存)\s*(?:有|是|大概|能有)?\s*(?:多少|多大|几)"
    r"|kv\s*(?:缓存|cache)?\s*(?:能|可以)?\s*(?:用|分到|留|剩)\s*(?:多少|几)"
    r"|\bhow\s+much\s+(?:gpu\s+)?(?:memory|vram)\s+(?:is\s+|will\s+be\s+|would\s+be\s+|do\s+i\s+have\s+)?"
    r"(?:usable|available|left)\b"
    r"|\b(?:memory|vram)\s+(?:is\s+)?(?:usable|available|left)\s+for\s+(?:the\s+)?kv\b"
)
"""A serving question for the memory the engine may use per GPU, or what it leaves for the KV cache
('可用显存多少', 'KV 缓存能用多少显存', 'how much memory is usable'): the headline gives the usable GiB
and the KV cache's share of it (s32 trial #2: only in a detail line before)."""


def asks_usable(s: str) -> bool:
    """Whether the lower-cased message ``s`` asks the memory usable per GPU (or left for the KV cache);
    call it only when ``s`` says 'memory', 'vram', '显存' or '内存'."""
    return ASKS_USABLE_RE.search(s) is not None
