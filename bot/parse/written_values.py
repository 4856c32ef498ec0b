"""Values written in ways the rules did not read (issue 24, round 5), rewritten as forms they do read.

Each rewrite is one way of writing, found on round 5's working records and tested on sentences of our own
in English and Chinese (tests/test_round5_en_forms.py):

- **A value before a full stop** ('… with tp=2.', 'batch size 16.'): the settings' patterns refuse a
  number followed by a dot (so '2.5' is never read as '2'), which also refused a value that ends a
  sentence; the full stop is set apart ('tp=2 .'). A number at the start of a line ('1. use …', a list)
  is left alone.
- **A precision with its digits first** ('in 16bf', '16fp', 'bf 16'): written 'bf16' / 'fp16'; round 9:
  a width in bits said in Chinese or with a hyphen ('16 位', '8 位量化', '16-bit'), :data:`BIT_WIDTH_WORD_RE`.
- **A count with its sum after it** ('no less than 40=8+8+8+8+4*2'): the count; the sum's terms are
  the parts it adds up, not other counts (before, '4*2' was read as 4 nodes of 2 cards).
- **Nodes with a total** ('4 nodes with 32 gpus in total'): 32 GPUs over 4 nodes, not 4 × 32.
- **Nodes of two sizes** ('2 nodes of 8 A100 plus 1 node of 4 A100', '2 台 8 卡加 1 台 4 卡'): all their cards
  over all the nodes, written as a total ('20 a100 in total'; round 9).
- **The number of GPUs said with words before its value** ('the number of GPU cards I have needs to be no
  less than 40', 'GPU 的数量不能少于 40'): that count of GPUs, the job's total (other counts in the message
  are per role or per node: OpenRLHF's '--actor_num_gpus_per_node 8').
- **A card by its memory and vendor** ('a 16gb Nvidia GPU', 'my 16 GB graphics card', '16G 的英伟达显卡'): a
  card of that memory, as '16GB GPU' reads (before, the number was unread and a default A100 80GB sized).
- **Two cards said as 'both'** ('both of my GPUs are RTX 3090', 'both cards'): two cards (round 9).
- **Each card's memory after 'each with'** ('two GPUs, each with 24G of memory'): 'with 24G of memory each'.
- **A benchmark's prompt count** (``--num-prompts 5000``): 5000 prompts, not a 5000-token sequence.
- **TensorRT-LLM's engine batch** (``--max_batch_size 16`` of ``trtllm-build`` / ``build.py``, or 'max batch
  size 64' in prose about TensorRT-LLM): the engine's cap of requests at once, read as vLLM's
  ``max_num_seqs`` is (a cap, not the load; before, a batch of 16).
- **A key set to a product** ('n_training_samples=1024*1024'): the product (round 19).
- **mlx-lm's checkpointing key** (``grad_checkpoint: false``, mlx_lm/lora.py's config): the gradient
  checkpointing setting the rules read.
- **Round 27 en** (tests/test_round27_en_forms.py): Lightning's and NeMo's 'precision 16' (fp16); vLLM's
  memory profile line 'total_gpu_memory (8.00GiB) x gpu_memory_utilization (0.70)'; Aphrodite's '-gmu';
  text-generation-webui's model folders ('TheBloke_Llama-2-13B-chat-GPTQ'); the most an engine let be set
  ("can't set max_model_len larger than 8192"); LoRA's rank as 'r 16' in a message about LoRA.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.regex import rc

VALUE_STOP_RE = rc(r"(?<=[a-z_\-)])(?P<sep>[ \t]*[=:][ \t]*|[ \t]+)(?P<n>\d+)\.(?=\s|$)")
"""A key or word, then an integer, then a full stop ending the sentence ('tp=2.', 'batch size 16.')."""
REVERSED_PRECISION_RE = rc(r"(?<![a-z0-9.])(?P<n>16|32)[\s\-]?(?P<p>bf|fp)(?![a-z0-9])")
"""'16bf', '16-bf', '32fp': a precision with its width first."""
VLLM_PROFILE_RE = rc(
    r"total_gpu_memory\s*\(\s*(?P<m>\d+(?:\.\d+)?)\s*gib\s*\)\s*[x*×]\s*"
    r"gpu_memory_utilization\s*\(\s*(?P<u>\d*\.?\d+)\s*\)"
)
"""vLLM's memory profile log line as pasted into questions ('the current vLLM instance can use
total_gpu_memory (8.00GiB) x gpu_memory_utilization (0.70) = 5.60GiB'; vllm/worker/worker.py): each value in
brackets after its name, which no key-value reader joined (round 27 en: 0.70 and 8.00 were left unread).
Written as the rules read them: the card's total memory as PyTorch's OOM message says it, and the fraction
as the key set to it."""
WEBUI_FOLDER_RE = rc(r"(?<![\w/.\-])(?P<o>[a-z][a-z0-9\-]{1,38})_(?=[a-z][a-z0-9.]*-[\w.\-]*\d)")
"""The underscore of a text-generation-webui model folder, written as the Hugging Face id it was downloaded
from ('TheBloke_Llama-2-13B-chat-GPTQ' is TheBloke/Llama-2-13B-chat-GPTQ: download-model.py joins the owner
and the name with '_'). Round 27 en: the folder's model was left unnamed. Only the first underscore, before a
hyphenated name with a digit ('lora_rank', 'open_llama_3b_v2' are no folders); gated on the tool's name."""
_CEIL_KEY = r"(?P<k>max[_\-]model[_\-]len|max[_\-]seq(?:uence)?[_\-]len(?:gth)?|context\s+length|context)"
_CEIL_MORE = r"(?:larger|bigger|higher|greater|longer|more|above|beyond)(?:\s+than)?\s+"
CEILING_SET_RE = rc(
    _CEIL_KEY
    + r"\s+(?:can\s*not|can't|cant|won't|could\s*not|couldn't)\s+(?:be\s+)?(?:set\s+)?(?:to\s+)?"
    + _CEIL_MORE
    + r"(?P<n>\d+k?)(?![\d.])"
)
"""'max_model_len can not larger than 8192', 'context length can't be more than 16k': the most the engine let
be set, the value the questions run at (round 27 en: 8192 was left unread and the 4K default sized)."""
SET_CEILING_RE = rc(
    r"(?:can\s*not|can't|cant|couldn't|could\s*not|unable\s+to)\s+(?:set|raise|increase|push)\s+"
    + _CEIL_KEY
    + r"\s+(?:to\s+)?"
    + _CEIL_MORE
    + r"(?P<n>\d+k?)(?![\d.])"
)
""""I can't set max_model_len larger than 8192": the same ceiling with the verb first."""
BARE_RANK_RE = rc(r"(?<![\w\-.'])r(?:\s*:\s*|\s+)(?P<n>\d{1,4})(?![\d.]|\s*(?:gb|gib|b\b|x\b|%|tok))")
"""LoRA's rank written 'r 16' or 'r: 16' (PEFT's LoraConfig(r=…) key, said in prose; round 27 en: 'the peft
config is r 16' left 16 unread), in a message about LoRA or PEFT: 'r=16', as the config readers take it."""
GMU_FLAG_RE = rc(r"(?<![\w\-])-gmu(?=[\s=])")
"""'-gmu .97': Aphrodite's short form of --gpu-memory-utilization (aphrodite/engine/args_tools.py)."""
LIGHTNING_PRECISION_RE = rc(
    r"(?P<k>\bprecision)(?P<sep>\s*[=:]?\s*[\"']?)(?P<n>16|32)(?:-(?:mixed|true))?"
    r"(?![\d.]|[a-z]|\s*(?:gb|gib|g\b|bits?\b|位))"
)
"""'precision 16', 'precision=32', "precision: '16-mixed'": the width PyTorch Lightning's Trainer(precision=…)
and NeMo's trainer.precision take (lightning/fabric/connector.py: 16 and '16-mixed' are fp16 mixed precision,
32 is fp32), written 'precision fp16' (round 27 en: 'precision 16' was left unread). Not a memory ('precision
16 GB') nor a bit width ('16 bits')."""
LIGHTNING_VALUE_RE = rc(r"(?<![\w.\-])(?P<n>16|32)-(?:mixed|true)(?![\w\-])")
"""'in 16-mixed and 32-true precision', '用 16-mixed 训练': Lightning's precision values (16-mixed,
16-true: fp16; 32-true: fp32; lightning/fabric/connector.py, lit-gpt's --precision) said without their key
(s37-gen, issue 24: '16' and '32' were left unread). 'bf16-mixed' holds its format already; a '-' or a word
before the width ('fp16-mixed', 'x16-true') is some other name."""
PER_SAMPLE_IMAGES_RE = rc(
    r"(?P<h>\b(?:each|every|per|one)\s+(?:sample|example|record|conversation|row|item)\s+"
    r"(?:has|have|contains?|includes?|holds?|with|is)\s+|每\s*(?:一|个|条|一条|一个)?\s*(?:样本|数据|样例|对话|问答)"
    r"\s*(?:都|中|里)?\s*(?:有|包含|含|带|是|为)?\s*)(?P<n>\d{1,3})\s*(?:张|幅|images?\b|pictures?\b|photos?\b)"
    r"(?:\s*(?:图片|图像|图|照片))?"
)
"""'each sample has 2 images', '每条样本 2 张图片', '每条数据包含 3 张图': images in one sample, no count of
samples (s37-gen: 2 was read as the data set and the '10k samples' beside it named a repeat); written '2
images per sample' (the words before it dropped: '样本 2' is a count of samples), which no rule reads as
samples (bot.parse.sample_nouns)."""
SPACED_PRECISION_RE = rc(r"(?<![a-z0-9])(?P<p>bf|fp)[\s\-](?P<n>16|32|8)(?!\d|\.\d|[a-z])")
"""'bf 16', 'fp 8': a precision with a space inside."""
SPACED_INT_RE = rc(r"(?<![a-z0-9])int[\s\-](?P<n>[48])(?!\d|\.\d|\s*(?:gb|gib|g\b)|[a-z])")
"""s44 round 40: 'llama 2 70B chat (int 8)', 'int-4', 'int 8 量化': an integer width with a space or dash
inside, written int8 / int4 (CTranslate2's ``int8`` compute type, which its users write spaced); before, the
model was sized in fp16 and the 8 named unread. A size after it ('int 8 GB'), a longer number ('int 16',
'int 4096') and 'uint 8' / 'print 8' are left alone."""
SUM_AFTER_COUNT_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,5})\s*=\s*\d{1,5}(?:\s*[+*x×]\s*\d{1,5}){2,}(?![\d.]|\s*(?:gb|g\b|gib|b\b))"
)
"""'40=8+8+8+8+4*2': a count, then the sum that makes it (three terms or more)."""
PRODUCT_VALUE_RE = rc(
    r"(?P<k>[a-z_][a-z0-9_]*\s*[=:]\s*)(?P<a>\d{1,7})\s*\*\s*(?P<b>\d{1,7})"
    r"(?![\d.]|\s*[*x×]\s*\d|\s*(?:gpus?|cards?|nodes?|machines?|gib|gb|g\b|[a-z]+\d))"
)
"""A config key set to a product of two integers ('n_training_samples=1024*1024', NeMo's recipe scripts):
the product (round 19 en: the first factor was read as the value and the second left unread). Not a count
of cards ('gpus=2*8 h100': the count rules read nodes × cards) nor a memory ('mem: 2*80gb')."""
TOKEN_PRODUCT_RE = rc(
    r"(?<![\w.*×])(?P<a>\d{1,6})\s*[*×]\s*(?P<b>\d{1,6})(?!\d|\.\d|\s*[*x×]\s*\d)"
    r"(?=(?P<t>\s*tokens?\b)?)(?!\s*(?:gpus?|cards?|nodes?|machines?|gib|gb|mib|mb|g\b|pixels?\b|px\b|像素|[a-z]+\d))"
)
"""Round 25 en: a length written as a product in prose, one factor 1024 or the product a number of tokens
('a max_sequence_length of 128 * 1024 tokens', 'max_seq_length 64 * 1024', '2048*8 tokens per step'): the
product (before, '128' was read as the length and '1024' left unread, or '*8' taken as 8 cards). Not a count
of cards nor a memory ('2 * 8 H100', '2*80gb': the count and memory rules read those), nor an image's size
('1024×1024 像素', '1024*1024 pixels'; s37-gen)."""


