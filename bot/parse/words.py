"""Step 4: stage, method and other settings named by words (预训练/fine-tune/LoRA/单卡/offload …)."""

from __future__ import annotations

import re

from bot.later_names import without_reasoning
from bot.parse import lexicon as lx
from bot.parse.cue_index import per_message
from bot.parse.cue_words import ASKS_COUNT
from bot.parse.normalize import MARKS
from bot.parse.regex import AnyBranch, rc

SINGLE_CARD_RE = rc(  # s23: '单芯 1684x', '单颗 910B', '单芯片': one chip, as '单卡' one card
    r"(?:单卡|单张|单块|单颗|单芯(?:片)?)(?!\s*(?:batch|bs|显存|的显存|吞吐|性能|速度|最|能放|放得下))"
    # s47 round 43: one card ruled out with a certainty word ("单卡消费级显卡肯定不行，至少双 H100"):
    # no one-card setup; never "单卡 A100 40G 显存不够" (the card used ran out), "单卡 A100 80G 行不行"
    r"(?![^，,。；;？?！!]{0,12}?(?:肯定|根本|绝对|显然|当然)\s*(?:是)?\s*(?:不行|不够|放不下|跑不动|装不下|带不动|扛不住))"
    # round 37: '单个' before a card, its memory between ('gpu 是单个 16G 的 V100'); never '单个样本';
    # s48 round 44: before an NPU or an accelerator card too ('在 910B 训练卡上，单个 NPU 推理')
    rf"|单个(?=\s*(?:\d{{1,3}}\s*g(?:b|ib)?\s*(?:显存)?\s*的?\s*)?(?:[{MARKS}]|gpu|npu|显卡|加速卡|卡))"
    # and the card said with '一台' after a card word ('GPU 是一台英伟达 A100'): one card, never
    # '一台 8 卡服务器'
    rf"|(?:gpu|显卡)\s*(?:是|为|用的是)\s*一台(?=\s*(?:英伟达|nvidia)?\s*[{MARKS}])"
)
DUAL_CARD_RE = rc(
    r"双卡|双\s*(?=(?:rtx|gtx)?\s*\d{4}|(?:nvidia\s*)?[abhlt]\d{1,3}[a-z]?(?![a-z0-9]))"
    r"|\bdual[\s\-]+(?:gpus?|cards?|(?:rtx\s*)?\d{4})"
)
"""'双卡', '双4090', 'dual 4090', s47 round 43: a data-center card ('双 H100', '双 A100', '双 L20'; before,
the count was dropped): two cards (not '双路', a two-socket server)."""
_HOST_CPU = (
    r"(?:(?:(?:amd|intel)\s+)?(?:ryzen|threadripper|epyc|xeon|core)\b[\w\s\-]{0,16}?|i[3579][\s\-]\d{4,5}\w*)"
    r"\s*(?:\+|&|and|with|和|加)\s*(?:an?\s+)?"
)
"""A host's CPU before its card ('a Ryzen 7900X + Arc A770', 'my i9-14900K and a 4090', '7970X 和 A6000')."""
ARTICLE_GPU_RE = AnyBranch(
    rc(
        rf"\b(?:does|will|can|could|would|is)\s+an?\s+(?:\d{{2,3}}\s*g(?:b|ib)?\s+)?(?:[{MARKS}]|gpu\b|card\b)"
        rf"|\b(?:on|with|using|ha(?:ve|s|d)|got|get(?:ting)?|buy(?:ing)?|bought|own|rent(?:ed|ing)?|consider(?:ing)?"
        rf"|order(?:ed)?)\s+(?:an?|the|my|our)\s+(?:single\s+)?(?:(?:colab|kaggle)\s+)?(?:{_HOST_CPU})?"
        rf"(?:\d{{2,3}}\s*g(?:b|ib)?\s+)?[{MARKS}]"
        r"(?!\s*s\b|[\s\w\-()]{0,16}\b(?:clusters?|nodes?|servers?|machines?|boxes|pods?|instances?|each)\b)"
        rf"|(?:^|在|用)\s*(?:(?:一张|单张)\s*)?(?:(?:colab|kaggle|笔记本|电脑|本地)\s*)?(?:(?:的|自带的)\s*)?(?:{_HOST_CPU})?"
        rf"[{MARKS}]\s*(?:\d{{2,3}}\s*g(?:b|ib)?\s*)?上"
        rf"|\b(?:my|a|an|our|the)\s+(?:gaming\s+)?(?:laptop|notebook)(?:['’]s\s+|\s*[(（]\s*|\s+(?:with|has)\s+(?:an?\s+)?)"
        rf"(?:nvidia\s+|geforce\s+)?[{MARKS}]"
        rf"|(?:我的|一台)?(?:游戏)?笔记本(?:电脑)?\s*(?:的|上的|是|有|带|[(（])?\s*(?:一张|一块)?\s*[{MARKS}]"
        rf"|(?:我的|我们的|我这边的|手上的|自己的)\s*(?:显卡|卡|gpu)\s*(?:是|为|用的是|就是|只是|只有)\s*(?:一张|一块|单张)?\s*"
        rf"(?:nvidia\s*|geforce\s*)?[{MARKS}]"
        rf"|\b(?:my|our)\s+(?:only\s+)?(?:gpu|card|graphics\s+card|video\s+card)\s+is\s+(?:an?\s+|the\s+|just\s+an?\s+)?"
        rf"(?:nvidia\s+|geforce\s+)?[{MARKS}]"
    )
)
"""'does a 4090 …', 'on an A100 40GB', 'with a single H100', 'on the A100', 'on my A6000', '在 A800 上跑',
a laptop's card (round 12: 'my laptop (RTX 2070 …)', '笔记本的 4060': a laptop has one); round 13: after a
verb of having or getting ('considering a DGX Spark', 'bought an A6000', 'renting an H100'); round 14: the
user's card said with a copula ('我的显卡是 4070', '我的卡是一张 3090', 'my GPU is a 4070'):
one GPU (not 'on a H100 cluster'; not when the question asks how many, :data:`ASKS_COUNT_RE`); round 7:
with the host's CPU first ('on a Ryzen 7900X + Intel Arc A770', '在 i9-14900K + 4060 Ti 上'), one card.
Asked only whether it matches (``found``), branch by branch (:class:`bot.parse.regex.AnyBranch`): the whole
alternation had no start scan (its '^' branch), so the engine tried every branch at every position (~70k
instructions a search; issue 23 item 7, s21)."""
ASKS_COUNT_RE = rc(rf"\bhow\s+many\s+(?:more\s+)?[{MARKS}]|" + ASKS_COUNT)
"""A question for the GPU count, also with the card named in it ('how many RTX 4090 do I need', 'how many
H100 for …'; session 19: read as asked, as Chinese '要几张 4090' is, never as the one card): the shared
words (:data:`bot.parse.cue_words.ASKS_COUNT`) last, as each reader that extends them writes them."""
COUNTER_NOT_CARDS = frozenset("钱图照表纸")
"""After '多少张' / '多少块': money ('多少块钱'), images ('多少张图'), photos, tables, sheets — not cards."""
HOW_MANY_NEEDED = ("do i need", "do we need", "would i need", "would we need", "will i need", "will we need")
"""After a bare 'how many': what is needed ('on H100 how many do I need')."""


