"""Chat forms (issue 24, paraphrase robustness): how people in a group chat or an issue thread shorten or
reorder what the count and setting rules read written out, spelt out before those rules read the text.

- **w/, w/o** ('LoRA w/ ZeRO-3', 'FT w/ and w/o LoRA'): 'with', 'without' (so 'with and without LoRA'
  reads as both methods, :mod:`bot.parse.with_without`).
- **global / effective / total bs** ('global bs 256'): the global batch, as 'global batch 256' is read
  (lexicon.GLOBAL_BATCH_RE); 'bs' alone stays the micro-batch.
- **Thousands in words** ('seq len 8 thousand', 'eight thousand tokens', 'thirty-two thousand'): the number in
  digits ('8000'), as '8k' and '八千' are read; before, 'seq len 8 thousand' was sized at 8 tokens and 'eight
  thousand' was dropped.
- **A sequence's length in other words** ('sequences of 8k tokens', 'sequences of length 8192', '8k tokens
  per sequence', 'each sequence is 4096 tokens', '8k long sequences', '8k token length', 'a token length of
  4096', round 9): 'sequence length N', as the length
  rules read it; a count before stays the sequences counted ('16 sequences of 8192': 16 at once, each 8192
  long; before, the 16 was taken for the length).
- **Memory units in words** ('a 24 gig card', '24 gigs of VRAM', '48 gigabytes in total', '500 megabytes'):
  '24gb', as the memory rules read it; before, the number was named as not used and the card's memory lost.
- **Formats and stages typed loosely** ('q4km', 'q5ks' for Q4_K_M, Q5_K_S; 'half precision' for fp16; 'zero
  stage three', 'deepspeed stage two', 'ZeRO three' for ZeRO-3): as the precision and ZeRO rules read them.
- **Nodes written card × count first** ('two H100*8 machines', '3 A100x8 nodes', 'two 8xH100 nodes'): that
  many nodes of that many cards each, written as the node rules read it ('two machines of 8 h100'); before,
  the node count was taken for the cards and the per-node count named as repeated.
- **Machines counted after the card and its count** ('A100*8 两台', '8x A100 2 nodes', '8卡A100 两台机器',
  s32 fixe): that many machines of that many cards each, written as the node rules read it ('2台 8x a100',
  '2 nodes of 8x a100'); before, the machine count was named as a second value of the card count (8 where
  16 were meant). Only a count of at most 8 per machine (an 8-GPU HGX/DGX board is the largest common
  node): '16x A100 2 nodes' stays 16 cards in all.
- **The same machine written twice** ('一台 8 卡 A100 和一台 8 卡 A100', 'one 8×H100 box and another 8×H100
  box', s32 fixe): two machines of that card, as '2台 8 卡 a100' is read (16 cards); before, one machine's
  8 were sized (the two-machines reader, bot.parse.two_machines, takes different cards only).

Only a word of its own is spelt out: never inside a path ('/data/w/o'), a name or a key."""

from __future__ import annotations

import re

from bot.parse.assign_forms import assign_forms
from bot.parse.regex import rc

W_WITHOUT_RE = rc(r"(?<![\w/.\-])w/(?:o|out)(?![\w/.])")
"""'w/o', 'w/out': without."""
W_WITH_RE = rc(r"(?<![\w/.\-])w/(?=(\s)|[a-z][a-z0-9\-]*(?![\w/]))")
"""'w/ LoRA', 'w/lora': with (not 'w/o', read first, nor a path segment 'a/w/b')."""
GLOBAL_BS_RE = rc(r"(?:\b(?:global|effective|total|overall)[\s_\-]+|(?:总|全局|有效|等效)\s*)bs\b")
"""'global bs 256', 'effective bs=64', '总 bs 128' (s38-gen): the global batch."""

