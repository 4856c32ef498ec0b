"""The words to the LEFT of a number that give it a role ("bs=", "上下文", "$", "每条", "on"), and the
memory phrasings ("80G 显存", "700G in total"): the patterns :mod:`bot.parse.roles` reads them with."""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import GPU_MARK, MARKS
from bot.parse.peak_load import L_PEAK
from bot.parse.regex import LazyPattern, rc
from bot.parse.sample_nouns import SAMPLE_NOUNS

FILL = r"(?:\s|-(?!-))*(?:\+|多|余|来|左右|个|~|≈)?(?:\s|-(?!-))*"
"""Between a number and its word: "70B+", "2T多", "30天左右", "8-GPU"; never a flag's dashes (round 7:
'--n-worker 1 --gpu-idx 0,1,2,3' is no '1 GPU', the word after '--' names the next flag)."""


FILL_ONCE = r"(?:\s|-(?!-))*+(?:\+|多|余|来|左右|个|~|≈)?(?:\s|-(?!-))*+"
""":data:`FILL` with possessive loops, for words that start with neither white space nor '-' (the same
matches: no filler word starts with either; a run of spaces is read once)."""


def right_words(pattern: str) -> LazyPattern:
    """Words right after a number (after the filler: "+", "多", "左右"…) matching ``pattern``."""
    return rc("^" + FILL + "(?:" + pattern + ")")


def right_words_once(pattern: str) -> LazyPattern:
    r""":func:`right_words` with :data:`FILL_ONCE`, for a ``pattern`` that starts with neither white space
    nor '-' and whose own white-space loops are possessive (``\s*+``; R_BUDGET): the same matches as
    with greedy loops, without their polynomial backtracking over a run of masked spaces."""
    return rc("^" + FILL_ONCE + "(?:" + pattern + ")")


L_BATCH = rc(
    r"(?:\bbs|batch[\s_\-]*size|micro[\s_\-]*batch(?:[\s_\-]*size)?|\bmbs|max[\s_\-]*batch|(?<!token_)batch"
    r"|(?<!全局)(?<!总)批大小|每批次?)"
    r"\s*(?:=|:|为|是|of|已经到|已经是|已到|降到|调到|减到|改到|设到)?\s*$"
)
"""A batch word before its number: 'bs=4', 'batch size of 8'; s17: 'batchsize 已经到 1', '降到 2'; round 16
zh: never a token budget's key ('--batch_size 1 --token_batch 10': the 10 was sized as the batch); s38-gen:
'每批 4 条'."""
L_MFU = rc(r"(?:mfu|利用率|utili[sz]ation)\s*(?:=|:|是|为|of|at|约|~|≈|大概|按)?\s*$")
L_MFU_DEGREE = rc(
    r"(?:mfu|利用率|utili[sz]ation)\s*(?:of|is|was|是|为)?\s*"
    r"(?:(?:only|just|about|around|roughly|barely|merely)\s+|只有\s*|仅有?\s*|才\s*)$"
)
"""s44 round 40 (en40-015): an MFU word, then a word of degree before the number ('model flops utilization
of only 7-8%', 'the utilization is only 7%', '利用率仅 7%'), which left the 7 unread; read after a cheap test
of 'utili' / '利用率' in the words before (bot.parse.roles)."""
MFU_NEAR = rc(r"mfu|利用率|utili[sz]ation")
L_CURRENCY = rc(r"(?P<c>us\$|\$|¥|rmb|cny|usd)\s*(?:~|≈|about|约)?\s*$")
L_PRICE = rc(
    r"(?:每卡时|一卡时|每卡每小时|每小时|单价|租金|per\s+gpu[\s\-]*hour|hourly|\brent(?:s|ing)?\s+(?:for|at))"
    r"\s*(?:=|:|为|是|约|大概|about|around|~)?\s*$"
)
L_BUDGET = rc(
    r"(?:预算|budget|花费|经费|资金|成本|spend)(?:有|是|为|:|约|大概|大约|only|of|about|around|~|is|was|[€£]|\s)*$"
)
L_TOKENS = rc(  # 'token 数到 1 亿/天' (s35-fixa #6: never a model of 1 亿)
    r"(?:数据|语料|data(?:set)?|corpus|训练数据|token\s*数|tokens?)(?:\s*(?:量|集))?"
    r"(?:有|是|为|:|=|约|大概|大约|共|总共|一共|到|达到|能到|会到|of|is|about|around|~|\s)*$"
)
L_PARAMS = rc(r"(?:模型|model|参数量?|params?|size)(?:有|是|为|:|=|约|大概|大约|大小|is|of|about|~|\s)*$")
L_AT = rc(r"(?<![a-z0-9])at\s*$")
SEQ_AT_BELOW = 1e6
"""'at N tokens' is a sequence length below this (fewer tokens than any dataset: 'full fine-tune of
Llama-3-8B at 4096 tokens'), the data's tokens from it on ('pretrain 7B at 2T tokens'; s12 review 17)."""