def counter_asked(s: str) -> bool:
    """A question for the GPU count with the card named before it and only the counter or a bare 'how
    many' after it, in the normalized text ``s`` (s39 fixp #2): '用3090 多少张', 'A100 需要多少块', 'with
    3090, how many?', 'on H100 how many do I need' — the card named is the type asked about, not the
    user's one card. Not '多少块钱' (money) nor '多少张图' (images); a card or a noun after the counter
    ('多少张A100', 'how many days') is read by :data:`ASKS_COUNT_RE` or not at all. String tests only: no
    regex search (the parse's search count, tests/test_parse_render_speed.py); the caller gates on '多少' /
    'how many'."""
    for word in ("多少张", "多少块"):
        at = s.find(word)
        while at >= 0:
            after = s[at + 3 : at + 8].lstrip()[:1]
            mask = "\ue000" <= after <= "\uf8ff"  # a card or model masked by the parse (bot.parse.normalize)
            if not after or not ((after.isascii() and after.isalnum()) or mask or after in COUNTER_NOT_CARDS):
                return True
            at = s.find(word, at + 3)
    at = s.find("how many")
    if at < 0:
        return False
    after = s[at + 8 :].lstrip()
    return not after or after[0] in "?？" or after.startswith(HOW_MANY_NEEDED)