_N = r"(?<![\d.])(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)"
_CARD = r"((?:nvidia\s+)?[a-z]{1,4}\s?\d{2,4}[a-z]?)"
_NODES = r"(nodes?|machines?|servers?|boxes|hosts?)\b"
CARD_TIMES_NODES_RE = rc(rf"{_N}\s+{_CARD}\s*[x×*]\s*(\d{{1,2}})\s+{_NODES}")
"""'two H100*8 machines', '3 a100x8 nodes': N nodes, each of M cards."""
TIMES_CARD_NODES_RE = rc(rf"{_N}\s+(\d{{1,2}})\s*[x×*]\s*{_CARD}(\s?[\-(]?\s?\d{{2,3}}\s?gb?\)?)?\s+{_NODES}")
"""'two 8xH100 nodes', '4 8 x A100 servers': N nodes, each of M cards; s37: with each card's memory between
('two 8x A100 40GB boxes', 'two 8x A100-40GB servers')."""
NODE_COUNT_MODIFIER_RE = rc(
    r"(?<![\w.\-])(\d{1,3})(?:[\s\-]?node(?:s)?\s+(?:cluster|setup|system|rig|job|run|deployment|training)\b"
    r"|\s*个?节点\s*的?\s*(?:集群|环境|系统))"
)
"""s37 (issue 24, everyday phrasing): the node count said as a modifier ('a 4-node cluster', 'a 2 node
setup', '4节点集群', '4 个节点的集群'): written as the nodes the node rules read ('4 nodes', '4个节点')."""
_UNITS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
)  # fmt: skip
WORD_VALUES = {w: i for i, w in enumerate(_UNITS, 1)} | {
    w: 10 * i
    for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2)
}
"""English number words below a hundred ('thirty-two' is 30 + 2)."""
_WORD = "|".join(sorted(WORD_VALUES, key=len, reverse=True))
THOUSANDS_RE = rc(
    rf"(?<![\w.\-])(?:(\d{{1,3}}(?:\.\d+)?)|(?P<w>(?:{_WORD})(?:[\s\-]+(?:{_WORD}))?))[\s\-]+thousand\b"
)
"""'8 thousand', 'eight thousand', 'thirty-two thousand': a number of thousands."""


_MEM = r"(?:\s?\d{2,3}\s?(?:gb|g)\b)?"
_CARD_NAME = r"(?:nvidia\s+)?(?:[a-z]{1,4}\s?\d{2,4}[a-z]?|[2345]0[6-9]0(?:\s?ti)?)(?![\w.])"
CARD_THEN_MACHINES_RE = rc(
    rf"(?<![\d.])(?:(?P<per>[1-8])\s*(?:x|×|\*|卡|张)\s*(?P<card>{_CARD_NAME}{_MEM})"
    rf"|(?<![\w.])(?P<card2>{_CARD_NAME}{_MEM})\s*(?P<per2>[1-8])\s*[卡张])"
    r"\s*[,，]?\s*(?:[x×*]\s*)?(?P<n>(?<![\w.])\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)"
    r"\s*(?:(?P<en>nodes?|machines?|servers?|boxes|hosts?)\b|(?P<zh>台(?:机器|服务器|主机)?|个?节点))"
)
"""'8x a100 2台', '8卡a100 2台机器', '8x a100, 2 nodes', 'a100 8卡 2台': machines counted after the
card and its per-machine count (module doc)."""


_SPEC = rf"\d{{1,2}}\s*(?:x|×|\*|卡|张)\s*{_CARD_NAME}{_MEM}"
SAME_MACHINE_TWICE_RE = rc(
    rf"(?<![\w.])(?:one|a|1|一)\s*(?:台\s*)?(?P<spec>{_SPEC})\s*(?P<en>box|server|machine|node|host)?"
    r"\s*(?:,\s*)?(?:and|plus|和|加|跟|与|,)\s*(?:another|one\s+more|a\s+second|one|a|1|一|另一|另外一)\s*"
    r"(?:台\s*)?(?P=spec)\s*(?:(?P=en)\b)?"
)
"""'一台 8 卡 a100 和一台 8 卡 a100', 'one 8×h100 box and another 8×h100 box': two machines alike."""