def at_a_length(left: str, value: float) -> bool:
    """Whether a token count after ``left`` is an 'at N tokens' sequence length (:data:`SEQ_AT_BELOW`)."""
    return value < SEQ_AT_BELOW and L_AT.search(left) is not None


L_SEQ = rc(
    r"(?:上下文|context(?:[\s_]+(?:length|window|len))?|ctx|seq(?:uence)?(?:[\s_]*len(?:gth)?)?|max_len"
    r"|max[_\s\-]*model[_\s\-]*len|max[_\s\-]*seq(?:uence)?[_\s\-]*len(?:gth)?|cutoff[_\s\-]*len|长度|拉满到"
    r"|pack到|窗口|每(?:个|条|次)?(?:请求|用户|会话)(?:的)?(?:长度|上下文)?)"
    r"(?:[\s_]*(?:lengths|windows))?(?:=|:|为|是|到|of|达到|拉满到|长度|约|一直|最多|最长|最大|\s|(?:all\s+the\s+way\s+)?(?:up\s+)?to\b)*$"
)
L_CONC = rc(
    r"(?:并发|concurrency|同时在线|同时请求|(?<![a-z])instance[_\s\-]*num|num[_\s\-]*parallel|(?<![a-z\-])-np"
    r"|--parallel|(?:同时|一起)(?:来|发|进来|打进来|涌进来|发起)了?)(?:数|量|度)?(?:=|:|为|是|到|of|达到|大概|大约|约|预计|估计|可能|会|要|设为|设成|设置为|开到|调到|\s"
    r"|至少|最少|起码|不少于|不低于|超过|大于|多于|高于|上)*$"
)
"""A load's word before it: '并发 100', '峰值并发大概 100' (s14: approximate words), 'concurrency of 64';
s17: '请求并发度 8', '同时请求数 24', lmdeploy's 'instance_num 设为 10', Ollama's 'OLLAMA_NUM_PARALLEL=4' and
llama.cpp's '-np 8' / '--parallel 8' (the requests the server runs at once); round 15 zh: a lower bound
between ('并发数超过 100', '并发至少 100'), sized at its least and said so (bot.parse.bound_words); round
21 zh: the most a setup reached, after the load's noun ('并发量不到 50', '并发数只有 20'), is read by one
reader, :data:`bot.parse.load_forms.CONC_CEILING_RE` (s28 tidy), which writes it in this key form."""
L_EPOCHS = rc(r"epochs?\s*(?:=|:)?\s*$")
L_SAMPLES = rc(
    r"(?:数据集?|数据量|样本数?|训练集|(?<![a-z])data(?:set)?|prompts?\s*数量?|prompts(?=\s*[:：])|题目数"
    r"|(?<![a-z\-])-{1,2}(?:num[_\-])?samples?)\s*[（(:：]?\s*(?:的?(?:规模|数量|条数|量))?\s*"
    r"(?:\s*(?:是|有|为|共|一共|总共|合计|约|大概|大约|差不多|共计|about|around|~|of))*\s*$"
)
"""Round 9: a count right after its data noun, in parentheses or not ('原始数据（一共 100 多万）',
'自己的数据（5W 左右）', '数据量约 20 万'): that many samples, as '100 万条数据' is (a unit after the
number decides first: '数据 100GB' is a size, '数据 2000 万 token' tokens). s42 trial #4: 'prompts: 10k', as
'samples: 50k' (the plural before a colon: a count of prompts; 'prompt 2k' stays a length, L_PROMPT)."""
L_PER = rc(r"(?:每|per|/)\s*$")
R_CONC = right_words(
    r"(?:个|名|位|路)?\s*(?:并发|concurren|simultaneous|用户|users?\b|clients?\b|客户端|人同时|人在线|人\s*并发|同时|people\b|qps\b|requests?\s+at\s+once"
    r"|人(?:要|需要|会|都要|想|在)?(?:用|使用)|at\s+(?:the\s+)?peak\b"  # "20个人用": the users; "64 at peak"
    r"|req(?:uest)?s?\s+(?:running|in\s+flight|in\s+parallel)\b"  # s17: 'with 1 request running' (vLLM's log)
    # s30: vLLM's stats line 'Running: 1 reqs, Swapped: 0 reqs' (V1: 'Waiting'); '8 个 req 在跑'
    r"|reqs?\s*,\s*(?:swapped|waiting)\b|(?:req(?:uest)?s?|请求)\s*(?:正?在跑|正?在运行|运行中)"
    r"|(?:requests|recordings|files|documents|audios|images|videos|streams|calls|conversations|queries|jobs"
    r"|transcriptions|clips)\s+(?:at\s+(?:once|a\s+time|the\s+same\s+time)|simultaneously|concurrently)\b"
    # s31: requests said to arrive together ('10 requests come in at once', '10 个请求同时进来', '10 个
    # input_len 50 的请求一起来'): that many in flight; no other counted noun between ('10 张卡，100 个请求…')
    r"|(?:requests|queries|calls|prompts)\s+(?:come|comes|coming|came|arriv\w*|hit\w*|land\w*|sent|fired)\s+"
    r"(?:(?:it|us|the\s+[a-z]+)\s+)?(?:in\s+)?(?:at\s+(?:once|the\s+same\s+time)|together|simultaneously"
    r"|concurrently|in\s+parallel)\b"
    r"|个[^。；;!?！？个张卡台块]{0,40}?(?:请求|query|queries)\s*(?:一起|同时|一块儿?)"
    r"|peak(?:\s+(?:concurren\w*|users?|requests?|sessions?|load))?\b(?!\s*(?:memory|vram|usage|mem\b|gpu))"
    r"|(?:on\s+average|avg|typically|usually)\b(?=[^.;!?]{0,40}\bpeak))"  # '100 avg, 400 at peak'
)
"""Words after a number that make it the load ('20 并发', '64 concurrent', '40 users', '64 at peak'; s26:
'8 个 client', '10 个客户端', '16 clients'); moved here from bot.parse.roles (s17: that module is at its
line limit). Round 24: any unit of work a service takes, done together ('2 recordings at once', '4 requests
at the same time', '8 files simultaneously'): that many in flight (before, only 'requests at once')."""
R_GENERATED = right_words(r"-?tokens?\s+(?:generation|generated)(?![a-z])")
"""A count of tokens a run generated ('128-token generation', llama-bench's 'tg128' in words
(bot.parse.normalize); '1024 tokens generated'): the reply's length (s41-workmiss, issue 24 item 4). Not
'N tokens in T seconds': a message listing several such timings (round 19 en: '256 tokens in 3.14 s …, 417
tokens in 4.41 s …, and a 1,052-token prefill with 128 generated tokens') would take the first timing's
count as the reply of the setup asked about."""
R_TPS = right_words(
    r"-?tokens?\s*(?:each|per\s+(?:sample|example|row|record|conversation|item)|/\s*条|每条"
    r"|avg\b|(?:on\s+)?average\b)"  # "1.5k tokens avg", "800 tokens on average"
)
"""Tokens of each sample ('2k tokens each', '1.5k tokens avg'; moved from bot.parse.roles in s44)."""
R_TOKENS = right_words(
    r"-?(?:(?:pre-?)?train(?:ing)?\s+|预?训练\s*)?(?:tokens?|toks?|词元)(?![a-z])(?!\s*/\s*s)(?!\s*per\s+sec)"
)
"""A count of tokens ('20B tokens', '8k toks', '1 万词元'), never a rate ('tokens/s'). s44 round 40
(en40-016): with the word 'training' between ('47,316,670 train tokens', '20B pre-training tokens',
'4731 万训练 token', '200 亿训练 tokens'), which left the number unread, or read the Chinese one as a
sequence length."""
R_PROMPTS = right_words(
    r"(?:[\s\-]*个)?(?:[\s\-]*(?:(?:random|synthetic|fixed|mean|average|avg)\b|随机))?(?:[\s\-]*(?:tokens?|length))?"
    r"[\s\-]*(?:(?:prompts?|inputs?)\b|输入|提示词?)"
)
"""A length before the word prompts ('8k prompts', '2k-token prompts', s17: '16000 random input tokens' of a
benchmark, '2000 个随机输入 token'; round 19 en: '2k-length prompts', read as the whole sequence before, the
reply beside it then dropped)."""
_LENGTH_HEDGE = (
    r"\s*(?:of|is|are|约|大约|大概|差不多|将近|~|about|around|roughly|approx(?:imately|\.)?|nearly|close\s+to"
    r"|up\s+to|at\s+most|最长|最多|averag(?:e|es|ing)|avg|平均|\s"
    r"|不超过|不多于|不高于|至多|上限(?:是|为)?|最大|最高|控制在|no\s+more\s+than|not\s+more\s+than"
    r"|not\s+exceeding|not\s+over|max(?:imum)?)*$"
)
"""The words between a prompt or reply word and its length: a verb, a bound, an average or a hedge (s43
fixread2, issue 24 item 2: 'a prompt of roughly 16,000 tokens', 'prompt 大约 16000 个 token' were dropped
in silence — 'roughly' and '大约' were not among them, so the context stayed at the default). s46 round 42 zh
(zh42-003): an upper bound said before the length ('每次输出不超过 200 个 token', 'each reply no more than 200
tokens', '输出上限 512', 'output maximum 512 tokens') left the number unread: a bound is the length sized."""
L_PROMPT = rc(r"(?:prompts?|inputs?|输入|提示词?)" + _LENGTH_HEDGE)
L_REPLY = rc(
    r"(?:replies|reply|responses?|outputs?|completions?|answers?|generat(?:es|ing|ed|e)|输出|回复|生成)"
    + _LENGTH_HEDGE
)
L_SAMPLE_EACH = rc(
    r"(?:每条|每个样本|每个|each|per\s+(?:sample|example|row)|averag\w*|平均"
    r"|\bavg\b\.?|\bon\s+average"  # "20k samples avg 1.5k tokens", "avg. 800 tokens"
    # "50k samples of 4k tokens", "50,000 samples x 4096 tokens"
    rf"|(?:samples?|examples?|rows?|records?|conversations?|pairs?|条|对|组|{SAMPLE_NOUNS})\s*(?:of|x|×|\*|with)"
    # "1500 documents, often over 8K tokens", "每篇大多超过 6k token": how long each one is
    r"|(?:[,，]\s*|每篇\s*|\b)(?:often|mostly|usually|typically|generally|大多数?|一般|通常|多数)(?:\s*都)?"
    # s17: "each sample is about 8k tokens", "sequences up to 32k tokens", "documents reaching 16k tokens"
    r"|\b(?:each|every)\s+(?:training\s+)?(?:samples?|examples?|records?|rows?|documents?|conversations?|sequences?)"
    r"(?:\s+(?:is|has|contains|averages|runs))?"
    r"|\b(?:samples?|examples?|documents?|sequences?)\s+(?:are\s+|of\s+)?(?:up\s+to|reaching|as\s+long\s+as))"
    r"(?:大概|约|大约|roughly|about|around|~|of|over|above|more\s+than|up\s+to|超过|在|\s)*$"
)
L_ON = rc(r"(?:\bon|用|with|数据|语料)\s*(?:about|~|约)?\s*$")