def _token_product(m: re.Match[str]) -> str:
    a, b = int(m.group("a")), int(m.group("b"))
    return str(a * b) if m.group("t") or 1024 in (a, b) else m.group(0)


_CARDS = r"(?:gpu\s+cards?|gpus?|cards?|accelerators?|devices?|npus?)"
NODES_TOTAL_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,4})\s*(?:nodes?|machines?|servers?|hosts?)\s*(?:,\s*)?(?:with|and|having)\s+"
    rf"(?P<m>\d{{1,5}})\s*(?P<w>(?:[a-z]{{1,6}}[\s\-]?\d{{2,4}}[a-z0-9\-]{{0,8}}\s*)?(?:{_CARDS})?)"
    r"\s+(?P<t>in\s+total|in\s+all|altogether|total)\b"
)
"""'4 nodes with 32 gpus in total': the total, over that many nodes."""
NUMBER_OF_GPUS_RE = rc(
    rf"\b(?:number|count|amount)\s+of\s+(?P<w>{_CARDS})\b(?P<mid>[^.?!\n\d]{{0,60}}?)"
    r"(?P<rel>\b(?:no|not)\s+(?:less|fewer)\s+than|\bat\s+(?:least|most)|\bno\s+more\s+than|\bmore\s+than"
    r"|\b(?:is|are|be)\b|>=|≥|=)\s*(?P<n>\d{1,5})(?!\d|\.\d|\s*(?:gb|g\b|gib|nodes?|machines?|servers?|x\b|[a-z]))"
)
"""'the number of GPU cards I have needs to be no less than 40', 'number of gpus is 16'."""
NUMBER_OF_GPUS_CN_RE = rc(
    r"(?:gpu|卡|显卡|npu)\s*(?:的)?\s*(?:数量|数目|个数|张数)\s*(?P<mid>[^。？！?!\n\d]{0,12}?)"
    r"(?P<rel>不能少于|不少于|不低于|至少(?:要|是|为)?|最少(?:要|是|为)?|是|为|要|=)\s*(?P<n>\d{1,5})(?![\d.]|\s*(?:g|台|个节点|机))"
)
"""'卡的数量不能少于 40', 'GPU 的数量是 16': the count, with its cards' word after it."""
VENDOR_CARD_RE = rc(
    r"(?P<m>(?<![\d.])\d{1,3}(?:\.\d+)?\s*g(?:b|ib)?)\s+(?:(?:nvidia|amd|geforce|radeon|intel)\s+"
    r"(?:gpu|card|graphics\s+card|video\s+card)|(?:graphics|video)\s+card)s?\b"
)
"""'a 16gb Nvidia GPU', 'my 16 GB graphics card': a card of that memory (the vendor said, no model)."""
VENDOR_CARD_CN_RE = rc(
    r"(?P<m>(?<![\d.])\d{1,3}(?:\.\d+)?\s*g(?:b|ib)?)\s*(?:的\s*)?(?:英伟达|nvidia|amd|n\s*卡?)\s*(?:的\s*)?(?:显卡|gpu|卡)"
)
"""'16G 的英伟达显卡', '16GB 的 nvidia 显卡': the same in Chinese."""
EACH_WITH_MEMORY_RE = rc(
    r"\beach\s+(?:with|having|has|of)\s+(?P<m>\d{1,3}(?:\.\d+)?\s*g(?:b|ib)?)\b"
    r"(?P<w>\s+(?:of\s+)?(?:gpu\s+)?(?:memory|vram))?"
)
"""'two GPUs, each with 24G of memory': each card's memory, as 'with 24G of memory each' reads."""
NUM_PROMPTS_RE = rc(r"(?<![a-z0-9])-{0,2}num[_\-](?:prompts|requests)\s*[=:]?\s*(?P<n>\d{1,7})(?![\d.])")
"""A benchmark's ``--num-prompts N`` (vLLM benchmark_serving.py, SGLang bench_serving): N prompts in all,
no prompt length (before, the 'prompt' in the flag made N the sequence length)."""
TENSORRT_LLM_RE = rc(r"tensorrt[\s\-_]*llm|\btrt[\s\-_]*llm|trtllm|gpt_attention_plugin|use_gemm_plugin")
"""TensorRT-LLM named, or its build's own flags (``trtllm-build``, ``--gpt_attention_plugin``)."""
ENGINE_BATCH_RE = rc(
    r"(?<![a-z0-9_])(?P<d>-{0,2})max(?:imum)?[_\-\s]batch[_\-\s]size\s*(?:[=:]|\b(?:of|to|is|at)\b|设(?:置)?(?:为|成)?|为|是)?\s*(?=\d)"
)
"""TensorRT-LLM's ``--max_batch_size``: the most requests its engine schedules at once
(nvidia.github.io/TensorRT-LLM, trtllm-build), the cap vLLM calls ``max_num_seqs``; also in prose
('max batch size 64', 'a maximum batch size of 128', round 9)."""
SERVING_WORD_RE = rc(r"\bserv(?:e|es|ed|ing|er)\b|\binference\b|部署|推理")
"""A serving job said ('I serve', 'serving', 'inference server', '部署', '推理')."""
OWN_BATCH_FLAG_RE = rc(r"lmdeploy|text[\s\-_]*generation[\s\-_]*(?:inference|launcher)|\btgi\b")
"""Engines whose own flag table reads ``--max-batch-size`` (lmdeploy, TGI: bot.parse.load_words
CAP_BATCH_ENGINES), left to it."""


