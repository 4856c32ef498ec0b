"""The cue words several readers share (review finding 8, session 12): one vocabulary for what was
measured, what an earlier setup was, what a question asks for, and what a job requires. Each is a pattern
text (compiled by its user, see :func:`bot.parse.regex.rc`), so the whole-message structure reader
(:mod:`bot.parse.structure`), the settings reader (:mod:`bot.parse.settings`), the earlier-count reader
(:mod:`bot.parse.earlier_counts`) and :mod:`bot.parse.words` cannot drift apart.
"""

from __future__ import annotations

MEASURED_BEFORE = (
    r"|\bonly\s+(?:about\s+|around\s+|~\s*)?$|\bspeed\s+(?:is|was|of)\s+(?:only\s+)?(?:about\s+|around\s+|~\s*)?$"
    r"|速度\s*(?:是|为|只有|才|大概|约)?\s*$|\b(?:i|we)\s+(?:am|are)\s+getting\b|\b(?:does|doing|runs\s+at)\s+$"
    r"|\b(?:get|gets|got)\s+(?:only\s+)?(?:about|around|roughly|approximately|~)\s*$"
    r"|\b(?:generation|prompt|token|output|input)\s+throughput\s*(?:\([^)]{0,12}\))?\s*[:=]\s*$"
    r"|\b(?:performance|speed|speeds|throughput|perf)\s*[(（]\s*(?:about\s+|around\s+|~\s*)?$|(?:性能|速度)\s*[(（]\s*$"
    r"|\d\s*(?:s|secs?|seconds?|ms|秒)\s*[(（]\s*(?:about\s+|around\s+|~\s*|≈\s*|约\s*|大约\s*)?$"
    r"|\d\s*(?:个\s*)?(?:tokens?|词元)\s*[(（]\s*(?:about\s+|around\s+|~\s*|≈\s*|约\s*|大约\s*)?$"  # s43
    r"|\b(?:prompt\s+(?:eval(?:uation)?|processing)|prefill(?:ing)?|token\s+generation)\s*(?:speed|rate)?\s*(?:of|[:=])?\s*$"
    r"|(?<![a-z0-9])(?:pp|tg)\d{1,6}(?:\s*@\s*d\d+)?\s*(?:of|[:=])?\s*(?:about\s+|around\s+|~\s*)?$"
    r"|(?:预填充|提示词处理|生成)\s*(?:速度)?\s*[:：]\s*$"
)
"""A speed said as what one gets ('the generation speed is only 6 tokens/s', 'I get 40 t/s', '生成速度
30 tok/s'; round 19 en: a rate in brackets after the time a run took, '256 tokens in 3.14 s (~81 tok/s)'),
right before the rate: an observation, not the throughput asked for (part of
:data:`MEASURED`, which had 'we get' but not 'I get' nor 'speed is'). Round 7: '… and only get around 120
TFLOPS' (a verb, then about/around), and a tool's log label before its figure ('Avg generation
throughput: 15.5 tokens/s' of vLLM's metrics log, 'Output token throughput (tok/s): 1519.34' of its
serving benchmark): what was measured, never the target. Round 10 (s15): a rate in brackets after the
words for how a run went ('with decent performance (11 tok/sec)', '速度（15 tok/s）还行'). Round 36 en: a
benchmark's label right before its figure, the prompt's processing or the generation ('prompt evaluation
4031.87 t/s', 'token generation 119.66 t/s', llama-bench's 'pp512 18.41 t/s', 'tg128 of 167 t/s', '预填充速度:
3000 t/s'): a speed measured, never the throughput asked for. s43 fixread2: a rate in brackets after a
run's tokens ('3 秒生成 128 个 token（约 40 tok/s）': before, sized as the throughput asked for)."""

MEASURED = (
    r"(?:we|i|and)\s+(?:get|got|see|saw|reach|hit|achieve|measure)|getting|achiev|measured|observed|reach|hitting"
    r"|(?:was|were)\s+able\s+to"  # s34 review: 'I was able to hit 40 tokens/s' reports
    r"|实测|测得|跑到|跑出|能到|只有|(?<![要需求须])达到|观测|实际" + MEASURED_BEFORE
)
"""Words before a figure that report it as measured ('we get 20 TFLOPS', '实测 150 TFLOPS', '跑到每秒 1200
token'), searched in the characters right before the figure."""