PLURAL_GPU_RE = rc(
    rf"[{MARKS}](?:s|\s*(?:gpus|cards))\b|\b(?:multiple|several|some|a\s+few|a\s+couple\s+of)\s+[{MARKS}]"
    rf"|多(?:张|块)\s*[{MARKS}]"
)
"""A card named in the plural with no number ('on 4090s', 'H100 GPUs', 'V100s' as
:mod:`bot.parse.plural_cards` writes it, 'several A100', '多张4090'): more than one card,
so the count is sized (as when asked), never the one personal card."""
MEM_CARD_RE = rc(r"\d{1,3}\s*g(?:b|ib)?\s*显存的(?:笔记本)?(?:卡|显卡)")
ASKS_COST_RE = rc(
    r"多少钱|花多少|要花|费用|成本|价格多少|贵不贵|how\s+much(?!\s+(?:gpu\s+)?(?:v?ram|memory)\b)|\bcosts?\b|\bprice\b|\bexpensive\b|\bbudget\s+for\b"
    r"|电费|租金|月费|\bbills?\b|\bspend\b"  # '一个月电费/租金多少', "what's the monthly bill?" (s18)
)
# The cost asked, for ``cost_asked`` (s35 fixe #2): cost-only words, not ASKS_COST_RE's bare 'how much' —
# 'how much memory / VRAM / time / data', '多少显存', '多久' ask no price. 'how much' counts only before money
# words ('how much money', 'how much for 8 H100s', 'how much would it be').
ASKS_PRICE_RE = rc(
    r"多少钱|花多少(?!时间|天|小时|个?月|周|分钟)|花费|费用|成本|价格多少|贵不贵|\bcosts?\b|\bprice\b|\bexpensive\b|\bbudget\b|\bmoney\b"
    r"|电费|租金|月费|\bbills?\b|\bspend\b|\$\s*\?|how\s+much\s+(?:for\b|\$|would\s+(?:it|that)\s+be\b"
    r"|will\s+(?:it|that)\s+be\b|is\s+(?:it|that)\s*[?？]|do\s+i\s+(?:need\s+to\s+)?pay\b)"
    r"|\bhow\s+much\s*(?:[?？!.]|$)"  # s42 trial #4: 'how long and how much?' ends on it: the price
)
ASKS_CONCURRENCY_RE = rc(
    r"how\s+many\s+(?:concurrent|simultaneous)\b"
    r"|how\s+many\s+(?:users|requests|sessions|people|sequences)\b[^.?!]{0,40}?"
    r"(?:at\s+once|concurrently|simultaneously|at\s+the\s+same\s+time|in\s+parallel)"
    r"|how\s+many\s+(?:users|requests|sessions|sequences)\s*(?:[?？]|$|(?:can|could|will|would|does|do)\b"
    r"[^.?!]{0,40}?\b(?:serve|handle|support|sustain|take)\b)"
    r"|(?:支持|扛|承受|带|服务|跑)(?:得了|得住)?\s*(?:多少|几)\s*(?:个|路|名|条)?\s*(?:并发|人同时|用户同时)"
    r"|(?:最多|最大)\s*(?:能|可以)?\s*(?:支持|扛|有|跑)?\s*(?:多少|几)\s*(?:个|路|名|条)?\s*并发"
    r"|(?:多少|几)\s*(?:个|路|条)?\s*并发\s*[?？吗呢]|多少并发|并发\s*(?:能|可以|能够)?\s*(?:有|到|达到|支持|上)?\s*多少"
    r"|\b(?:max|maximum|peak)\.?\s+(?:concurrency|concurrent\s+(?:users|requests|sessions|sequences))\s*\?"
    r"|how\s+much\s+concurrency\b"
)
"""The question asks how many sequences fit at once ('能支持多少并发', 'how many concurrent users')."""
ASKS_CONTEXT_RE = rc(
    r"\b(?:max(?:imum)?|longest|largest|biggest)\.?\s+(?:context|ctx)(?:\s+(?:length|window|size))?\s*"
    r"(?:[?？]|$|(?:can|could|will|would|does|do|is|that|it|for|on)\b)"
    r"|how\s+(?:long|large|big)\s+(?:a\s+|of\s+a\s+)?context\b"
    r"|\bhow\s+much\s+context\b"
    r"|\bwhat\s+(?:max(?:imum)?\s+)?(?:context|ctx)(?:\s+(?:length|window|size))?\s+"
    r"(?:can|could|will|would|do|does|is\s+possible|fits?)\b"
    r"|上下文(?:长度|窗口)?\s*(?:最多|最大|最长)?\s*(?:能|可以)\s*(?:开|设|支持|跑|到|用)?\s*(?:到)?\s*(?:多大|多长|多少)"
    r"|(?:最大|最长)(?:能\s*(?:开|支持|跑))?\s*(?:多少|多大|多长)?\s*上下文(?:长度|窗口)?\s*(?:[?？]|是多少|多少|多大|$)"
    r"|上下文(?:长度|窗口)?\s*(?:最多|最大|最长)\s*(?:是|有|能有)?\s*(?:多少|多大|多长)"
    r"|(?:能|可以)\s*(?:开|设|支持|跑|用)\s*(?:到)?\s*(?:多长|多大|多少)\s*(?:的)?\s*上下文"
)
"""The question asks the longest context their setup serves ('max context?', '上下文能开多大', 'what context
can we get', 'how much context', '能开多长上下文', '上下文最多多少': s27 trial #3): read only
when no context is stated (estimator.longest_context, trial s26 #10)."""
ASKS_START_RE = rc(
    r"\b(?:will|would|does|can|could|do)\s+(?:(?:it|this|that|the\s+server|the\s+engine|vllm|sglang)\s+)?"
    r"(?:even\s+)?start\b(?!\s+(?:training|to\s+train|a\s+training))"
    r"|\bstart\s*(?:up)?\s*(?:at\s+all\s*)?\?"
    r"|(?:能|可以|会)(?:不能|否)?\s*(?:正常)?\s*启动|启动得了|起得来|能不能启动|启动不了吗"
)
"""The question asks whether a server starts ('will vLLM start with max_model_len 32768?', '能启动吗'): with
a context and no load the answer is the start-up check's yes/no (bot.core.start_only, trial s26b #6). Read
only when 'start' or '启动'/'起得来' is in the text (the rest: :data:`ASKS_START_MORE_RE`)."""
ASKS_START_MORE_RE = rc(
    r"\b(?:will|would|does|can|could)\s+(?:it|this|that|the\s+(?:model|server|engine)|vllm|sglang)\s+"
    r"(?:even\s+)?(?:load|boot|launch)\b(?!\s*(?:\d|more|as\s+many))"
    r"|(?:能|可以|会)(?:不能|否)?\s*(?:正常)?\s*(?:跑|拉|运行)?\s*起来|(?:跑|拉)得起来|(?:跑|拉)不起来"
)
"""The rest of the start-up vocabulary (s37 fixb #4: one vocabulary in both languages): 'will it load /
boot / launch', '能(跑)起来吗', '跑得起来' ask, as 'will it start' and '能启动吗' do, whether the server
starts; searched only past its own words' gate (bot.parse.stage_steps)."""
BARE_CONTEXT_LEFT_RE = rc(
    r"(?:\bat|@|\bwith)\s*$"
    r"|\d\s*(?:个|路|名|位)?\s*(?:并发|concurren(?:cy|t)(?:\s+(?:users?|requests?))?|用户|(?<![a-z])(?:users?|requests?"
    r"|sessions?|people)\b(?:\s+(?:at\s+once|concurrently|simultaneously))?)\s*[,，]?\s*$"
)
"""Words right before a bare '8k' that make it a serving context ('… fp8 at 8k', 'vllm 30并发 8k': the
load is said, so the thousands after it are the context); s37 fixd: a load said by its users or requests
as well, in both languages ('64 users 8k', '64 个用户 8k', '32 requests at once 32k'): one rule for every
count phrase of the load (before, '64 users 8k' named the 8k a second user count)."""
AT_BEFORE_RE = rc(r"(?:\bat|@)\s*$")