def serve_batch_flag(s: str) -> bool:
    """Whether a ``--max-batch-size N`` flag in ``s`` (the normalized message) is a serving engine's cap on
    the sequences run at once — vLLM's ``max_num_seqs`` — as TensorRT-LLM's ``--max_batch_size`` is
    (s45 round 41, en41-028: Atlas's ``spark serve --max-batch-size 4``, "decode batches up to 4 sequences
    per scheduler step"): a serving word in the message, and no engine that reads the flag itself."""
    return SERVING_WORD_RE.search(s) is not None and OWN_BATCH_FLAG_RE.search(s) is None


BIT_WIDTH_WORD_RE = rc(
    r"(?<![\w.])(?:(?P<n>4|8|16|32)\s*位|(?P<w>16|32)[\s\-]bit(?![a-z0-9]))(?P<colon>\s*[:：])?"
    r"(?!\s*(?:的)?\s*(?:用户|同学|同事|老师|客户|员工|开发者|工程师|专家|朋友|成员|人|系统|操作系统|cpu|os\b|windows))"
)
"""A weight width in bits, in Chinese, or 16 / 32 with a hyphen or space ('改 16 位', '8 位量化', '16-bit',
'32 bit'; '8-bit' is the precision rule's own and 'load_in_4bit' a key):
'16 位' is fp16 and '32 位' fp32 (a colon after it set apart: '16-bit: how' is no key 'fp16'), '8 位' /
'4 位' the '8bit' / '4bit' the precision rule reads; never a count of people ('16 位用户') nor a system's
word size ('32 位系统')."""
MORE_THAN_RE = rc(r"(?P<n>\d+(?:\.\d+)?)\s*多\s*(?P<u>万亿|千万|百万|十万|万|亿)")
"""'100 多万', '3多亿': more than that many, read as that many (a lower bound; before, '多万' was 万
alone)."""
_BIT_WIDTH_WORDS = {"4": "4bit", "8": "8bit", "16": "fp16", "32": "fp32"}
BIT_LIST_RE = rc(
    r"(?<![\w.=:])(?P<list>(?:(?:2|3|4|5|6|8|16|32)\s*(?:,|、|/|or|和|或者|或|还是)\s*){1,3})"
    r"(?P<last>(?:2|3|4|5|6|8|16|32))(?P<unit>\s*-?\s*(?:bits?|位|比特))(?![a-z0-9])"
)
"""Round 35 en: bit widths listed with the unit written once, after the last ('4, 8 or 16-bit LoRA', '4 or 8
bit', '4、8 或 16 位'): each width in bits, as '4-bit, 8-bit or 16-bit' is read (before, the first widths
were left unread). Only widths joined by list marks or 'or': 'batch 4, 8-bit Adam' is no list (no 'or')."""