RATE_RUN = r"跑(?![通不])"
"""A run stated with its rate in Chinese ('单张 4090 跑 Qwen2.5-14B 每秒 35 个 token'): with :data:`MEASURED`,
the words that make a rate in a clause that asks nothing a measured one."""

EARLIER = (
    r"(?<![周月天日号年点前])(?:之前|以前)(?!\s*(?:的?\s*(?:问题|回答|回复|issue)))|原来|原先|此前|曾经|上次|过去"
    r"|\bpreviously\b|\bused\s+to\b|\bbefore\s+that\b|\bin\s+the\s+past\b"
)
"""Words that open an earlier setup (a deadline, '下周之前', is no earlier setup)."""

ASKS_COUNT = (
    r"多少(?:张|块|个)?(?:卡|gpu)|几(?:张|块)|几卡|how\s+many\s+(?:more\s+)?(?:gpus?|cards?)"
    r"|how\s+many\s+of\s+(?:them|those|these)\b"
    r"|几台|多少台"
)
"""A question for the GPU count ('要几张', '多少张卡', 'how many GPUs'; round 13: 'how many of them',
'how many more GPUs'; s37 fixb #2: the machines, '要几台', 'how many nodes': the cards in them)."""

REQUIRED = (
    r"\bmust\b|\bneeds?\s+to\b|\brequired?\b|\brequirement"
    r"|(?:要求|需要|须)\s*(?:达到|每秒|吞吐|速度|延迟|首字|[\d,.]+\s*(?:tok|token|个\s*token|字))"
    r"|(?:吞吐|速度|性能|延迟|sla)\s*(?:要求|需要|须)|要达到"
)
"""Words that state what the job requires ('the service must hit 2000 tokens/s', 'required throughput:',
'推理服务要求每秒 5000 token', '吞吐要求 2000 tokens/s'): a figure after them is a target, never one measured
(review finding 1). A bare '需要' / '要求' / '须' is none: they are in any clause, a colleague's too
('同事之前全参微调 7B 需要 4 张 A100'; session 13 review finding 3), so only next to a rate or a rate's
noun."""

SWITCH = (
    r"(?<!\bright\s)\bnow\b(?!\s*,?\s*(?:not|rather|and|but|while)\b)"
    r"(?!\s+(?:(?:we|i|it|they)\s+)?(?:have|has|had|use|uses|using|runs?|running|serves?|serving|is|are|takes?))"
    r"|\bmov(?:e|ing)\s+to\b|\bswitch(?:ing)?\s+to\b|\bupgrad(?:e|ing)\s+to\b|\bwhat\s+about\b"
    r"|现在(?:想|要|准备|打算|需要)|想换成|想换|换成|改用|换到|切换到|想上|升级到|改成"
)
"""Words that turn from the setup a user has to the one asked about ('…, now we need 70B', 'moving to
Qwen2.5-72B', '7B 跑通了，现在想上 70B', '想换成 H100'): what follows them in their clause is the job (trial
A1, review finding 7). Not 'instead' (in 'X instead of Y' the model after it is dropped; session 13 review
finding 1), nor 'now, not Y', 'right now', 'now we run …' (what runs today) or '50 users now and 200 at
peak' (today's load beside the target: trial s17 #4, the count of the rig they run was named another
setup's)."""

# s46 merge: the call-site gates of three readers loaded on first use (bot.later_names), so a plain
# question imports none of them (`ask` start-up, issue 23 item 7)
FOREIGN_CUES = (
    "欧元", "€", "eur", "英镑", "£", "gbp", "pound", "日元", "円", "jpy", "yen", "港币", "港元", "hkd",
    "韩元", "₩", "krw", "澳元", "aud", "加元", "cad", "新加坡元", "新币", "sgd", "卢比", "inr",
    "rupee", "卢布", "台币", "twd", "瑞郎", "chf",
)  # fmt: skip
"""(:mod:`bot.parse.foreign_money`) Words one of which a message with such an amount holds (lower-cased):
the call-site gate."""