def _two_alike(m: re.Match[str]) -> str:
    """'2台 8 卡 a100', '2 boxes of 8×h100': the two machines as the node rules read them."""
    word = m["en"] and m["en"] + ("es" if m["en"] == "box" else "s")
    return f"2 {word} of {m['spec']} " if word else f"2台 {m['spec']} "


def _card_then_machines(m: re.Match[str]) -> str:
    """'2台 8x a100', '2 nodes of 8x a100': as the node rules read machines counted first."""
    per, card = m.group("per") or m.group("per2"), (m.group("card") or m.group("card2")).strip()
    if m.group("zh"):
        return f"{m.group('n')}{m.group('zh')} {per}x {card} "
    return f"{m.group('n')} {m.group('en')} of {per}x {card} "


_OVER = r"(?:(?:spread|split|distributed|divided)\s+)?(?:over|across)\s+"
TOTAL_OVER_NODES_RE = rc(
    rf"(?<![\w.])(?P<t>\d{{1,4}})\s*(?P<card>{_CARD_NAME}{_MEM}(?:s\b)?|gpus?\b|cards?\b)\s*{_OVER}"
    r"(?P<n>\d{1,3})\s*(?:nodes?|machines?|servers?|boxes|hosts?)\b"
    rf"|(?<![\w.])(?P<t2>\d{{1,4}})\s*(?:张|块)\s*(?P<card2>{_CARD_NAME}{_MEM})?\s*(?:的\s*)?(?:卡|显卡|gpu)?\s*"
    r"(?:分布|分散|分|部署|放|装)(?:在|于|到)\s*(?P<n2>\d{1,3})\s*(?:个\s*节点|台\s*(?:机器|服务器|节点)?|个\s*机器)"
)
"""s37 fixd: the cards in all, then the machines they are spread over ('16 H100 across 2 nodes', '16 cards
over 2 nodes', '16 张卡分布在 2 个节点上'): written as the node rules read nodes of cards each ('2 nodes of
8 h100', '2 个节点 每个节点 8 张卡'), so the request keeps the cards per node; only when the machines share
the cards evenly (else the total alone is read, as before)."""


def _total_over_nodes(m: re.Match[str]) -> str:
    total, nodes = int(m["t"] or m["t2"]), int(m["n"] or m["n2"])
    if not nodes or total % nodes or total == nodes:
        return m.group(0)
    if m["t"]:
        card = m["card"] if m["card"][0].isalpha() and not m["card"].startswith(("gpu", "card")) else "gpus"
        return f"{nodes} nodes of {total // nodes} {card} "
    return f"{nodes} 个节点 每个节点 {total // nodes} 张{m['card2'] or '卡'} "


IMAGE_SIZE_STAR_RE = rc(
    r"(?<![\d.*])(\d{2,5})\s*\*\s*(\d{2,5})"
    r"(?![\d.]|\s*\*)(?=\s*(?:pixels?\b|px\b|像素|(?:的\s*)?(?:图(?![灵形])|照片|相片|截图)|resolution\b|分辨率))"
)
"""s37 fixd: an image's size written with '*' ('1024*1024 pixels', '2 万张 1024*1024 的图片'): written
'1024x1024' as 'x' is, before '*' is taken for markup or a product (:mod:`bot.parse.sample_nouns`
reads the images counted; before, '20k images of 1024*1024 pixels' left the 20k unread and
'1024*1024 的图片' became 1048576 tokens)."""


_PER_CARD = r"(?:每\s*张?\s*(?:卡|显卡|gpu)|单\s*卡|每个\s*gpu)\s*(?:的\s*)?"
_PICS = r"\s*(?:张|幅)\s*(?:图片?|图像|照片)"
IMAGES_PER_CARD_BATCH_RE = rc(
    rf"{_PER_CARD}(?:batch|批次?|批大小)\s*(?:size\s*)?(?:是|为|放|设为?|=|:)?\s*(?P<a>\d{{1,3}}){_PICS}"
    rf"|{_PER_CARD}(?:放|塞|装|跑)?\s*(?P<b>\d{{1,3}}){_PICS}\s*(?:的\s*)?(?:batch|批次?|一批)"
    r"|(?<![\w.])(?P<c>\d{1,3})\s*(?:images?|photos?|pictures?)\s+(?:per|a|each)\s+(?:gpu|card|device)\s+(?:batch|micro[\s\-]?batch)\b"
)
"""s37 fixd: a per-card count of images in a batch phrase ('每张卡 2 张图片的 batch', '每卡 batch 2 张图',
'2 images per GPU batch'): the micro-batch of images, written 'micro batch N' as the batch rules read it;
before, '2 张图片' was read as a data set of 2 samples and the batch lost."""


