"""Roles for numbers the main rules (:mod:`bot.parse.roles`) leave without one, and one reading they get
wrong in training questions (issue 24, a fresh-user trial: every number stated is used, or named as not
used). Each rule is a small function; :func:`more_role` and :func:`retarget` are the hooks the assembly
step (:mod:`bot.parse.assemble`) calls.

- the context length in any order of its words: '上下文要128k', 'context window is 32k', 'ctx: 16k';
- in a serving question, '32k requests', '16k sequences', '32k tokens each': the length of each request;
- a count after the card: 'RTX 5090 x4', 'BR100 64GB x16', 'H100 * 8', 'A100 ×8 能跑吗';
- '几台8卡': the GPUs per node of the nodes asked about (8, the nodes every plan assumes);
- in a training question, '20k prompts' / '20000 prompts' is the number of prompts (samples), as '5k条prompt';
- in a training question, a length after 每条 / 'each' / 'samples of' with no unit ('1万条数据每条2k', '10k
  samples of 2k each', '每条平均1.5k'): each sample's length in tokens (s24 trial #2: had been left unread
  and the data sized at the 512-token default, ×4 too small).
"""

from __future__ import annotations

import re
from itertools import compress, repeat
from operator import attrgetter, eq

from bot.parse.length_gates import DOC_GATE_RE, LONG_GATE_RE, TOO_LONG_GATE_RE
from bot.parse.normalize import MARKS
from bot.parse.numbers import NumberToken
from bot.parse.regex import rc
from bot.parse.role_left import L_NODES_UNKNOWN, L_SAMPLE_EACH
from bot.parse.roles import Role, seq_value
from bot.parse.sample_at import LENGTHS, each_sample_length
from bot.parse.sample_length import per_sample
from estimator.later import later

# readers a plain question never reaches, imported on first call (their gates: bot.parse.length_gates)
(long_context_length,) = later("bot.parse.long_context", "long_context_length")
(document_length,) = later("bot.parse.doc_length", "document_length")
(request_length,) = later("bot.parse.too_long", "request_length")

_ROLE_OF = attrgetter("role")

L_CONTEXT = rc(
    r"(?:上下文|context|ctx|window|窗口|长度|model[\s_]*len(?:gth)?|seq(?:uence)?[\s_]*len(?:gth)?)"
    r"(?:[\s_]*(?:length|len|window|size|limit|长度|大小|限制|上限))?"
    r"(?:\s|要|需要|得|想要|至少|最少|不少于|不低于|起码|设为|设成|设置为|设置成|设|调到|调成|降到|开到|是|为|of|is"
    r"|只能|能|可以|只|才|仅|最多|最长|到"
    r"|to|under|below|around|about|at\s+least|no\s+less\s+than|≥|>|=|:|：)*$"
)
"""Words before a context length, any verb, lower bound or colon between: '上下文要', 'context window is',
'ctx:', '上下文不少于', 'context ≥' (a lower bound is sized at its value: bot.parse.bound_words); s17: a
limit or size word and the setting verbs ('上下文大小设 20480', 'a context limit of 60k', 'model len 1000',
'reducing the sequence length to under 8000'); round 15 zh: a modal or limit word ('上下文只能到 20K 左右',
'上下文能开到 32K 吗', '最多 20K')."""
R_PER_REQUEST = rc(
    r"^[\s\-]*(?:tokens?[\s\-]+)?(?:requests?|reqs?|sequences?|seqs?|conversations?|sessions?|queries)\b"
    r"(?!\s*(?:(?:per|a|an|每)\s*(?:day|hour|minute|min|second|sec|s)\b|/\s*(?:day|d|h|hr|hour|s|min)\b|daily|hourly))"
    r"|^[\s\-]*tokens?\s+(?:each|apiece|per\s+(?:request|req|user|query|conversation|session))\b"
)
"""After a length in K in a serving question: '32k requests', '16k-token sequences', '32k tokens each';
not a rate ('2k requests per day')."""
L_REQUEST_EACH = re.compile(
    r"(?:\b(?:each|every|per|a\s+single|one)\s+(?:request|query|conversation|session|chat|prompt\s+\+\s+reply)"
    r"|每(?:个|次|条|一)?\s*(?:请求|对话|会话|查询))"
    r"(?:\s|is|are|has|of|up\s+to|at\s+most|about|around|~|最长|最多|约|大概|大约|是|有|在|:|：)*$",
    re.IGNORECASE,
)
"""s17: before a length in a serving question, the request it is each one's ('each request up to 8k tokens',
'per conversation about 6k', '每个请求最长 8k')."""
L_CARD_TIMES = rc(rf"[{MARKS}]\s*s?\s*(?:\(?\d{{2,3}}\s*g(?:b|ib)?\)?\s*)?(?:[x×*]|\s)\s*$")
"""A card, its memory if written, then x/×/* (normalized to a space) or a space: the count follows when
no other rule read the number ('RTX 5090 x4', 'BR100 64GB x16', 'H100*8')."""
R_CARD_COUNT_END = rc(r"^(?![\s\-]*(?:\d|g(?:b|ib)?\b|tb\b|days?\b|hours?\b|天|小时|卡\s*·?\s*时|k\b))")
"""Not another quantity's unit right after the count ('x 80GB' is memory, handled before)."""
R_PER_NODE_ASKED = rc(r"^\s*(?:卡|张|gpus?\b|-gpu)")
"""'几台8卡', 'how many 8-GPU nodes': the GPUs in each of the nodes asked about."""
L_RUNTIME = rc(r"(?:ollama|llama\.?cpp|lm\s*studio|vllm|sglang|mlx|tgi)\s*$")
"""A runtime's name right before a length in K ('ollama 16k'): the context it runs with (num_ctx)."""
R_BARE_LENGTH_END = rc(
    r"^\s*(?:tokens?\s+)?(?:each|apiece|on\s+average|avg|左右|上下|以内|上限)?\s*"
    r"(?:$|[,，。.;；!?！？、)）]|(?:and|with|on|for|using|in|to|how)\b|和|的话|用|在|要|需要|训练|微调|跑|大概|算)"
)
"""After a sample length written with no unit: nothing, 'each', or the clause's end ('每条2k，要几个小时',
'samples of 2k each, how long'); never a unit ('每条2k元', '2k per month', '2k字' are read elsewhere)."""
R_PROMPT_COUNT = rc(
    r"^[\s\-]*(?:个\s*)?(?:(?:rl|grpo|ppo|dpo|training|train|unique|distinct|math)\s+){0,2}prompts?\b(?!\s*(?:len(?:gths?)?\b|长度))"
)
"""'20k prompts', '20000 GRPO prompts', '1 万个 prompt' (not '8k-token prompts': a length)."""