def bare_context_stage(stage: str | None, before: str) -> bool:
    """Whether a bare '8k' after ``before`` can be the context of a ``stage`` job: any serving one; a
    training one only after 'at' / '@' ('fine-tune Mixtral at 8k on 8 A10G', round 9: the sequence length)."""
    if stage == "inference":
        return True
    return stage in ("finetune", "pretrain", "continued_pretrain") and AT_BEFORE_RE.search(before) is not None


BARE_CONTEXT_RIGHT_RE = rc(
    r"\s*(?:$|[?？.,，;；!！)）]|(?:tokens?\s+)?(?:context|ctx|上下文)|on\b|with\b|and\b|in\b)"
)
"""What may follow that '8k': the end, punctuation, a context word, or the next clause ('at 8k on 4 H100')."""
ASKS_LARGEST_RE = rc(
    r"多大的?模型|多大参数|什么模型|哪些模型|哪个模型|(?:biggest|largest)\s+(?:model|llm)|how\s+(?:big|large)\s+(?:a\s+)?"
    r"(?:model|llm)|what\s+(?:size\s+)?(?:models?|llms?)\s+(?:can|could|will|fits?)|which\s+(?:models?|llms?)"
    r"|what\s+(?:can|could)\s+(?:i|we|you)\s+(?:serve|run|host|deploy|train|fine[\s\-]?tune)"
    r"(?=\s*(?:$|[?？.,，;；!！]|(?:on|with|for|in|using|at)\b))"
    r"|能\s*(?:跑|部署|训练?|微调)(?:得动|得了)?\s*(?:些|哪些)?\s*什么(?=\s*(?:$|[?？,，。;；!！]|呢|吗|大?模型))"
)
"""The question asks which model fits ('一张4090能跑多大的模型', 'the biggest model I can run on …'), the
model the unknown of the verb ('what can I serve on 2x4090 for 50 users', '两张4090能部署什么'; s35 #1)."""
ASKS_TTFT_RE = rc(
    r"首\s*token|首字|首包|\bttft\b|time\s+to\s+first\s+token|first[\s\-]token\s+latency|prefill\s+time"
)
"""The question asks the time to first token ('要多久首token', 'TTFT?')."""
ASKS_SPEED_RE = rc(
    r"每秒|多快|速度|吞吐|tokens?\s*/\s*s\b|tok/s|tokens?\s+(?:per|a)\s+second|how\s+fast|throughput|\bspeed\b"
    r"|latency\s+(?:per|of\s+(?:each|a|one))\s+(?:output\s+)?token|per[\s\-]token\s+latency|inter[\s\-]token\s+latency"
    r"|\btpot\b|(?:每|单)\s*(?:个|一个)?\s*(?:输出\s*)?token\s*(?:的)?\s*(?:延迟|时延)|token\s*间\s*(?:延迟|时延)"
)
"""The question asks the decode speed ('每秒能生成多少token', 'how many tokens/s'), or its inverse, the
latency per output token ('what latency per token', '每个 token 延迟多少', TPOT; trial s31 #2)."""
ASKS_GPU_DAYS_RE = re.compile(
    r"gpu[\s\-]*days?\b|卡\s*[·\-]?\s*天|gpu\s*天|[a-z]\d{2,3}[\s\-]*days?\b", re.IGNORECASE
)
"""The question asks GPU-days ('How many H200 GPU-days', '多少卡·天'; trial s23 #12): said in that unit."""
ASKS_DURATION_RE = rc(r"多久|多长时间|几天|多少天|要多少时间|how\s+long|how\s+many\s+days|how\s+much\s+time")
"""The question asks how long ('7B用8张H100训多久', 'how long to train a 7B model on 8 H100')."""
RENT_RE = rc(r"\brent(?:al|ed|ing)?\b|\blease\b|租(?!户)")
"""Renting GPUs ('rent 8x H100 for one week', '租8卡H100一个月'): a period on GPUs is a rental."""
CNY_WORD_RE = rc(r"人民币|\brmb\b|\bcny\b|¥|(?<![欧日港韩澳加坡新台])元")  # s46: 欧元 is no yuan
USD_WORD_RE = rc(r"\$|\busd\b|美元|美金|dollars?\b")
UNIT_AFTER_RE = rc(r"\s*(?:个\s*)?[a-z\u4e00-\u9fff]+")
OFFLOAD_RE = rc(
    r"offload|卸载到\s*(?:cpu|内存)|zero[- ]?infinity"
    r"|(?:一部分|部分|一些|有些)\s*(?:的\s*)?(?:层|权重|模型|参数)?\s*(?:被\s*)?"
    r"(?:放到|放在|加载到|分到|分配到|挪到|卸到|跑在)\s*(?:了\s*)?(?:cpu|内存)"
    r"|(?<![a-z])(?:part|some|a\s+few|several)\s+(?:of\s+)?(?:the\s+)?(?:model|layers|weights|parameters)?\s*"
    r"(?:(?:is|are|was|were|got|gets)\s+)?(?:put|placed|loaded|moved|mapped|spilled)\s+(?:on|onto|to|into)\s+"
    r"(?:the\s+)?(?:cpu|ram|system\s+memory)"
    r"|max[_\s]?memory[^。;；\n]{0,80}?['\"\s]cpu['\"]?\s*:"  # r34: the quotes normalized away
)
"""CPU offload named; a stated 'without offloading' (:mod:`bot.parse.prose_vocab`) wins. Round 32: part of
the weights said to sit on the CPU ('device_map 把一部分放到 CPU 上了', 'part of the model was put on the
CPU') and accelerate's ``max_memory`` with a ``'cpu'`` budget (its big-model inference guide: what does not
fit the GPUs goes to the CPU)."""
OPTIMIZER_CPU_RE = rc(
    r"(?:优化器|optimizer)\s*(?:状态|states?)?\s*(?:会|就|都|也|自动)*\s*(?:被\s*)?"
    r"(?:放到|放在|挪到|卸到|转移到|搬到)\s*(?:了\s*)?(?:cpu|内存)"
    r"|(?<![a-z])optimizer\s*(?:states?\s+)?(?:(?:is|are|gets?|goes|get)\s+)?(?:automatically\s+)?"
    r"(?:put|placed|moved|kept)\s+(?:on|onto|to|into|in)\s+(?:the\s+)?(?:cpu|ram|system\s+memory)"
)
"""s47 round 43: the optimizer (its states) put on the CPU ('显存满了会自动把优化器放到 CPU 内存去跑',
'the optimizer gets moved to the CPU'): CPU offload, as :data:`OFFLOAD_RE`; searched only in a text with
'优化器' or 'optimizer' (bot.parse.assemble): a branch of OFFLOAD_RE gave that pattern a gate frame on every
parse."""
PARALLEL_RE = rc(r"(?<![a-z0-9])(?:tp|pp|dp|ep|cp|sp|zero)\s*[=:\-]?\s*\d+")


