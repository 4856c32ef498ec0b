"""Chinese phrasings of the same settings that the readers of the working records did not see (issue 24,
paraphrase robustness: tests/data/real_questions/paraphrases_zh.json), rewritten into the form those
readers know, before the numbers get roles.

- **A setting verb between a context or concurrency word and its value** ('上下文开 1M', 'ctx 拉到 32k',
  '上下文长度给到 8k', 'max_model_len 设置成 1M', '并发开到 64'): the verb becomes '=', as 'batchsize 设成 1'
  does in :mod:`bot.parse.setting_verbs` ('上下文 = 1M' is read as the context sized, '并发 = 64' as the
  concurrency).
- **A length before its length word** ('2048 token 长度', '8k 的上下文长度', '4096 个 token 的序列长度'):
  the length word is written first ('长度 = 2048'), as '默认 token 长度为 2048' reads; a bare '2048
  token' stays the token count it is elsewhere.

- **'满血' (full, not distilled) before a DeepSeek name with its own version** ('满血 deepseek-v3',
  '满血的 DeepSeek-V2.5'): a qualifier of that model, not the '满血 deepseek' that names R1 alone.

- **Memory in gigabytes counted with 个** ('显存 24 个 G', '80个G的卡'): the same as '24G'.

- **The same verbs after a training or serving setting** ('batch 给 8', 'tp 开 8', 'lora 秩设 64',
  '显存利用率调到 0.95'): '=' as well.

- **Each card's memory after the count** ('4 张 L20，一张 48G', '八块 3090，单张 24G'): '一张' / '单张' after
  a count of cards is each card ('每张 48G'), not a second count of one ('单卡 NG' is left to the rules
  that read it).

- **A length trained up to** ('model_max_length 超过 2 万就 OOM，我想训到 90000', '上下文想训练到 64k'): in a
  message that names a length, '训到 / 训练到 N' (N at least 1000, not steps, epochs or samples) is the length
  wanted ('长度 = N'); '从 4k 扩到 32k' stays the from-to reader's; round 22 zh.

- **A length a run is asked to reach** ('单卡 3090 能跑 32k 吗', '能不能撑到 128k', '跑满 8k'): a running verb
  before a number of thousands with 'k' is the sequence length ('长度 = 32k'); counts of steps, samples,
  cards or requests after it ('跑 10k 步', '跑 8k 条') and a length word of its own ('跑 32k 上下文', read by
  the context readers) are left alone (session 28).

Each rule is gated by a cheap substring test.
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.setting_verbs import _SETTING

_CONTEXT_WORD = (
    r"(上下文(?:长度|窗口)?|(?<![a-z_])ctx|(?<![a-z_])context(?:[\s_]*(?:length|len|window))?"
    r"|max[\s_\-]*model[\s_\-]*len|序列长度|最大长度|窗口|并发(?:数|量)?|(?<![a-z_])concurrency)"
)
SET_VERBS_ZH = (
    "开到", "开成", "打开到", "拉到", "拉满到", "拉满", "拉长到", "给到", "给", "调到", "调成", "调整到",
    "调整为", "设置为", "设置成", "设置到", "设成", "设为", "设到", "改到", "改成", "改为", "加到", "提到",
    "提高到", "扩到", "扩展到", "降低到", "降到", "减少到", "减小到", "减到", "调小到", "调低到", "缩短到",
    "开", "设",
)  # fmt: skip
"""The Chinese setting verbs ('开到', '给', '拉到' …; round 25 the lowering ones, 'batch_size 减少到 128'), in
the order they are tried (a longer one before its prefix): one list for this reader and the general one
(:mod:`bot.parse.generic_values`)."""
_SET_VERB = r"(?:(?:直接|就|都|也|可以|想|要|得|需要|最多|最大|至少)\s*)?(?:" + "|".join(SET_VERBS_ZH) + ")"
CONTEXT_VERB_RE = rc(_CONTEXT_WORD + r"\s*" + _SET_VERB + r"\s*(?=\d)")
"""'上下文开 1M', 'ctx 拉到 32k', '上下文长度给到 8k', 'max_model_len 设置成 1M', '并发开到 64': a context or
concurrency word, a setting verb, the value."""
SETTING_VERB_RE = rc(
    r"("
    + _SETTING[1:-1]
    + r"|(?<![a-z_])batch(?![a-z_])|lora\s*秩|(?<![a-z])秩|显存利用率|gpu[\s_\-]*memory[\s_\-]*utilization)"
    r"\s*(?:" + _SET_VERB + r"\s*(?=\d)"
    r"|(?:想要|需要|要|得)\s*(?=\d{1,5}(?![\d.])(?!\s*(?:张|块|卡|台|天|小时|h\b|个?(?:节点|gpu)))))"
)
"""The same verbs after a training or serving setting ('batch 给 8', 'tp 开 8', 'lora 秩设 64',
'显存利用率调到 0.95'; s32: 'batch size 要 128'): those :mod:`bot.parse.setting_verbs` does not know ('开',
'给', '拉到' …) and
settings it does not name ('batch', '秩', '显存利用率')."""
_CONTEXT_GATE = rc(r"上下文|ctx|context|model[\s_\-]*len|长度|窗口|并发|concurrency")

LENGTH_BEFORE_WORD_RE = rc(
    r"(?<![\d.a-z])(?P<n>\d+(?:\.\d+)?\s*k?)\s*(?:个\s*)?tokens?\s*(?:的\s*)?"
    r"(?P<w>上下文长度|上下文|序列长度|长度|窗口)"
)
"""'2048 token 长度', '8k token 的上下文', '4096 个 token 的序列长度': a length, then its length word."""

FULL_BEFORE_VERSION_RE = rc(r"满血(?:版)?(?:的)?\s*(?=deepseek[\s\-_]*v\d)")
"""'满血 deepseek-v3': the qualifier before a versioned DeepSeek name (dropped; the name is the model)."""

COUNTED_GIGABYTES_RE = rc(r"(?<![\d.])(\d+(?:\.\d+)?)\s*个\s*g(?:b|ib)?(?![a-z0-9])")
"""'24 个 G', '80个GB': a memory in gigabytes written with the measure word 个."""

_VERB_GATE = rc(r"开|拉|给|调|设|改|加到|提|扩|(?:size|batch|bs|tp|秩)\s*(?:想|需)?要")

EACH_AFTER_COUNT_RE = rc(
    r"(?P<pre>(?<![\d.])(?:\d+|[两二三四五六七八九十]+)\s*(?:张|块|卡)[^,;。?!]{0,24}[,;]\s*)"
    r"(?:一张|一块|单张|单块|一卡)(?:卡|显卡)?\s*(?=\d+(?:\.\d+)?\s*g)"
)
"""'4 张 L20, 一张 48G': after a count of cards, one card's memory is each card's ('每张 48G')."""


TRAIN_UP_TO_RE = rc(
    r"(?<!从)(?:(?:想|要|希望|需要)\s*)?训练?到\s*"
    r"(?=(?:\d{4,7}|\d+(?:\.\d+)?\s*(?:k|万))(?![\d.])(?!\s*(?:步|steps?|个?\s*epochs?|轮|次|条|个?样本|张|卡|亿|b\b)))"
)
"""'想训到 90000', '训练到 64k': the verb of a length wanted, before the length (see the module docstring)."""
RUN_TO_LENGTH_RE = rc(
    r"(?:能|可以|能不能|可不可以)?\s*(?:跑|撑|扛)(?:到|满|起)?\s*"
    r"(?=\d+(?:\.\d+)?\s*k(?![a-z0-9.])"
    r"(?!\s*(?:的\s*)?(?:条|步|steps?|个|样本|张|卡|并发|qps|次|轮|epochs?|token|上下文|context|长度|窗口|序列)))"
)
"""'能跑 32k 吗', '撑到 128k': a running verb before a length in thousands (see the module docstring)."""
_LENGTH_NAMED_RE = rc(
    r"max[\s_\-]*(?:model[\s_\-]*)?len|cutoff[\s_\-]*len|seq(?:uence)?[\s_\-]*len|长度|上下文"
)
"""A length named in the message: a train-up-to verb is about that length."""


UPPER_TEXT_RE = rc(
    r"(?:(?:\d|十)\s*[km万]?\s*(?:tokens?\s*)?(?:的\s*)?(?:长\s*)?|长\s*)上文(?![所中提说里已述])|上文(?=\s*长度)"
)
"""'上文' for the context ('2k 上文', '200k 的长上文', '上文长度', round 25), after a length or '长' or before
'长度': the context the rules read as '上下文'; never the text above ('如上文所述', '上文提到的')."""


VAGUE_ALTERNATIVE_RE = rc(
    r"(\d+(?:\.\d+)?\s*[km])\s*(?:或者?|或是|还是|甚至)\s*(?:几十|几百|十几|更长|更多)\s*[km]?\s*"
    r"(?=(?:tokens?\s*)?(?:的\s*)?(?:长\s*)?(?:上下文|context|序列))"
)
"""A length with a vague larger one offered beside it ('200k 或者几十 k 的长上文', '32k 甚至更长的上下文',
round 25): the number is the length; the vague one has no value to size or name."""


def read_zh_phrasing(s: str) -> str:
    """The normalized text ``s`` with each rule of this module applied (see the module docstring)."""
    if "上文" in s:
        s = UPPER_TEXT_RE.sub(lambda m: m.group(0)[:-2] + "上下文", s)
    if "几" in s or "更" in s:
        s = VAGUE_ALTERNATIVE_RE.sub(r"\1 ", s)
    if _CONTEXT_GATE.search(s):
        s = CONTEXT_VERB_RE.sub(r"\1 = ", s)
    if _VERB_GATE.search(s):
        s = SETTING_VERB_RE.sub(r"\1 = ", s)
        if "token" in s:
            s = LENGTH_BEFORE_WORD_RE.sub(r" \g<w> = \g<n> ", s)
    if "个" in s:
        s = COUNTED_GIGABYTES_RE.sub(r"\1g", s)
    if "一" in s or "单" in s:
        s = EACH_AFTER_COUNT_RE.sub(r"\g<pre>每张 ", s)
    if "满血" in s:
        s = FULL_BEFORE_VERSION_RE.sub(" ", s)
    if "到" in s and _LENGTH_NAMED_RE.search(s):
        s = TRAIN_UP_TO_RE.sub(" 长度 = ", s)
    if "跑" in s or "撑" in s or "扛" in s:
        s = RUN_TO_LENGTH_RE.sub(" 长度 = ", s)
    return s