def on_size(s: str, start: int, stage: str | None) -> bool:
    """Whether a bare size at ``start`` of ``s`` follows 'on' / '用' ('train 7B on 300B'): the training
    tokens, except in a serving question (s37 round 33: 'on the 30B model it is slow, the same as on 13B'
    is another model, named as one; before, 13B training tokens were held in the serving request)."""
    return stage != "inference" and L_ON.search(s[max(0, start - 12) : start]) is not None


L_RATE = rc(r"tok(?:en)?s?\s*/\s*s|per\s+second|throughput|吞吐|每秒")
L_HARDWARE_ON = rc(r"(?:\bon|\busing|用|在)\s*$")
"""'… tokens/sec on 8xH100': after a rate, 'on'/'using' brings the hardware, so the count is GPUs."""
L_NODES_UNKNOWN = rc(r"(?:几|多少)\s*台\s*$|how\s+many\s+(?:nodes?|machines?|servers?)\s*(?:of|with)?\s*$")
L_SAME_NODES = rc(r"(?:这|那)(?:些)?\s*$|\b(?:these|those|the\s+same|all)\s*$")
"""'用这 6 台机器', 'on these 6 machines': the machines the message counted before (with what each holds), not
new ones of the default eight cards (round 10)."""
L_DATA_WORD = rc(r"(?:数据|语料|data(?:set)?|corpus)(?:量|集)?(?:有|是|为|:|约|大概|is|of|\s)*$")
L_MODEL_WORD = rc(r"(?:模型|model)(?:有|是|为|:|约|大概|is|of|\s)*$")