_FINETUNE_WORDS = AnyBranch(lx.FINETUNE_RE)
INFERENCE_STAGE_RE = rc(lx.INFERENCE_RE.pattern + r"|(?<![a-z0-9])(?:cli|web|api)_demo")
_STAGE_WORDS = (
    (AnyBranch(lx.CONTINUED_RE), "continued_pretrain"),
    (_FINETUNE_WORDS, "finetune"),
    (AnyBranch(lx.PRETRAIN_RE), "pretrain"),
    (AnyBranch(INFERENCE_STAGE_RE), "inference"),
)
"""Stage words, in precedence order: 继续预训练 before 预训练, 微调 before 训 (only whether each matches is
asked: branch by branch, :class:`bot.parse.regex.AnyBranch`, one frame a word). Round 33 zh: a chat demo
script is serving ('用 LLaMA-Factory 的 cli_demo 运行 SUS-Chat-34B', ChatGLM's web_demo.py, GLM-4's
trans_cli_demo.py, openai_api_demo); never 'finetune_demo' (ChatGLM3's fine-tuning folder)."""
FINETUNE_TOOL_RE = rc(
    r"llama[\s\-_]?factory|efficient[\s\-_]?tuning|\baxolotl\b|\bunsloth\b|\bxtuner\b|deepspeed[\s\-_]?chat"
    r"|(?<![a-z])(?:rlhf|train)_type(?![a-z])"
)
"""Tools made for fine-tuning ('LLaMA-Efficient-Tuning', 'axolotl', ms-swift's --train_type / --rlhf_type
flags: s17): training with one tunes a model,
unless a stage word says otherwise ('用 LLaMA-Factory 的 api.py 部署' serves)."""
_ITEMS = (
    r"documents?|docs|files|pages|records|rows|examples|samples|items|texts|articles|emails|tickets|images"
    r"|prompts|queries|questions|reviews|papers|transcripts|entries|calls"
)
BATCH_JOB_RE = rc(
    r"\b(?:process|label|annotate|classify|summari[sz]e|translate|caption|run|inference)(?:s|es|ed|ing)?\s+"
    rf"(?:(?:over|through|about|around|roughly|some|all|the|our|my|these|those|each|~)\s*)*\d[^.?!\n]{{0,24}}?\b(?:{_ITEMS})\b"
    r"|(?:处理|标注|打标|分类|摘要|翻译|打分)\s*(?:一下|完)?\s*(?:大约|大概|约)?\s*\d[^。？！?!\n]{0,12}?"
    r"(?:条|篇|份|个|张)\s*(?:的)?\s*(?:文档|文章|数据|样本|文本|记录|图片|问题|评论|邮件|工单|对话|网页)"
)
"""s37 (issue 24, everyday phrasing): a batch job said by what it does to a number of items ('process 1M
documents', 'label 200k examples with …', 'run 500k prompts through …', '处理 100 万篇文档',
'标注 5 万条数据'): running the model over them, an inference, when no stage word is said (before: sized
as a training of those samples)."""