def _bit_list(m: re.Match[str]) -> str:
    """Each width of a :data:`BIT_LIST_RE` list with the list's unit ('4, 8 or 16-bit' → '4-bit, 8-bit or
    16-bit'); a list joined by commas only is left as written."""
    items = m.group("list")
    if not re.search(r"or|或|还是|/", items):
        return m.group(0)
    unit = m.group("unit")
    return re.sub(r"(?<![\d.])(\d+)(?![\d.])", lambda n: n.group(1) + unit, items) + m.group("last") + unit


def one_unit_each(s: str) -> str:
    """``s`` with each width of a list written with one unit given the unit ('4, 8 or 16-bit' → '4-bit,
    8-bit or 16-bit'), as :func:`written_values` reads it: for readers of the message as normalized."""
    return BIT_LIST_RE.sub(_bit_list, s) if "bit" in s or "位" in s or "比特" in s else s


def _bit_width(m: re.Match[str]) -> str:
    """The precision word of a width read by :data:`BIT_WIDTH_WORD_RE` (a colon after it set apart)."""
    return _BIT_WIDTH_WORDS[m.group("n") or m.group("w")] + (" ," if m.group("colon") else "")


BOTH_CARDS_RE = rc(
    r"\bboth\s+(?:of\s+)?(?:my\s+|the\s+|our\s+|these\s+|those\s+)?(?P<c>(?:[a-z]{1,8}[\s\-]?)?\d{2,4}[a-z]{0,3}\s+)?"
    r"(?P<w>gpus|cards|graphics\s+cards|video\s+cards)\b"
)
"""'both cards', 'both of my GPUs', 'both of my A6000 cards': two cards (round 9; before, one was sized)."""
_TWO_SAID = re.compile(r"(?<![\d.])2(?![\d.])|\btwo\b|两|二")
_CARD_WORD = r"[a-z]{1,6}[\s\-]?\d{2,4}[a-z0-9\-]{0,6}"