MEM_LEAD = r"^\s*+(?:的)?\s*+(?:左右|上下)?\s*+(?:的)?\s*+"
r"""The start of the memory words after a size ('80G 的显存', '700G 左右显存'). The white-space loops are
possessive: none of the words between them starts with white space, so giving spaces back never lets
one match (the same matches), and a run of masked spaces is read once, not tried in every split (the
greedy ``\s*`` four times over backtracked polynomially: up to ~1 ms a number on long masked
messages)."""

R_MEM_GPU = rc(  # not "12G多显存" (an observed usage, not a card); s23: 'eight 64GB NPUs', '64G 的 NPU'
    MEM_LEAD
    + r"(?:显存|vram|gpu|npu|xpu|accelerator|卡|显卡|card|memory\s+per|的卡|each|per\s+(?:gpu|card)|["
    + MARKS
    + "])"
)
R_MEM_TOTAL = rc(  # "700G左右显存", "320GB of GPU memory", "2TB of VRAM"
    MEM_LEAD + r"(?:显存|vram|of\s+(?:vram|(?:gpu\s+)?memory)|gpu\s+memory)"
)
L_MY_VRAM = rc(
    r"(?:显存|vram|gpu\s+memory|gpu\s+has|(?:card|gpu)\s+(?:with|that\s+has|having))(?:\s*(?:只有|仅有|仅|有|是|为|才|就|\bis\b|\bonly\b|\bof\b|\bjust\b))*\s*$"
)
"""'我的显存只有 8G', 'my GPU has 12GB', 'a card with 96GB': one card's memory."""
R_OF_VRAM = rc(
    r"^\s*(?:of\s+|的\s*)?(?:(?:usable|available|free|spare|dedicated)\s+|(?:可用|空闲|剩余)(?:的)?\s*)?"
    r"(?:vram|显存|(?<=of )(?:gpu|video|graphics)\s+memory)(?!\s*(?:in\s+)?total)"
)
"""'8000MiB 显存', '12288 MiB of VRAM' (a total is read before: '320GB of VRAM in total'); s38-r34en: '15 GB
of GPU memory' / 'of video memory' as 'of VRAM' is (en34-006: unread); round 13: what
of it is usable, said between ('22 GB of usable VRAM', '20G 可用显存'). Session 19 review: memory free or
left ('8G 的空闲显存', '20 GB of spare VRAM') is read here and tagged as the room after loading, never the
card (:func:`room_said`)."""
R_FREE_VRAM = rc(
    r"^\s*(?:of\s+|的\s*)?(?:(?:free|spare|remaining|left)\s+|(?:空闲|剩余|剩下)(?:的)?\s*)(?:vram|显存)"
)
L_ROOM = rc(
    r"(?:剩下?|剩余|空闲|加载后|载入后|\bleft\b|\bafter\b|\bremaining|\bfree\b|\bspare\b)[^，,;；。!?！？\d]{0,14}$"
)
R_USABLE_VRAM = rc(r"^\s*(?:of\s+|的\s*)?(?:(?:usable|available)\s+|可用(?:的)?\s*)(?:vram|显存)")
L_USABLE = rc(r"(?:可用|\busable|\bavailable)[^，,;；。!?！？\d]{0,8}$")
R_VRAM_LEFT = rc(r"\s*(?:of\s+)?(?:\w+\s+)?vram\s+(?:left|remaining|free)")
ROOM = "room"
"""``Role.extra`` of a memory said as what is free or left ('加载后剩 8G 的空闲显存', '21 GB of free VRAM
left'): the room after loading, not the card's size (:mod:`bot.parse.memory_room` names it, never sizes
it)."""
USABLE = "usable"
"""``Role.extra`` of a memory said as usable ('22 GB of usable VRAM', '22G 可用显存'): the card's memory when
no card is named, named as not used when the named card's catalog memory is larger."""