TRAIN_VERB_RE = rc(r"\b(?:re)?train(?:s|ing)?\b|训(?!练?好的)")
"""s37-rev: a training verb ('then train Qwen2 7B', 'continue training', '再用它们训练', '训一个分类模型'): it
wins over a batch job said in the same message (the job makes the training data); never 'a model trained
on …' nor '训练好的模型' (a description of a served model)."""


def _trains(s: str) -> bool:
    """Whether ``s`` says a training verb (:data:`TRAIN_VERB_RE`; an ``in`` test first)."""
    return ("train" in s or "训" in s) and TRAIN_VERB_RE.search(s) is not None


def _batch_cue(s: str) -> bool:
    """A word :data:`BATCH_JOB_RE` needs (C-level ``in`` tests: no call for a message without one)."""
    if "处理" in s or "标注" in s or "打标" in s or "分类" in s or "摘要" in s or "翻译" in s or "打分" in s:
        return "条" in s or "篇" in s or "份" in s or "个" in s or "张" in s
    verb = (
        "process" in s or "label" in s or "annotat" in s or "classif" in s or "summari" in s
        or "translat" in s or "caption" in s or ("run " in s and "through" in s)
    )  # fmt: skip
    return verb and (
        "doc" in s or "file" in s or "page" in s or "record" in s or "rows" in s or "example" in s
        or "sample" in s or "item" in s or "text" in s or "article" in s or "email" in s or "ticket" in s
        or "image" in s or "prompt" in s or "quer" in s or "question" in s or "review" in s or "paper" in s
        or "transcript" in s or "entries" in s or "calls" in s
    )  # fmt: skip


HOST_VERB_RE = rc(
    r"(?:\bto|\bcan|\bcould|\bi|\bwe|\bwill|\bwould|\bshould|\bhow|'ll)\s+(?:(?:i|we|you)\s+)?(?:self[\s\-]?)?"
    r"host(?:ing)?\b(?!\s+(?:memory|ram|machines?|cpus?|side|os|system|nodes?|servers?|has|have|is)\b)"
    r"|\bself[\s\-]?host(?:s|ed|ing)?\b"
)
"""S36-gen2 (en32-010): hosting a model, as a verb ('is it possible to host LLaMA locally', 'can I host a 7B',
'self-hosting Qwen'): serving it (before, no stage was read: 'host' was no stage word); never the host
machine ('the host has 64GB RAM', 'host memory', 'to host RAM')."""
_WEAK_STAGE_WORDS = (
    (AnyBranch(FINETUNE_TOOL_RE), "finetune"),
    (AnyBranch(lx.TRAIN_RE), "pretrain"),
    (AnyBranch(lx.WEAK_INFERENCE_RE), "inference"),
)
"""Hints that say a stage without naming it: a fine-tuning tool → fine-tuning; 训, MFU, 6ND → training;
跑, 显存, int4 → serving; s36-gen2: hosting a model → serving."""
_LORA_WORDS_RE = rc(r"\bq?lora\b|4[\s\-]?bit\s+lora")