def more_role(tok: NumberToken, s: str, stage: str | None) -> Role | None:
    """A role for ``tok`` when the main rules found none (None: still none)."""
    left, right = s[max(0, tok.start - 32) : tok.start], s[tok.end : tok.end + 48]
    if tok.kind != "word" and L_CONTEXT.search(left) and _a_length(tok):
        return Role("seq", seq_value(tok), tok)
    if stage == "inference" and tok.mag == "k" and R_PER_REQUEST.match(right) and _a_length(tok):
        return Role("seq", seq_value(tok), tok)
    if stage == "inference" and L_REQUEST_EACH.search(left) and _a_length(tok):
        return Role("seq", seq_value(tok), tok)  # 'each request up to 8k tokens', '每个请求最长 8k'
    if tok.mag == "k" and L_RUNTIME.search(left) and _a_length(tok):
        return Role("seq", seq_value(tok), tok)  # 'ollama 16k': num_ctx, as 'ctx 16k'
    if tok.mag == "k" and LONG_GATE_RE.search(s) and long_context_length(right) and _a_length(tok):
        return Role("seq", seq_value(tok), tok)  # s30: 'long-context training, 128k and above'
    if stage == "inference" and DOC_GATE_RE.search(s) and document_length(left, right) and _a_length(tok):
        return Role("prompt", seq_value(tok), tok)  # s30: 'an 8k-token document', '8K token 的长文档'
    if stage == "inference" and TOO_LONG_GATE_RE.search(s) and request_length(left, right) and _a_length(tok):
        return Role("prompt", seq_value(tok), tok)  # s30: an engine's error '(62955 > 16384)'
    reach = "到" in left or "超过" in left or "reach" in left or "hit" in left or "exceed" in left  # C tests
    reach = reach or "above" in left or "beyond" in left or "over" in left or "past" in left  # s42: bounds
    reach = reach or "than" in left or "超出" in left or "大于" in left or "长于" in left
    if stage == "inference" and (reach or "get" in left or "grow" in left) and _a_length(tok):
        from bot.parse.reach_length import reached_length  # lazily: a length reached is rare

        if reached_length(left, right):
            return Role("seq", seq_value(tok), tok)  # s35: 'token 数到 10k 的时候 OOM', 'once tokens hit 10k'
    bare = stage != "inference" and tok.mag in ("k", None) and _a_length(tok)
    if bare and L_SAMPLE_EACH.search(left) and R_BARE_LENGTH_END.match(right):
        return Role("tps", tok.value, tok, extra="tokens")  # '每条2k', 'samples of 2k each' (s24 #2)
    if tok.mag is None and tok.value.is_integer() and 1 <= tok.value <= 100_000:
        if L_CARD_TIMES.search(left) and R_CARD_COUNT_END.match(right):
            return Role("count", tok.value, tok)
        if L_NODES_UNKNOWN.search(left) and R_PER_NODE_ASKED.match(right):
            return Role("per_node", tok.value, tok)
    return None