def room_said(left: str, after: str) -> str | None:
    """:data:`ROOM` when the words around a card memory say it is free or left after loading ('剩 8G
    的空闲显存', '3090 剩余显存 20G', '20 GB of free VRAM left'), :data:`USABLE` when they say usable
    ('22G 可用显存'), else None. ``left``: the text before the number; ``after``: after its unit."""
    near = left[-16:]
    if R_FREE_VRAM.match(after) or L_ROOM.search(near) or R_VRAM_LEFT.match(after):
        return ROOM
    return USABLE if R_USABLE_VRAM.match(after) or L_USABLE.search(near) else None


L_MEM_TOTAL = rc(
    r"(?:总共|一共|合计|总计|加起来|总显存|显存总量|准备|备了|total|in\s+total|combined|altogether)\D{0,12}$"
)
R_MEM_TOTAL_WORD = rc(
    r"^[^，,;；。!?！？\d]*?(?:\b(?:in\s+(?:total|all)|total|combined|altogether)\b|总显存|显存总量|总共|一共|合计|共计)"
    r"(?![^，,;；。\d]{0,6}\d)"
)
"""A total word after a memory, in its clause and before any other figure: '24GB of VRAM in total' is a
total; in '两张 24G 显存的卡，一共 48G' / '24GB of VRAM each, 48GB total' the word is the next figure's."""
L_TOTAL_SAID = rc(
    r"(?:总共|一共|合计|共计|加起来|(?<!公)共(?!享)|\bin\s+total|\ba\s+total\s+of|\baltogether|\bcombined)"
    r"\s*(?:是|有|为|约|大概|:)?\s*$"
)
R_TOTAL_SAID = rc(r"^\s*(?:的)?\s*(?:显存\s*)?(?:in\s+(?:total|all)\b|altogether|combined|总共|总计)")
NOT_CARD_MEMORY = rc(
    r"内存|\bram\b|权重|模型文件|\bweights?\b|checkpoint|数据|语料|\bdata\b|文件|\bfiles?\b|硬盘|磁盘|\bdisk|\bssd\b|swap"
    r"|\boptimi[sz]er\b|\bgradients?\b|\bactivations?\b|优化器|梯度|激活"  # s37: a job's
)
"""Round 7: a size with a total word and no memory word ('两个 4090 显卡，总共 48GB', '2 张 4090 共 48G 显存',
'two 4090s, 48GB in total'): all the cards' memory together (with a count, each card's share), unless the
words before say it is the host's, the weights' or the data's."""


def total_said(left: str, after: str) -> bool:
    """Whether a size in GB is said as a total of the cards' memory (:data:`L_TOTAL_SAID`,
    :data:`L_TOTAL_NEAR`), not the host's, the weights' or the data's."""
    said = (
        L_TOTAL_SAID.search(left[-16:])
        or R_TOTAL_SAID.match(after)
        or L_TOTAL_NEAR.search(left)
        or R_TOTAL_NEAR.match(after)
    )
    return bool(said) and not NOT_CARD_MEMORY.search(left[-24:]) and not R_MEM_DATA.match(after)


R_MEM_DATA = rc(r"^\s*(?:的)?\s*(?:纯文本|文本|text|数据|语料|data|corpus|of\s+(?:raw\s+)?(?:text|data))")