SERVE_STRONG_RE = rc(
    r"\bserv(?:e|es|ing)\b|\bdeploy|部署|推理|上线|\binference\b|并发|concurren|\busers?\b|用户|\bqps\b"
)
TUNED_ADJECTIVE_RE = rc(
    r"(?:q?lora[\s\-]*)?(?:fine[\s\-]?)?tuned|微调(?:后|过|好)的?|训(?:练)?好的|q?lora[\s\-]*(?:adapters?|weights|适配器)"
    r"|微调\s*(?:,|、|和|并|再)?\s*合并(?:后|完|之后)"  # round 5: '用 swift 微调、合并后用 lmdeploy 量化'
    # round 37: the model named between, then what was made of it ('LoRA 微调 qwen1half-7b-chat 后做 awq int4
    # 量化', '微调 Qwen2-7B 之后的模型'): the tuned model, not a fine-tuning asked about
    r"|微调\s*[^,，。;；!?！？]{1,40}?(?:后|之后|完)\s*(?:的\s*(?:模型|权重|checkpoint)"
    r"|(?:做|进行|再做|又做)了?\s*(?:awq|gptq|int[48]|\d\s*bit)?\s*(?:int[48])?\s*(?:量化|合并))"
    r"|\bafter\s+(?:q?lora[\s\-]*)?fine[\s\-]?tuning\s+[^,.;]{1,40}?\s+and\s+(?:awq|gptq|int[48])?[\s\-]*"
    r"(?:quantiz|merg)\w*"  # and in English ('after LoRA fine-tuning Qwen2-7B and AWQ-quantizing it')
    r"|\bwith\s+(?:a\s+|an\s+|the\s+)?q?lora\b|merged"
    # s48: a LoRA merged, then the one model served ('LoRA 合并后部署', 'merge the LoRA then serve it')
    r"|(?:q?lora|适配器)[^,，。;；!?！？]{0,16}?(?:合并|融合)(?:后|完|之后|以后|好)"
    r"|\bmerg(?:e|ing)\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:q?lora|adapters?)\b[^.;!?]{0,40}?\b(?:then|and)\b"
    r"|\b(?:trained|tuned|post[\s\-]?trained|aligned|made|built)\s+(?:with|via|using|through|by)\s+(?:large[\s\-]scale\s+)?"
    r"(?:reinforcement[\s\-]+learning|rl|rlhf|grpo|ppo|dpo|sft|fine[\s\-]?tuning)\b"
    r"|(?:强化学习|rlhf|grpo|ppo|dpo|sft)\s*(?:(?:训练|微调|后训练)(?:出来|过|好|后)?|出来|过|好|后)的"
    r"|\bfull[\s\-]*(?:parameters?|params?|weights?)(?![\s\-]*(?:fine|tun|train|sft|ft\b|update))"
    r"|全参(?:数)?(?:的)?\s*(?:模型|版本|权重)"
    r"|(?:哪个|哪一?款|什么|这个|那个)\s*微调(?:的)?\s*版(?:本)?"  # round 22 zh: '是哪个微调版本，本地部署…'
)
"""A tuned model being served: 'serve a QLoRA-tuned Llama', 'deploy the LoRA fine-tuned Qwen',
'部署微调后的模型', 'serve … with LoRA adapters', '微调、合并后 … 推理' (round 5), 'LoRA 微调 X 后做
awq 量化 … 推理' (round 37); how the model was made
('a model trained with reinforcement learning', '用强化学习训练出来的', session 12 review 3); the full,
unquantized weights it loads ('serve it with full parameters', '部署全参模型', round 9: not a fine-tuning);
which tuned release a served model is (round 22 zh: '是哪个微调版本，本地部署用的什么显卡' asks about a
release, no fine-tuning job)."""


JOB_NAMED_TOOL_RE = rc(
    r"(?<![\w\-])(?!(?:q?lora|full|pre|re|self|instruction|supervised|sft)[\-_])[a-z][a-z0-9.]*[\-_]"
    r"(?:fine[\-_]?tun(?:e|ing)|sft|trainer|training)(?![\w\-])"
)
"""A repository named for the job it does ('mistral-finetune', 'llama_finetuning', 'qwen-sft'; not
'lora-finetune' or 'full-finetune', which are the job): when a served model was made with it, its name is
no fine-tuning word (round 10, s15: 'inference with the Mistral 7B model I fine-tuned with
mistral-finetune' was sized as a fine-tuning)."""


@per_message  # asked of the message by the stage step and by the algorithm's readers
def serving_a_tuned_model(s: str) -> bool:
    """Serving words, and the fine-tuning words only describe the model ('LoRA-tuned', '微调后的')."""
    if not SERVE_STRONG_RE.search(s):
        return False
    rest = _LORA_WORDS_RE.sub(" ", TUNED_ADJECTIVE_RE.sub(" ", s))
    rest = JOB_NAMED_TOOL_RE.sub(" ", rest) if "-" in rest or "_" in rest else rest
    if _TRAIN_VERB_RE.search(rest):
        return False  # round 22: 'train LoRA adapters … before we deploy' trains them
    if "adapter" in rest:
        rest = SERVED_ADAPTERS_RE.sub(" ", rest)  # round 22: 'how many adapters can TGI keep in GPU memory'
    return not _FINETUNE_WORDS.found(rest) and not lx.PRETRAIN_RE.search(rest)


SERVED_ADAPTERS_RE = rc(r"\bmulti[\s\-]*(?:lora|adapters?)\b|\badapters?\b")
"""Adapters as the things a server loads ('multi-LoRA adapter deployment', 'how many adapters fit in GPU
memory', round 22): with a serving word and no training verb, the noun says what is served, as 'LoRA
adapters' in :data:`TUNED_ADJECTIVE_RE` does; before, it alone made a fine-tuning (en22-021)."""
_TRAIN_VERB_RE = rc(r"\btrain(?:s|ing)?\b|训练|训")


def model_description_removed(s: str) -> str:
    """``s`` without the words that only say how a served model was made ('serve a model trained with
    RLHF'): an algorithm named there is not the job (session 12 review 3)."""
    return TUNED_ADJECTIVE_RE.sub(" ", s) if serving_a_tuned_model(s) else s