EACH_NODE_HAS_RE = rc(
    r"\b(?:each|every)\s+(?:node|machine|server|box|host)\s+(?:has|holds|carries|contains|comes\s+with|got)\s+"
    r"(?P<n>\d{1,2})\s+(?P<what>[a-z][a-z0-9\- ]{0,30}?)\s*[,;]?\s*(?:and\s+)?"
    r"(?:(?:we|i)\s+(?:have|got|run|use)\s+|there\s+are\s+)(?P<k>\d{1,4})\s+(?:nodes?|machines?|servers?|boxes|hosts?)\b"
)
"""s37 fixd: what each machine holds said first, then how many ('each node has 8 H100, and we have 2 nodes'):
written '2 nodes with 8 h100 each', as the node rules read it (before, the 2 was unread and 8 cards
sized)."""


HUNDREDS_RE = rc(
    rf"(?<![\w.\-])(?P<h>{_WORD}|a|one)[\s\-]+hundred(?:[\s\-]+(?:and[\s\-]+)?(?P<r>(?:{_WORD})(?:[\s\-]+(?:{_WORD}))?))?"
    r"(?![\w\-]|\s+(?:thousand|million|billion)\b)"
)
"""'two hundred', 'a hundred and fifty', 'three hundred twenty': the number in digits (s17: 'Two hundred
parallel requests' was read as no load at all)."""
HALF_A_RE = rc(r"\bhalf\s+an?\s+(million|billion|thousand|trillion)\b")
"""'half a million': 0.5 million (before, 'a million' was read and the half lost)."""


def _hundreds(m: re.Match[str]) -> str:
    head = 1 if m.group("h") in ("a", "one") else WORD_VALUES[m.group("h")]
    rest = sum(WORD_VALUES[w] for w in re.split(r"[\s\-]+", m.group("r"))) if m.group("r") else 0
    return str(head * 100 + rest)


def _thousands(m: re.Match[str]) -> str:
    if m.group(1):
        return f"{float(m.group(1)) * 1000:g}"
    total = sum(WORD_VALUES[w] for w in re.split(r"[\s\-]+", m.group("w")))
    return str(total * 1000)


_L = r"(?P<n>\d[\d,]*(?:\.\d+)?\s?k?)(?![\d.])"
_ABOUT = r"(?:(?:about|around|roughly|up\s+to|~)\s*)?"
_NOT_IO = r"(?<!output\s)(?<!input\s)(?<!prompt\s)(?<!completion\s)(?<!response\s)(?<!new\s)(?<!max\s)"
"""Not an input's or output's length ('output token length 512', 'max token length' of generation)."""
SEQUENCE_FORMS_RE = rc(
    rf"(?:(?<![\w.])(?P<c>\d{{1,5}})\s+)?\b(?P<w>sequences|seqs)\s+of\s+(?:length\s+)?{_ABOUT}{_L}"
    r"(?:\s*(?:tokens?|toks?)\b)?"
    rf"|\beach\s+(?:sequence|seq)\s+(?:is|has)\s+{_ABOUT}{_L.replace('n>', 'n2>')}\s*(?:tokens?|toks?)\b"
    rf"|(?<![\w.]){_L.replace('n>', 'n3>')}\s*(?:tokens?|toks?)\s+(?:per|each|a|every)\s+(?:sequence|seq)\b"
    rf"|(?<![\w.]){_L.replace('n>', 'n4>')}[\s\-]+(?:tokens?[\s\-]+)?long\s+(?:sequences|seqs)\b"
    rf"|(?<![\w.]){_L.replace('n>', 'n5>')}[\s\-]*(?:tokens?|toks?)[\s\-]+(?:length|len)\b"
    rf"|{_NOT_IO}\b(?:tokens?|toks?)[\s\-]+(?:length|len)\s*(?:of|is|=|:)?\s*{_ABOUT}"
    rf"{_L.replace('n>', 'n6>')}(?!\s*(?:gb|g\b|%|x\b))"
)
"""A sequence's length said in other words than 'sequence length N' (see the module docstring)."""