L_NEEDS_OR_USES = rc(
    r"(?:只要|只需要?|需要|至少要?|最少要?|最小|最低|占用?了?|用了|消耗了?|吃了?|峰值|一共占"
    r"|\bneeds?|\brequires?|\bused|\buses|\btakes|\btook|\bconsum\w*|\bpeaks?\s+at|\beats)"
    r"(?:\s*(?:约|大概|大约|差不多|about|around|roughly|~|only|just|at\s+least))*\s*$"
)
"""'只要 48GB 显存', '单卡微调占 16G 显存', 'needs 48GB of VRAM', 'used 22 GB of VRAM': memory a job needs or
used (a requirement quoted, a usage observed), not the memory of the user's card (round 2 of the real
questions: 'README 说 4bit qlora 70b 只要 48GB 显存，我用 8 张 T4' sized T4s of 48 GB)."""
R_MEMORY_WORD = rc(
    MEM_LEAD + r"(?:显存|vram|of\s+(?:vram|(?:gpu\s+)?memory)|gpu\s+memory|memory)"
    r"(?!\s*(?:的)?\s*(?:卡|显卡)|\s*的\s*gpu)"
)
"""The memory word itself after a size ('48GB 显存', '22 GB of VRAM'), not a card word ('24G 的卡'), nor a
card described by it ("需要 24G 显存的卡": a card of that memory, issue 24)."""
R_PER_CARD_USE = rc(
    MEM_LEAD + r"(?:per\s+(?:card|gpu|device|rank)\b|each\b|on\s+each\b|每(?:张)?卡|每张|单卡)"
)
"""After a size a verb of using put before ('took about 40 GB per card just for weights', '每卡用了 30G'
has it before; '占了 30G 每卡'): memory used per card, observed, not the card's (trial s20 q19)."""

L_TOTAL_CAPACITY = rc(r"(?:total\s+capac(?:i)?ty\s+of|总容量(?:是|为|有)?)\s*$")
R_TOTAL_CAPACITY = rc(r"^\s*(?:total\s+capac(?:i)?ty\b|(?:的\s*)?总容量)")
"""PyTorch's out-of-memory message ('GPU 0; 39.59 GiB total capacity', 'GPU 0 has a total capacity of
23.65 GiB', in Chinese '39.59 GiB 总容量'): one card's memory as the driver reports it (torch/csrc/cuda/
CUDACachingAllocator.cpp, whose older releases spell it 'capacty')."""


L_TOTAL_VRAM = rc(
    r"(?:(?:total|combined|overall|aggregate|pooled)\s+(?:gpu\s+memory|vram|video\s+memory)\s*(?:is|of|=|:|comes\s+to)?"
    r"|总显存|显存总量|显存(?:总共|一共|加起来|合计)|(?:总共|一共|加起来|合计)(?:的)?显存)\s*(?:是|有|为|共|约)?\s*$"
)
"""'combined VRAM is 160GB', 'my total GPU memory is 96GB', '总显存 96G': all the cards' memory together."""
L_TOTAL_NEAR = rc(
    r"(?:\b(?:in\s+)?total|\bcombined|\baltogether|总共|一共|合计|总计|共计|共)\s*(?:[:：=]|of|is|是|有|为)?\s*$"
)
R_TOTAL_NEAR = rc(
    r"^\s*(?:(?:in\s+)?total|combined|altogether|all\s+together)\b|^\s*(?:的)?\s*(?:总共|一共|合计|总计|共计)"
)
"""A size said to be the total with no memory word ('2 gpus 48gb total', '2 张卡共 48G', 'total 160GB across 2
cards'; s11 trial): all the cards' memory together, as 'combined VRAM is 160GB' (each card's share when the
cards are counted: bot.parse.field_steps)."""
RATE_VALUE_RE = rc(r"\d")
"""A rate stated before the count ('2000 tok/s on one H100'); 'how many tokens per second can 8xH100 …' and
'throughput of 8 H100' state none: the number is the cards' count."""


L_USERS = rc(
    r"(?<!\d)(?<!\d\s)(?<!并发)(?<!concurrent\s)"  # '30 concurrent users 8k': that number's word
    r"(?:用户|员工|(?<![a-z])(?:users?|employees|staff))\s*(?:数|数量|总数|count)?\s*(?:是|为|有|:|=|约|大概)?\s*$"
)
"""The users named before their number ('用户 200', '员工 500 人', 'users: 200', session 30 #7): a load, read
as README's users rule does for the words after it (bot.parse.users_load: users are at once; a head count
of people, 人/员工/名, at 10 %)."""

LEFT_ROLES = ((L_SEQ, "seq"), (L_CONC, "concurrency"), (L_PEAK, "concurrency"), (L_USERS, "concurrency"),
              (L_EPOCHS, "epochs"),
              (L_BUDGET, "budget"), (L_PROMPT, "prompt"), (L_REPLY, "reply"),
              (L_SAMPLES, "samples"))  # fmt: skip
"""Words before a number that give it its role ("上下文32K", "并发 100"), in order."""
_NEXT_LABEL = rc(r"\s*(?:=|:|为|是)?\s*")
_COUNT_BEFORE = rc(r"\d\s*(?:个|路|名)?\s*$")