def _group(i: int) -> str:
    return (
        rf"(?P<n{i}>\d{{1,3}}|one|two|three|four|an?)\s*(?:x\s*)?(?:nodes?|machines?|servers?|hosts?|台(?:机器|服务器)?)"
        rf"\s*(?:of\s+|with\s+|each\s+with\s+|,\s*)?(?P<c{i}>\d{{1,2}})\s*(?:x\s*|×\s*)?(?:张|块)?\s*"
        rf"(?P<w{i}>卡(?:\s*{_CARD_WORD})?|gpus?|cards?|{_CARD_WORD})(?:\s+(?:gpus?|cards?))?(?:\s+each)?"
    )


MIXED_NODES_RE = rc(
    _group(1) + r"\s*,?\s*(?:plus|and|\+|加上?|和|另外)\s*(?:another\s+|one\s+more\s+)?" + _group(2)
)
"""Nodes of two sizes ('2 nodes of 8 A100 plus 1 node of 4 A100', '2 台 8 卡加 1 台 4 卡'): all their cards
over all the nodes (round 9; before, the first group's cards alone, the second's node count 'repeated')."""
_WORD_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "a": 1, "an": 1}


def _mixed_nodes(m: re.Match[str]) -> str:
    """'N1 nodes of C1 <card> + N2 nodes of C2' → 'N1·C1+N2·C2 <card> in total'."""
    n1, n2 = (int(_WORD_COUNTS.get(m.group(g), m.group(g))) for g in ("n1", "n2"))
    total = n1 * int(m.group("c1")) + n2 * int(m.group("c2"))
    cards = [re.sub(r"^卡\s*", "", m.group(g)) for g in ("w1", "w2")]
    card = next((c for c in cards if c and not re.fullmatch(r"gpus?|cards?", c)), "gpus")
    return f"{total} {card} in total"  # the node count is no setting of the sizing: not said back as unread