def _sequence(m: re.Match[str]) -> str:
    """'sequence length N'; a count before ('16 sequences of 8192') is kept as the sequences counted."""
    count = f"{m.group('c')} {m.group('w')}, " if m.group("c") else ""
    return f"{count}sequence length {next(v for k, v in m.groupdict().items() if k[0] == 'n' and v)} "


R_COUNTED_SEQS = rc(r"^[\s\-]*(?:sequences|seqs)\b")
"""After a plain number: sequences counted ('16 sequences', '64 seqs'), not a length (the roles of
:mod:`bot.parse.roles`; '8k sequences' stays a length, as '8k seq' is)."""


MEMORY_WORDS_RE = rc(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:(?P<g>gigs?|gigabytes?|gibibytes?)|megabytes?|mebibytes?)\b"
)
"""'24 gigs', '24 gigabytes', '500 megabytes': a memory in GB or MB."""


GGUF_GLUED_RE = rc(r"(?<![\w.\-])q([2-8])[_\-]?k[_\-]?([sml])(?![a-z0-9])")
"""'q4km', 'q5-ks': a GGUF k-quant written without its underscores (Q4_K_M, Q5_K_S)."""
HALF_PRECISION_RE = rc(r"\bhalf[\s\-]+precision\b")
"""'half precision', 'half-precision': fp16."""
ZERO_WORDS_RE = rc(r"\b(?:zero|deepspeed)(?:[\s\-_]*stage)?[\s\-_]+(one|two|three)\b")
"""'zero stage three', 'deepspeed stage two', 'ZeRO three': that ZeRO stage."""
_STAGES = {"one": "1", "two": "2", "three": "3"}


def _zero_stage(m: re.Match[str]) -> str:
    """'zero3'; 'deepspeed zero3' when DeepSpeed was named (a tool the answer names)."""
    tool = "deepspeed " if m.group(0).startswith("deepspeed") else ""
    return f"{tool}zero{_STAGES[m.group(1)]}"


_GATE = re.compile(
    r"q\d|half|zero|deepspeed|w/|\bbs\b|node|machine|server|box|host|thousand|hundred|seq|gig|byte|len|台|节点|another"
)


_NOT_BATCH_UNIT = (
    r"(?:[kmb]\b|steps?|iters?|iterations?|epochs?|gpus?|cards?|devices?|nodes?|machines?|servers?|tokens?"
    r"|samples?|examples?|records?|rows?|images?|docs?|documents?|hours?|days?|gb|gib|tb|g\b|h\b|%"
    r"|张|块|卡|台|个|条|步|轮|万|亿|千|节点|样本|小时|天)"
)
"""s38-rev: what a total counted when it was no batch ('bs 4, total 8 GPUs', 'batch size 8, total 1000 steps',
'batch 4，共 8 张卡', 'bs 32, total 10000 samples': the dataset); the total of a batch has no unit or its
bracket closes ('batch size 1 (16 in total)')."""


BATCH_TOTAL_RE = rc(
    r"(?P<key>\b(?:micro[\s_\-]*)?batch(?:[\s_\-]*size)?|\bbs)\s*(?:=|:|of|is|为|是)?\s*(?P<b>\d{1,4})\s*(?:[(（]|,|，)\s*"
    r"(?:(?:in\s+total|total|overall|altogether|总共|一共|共|合计)\s*(?:of|is|=|:|为|是)?\s*(?P<t>\d{1,6})(?!\d|\.\d)"
    r"|(?P<u>\d{1,6})\s*(?:in\s+total|in\s+all|total|overall|altogether)\b)"
    r"(?!\s*" + _NOT_BATCH_UNIT + r")\s*[)）]?"
)
"""A batch then its total after it ('batch size 1 (16 in total)', 'bs 32, total 256', 'batch 4（总共 64）';
s38-r34en, en34-011): the per-device batch and the global batch, written 'batch 1, global batch 16'."""