def labels_next(a: Any, word_end: int) -> bool:
    """'并发50 上下文64k', 'concurrency 50 context 64k': a context word (ending ``word_end`` characters
    after the number ``a.tok``) after a number that already has its own label on the left (``a.left``)
    is the label of the next number (``a.nxt``), right after it, not this one's."""
    gap = _NEXT_LABEL.match(a.s, a.tok.end + word_end)
    return (
        a.nxt is not None
        and gap is not None
        and gap.end() == a.nxt.start
        and any(p.search(a.left) for p, _ in LEFT_ROLES)
    )


def label_of_previous(pattern: LazyPattern, left: str) -> bool:
    """'30并发 8k': the label before this number is the right-hand word of the number before it."""
    m = pattern.search(left)
    return m is not None and bool(_COUNT_BEFORE.search(left, 0, m.start()))


_CARD_THEN = rc(rf"[{MARKS}]([^{MARKS}]*)$")
_DATA_BETWEEN = rc(
    r"\d[\d,.]*\s*[kmb]?\s*(?:samples?|rows?|examples?|records?|conversations?|documents?|pairs?|条|样本)"
)


def of_the_card(before: str) -> bool:
    """'H100 at 2.1 usd/hr, 24 of them', '… on MI300X … on 256 of them': 'N of them' after a card is that
    many of the card, unless a count of data comes between ('on H100: 10,000 samples, 2,000 of them
    long' counts samples). ``before``: the text before the number."""
    m = _CARD_THEN.search(before)
    return m is not None and not _DATA_BETWEEN.search(m.group(1))


_PER_GPU_HOUR = rc(r"\s*(?:/|per\b|an?\b|each\b)\s*(?:gpu|card)[\s\-·]*(?:hrs?|hours?|h)\b")
_PER_HOUR = rc(r"\s*(?:/\s*|per\s+|an?\s+)(?:hrs?|hours?|h)\b")
_PER_CARD_AFTER = rc(rf"\s*(?:,|，)?\s*(?:per|each|a|for\s+(?:each|every)|/)\s*(?:gpu|card|[{MARKS}])")
_CARD_NEAR = rc(rf"[{MARKS}]")


def bare_price(s: str, start: int, end: int) -> bool:
    """A number with no currency sign written as a rate per GPU-hour ('2.1 per GPU-hour', '2.1/hr per
    H100', 'H100 at 2.1/h'): a price per GPU-hour in the reply's currency (the reply says which it
    assumed). A plain '/hr' counts only with a card named next to it (``s[start:end]``: the number)."""
    if _PER_GPU_HOUR.match(s, end):
        return True
    hour = _PER_HOUR.match(s, end)
    if hour is None:
        return False
    return bool(_PER_CARD_AFTER.match(s, hour.end()) or _CARD_NEAR.search(s, max(0, start - 24), start))


L_GPU_PAREN = rc(
    rf"[{MARKS}]\s*s?\s*(?:(?:服务器|机器|节点|nodes?|servers?|machines?|gpus?|cards?)\s*)?"
    r"(?:(?:够不够用?|够用吗|够吗|行不行|行吗|可以吗|能跑吗|跑得动吗|\benough\b\??)\s*)?"
    r"(?:[(（,，]\s*(?:\d{1,2}\s*[x×*]\s*|每[张块卡]\s*|each\s+)?|\s+(?:with\s+(?:each\s+)?)?)$"
)
"""'4x A10G (24GB)', '单卡3090（24G）', 'A100 服务器（8×40G）', 'M1 Max with 64GB', 'a 4090 GPU (24GB)' (s38
r34en): that card's memory; s38 fixt #6: an ask between ('3090够不够，24g的', 'is a 3090 enough, 24GB')."""


L_ON_MEMORY = rc(
    r"(?:out\s+of\s+memory|\booms?\b|\boomed\b|\bfits?\b|\brun(?:s|ning)?\b|\bload(?:s|ed|ing)?\b"
    r"|\bserv(?:e|es|ing)\b|(?<![\w])在)\s*(?:in|on|into|onto|within)?\s*(?:an?\s+|my\s+|one\s+|only\s+|just\s+)?$"
)
"""Session 16: a memory said as where the job runs, with no card word ('run out of memory on 16 GB',
'fits in 24GB?', 'runs on 12 GB', '在 16G 上 OOM'): one card of that memory."""
R_NOT_CARD_MEMORY = rc(
    r"\s*(?:of\s+)?(?:(?:system|cpu|host|main|unified|shared)\b|ram\b|memory\s+of\s+ram|disk|ssd|storage|swap"
    r"|files?\b|models?\b|weights?\b|each\b|per\b|in\s+total|total|combined|内存|硬盘|磁盘|文件|模型|总|每|的模型)"
)
"""After such a memory: host RAM, a disk or file size, a total, or each of several cards (read elsewhere)."""
ONE_CARD = "one_card"
"""``Role.extra`` of a card memory :func:`on_card_memory` read: the count is one card when none is said."""
R_ON_CN = rc(r"\s*(?:显存|显卡|的卡|卡)?\s*(?:上|里)")
"""'在 16G 上', '在 24G 显卡上': the Chinese 'on' closes after the memory."""