GRAD_CHECKPOINT_RE = rc(r"(?<![a-z_])grad[_\-]checkpoint(?![a-z_])")
"""mlx-lm's ``grad_checkpoint`` key (mlx_lm/lora.py CONFIG_DEFAULTS)."""
_COUNT_GATE = re.compile(r"total|in all|altogether|number of|count of|amount of|数量|数目|个数|张数|=")


SHELL_ARITHMETIC_RE = rc(
    r"\$\(\(\s*(?P<a>\d+)\s*(?P<op>[*/+\-])\s*(?P<b>\d+)\s*\)\)"
    r"|\$\(\s*expr\s+(?P<a2>\d+)\s*\\?(?P<op2>[*/+\-])\s*(?P<b2>\d+)\s*\)"
)
"""A shell's integer arithmetic as a flag's value ('--gradient_accumulation_steps $(expr 16 / 8)',
'$((16 / nproc))' with numbers only, round 25): the launcher passes its result, so the reader sees it."""


def fold_shell_arithmetic(s: str) -> str:
    """``s`` with each shell arithmetic of :data:`SHELL_ARITHMETIC_RE` replaced by its integer result."""
    return SHELL_ARITHMETIC_RE.sub(_shell_arithmetic, s)


def _shell_arithmetic(m: re.Match[str]) -> str:
    a, op, b = (int(m["a"] or m["a2"]), m["op"] or m["op2"], int(m["b"] or m["b2"]))
    if op == "/" and b == 0:
        return m.group(0)
    return str({"*": a * b, "/": a // max(b, 1), "+": a + b, "-": a - b}[op])


def written_values(s: str) -> str:
    """The normalized text ``s`` with the forms of the module docstring written as the rules read them.
    Gated on cheap substring tests: most messages have none of these forms."""
    if "$(" in s:
        s = SHELL_ARITHMETIC_RE.sub(_shell_arithmetic, s)
    if "." in s:
        s = _sub(VALUE_STOP_RE, r"\g<sep>\g<n> .", s)
    if "bf" in s or "fp" in s:
        s = _sub(REVERSED_PRECISION_RE, r"\g<p>\g<n>", s)
        s = _sub(SPACED_PRECISION_RE, r"\g<p>\g<n>", s)
    if "int 8" in s or "int 4" in s or "int-8" in s or "int-4" in s:
        s = _sub(SPACED_INT_RE, r"int\g<n>", s)
    if "多" in s:  # round 9: '100 多万条' is over 100 万 (not 万 alone, nor 100 unread)
        s = _sub(MORE_THAN_RE, r"\g<n>\g<u>", s)
    if "位" in s or "bit" in s:
        if " or " in s or "或" in s or "还是" in s or "/" in s:  # '4, 8 or 16-bit' (r35 en): one unit
            s = BIT_LIST_RE.sub(_bit_list, s)
        s = BIT_WIDTH_WORD_RE.sub(_bit_width, s)
    if "grad" in s:
        s = _sub(GRAD_CHECKPOINT_RE, "gradient_checkpointing", s)
    if "num" in s and ("prompt" in s or "request" in s):
        s = _sub(NUM_PROMPTS_RE, r"\g<n> prompts", s)
    if "max" in s and "batch" in s and TENSORRT_LLM_RE.search(s):
        s = _sub(ENGINE_BATCH_RE, r"\g<d>max_num_seqs ", s)
    elif ("--max-batch-size" in s or "--max_batch_size" in s) and serve_batch_flag(s):
        s = ENGINE_BATCH_RE.sub(lambda m: "--max_num_seqs " if m.group("d") == "--" else m.group(0), s)
    if "*" in s and ("=" in s or ":" in s):
        s = PRODUCT_VALUE_RE.sub(lambda m: f"{m.group('k')}{int(m.group('a')) * int(m.group('b'))}", s)
    if ("*" in s or "×" in s) and ("1024" in s or "token" in s):
        s = TOKEN_PRODUCT_RE.sub(_token_product, s)
    if "each" in s:
        s = _sub(EACH_WITH_MEMORY_RE, r"with \g<m>\g<w> each", s)
    if "both" in s and not _TWO_SAID.search(s):  # '2 RTX 4090 … both cards': the count is said already
        s = _sub(BOTH_CARDS_RE, r"2 \g<c>\g<w>", s)
    if "card" in s or "gpu" in s or "卡" in s:
        s = _sub(VENDOR_CARD_RE, r"\g<m> gpu", s)
        s = _sub(VENDOR_CARD_CN_RE, r"\g<m> 的显卡", s)
    if ("node" in s or "machine" in s or "server" in s or "host" in s or "台" in s) and MIXED_NODES_RE.search(
        s
    ):
        s = MIXED_NODES_RE.sub(_mixed_nodes, s)
    if "utilization (" in s:  # round 27 en: vLLM's memory profile line, pasted
        s = VLLM_PROFILE_RE.sub(_vllm_profile, s)
    if "webui" in s or "ooba" in s:  # round 27 en: text-generation-webui's model folders
        s = WEBUI_FOLDER_RE.sub(r"\g<o>/", s)
    if "than" in s and ("max" in s or "context" in s):  # round 27 en: the most an engine let be set
        s = CEILING_SET_RE.sub(r"\g<k>=\g<n>", s)
        s = SET_CEILING_RE.sub(r"\g<k>=\g<n>", s)
    if "r " in s and ("lora" in s or "peft" in s):  # round 27 en: 'peft config is r 16'
        s = BARE_RANK_RE.sub(r"r=\g<n>", s)
    if "-gmu" in s:  # round 27 en: Aphrodite's short flag
        s = GMU_FLAG_RE.sub("--gpu-memory-utilization", s)
    if "precision" in s:  # round 27 en: 'precision 16' (Lightning's and NeMo's trainer.precision)
        s = LIGHTNING_PRECISION_RE.sub(lambda m: f"{m.group('k')}{m.group('sep')}fp{m.group('n')}", s)
    if "每" in s or "each" in s or "every" in s or "per " in s or "one " in s:  # s37-gen: images in a sample
        s = (
            PER_SAMPLE_IMAGES_RE.sub(r" \g<n> images per sample", s)
            if "张" in s or "幅" in s or "ima" in s
            else s
        )
    if "-mixed" in s or "-true" in s:  # s37-gen: Lightning's '16-mixed', '32-true' without their key
        s = LIGHTNING_VALUE_RE.sub(r"fp\g<n>", s)
    if not _COUNT_GATE.search(s):
        return s
    if "=" in s:
        s = _sub(SUM_AFTER_COUNT_RE, r"\g<n>", s)
    s = _sub(NODES_TOTAL_RE, r"\g<m> \g<w> \g<t> over \g<n> nodes", s)
    s = _sub(NUMBER_OF_GPUS_RE, r"number of \g<w>\g<mid>\g<rel> \g<n> \g<w> in total", s)
    return _sub(NUMBER_OF_GPUS_CN_RE, r"\g<mid>\g<rel>总共 \g<n> 张卡", s)


def _vllm_profile(m: re.Match[str]) -> str:
    return f"gpu has a total capacity of {m.group('m')} gib x gpu_memory_utilization={m.group('u')}"


def _sub(pattern: Any, repl: str, s: str) -> str:
    return pattern.sub(repl, s) if pattern.search(s) else s