LIST_WORDS = ("和", "或", "、", " and ", " or ", "/")
"""(:mod:`bot.parse.listed_outputs`) A conjunction between two lengths, one of which the message holds: the
call-site gate."""

RETRIEVAL_CUES = (
    "embed", "嵌入", "向量模型", "rerank", "重排", "bge", "bce-", "gte-", "m3e", "minilm", "mpnet",
)  # fmt: skip
"""(:mod:`bot.parse.retrieval_models`) Words one of which a message naming a retrieval model holds
(lower-cased text): the call-site gate."""

EP_CUES = (
    "ep=",
    "ep:",
    " ep ",
    " ep-",
    " ep_",
    "ep1",
    "ep2",
    "ep3",
    "ep4",
    "ep6",
    "ep8",
    "expert",
    "专家并行",
)
"""(:mod:`bot.parse.expert_degree`) The literal gate at its call site (bot.parse.stage_steps, s47 trialfix
#6): a message with none of them pays no search ('deep', 'step', 'epochs' hold none)."""

_GROUP_SIZES = ("32", "64", "128", "256", "512", "1024")
GROUP_SIZE_CUES = tuple(f"{sep}{n}g" for sep in "-_" for n in _GROUP_SIZES) + tuple(
    f"{sep}g{n}" for sep in "-_" for n in _GROUP_SIZES
)
"""(:mod:`bot.parse.group_size`, s47) The suffixes as the normalized (lower-case) text writes them, tested
in C at the call site (``any(map(s.__contains__, GROUP_SIZE_CUES))``), so a message without one ('24gb',
'128g 内存') pays no frame and no regex search (tests/test_parse_render_speed.py)."""


EXTEND_CUES = ("拉到", "拉长到", "扩到", "扩展到", "扩至", "扩展至")
"""s48: a window extended with no RoPE factor said ('把上下文拉到 64k'; English 'stretch' / 'extend' are
tested on the normalized text): the gate of bot.parse.rope_factor's reading at its call site
(bot.parse.assemble), tested in C on the message as typed (normalizing writes '拉到' as ' = ')."""


ARCHITECTURE_CUES = ("rwkv", "mamba", "retnet", "hyena", "xlstm")
"""(:mod:`bot.parse.architectures`, s48 names) An architecture's word in the lower-cased text, tested in C at
each call site (``any(map(s.__contains__, ARCHITECTURE_CUES))``) before the module is imported."""


VERSION_CUES = (
    "flash",
    "cuda",
    "cudnn",
    "nccl",
    "rocm",
    "torch",
    "xformers",
    "transformers",
    "peft",
    "trl",
    "bitsandbytes",
    "triton",
    "driver",
    "驱动",
)
"""s48b: the names of bot.parse.software_versions.VERSION_RE, tested in C at its call site
(bot.parse.assemble): a message with none pays no frame and no regex search."""

TURN_WORDS = ("后来", "之后", "随后", "然后", "接着", "最后", "改用", "换成", "换用", "改成")
"""s50 workmiss: words of a turn to the setup that followed ('单张 A100 … 后来用了 8 张卡'); with '单' in the
text, the gate of :func:`bot.parse.later_single.earlier_single`, which reads the same words."""

OTHER_CARD_CUES = ("另一", "另外一", "剩下", "第二张", "第二块", "the other ", "The other ")
"""(:mod:`bot.parse.other_card_job`) Literals one of which a message keeping its other card for another
job holds ('另一张跑 embedding', 'the other one runs the reranker'): its gate in bot.parse (s50 #3)."""
CARD_MEND_CUES = ("核", "core", "Core", "CORE", *OTHER_CARD_CUES)
"""bot.parse's gate for its GPU count mends (s50 leftovers #3, #6): a core count ('16 核 GPU') or the other
card's job."""