def on_card_memory(left: str, after: str, s: str = "") -> str | None:
    """How a memory in GB said as where a job runs is read (``after``: the words after its unit; ``left``:
    before its number; ``s``: the whole text, GPU names marked): :data:`ONE_CARD` when it is the one card
    ('OOM on 16 GB', '在 16G 上跑', 'does it fit in 12GB?'), :data:`STATED_NEED` when fit/load/serve/run words
    say the model's footprint ('loads in 5 GB … on 2x RTX 3090', 'fits in 16 GB at bf16'), None when it is
    host RAM, a file, a total. Review of session 16: a named catalog card's memory is never overridden."""
    m = L_ON_MEMORY.search(left)
    if m is None or R_NOT_CARD_MEMORY.match(after):
        return None
    if m.group(0).startswith("在") and R_ON_CN.match(after) is None:
        return None
    said = m.group(0)
    oom = "oom" in said or "out" in said or R_OOM_AFTER.match(after) is not None
    if GPU_MARK in s:  # the card is named: its own memory stands
        if not oom and R_ON_NAMED_CARD.match(after) and _asks(left, after):
            return ONE_CARD  # s17: 'will it fit in 24GB on a 4090?': the memory of the card asked about
        return None if oom else STATED_NEED
    if oom or R_CARD_WORD.match(after) or _asks(left, after):
        return ONE_CARD
    return STATED_NEED


R_ON_NAMED_CARD = rc(rf"\s*(?:on|in|with)\s+(?:an?\s+|my\s+|one\s+|the\s+|a\s+single\s+)?{GPU_MARK}")
"""After a memory: 'on a <card>' — the memory is that card's ('fit in 24GB on a 4090?')."""
STATED_NEED = "stated_need"
"""``Role.extra`` of a memory said as the model's footprint, not a card's: named with that reason."""
R_OOM_AFTER = rc(
    r"\s*(?:(?:显存|显卡|的卡|卡)\s*)?(?:(?:上|里)\s*)?(?:(?:就|都|也|会|直接|还是)\s*)?(?:oom|爆|out\s+of\s+mem)"
)
R_CARD_WORD = rc(r"\s*(?:of\s+)?(?:显存|显卡|的卡|卡|gpus?\b|cards?\b|vram\b)")
_ASK_LEFT = rc(r"(?:\b(?:does|do|can|could|will|would|is\s+it|enough)\b|能|可以|够)[^.,;!\n。，；！]*$")
_ASK_RIGHT = rc(r"[^.,;!\n。，；！]*?(?:\?|？|吗|么|\bor\s+not\b)")


def _asks(left: str, after: str) -> bool:
    """Whether the clause around a memory asks ('does it fit in 12GB?', '在 12G 上跑得动吗'): a card asked
    about, not a footprint stated."""
    return _ASK_LEFT.search(left) is not None or _ASK_RIGHT.match(after) is not None


def card_memory_kind(on_card: str | None, left: str, after: str) -> tuple[str, str | None]:
    """The role and ``Role.extra`` of a memory read as a card's: 'bytes' with :func:`on_card_memory`'s
    verdict when that says a need, else 'gpu_mem' tagged :data:`ONE_CARD`, or by :func:`room_said`."""
    return ("gpu_mem" if on_card in (None, ONE_CARD) else "bytes"), on_card or room_said(left, after)


BETWEEN = (
    r"(?:(?:rented|leased|used|spare|idle|available|cloud|on[\s\-]demand|reserved|local|dedicated|shared|old|new"
    r"|identical|nvidia|amd|big|large|small|of\s+(?:the|our|my|its|their|your)"
    r"|blackwell|hopper|ampere|ada(?:\s+lovelace)?|volta|turing|grace|instinct|radeon"  # s42: architectures
    r"|top[\s\-]*(?:spec(?:ced)?|end|of[\s\-]*the[\s\-]*line)|maxed[\s\-]*out|fully[\s\-]*loaded"  # s43
    r"|intel|arc|geforce|tesla|quadro"  # r39 en: product lines ('two Arc A770s', '4 张 Tesla V100')
    r"|租的|租来的|闲置的?|现有的?|空闲的?|手上的?|公司的?|(?:顶|满|高|最高)配(?:版|的)?)\s*){0,3}"
)
"""Words people put between a count and its card: '8 rented A100s', '4 spare H100', '4 张闲置的 A100'; s27:
and a card word ('4 spare GPUs', '4 old cards', '8 big cards': before, that count was left unread); s41
(round 37): any owner after 'of' ('4 of its A100 GPUs' of an instance, 'two of their H100s'); s42 (round
38): an architecture or product line before the card ('two Blackwell RTX 6000 Pro Max-Q GPUs', '8 Hopper
H100s', '4 张 Ampere A100'): before, the count was left unread. s43 (round 39 zh): a configuration word
('两台顶配 Mac Studio（M2 Ultra …）', 'two top-spec Mac Studios', 'two maxed-out M2 Ultras'), as before a node
count's machines too (bot.parse.roles._counts: '两台顶配服务器'). s46 (round 42): up to three, the maker, its
line and its family ('5x AMD Radeon Instinct MI50': the 5 was left unread)."""