CORES_THEN_MEMORY_RE = rc(
    r"(?P<cores>(?<![\w.])\d{1,4}\s*(?:cpu\s+|vcpu\s+)?(?:cores?|vcpus?|cpus?|核)\s*(?:[,，、/;；]|and|和)\s*)"
    r"(?P<n>\d{1,4})(?![\d.])\s*(?:mem(?:ory)?|ram|内存)(?![a-z]|\s*(?:channels?|bandwidth|slots?|sticks?|modules?|通道|"
    r"controllers?|dimms?|ranks?|banks?|nodes?|domains?|tiers?|条|根|插槽))"
)
"""A machine's spec listed cores then a unitless memory ('100 CPU cores, 500 Mem', '64 cores / 512 RAM',
'96核、768内存'; s38-r34en, en34-027): the host's RAM in GB, written '500gb ram' (cloud and cluster
specs list RAM in GB; a card's memory is never listed after the CPU's cores). s38-rev: a count of memory parts
is no size ('16 cores and 4 memory controllers', '8 DIMMs' written '8 memory dimms', '4 内存条')."""


def chat_forms(s: str) -> str:
    """The normalized text ``s`` with the chat forms of this module's docstring written out."""
    s = assign_forms(s)  # 'max model len bumped to 32768', '0.9 gpu util'
    if ("batch" in s or "bs" in s) and (
        "total" in s or "overall" in s or "altogether" in s or "共" in s or "合计" in s
    ):
        s = BATCH_TOTAL_RE.sub(lambda m: f"{m['key']} {m['b']}, global batch {m['t'] or m['u']} ", s)
    if ("core" in s or "cpu" in s or "核" in s) and ("mem" in s or "ram" in s or "内存" in s):
        s = CORES_THEN_MEMORY_RE.sub(lambda m: f"{m['cores']}{m['n']}gb ram", s)
    s = IMAGE_SIZE_STAR_RE.sub(r"\1x\2", s) if "*" in s else s  # '1024*1024 pixels' (s37 fixd)
    if ("each" in s or "every" in s) and (" have " in s or "there are" in s or " got " in s):
        s = EACH_NODE_HAS_RE.sub(lambda m: f"{m['k']} nodes with {m['n']} {m['what']} each ", s)
    if ("batch" in s or "批" in s) and ("图" in s or "image" in s or "photo" in s or "picture" in s):
        s = IMAGES_PER_CARD_BATCH_RE.sub(lambda m: f"micro batch {m['a'] or m['b'] or m['c']} ", s)
    if not _GATE.search(s):
        return s
    if "w/" in s:
        s = W_WITH_RE.sub(lambda m: "with" if m.group(1) else "with ", W_WITHOUT_RE.sub("without", s))
    if "bs" in s:
        s = GLOBAL_BS_RE.sub("global batch", s)
    if "thousand" in s:
        s = THOUSANDS_RE.sub(_thousands, s)
    if "half" in s:
        s = HALF_A_RE.sub(r"0.5 \1", HALF_PRECISION_RE.sub("fp16", s))
    if "hundred" in s:
        s = HUNDREDS_RE.sub(_hundreds, s)
    if "zero" in s or "deepspeed" in s:
        s = ZERO_WORDS_RE.sub(_zero_stage, s)
    s = GGUF_GLUED_RE.sub(r"q\1_k_\2", s)
    if "gig" in s or "byte" in s:
        s = MEMORY_WORDS_RE.sub(lambda m: f"{m.group(1)}{'gb' if m.group('g') else 'mb'}", s)
    if "seq" in s or "len" in s:
        s = SEQUENCE_FORMS_RE.sub(_sequence, s)
    s = CARD_THEN_MACHINES_RE.sub(_card_then_machines, s)
    if "over" in s or "across" in s or ("张" in s and ("分" in s or "署" in s or "放" in s or "装" in s)):
        s = TOTAL_OVER_NODES_RE.sub(_total_over_nodes, s)  # '16 h100 across 2 nodes' (s37 fixd)
    s = SAME_MACHINE_TWICE_RE.sub(_two_alike, s)
    s = CARD_TIMES_NODES_RE.sub(r"\1 \4 of \3 \2", s)
    if "node" in s or "节点" in s:
        s = NODE_COUNT_MODIFIER_RE.sub(
            lambda m: f"{m.group(1)} nodes " if "node" in m.group(0) else f"{m.group(1)}个节点 ", s
        )
    return TIMES_CARD_NODES_RE.sub(r"\1 \5 of \2 \3\4", s)