SERVE_AFTER_TUNING_RE = rc(
    r"(?:微调|训练|训)(?:完|好|之后|以后|后)(?:的模型|之后|以后|后)?[^，。？！,.?!；;]{0,12}?(?:推理|部署|上线)"
    r"|\b(?:after|once)\s+(?:the\s+)?(?:fine[\s\-]?tun\w*|training|tuning)\b[^.?!。？！]{0,40}?"
    r"\b(?:serv(?:e|ing)|inference|deploy\w*|run\s+it)\b"
)
"""A fine-tuning question that also asks about serving the result ('微调完推理跑得动吗', 'after fine-tuning,
can I serve it on the same card?'): a second setup, named as not sized (the fine-tuning is)."""


def stage_from_words(s: str) -> str | None:
    """The stage a normalized text names, else the one its weaker hints suggest, else None."""
    s = without_reasoning(s) if "推理" in s else s  # round 14: '训练一个推理模型' trains a reasoning model
    for pattern, stage in _STAGE_WORDS:
        if pattern.found(s):
            return stage
    if _batch_cue(s) and BATCH_JOB_RE.search(s) and not _trains(s):  # s37: 'process 1M documents … GPU hours'
        return "inference"
    for pattern, stage in _WEAK_STAGE_WORDS:
        if pattern.found(s):
            return stage
    return "inference" if "host" in s and HOST_VERB_RE.search(s) else None  # s36-gen2: 'to host LLaMA'


@per_message  # asked of the same text by five steps of a parse: answered once a message
def explicit_stage(s: str) -> str | None:
    """A stage named by a stage word (预训练, 微调, 推理, fine-tune, serve …) in a normalized text, not
    inferred from other values; LoRA/QLoRA words are a method, and weak hints are ignored."""
    s = _LORA_WORDS_RE.sub(" ", s)
    s = without_reasoning(s) if "推理" in s else s
    for pattern, stage in _STAGE_WORDS:  # a loop: a generator resumes a frame per word
        if pattern.found(s):
            return stage
    return None


def _outside(s: str, spans: list[re.Match[str]]) -> str:
    """``s`` with each match in ``spans`` blanked out."""
    for m in spans:
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s


def method_from_words(s: str, stage: str | None, preference: bool) -> str | None:
    """'lora' / 'qlora' / 'full' named (or implied by continued pre-training or preference tuning)."""
    if "llava_" in s:  # s46: an XTuner LLaVA config's name says the LLM's method before its encoder's
        from bot.parse.method_words import xtuner_llava_method

        if (named := xtuner_llava_method(s)) is not None:
            return named
    negations = list(lx.NEGATED_LORA_RE.finditer(s)) if "lora" in s else []
    negated = bool(negations)
    if negated and all(m.group(0).endswith("qlora") for m in negations):  # 'LoRA (not QLoRA)': LoRA
        rest = _outside(s, negations)
        if lx.LORA_RE.search(rest):
            return "lora"
    if not negated and lx.QLORA_RE.search(s):
        return "qlora"
    if not negated and lx.LORA_RE.search(s):
        return "lora"
    if "peft" in s or "parameter-efficient" in s or "parameter efficient" in s or "参数高效" in s:  # s43
        from bot.parse.method_words import PEFT_NEGATED_RE, PEFT_RE  # lazily: PEFT alone is LoRA (rare)

        m = PEFT_RE.search(s)
        if m and not PEFT_NEGATED_RE.search(s[max(0, m.start() - 14) : m.start()]):
            return "lora"
    if stage in ("finetune", "continued_pretrain") and (negated or lx.FULL_RE.search(s)):
        return "full"  # "(non-LoRA)", "不用 LoRA": all weights train
    if stage == "continued_pretrain" or preference:
        return "full"
    return None


PREFERENCE_DATA_RE = rc(r"\bpreference\b|\bchosen\b.{0,20}\brejected\b|偏好")
"""Preference data ('20k preference pairs', '2万对偏好数据'): pairs of a chosen and a rejected response,
what DPO trains on (Rafailov et al. 2023) — the algorithm when none is named."""

WITHIN_A_PERIOD_RE = rc(
    r"\b(?:within|in|inside|under|for)\s+(?:a|one|a\s+single)\s+(?P<u>day|week|month|year)\b"
)
"""'within a month', 'in a week': a deadline of one unit with no digit ('一个月内' has its numeral); s45 trial
q18: 'rent 8x H100 for a month' (a rental period, bot.parse.past_run.duration_as_hours: priced as one hour
before, as 'for one month' was not)."""

_PERIOD_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}


def within_a_period_days(s: str) -> int | None:
    """Days of a deadline said as 'within a month' / 'in a week' in a normalized text, else None."""
    m = WITHIN_A_PERIOD_RE.search(s)
    return _PERIOD_DAYS[m.group("u")] if m else None


TARGET_CUES = (
    " to ",
    "under",
    "below",
    "within",
    "or less",
    "at most",
    "降",
    "控制在",
    "压到",
    "减",
    "不超过",
)
"""The literals of bot.parse.memory_target.TARGET_RE (' to ' holds 'down to'): its call site's gate, s46."""
MEASURE_CUES = ("/s", "tps", "per second", "throughput", "吞吐", "plateau", "saturat")
"""The literals of bot.parse.measured_loads' measurement pattern: a message with none reads no sweep (s46)."""
