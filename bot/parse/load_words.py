"""Serving load named by words, not numbers: '单用户', '单人使用', '自己一个人用' (one concurrent user).

A count of people ('20个人用', 'single user', '1 user') is a number and gets its role in
:mod:`bot.parse.roles`; this module reads only the phrasings that carry no numeral the scanner reads.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc, words_gate

SINGLE_USER_RE = rc(
    r"单(?:个)?用户|单人(?:在)?(?:使用|用)|仅供?(?:我)?(?:自己|个人)(?:使用|用)|(?:我)?自己一个人(?:使用|用)"
    r"|独自(?:使用|用)|(?<![a-z])single[\s\-]stream\b"  # s43 trial #4: 'single-stream tokens/s'
    # s35: one request ('单个请求能到多少 tokens/s'), not each request's length ('单个请求最长 8k')
    r"|单(?:个|条)\s*请求(?!\s*的?\s*(?:长度|最长|最多|上限|输入|输出|token|约|大概|是|有|在|为|\d))"
    # and in English ('17 tokens/s for 1 request', 'how fast is a single request?'), where the clause ends or
    # goes on with the engine or the speed; never a rate ('1 request per second'), a length ('a single
    # request of 8k', 'up to 8k') nor vLLM's bound ('to serve at least one request with the max seq len')
    r"|(?<![\w.])(?<!least\s)(?:a\s+single|single|one|1)\s+request\b(?=\s*(?:[,.;:?!)]|$|at\s+a\s+time\b|(?:with|on|using"
    r"|alone|only|gets?|takes?|and|but|when|while|vs|versus)\b))"
    # s44 round 40 (en40-010): one prompt at a time ('43 tok/s, one prompt at a time'), '一次只处理一个请求'
    r"|(?<![\w.])(?:one|a\s+single|a|1)\s+(?:prompt|query|question|conversation|chat|sequence)\s+at\s+a\s+time\b"
    r"|一次\s*(?:只)?\s*(?:处理|跑|发|推理|问)?\s*(?:一|1)\s*(?:个|条)\s*(?:请求|prompt|问题|对话)"
)
"""'单用户', '单人使用', '仅供个人使用', '独自使用', '单个请求', 'a single request': one user, so one
sequence at a time (read only when no load is stated: 'a single request … 16 concurrent' sizes the 16)."""
_GATE = (
    *("单", "自己", "个人", "独自", "request", "stream"),
    *("at a time", "一次只", "一次一", "一次处理", "一次发"),  # s44 round 40: one prompt at a time
)
_GATE_RE = words_gate(_GATE)


def single_user(s: str, named: list[tuple[str, str]] = ()) -> bool:  # type: ignore[assignment]
    """True when the normalized text names one user by words (cheap substring gate first). A request rate
    stated ('1 request per second', '每秒 2 个请求': named ``qps_needs_output`` / ``current_load`` in
    ``named``, :func:`bot.parse.rate_forms.serving_rates`) is itself the load: one request ('40 tokens/s
    with one request', '单个请求 40 tokens/s') is then the speed's condition, not the load, and only one
    user ('单用户', '自己一个人用') reads (s35 fixe #6)."""
    if not _GATE_RE.search(s) or SINGLE_USER_RE.search(s) is None:
        return False
    if not any(why in _RATES for _, why in named):
        return True
    return any("请求" not in m[0] and "request" not in m[0] for m in SINGLE_USER_RE.finditer(s))


_RATES = frozenset({"qps_needs_output", "current_load"})


# -- a batch size said of lmdeploy or TGI: their cap on running sequences (s32-gen) ----------

CAP_BATCH_ENGINES = frozenset({"lmdeploy", "TGI"})
"""Engines whose batch size is the cap on running sequences:
'lmdeploy 跑 qwen-7b，batch_size 4', 'lmdeploy with max_batch_size 16', 'TGI, max batch size 8'. lmdeploy's
``max_batch_size`` is the most sequences the engine runs at once (lmdeploy/messages.py
``TurbomindEngineConfig.max_batch_size`` and ``PytorchEngineConfig.max_batch_size``; its CLI
``--max-batch-size``, bot/recipes/flags/lmdeploy.json), as TGI's ``--max-batch-size`` is
(text-generation-inference launcher/src/main.rs); both are what vLLM calls ``max_num_seqs``. The prose
batch is then that cap (``max_num_seqs``), read as the CLI flag already is, and the concurrency sized."""


BATCH_KEY_RE = rc(
    r"((?:max[\s_-]*)?batch[\s_-]*size|(?:max[\s_-]*)?batch)\s*(?:[:=]|设为|设成|设置为|为|of|to|at)?\s*(\d+)"
)
"""The batch as the user wrote it, key and number ('batch_size 4', 'max_batch_size=16', 'max batch
size 8'): the reply echoes their key, not vLLM's ``max_num_seqs`` (s32 fixb #2)."""


def engine_batch(f: dict[str, Any], concurrency: Any, s: str = "", named: list[Any] | None = None) -> Any:
    """The concurrency a serving request ``f`` with a batch size sizes: ``concurrency`` when one was read,
    else that batch. For an engine of :data:`CAP_BATCH_ENGINES` the batch is its cap on sequences run at
    once, named in ``named`` under the user's own key (from ``s``): the load sized when no other load is
    stated ('cap_as_load'; before, 'max_num_seqs: 4' was called not used and then sized as the load, s32
    fixb #2), else a cap beside the load ('cap_not_load', 'load_above_cap')."""
    if f.get("runtime") not in CAP_BATCH_ENGINES or f.get("max_num_seqs") is not None or named is None:
        return f["batch_size"] if concurrency is None else concurrency
    cap = int(f["batch_size"])
    said = next((m[0] for m in BATCH_KEY_RE.finditer(s) if int(m[2]) == cap), f"batch size {cap}")
    if concurrency is None or concurrency == cap:  # the cap is kept (max_num_seqs) and the load sized
        f["max_num_seqs"] = cap
        named.append((said, "cap_as_load" if concurrency is None else "cap_at_load"))
        return f["batch_size"]
    named.append((said, "load_above_cap" if concurrency > cap else "cap_not_load"))
    f["batch_size"] = None  # named as the cap: not a micro-batch beside the load (interpretation)
    return concurrency