def retarget(role: Role, s: str, stage: str | None, whole: str = "") -> Role:
    """``role`` read again where the main rules misread it: in a training question '20k prompts' is a
    count of prompts (the samples), not a prompt length; in a serving question '32k tokens each' is the
    length of each request, not of a training sample; in a serving question a benchmark's prompt count is
    its load when ``whole`` (the text before other readers masked their spans) says no rate
    (:func:`sent_at_once`)."""
    tok = role.tok
    if role.role in LENGTHS and (each_sample := each_sample_length(role, s, stage)) is not None:
        return each_sample  # '50k samples at ~800 tokens', '平均长度1500 token' (s24 trial 2 #1, #7)
    if role.role == "prompt" and stage != "inference" and R_PROMPT_COUNT.match(s[tok.end : tok.end + 40]):
        return Role("samples", tok.value, tok)
    if role.role == "prompt" and stage == "inference" and _batch_of_prompts(tok, s):
        return Role("samples", tok.value, tok)  # s37: 'run 500k prompts through …': the items, not a length
    if role.role == "prompt" and stage == "inference" and _counts_prompts(tok, s[tok.end : tok.end + 40]):
        return Role("concurrency", tok.value, tok) if sent_at_once(whole or s) else None  # s21: the load
    if role.role == "tokens" and stage != "inference" and per_sample(s, tok.start, tok.end):
        return Role("tps", role.value, tok, extra="tokens")  # '几千 token 的样本': each sample's length
    if (
        role.role in ("tokens", "tps")
        and stage == "inference"
        and (DOC_GATE_RE.search(s) or TOO_LONG_GATE_RE.search(s))
    ):
        left, right = s[max(0, tok.start - 32) : tok.start], s[tok.end : tok.end + 48]
        if _a_length(tok) and (document_length(left, right) or request_length(left, right)):
            return Role("prompt", seq_value(tok), tok)  # s30: 'a note of around 8K tokens', 'you requested …'
    if role.role == "tokens" and stage is None and DOC_GATE_RE.search(s):  # no job word (s47 drop #5)
        left, right = s[max(0, tok.start - 32) : tok.start], s[tok.end : tok.end + 48]
        if _a_length(tok) and document_length(left, right):  # '100K-token documents': each one's length,
            return Role("prompt", seq_value(tok), tok)  # never a corpus to pre-train on
    if role.role == "tps" and role.extra == "tokens" and stage == "inference" and _a_length(tok):
        return Role("seq", seq_value(tok), tok)  # serving '32k tokens each': each request's length
    each = (
        role.role == "tokens"
        and stage == "inference"
        and L_REQUEST_EACH.search(s[max(0, tok.start - 32) : tok.start])
    )
    if each and _a_length(tok):
        return Role("seq", seq_value(tok), tok)  # 'each request up to 8k tokens': that request's length
    return role


_TOKENS_FIRST_RE = rc(r"[\s\-]*tokens?\b")


SPREAD_RE = rc(
    r"request[\s_\-]*rate|max[\s_\-]*concurren|\bqps\b|\brps\b|req(?:uest)?s?\s*(?:/\s*s\b|per\s+sec)"
    r"|每秒\s*\d*\s*个?请求|\b(?:a|an|per|each|every)\s+(?:second|minute|hour|day|week|month)\b"
    r"|每(?:秒|分钟|小时|天|日|周|月)|一天"
)
"""A request rate or a cap on requests in flight ('--request-rate 4', '--max-concurrency 16', '10 QPS',
'2000 prompts a day'): a benchmark's prompts are then spread over time, not one load."""
AT_ONCE_RE = rc(r"bench|压测|num[_\-\s]prompts|at\s+once|同时|一次性?")
"""A benchmark ('a benchmark of 32 prompts', ``bench_serving``, ``--num-prompts``, '压测') or prompts sent
together ('32 prompts at once', '同时发 32 个 prompt'): a count of prompts that is a load."""


def sent_at_once(s: str) -> bool:
    """Whether a serving benchmark's prompt count ('a benchmark of 32 prompts', ``--num-prompts 5000``) is
    its load: said of a benchmark or of prompts sent at once (:data:`AT_ONCE_RE`), with no request rate nor
    cap said (:data:`SPREAD_RE`) — vLLM's benchmark_serving.py and SGLang's bench_serving send every prompt
    at time 0 (``--request-rate`` default inf: "all the requests are sent at time 0"; ``--max-concurrency``
    default None), so that many requests are in flight at once (s21; round 4 had named the count as
    unread)."""
    return bool(AT_ONCE_RE.search(s)) and not SPREAD_RE.search(s)