_TRAINING_NEAR = (
    r"训练|微调|预训练|epochs?\b|sft\b|train|fine[\s\-]?tun|lora\b|数据集|dataset"
    r"|(?<![a-z])(?:grpo|ppo|dapo|rlhf|verl|openrlhf)(?![a-z])"  # s42 trial #4: an RL run is training
)
_CHAT_ROUND_LEFT = rc(
    r"(?:对话|会话|聊天|问答|多轮|chats?\b|conversations?\b|dialog(?:ue)?s?\b)[^。；;!?！？\n]{0,14}$"
)
_CHAT_ROUND_RIGHT = rc(r"^\s*轮\s*(?:的)?\s*(?:对话|会话|聊天|问答)")
_PROMPT_DOCS_LEFT = rc(
    r"(?:输入|提示词?|上下文|每次(?:请求|提问|调用)?|单次|一次|prompts?\b|inputs?\b|context\b|"
    r"(?:per|each|every|one|a\s+single)\s+(?:request|query|question|call))[^。；;!?！？\n]{0,20}$"
)
_DOC_NOUN_RE = rc(r"[\s\-]*(?:documents?|docs?|files?|pdfs?|文档|文件|篇|份)")
"""A document noun right after the count: after a prompt word only a count of documents is what one
request carries ('每次输入 5 篇文档'); 'prompt 1万条' counts the prompts of a data set (s42 trial #4)."""
_PROMPT_DOCS_AFTER = rc(
    r"^[\s\-]*(?:documents?|docs?|files?|pdfs?|文档|文件|篇|份)\S*[^。；;!?！？\n]{0,24}"
    r"(?:(?:per|each|every|in\s+(?:one|a|the|each))\s+(?:request|query|prompt|input|context)\b|"
    r"(?:塞进|放进|放入|进)\s*(?:上下文|提示|输入))"
)


def chat_rounds(left: str, right: str) -> bool:
    """Whether a count before 轮 is the rounds of a chat ('每个对话达到 50 轮', '50 轮对话'), not epochs —
    no training word before it ('对话数据训练 3 轮' stays epochs). s36 left #4: turns of one
    conversation are not passes over a training set. ``left`` / ``right``: the words around the number
    (:func:`bot.parse.roles._around`); called only where the epochs word matched."""
    if right.lstrip()[:1] != "轮" or _TRAINING_RE.search(left):
        return False
    return bool(_CHAT_ROUND_RIGHT.match(right) or _CHAT_ROUND_LEFT.search(left))


def in_one_prompt(left: str, right: str) -> bool:
    """Whether a count of documents or files is what one request carries ('input reaches 3 documents', '每次
    输入 5 篇文档', '3 documents per request', '3 份文件塞进上下文'), not training samples — no training word
    before it. s36 left #4. Called only where the data word matched (:data:`bot.parse.roles.R_SAMPLES`)."""
    if _TRAINING_RE.search(left):
        return False
    left_said = _PROMPT_DOCS_LEFT.search(left) and _DOC_NOUN_RE.match(right)  # s42: 'prompt 1万条' is data
    return bool(left_said or _PROMPT_DOCS_AFTER.match(right))


_TRAINING_RE = rc(_TRAINING_NEAR)