def _counts_prompts(tok: NumberToken, after: str) -> bool:
    """'32 prompts' with no 'k' and no token word ('8k prompts', '2048-token prompts' are lengths)."""
    return tok.mag_scale != "K" and not _TOKENS_FIRST_RE.match(after) and bool(R_PROMPT_COUNT.match(after))


def _batch_of_prompts(tok: NumberToken, s: str) -> bool:
    """s37 (issue 24): 'run 500k prompts through Qwen', 'process 20k prompts': the prompts a batch job runs
    over (:data:`bot.parse.words.BATCH_JOB_RE` said just before, no token word after) are its items."""
    after = s[tok.end : tok.end + 40]
    if _TOKENS_FIRST_RE.match(after) or not R_PROMPT_COUNT.match(after):
        return False
    from bot.parse.words import BATCH_JOB_RE  # here: only a prompt count in a serving question needs it

    return BATCH_JOB_RE.search(s, max(0, tok.start - 40), tok.end + 12) is not None


def _a_length(tok: NumberToken) -> bool:
    """Whether ``tok`` can be a context length in tokens (256 to 10M)."""
    return 256 <= seq_value(tok) <= 10_000_000


L_HOW_MUCH = rc(r"(?:多少|几)\s*$")


def asked_magnitude(tok: NumberToken, s: str) -> bool:
    """'预算多少万', '要几千张卡': a magnitude word after 多少/几 is part of the question, not a number."""
    lone = tok.kind == "cn" and tok.raw.strip() in ("万", "千", "百", "亿", "十", "百万", "千万", "万亿")
    return lone and bool(L_HOW_MUCH.search(s[max(0, tok.start - 6) : tok.start]))


VAGUE_ROLES = frozenset({"samples", "pairs", "data_bytes", "chars"})
"""Data amounts: '数据大概几十万条' gives no number for them (a rough token count, '几十亿 token', is read
as its order of magnitude and said: :mod:`bot.parse.vague_amounts`)."""


def vague_amount(tok: NumberToken, s: str, role: Role | None) -> str:
    """'几十万条', '几百万 token', '数十台': 几 (数, 上) before a Chinese magnitude is a rough amount (tens
    of thousands to hundreds of thousands), not the number after it — named as not used, never as 十万.
    The reason it is named with: ``vague_count`` for a count of cards or machines ('几十张卡', s32: the
    reply asks for the count, not for a data size), ``vague`` for another amount; '' when not rough."""
    if tok.kind != "cn" or tok.start == 0 or s[tok.start - 1] not in "几数上":
        return ""
    raw = tok.raw.strip()
    if raw[0] not in "十百千万亿" or (s[tok.start - 1] == "上" and raw not in _MAGNITUDES):
        return ""  # '用上十六张': 上 is a verb's; '上百张' a rough count
    if role is None or role.role not in VAGUE_ROLES | VAGUE_COUNTS:
        return ""
    return "vague_count" if role.role in VAGUE_COUNTS else "vague"


VAGUE_COUNTS = frozenset({"count", "count_nodes", "per_node"})
"""Card and machine counts: '几十张 A100', '数十台机器', '上百张卡' say no count (s31 review: '几十张' was 10
cards, '几十台' 10 nodes of 8): named as not used, never a count."""
_MAGNITUDES = frozenset({"十", "百", "千", "万"})


LENGTH_MIN, LENGTH_MAX = 256, 1_048_576
"""A token count that can be a sequence length: 256 to 1M tokens (2²⁰, the longest context released)."""


def length_not_data(roles: list[Role]) -> list[Role]:
    """``roles`` with a token count that cannot be the data read as the sequence length (session 13, trial
    s12 A4): when the message gives the data as samples × tokens per sample ('50k samples of about 2,000
    tokens each', '5 万条，每条 2000 token'), a smaller count of tokens said beside it ('rank 64, 4096
    tokens') is below the data stated, so no data amount: it is the length trained at, as '4096 tokens'
    alone is read. Only a length (256 to 1M tokens, written without M/B/T), and only when no length was
    said otherwise."""
    samples = next(compress(roles, map(eq, map(_ROLE_OF, roles), repeat("samples"))), None)  # C: no frame
    if samples is None:
        return roles
    each = next((r for r in roles if r.role == "tps" and r.extra == "tokens"), None)
    if each is None or "seq" in map(_ROLE_OF, roles):
        return roles
    data = samples.value * each.value
    return [Role("seq", seq_value(r.tok), r.tok) if _length_below(r, data) else r for r in roles]


def _length_below(role: Role, data: float) -> bool:
    """Whether ``role`` is a token count that reads as a length below ``data`` tokens."""
    if role.role != "tokens" or role.tok.mag not in (None, "k"):
        return False
    return LENGTH_MIN <= seq_value(role.tok) <= LENGTH_MAX and seq_value(role.tok) < data
