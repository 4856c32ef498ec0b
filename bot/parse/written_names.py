"""Names written in ways the name readers did not know (issue 24, round 6), rewritten as names they read.

Each rewrite is one way of writing a card's or a model's name, found on round 6's Chinese working records
and tested on sentences of our own in Chinese and English (tests/test_round6_zh_forms.py; DeepSeek's short
forms 'ds-r1', 'dsv3' were already read, by :data:`bot.parse.normalize._R1_ALONE_RE` and the catalog):

- **An Ascend 910B by its SKU** ('910B3', '910b4', '昇腾 910B2', 'Ascend910B3'): Huawei sells the 910B as
  SKUs 910B1 … 910B4 (the digit is the bin; npu-smi prints it, e.g. 'NPU Name 910B2'); each is an Ascend
  910B, sized on the catalog's card (a memory said beside it is still each card's). Before, '910b4' was an
  unknown card sized on the default A100 and its '910b' read as a 910B-parameter model.
- **An Ascend 910 by its number and memory** ('16 卡 910-64G', '910 64G 的 NPU'): the Ascend 910 card of that
  memory; '910' alone (a number) is left alone.
- **A family and its variant word glued** ('qwen2VL-7b-awq', 'Qwen2.5VL-3B', 'qwen2audio-7b'): the
  released name with its hyphen ('qwen2-vl-7b-awq'), as the model readers know it. Before, 'qwen2' was read
  as another model and the bare size was sized.

- **A project named after DeepSeek-R1** ('X-R1', 'open-r1', 'VLM-R1', 'Datawhale-R1', 'R1-V'; round 12): a
  word joined to 'R1' by a hyphen, other than DeepSeek's own ('deepseek-r1', 'ds-r1'), names a reproduction
  codebase (or a model made with one), never DeepSeek-R1 itself: written as one word ('x-r1' → 'xr1'), so
  neither the catalog's bare 'r1' nor :data:`bot.parse.normalize._R1_ALONE_RE` reads a 671B model in it.
  Before, 'train a 3B model with X-R1' was sized as DeepSeek-R1 (671B) and the 3B named as another setup.

Also one load said in words, not a name: **a single request at a time** ('单并发', '单个并发', '单路请求'):
a concurrency of 1, as '并发 1' reads (before, the count of requests was taken from another number).

And one weight format said as code (s34-gen, issue 24): **a quantize call with its bit width**
('.quantize(4)', 'model.quantize(8)', 'quantize(bits=4)'), as ChatGLM's remote code loads a model at 4 or 8
bits (THUDM/ChatGLM-6B README: ``.half().quantize(4).cuda()``; ``quantize(self, bits: int)`` in
modeling_chatglm.py takes 4 or 8), written 'quantize_int4' / 'quantize_int8' so the precision reader reads
it after any format written as a word (bot.parse.written_settings.name_suffix: '.quantize(4) 能跑了，放得下
int8 吗' asks about int8); two calls in one message: one sized, the other named, as any two formats are;
**a quantizer's weight-bits key** ('--wbits 4' of GPTQ-for-LLaMa and text-generation-webui, 'bits=4' /
'"bits": 4' of AutoGPTQ's BaseQuantizeConfig and quantize_config.json, '"w_bit": 4' of AutoAWQ's
quant_config, 'nbits=4' of HQQ): that integer format; **PyTorch's half()** ('model.half().cuda()':
torch.nn.Module.half casts every floating-point weight to float16): fp16, unless a quantize call beside it
says the weights' format.
"""

from __future__ import annotations

import re

from bot.parse.name_order import (
    DE_SIZE_RE,
    FAMILY_DE_SIZE_RE,
    OF_NOUN_RE,
    SIZE_OF_FAMILY_RE,
    V_VERSION_GATE_RE,
    VERSION_V_RE,
    family_size,
)
from bot.parse.regex import rc
from bot.parse.release_formats import GATE as FORMAT_GATE
from bot.parse.release_formats import format_apart

ASCEND_SKU_RE = rc(
    r"(?<![a-z0-9])(?:(?:昇腾|升腾|华为|ascend|huawei)[\s\-_]*)?910[\s\-]?b[\s\-]?[1-4](?:c)?(?:[\-_]1(?![\d.]))?"
    r"(?![a-z0-9])"
)
"""An Ascend 910B written with its SKU digit ('910B3', '昇腾 910B2', 'ascend910b4'), and the 910B4-1's '-1'
(s50 leftovers #5: its name as typed, never a count of -1)."""
ASCEND_32G_SKU_RE = rc(r"910[\s\-]?b[\s\-]?4$")
"""The 910B4, the SKU with 32 GB of HBM (vllm-project/vllm-ascend issue #129, a maintainer: 'The only
difference is that HBM of 910b4 is 32G'): its own catalog card, Ascend-910B4 (s49-verdict). Not the
910B4-1, a 64 GB part (npu-smi 'HBM-Usage(MB) … / 65536' in Project-HAMi/HAMi-WebUI issue #47): the
'-1' after it is outside the SKU's match, which ends at '4'."""


def _ascend_sku(m: re.Match[str]) -> str:
    """' ascend 910b4 ' for a 910B4 not followed by '-1' (:data:`ASCEND_32G_SKU_RE`; '910B4 1 张' is one
    card), else ' ascend 910b '."""
    four = ASCEND_32G_SKU_RE.search(m.group(0)) and not re.match(r"[\-_]1(?!\d)", m.string[m.end() :])
    return " ascend 910b4 " if four else " ascend 910b "


ASCEND_910_MEMORY_RE = rc(r"(?<![a-z0-9.\-])910(?=[\s\-]*(?:32|64)\s*g(?:b|ib)?(?![a-z0-9]))")
"""'910-64G', '910 64G': the Ascend 910 card with that memory (only 32 or 64 GB follow a 910's name)."""
VENDOR_910_RE = rc(r"(?<![a-z0-9])(?:华为|huawei)[\s\-_]*910(?![a-z0-9.])(?![\s\-][bc](?![a-z]))")
"""'华为 910', 'Huawei 910' (round 7): the Ascend 910 card by its maker's name ('昇腾 910' is the catalog's
own alias); a 910B or 910C by its letter is left to the names above."""
GLUED_VARIANT_RE = rc(
    r"(?<![a-z0-9])qwen[\s\-_]?(?P<v1>vl|audio|coder|math|omni)?[\s\-_]?(?P<ver>\d(?:\.\d)?)(?!\d)"
    r"[\s\-_]?(?P<v2>vl|audio|coder|math|omni)?[\s\-_]?(?=\d+(?:\.\d+)?b\b)"
)
"""'qwen2vl-7b', 'qwen2.5vl-3b', 'Qwen2.5Vl7B', 'Qwenvl2.5VL-7B' (round 7: the variant word before the
version, after it, or both, hyphens left out): a Qwen release with its variant word around its version and
size."""


def _released(m: re.Match[str]) -> str:
    """The released name's head 'qwen<version>-<variant>-' (its size follows), or the text as written when no
    variant word is there ('qwen2.5 7b' is left to the model readers)."""
    variant = m.group("v1") or m.group("v2")
    return f"qwen{m.group('ver')}-{variant}-" if variant else m.group(0)


QWEN_UNDERSCORE_RE = rc(r"(?<![a-z0-9])qwen(?P<major>[12])_(?P<minor>5)(?![0-9])")
"""A Qwen version written with an underscore, as ms-swift's model types and local folders spell it
('Qwen2_5-14B-Instruct', '--model_type qwen2_5', 'qwen1_5'): Qwen2.5, Qwen1.5 (s17, zh11-021: 'qwen2' was
read as another model and the 14B sized as a generic shape)."""


WEIGHT_WIDTH_SUFFIX_RE = rc(r"(?<=[a-z0-9][\-_])w([48])(?:a(?:16|8))?(?![a-z0-9])")
"""A weight width at the end of a model's name, as lmdeploy and vLLM's quantizers name their releases
('turbomind-internlm-chat-20b-w4', 'Qwen2.5-7B-W8A8', 'llama-3-8b_w4a16'): 'w4' alone is 4-bit weights,
written 'w4a16' (so :data:`bot.parse.lexicon.PRECISION_RE` reads int4; 'w8' → 'w8a16', int8). Round 10."""


def _weights_only(m: re.Match[str]) -> str:
    return m.group(0) if "a" in m.group(0) else f"w{m.group(1)}a16"


PROJECT_R1_RE = rc(
    r"(?<![a-z0-9\-])(?!(?:deepseek|ds)-)(?P<w>[a-z][a-z0-9]*)-r1(?![a-z0-9])"
    r"|(?<![a-z0-9\-])r1-(?P<s>v|searcher|onevision)(?![a-z0-9])"
)
"""'x-r1', 'vlm-r1', 'open-r1', 'r1-v': a codebase named after DeepSeek-R1 (see the module docstring)."""


def _project_word(m: re.Match[str]) -> str:
    return f"{m.group('w')}r1" if m.group("w") else f"r1{m.group('s')}"


SINGLE_LOAD_RE = rc(
    r"单\s*(?:个|路)?\s*并发|单\s*路(?=\s*(?:请求|调用|推理))"
    r"|单\s*(?:个|条)?\s*请求(?=\s*(?:的\s*)?(?:decode|解码|生成|推理|输出)?\s*(?:的\s*)?"
    r"(?:速度|延迟|时延|耗时|吞吐|性能|tokens?\s*/\s*s|tps|tok/s))"
)
"""'单并发', '单个并发', '单路请求': one request at a time. Round 26 zh: '单请求' before its speed or latency
('单请求 decode 速度', '单个请求的延迟') is one request at a time too; a request's length or size ('单个请求的
输入长度') is no load."""


TPU_SLICE_RE = rc(
    r"(?<![a-z0-9\-])(?:(?:cloud[\s\-]*)?tpu[\s\-_]*v(?P<g1>[2-6])(?P<k1>e|p|lite(?:pod)?)?-(?P<n1>\d{1,4})"
    r"|v(?P<g2>[2-6])(?P<k2>e|p|lite(?:pod)?)?-(?P<n2>\d{1,4})(?=[\s\-_]*(?:tpus?|pods?)(?![a-z]))"
    r"|v(?P<g3>[56])(?P<k3>e|lite(?:pod)?|p)-(?P<n3>\d{1,4}))(?![\da-z]|\.\d)"
)
"""A Cloud TPU slice by its accelerator type ('TPU v4-8', 'v5e-64 TPU pod', 'v5litepod-8'; round 21): the
number counts TensorCores for v2, v3, v4 and v5p (two a chip) and chips for v5e and v6e (cloud.google.com/
tpu/docs/v4, /v5e, /v5p, /v6e 'accelerator type'), written as that many chips of the version ('4 tpu v4'),
so the catalog's chip is sized at its count (a chip it lacks keeps the slice's name). Before, '-8' was read
as a negative number or the slice named nothing and the default card was sized. Round 39 en: a v5e or v6e
slice bare ('on a v5e-8 (2x4)': those names are TPUs' alone, as v5p's and v5litepod's) and a slice before a
full stop ('on a TPU v5e-8.'; before, the stop kept the slice unread and '-8' was named nonpositive)."""
_CORES_A_CHIP = {"2": 2, "3": 2, "4": 2, "5p": 2}
_CATALOG_CHIPS = frozenset(("4", "5e", "5p"))
"""The TPU chips the catalog has (estimator data: TPU v4, v5e, v5p); another slice keeps its name."""


TOTAL_THEN_PRODUCT_RE = rc(
    r"(?<![\d.])(?P<t>\d{1,5})\s*\(\s*(?P<a>\d{1,4})\s*[*x×]\s*(?P<b>\d{1,4})\s*\)"
    r"(?=\s*(?:\d{1,3}\s*g(?:b|ib)?\s*)?(?:张|块|台)?\s*(?:nvidia\s*)?(?:[a-z]{1,5}\s?\d{2,4}|gpus?\b|cards?\b|卡|显卡))"
)
"""Round 39 en: a count with its product in brackets before the cards ('64 (8*8) 32GB V100s', '16 (2x8)
A100s', '64（8*8）张 V100'): written as the product alone, which the node readers take as nodes × cards each
(before, both numbers were left unread). A product that is not the count ('64 (8*4) V100s') is written as
:func:`unequal_note` before the count, which then stands by its cards (s44 fixread; before, all three were
unread); brackets before no card ('1024 (32x32) pixels') are left as written."""


PRODUCT_NOTE_RE = rc(r"(?<![\d.])(?P<t>\d{1,6})\s*\(\s*(?P<a>\d{1,4})\s*[*x×]\s*(?P<b>\d{1,4})\s*\)")
"""s43 fixread2 (issue 24 item 4): a count with its product in brackets before no card ('global batch 1024
(32x32)', '1024 (32x32) patches'): the product says the count again, so it is written 'a by b', which no
count reader takes (before, '32x32 … on 8 H100' sized 32 GPUs, or '32' became the card's memory). Runs after
:data:`TOTAL_THEN_PRODUCT_RE`, which has taken the brackets before cards; a product that is not the count is
left as written."""


CARDS_THEN_PRODUCT_RE = rc(
    r"(?<![\d.])(?P<t>\d{1,5})(?P<card>\s*(?:张|块)?\s*(?:nvidia\s*)?(?:[a-z]{1,5}\s?\d{2,4}s?|gpus?|cards?|卡|显卡))"
    r"\s*\(\s*(?P<a>\d{1,4})\s*(?:nodes?|machines?|servers?|hosts?|台)?\s*[*x×]\s*(?P<b>\d{1,2})"
    r"\s*(?:gpus?|cards?|卡)?\s*(?:each|per\s+node)?\s*\)"
)
"""s43 fixread2: the cards' count, then its product in brackets ('1024 H100s (128 nodes x 8)', '16 A100
(2x8)'): the brackets are nodes × cards each, written as the node readers know them ('(128 nodes x 8
gpus)'); before, both numbers were unread or dropped. A product that is not the count is written as
:func:`unequal_note` (s44 fixread)."""


def unequal_note(a: str, b: str) -> str:
    """s44 fixread (issue 24 item 1): a product in brackets beside the cards' count that is not the count
    ('16 A100 (4x8)': 4 × 8 = 32 ≠ 16), written '(4x8 unequal)', which no count reader takes (a number glued
    to 'x' is no quantity): the count stated is sized, and :func:`unequal_products` names the product as not
    used; before, both factors were dropped in silence. A product whose first factor is the count ('4 A100
    (4x40)': each card's memory, likely) is no such product: left as written."""
    return f"({a}x{b} unequal)"


_NODE_WORDS = r"nodes?|machines?|servers?|hosts?|台"
UNEQUAL_NOTE_RE = rc(r"\((?P<a>\d{1,4})x(?P<b>\d{1,4}) unequal\)")
"""The note :func:`unequal_note` writes."""


def unequal_products(s: str, raw: str) -> list[tuple[str, str]]:
    """Each product of :func:`unequal_note` in the normalized text ``s``, as typed in ``raw`` ('4x8', '8*4',
    '8 × 4'), with the reason ``product_not_count``: a (text, reason) pair of ``interpretation.ignored``."""
    out = []
    for m in UNEQUAL_NOTE_RE.finditer(s):
        typed = re.search(rf"(?<!\d){m['a']}\s*(?:{_NODE_WORDS})?\s*[*xX×]\s*{m['b']}(?!\d)", raw)
        out.append((typed.group(0) if typed else f"{m['a']}x{m['b']}", "product_not_count"))
    return out


def _cards_then_product(m: re.Match[str]) -> str:
    a, b, t = m.group("a"), m.group("b"), m.group("t")
    if int(a) * int(b) != int(t):  # '4 A100 (4x40)': the count times each card's memory, left as written
        return m.group(0) if a == t else f"{t}{m.group('card')} {unequal_note(a, b)}"
    return f"{t}{m.group('card')} ({a} nodes x {b} gpus)"


def _total_then_product(m: re.Match[str]) -> str:
    a, b, t = m.group("a"), m.group("b"), m.group("t")
    if int(a) * int(b) == int(t):
        return f"{a}*{b}"
    return m.group(0) if a == t else f"{unequal_note(a, b)} {t}"  # the count by its cards


def _product_note(m: re.Match[str]) -> str:
    a, b, t = m.group("a"), m.group("b"), m.group("t")
    return f"{t} ({a} by {b})" if int(a) * int(b) == int(t) else m.group(0)


QUANTIZE_CALL_RE = rc(r"(?<![a-z0-9_])\.?\s*quantize\s*\(\s*(?:bits\s*=\s*)?(?P<b>[48])\s*\)")
"""A quantize call with its width as its one argument ('.quantize(4)', 'quantize(bits=8)'): that integer
format; another argument ('quantize(model, 4)', 'quantize(3)') is no width the call takes."""
WEIGHT_BITS_RE = rc(
    r"(?<![a-z0-9_])(?:-{1,2}wbits\s*=?\s*|[\"']?(?:w_?bits?|n_?bits|num_bits|bits)[\"']?\s*[=:]\s*)"
    r"(?P<b>[2348])(?![\d.])"
)
"""A quantizer's weight-bits key and its value ('--wbits 4', 'bits=4', '"bits": 4', '"w_bit": 4',
'nbits=4'); a key of another thing's bits ('kv_bits=8', 'act_bits', 'abits') is none (a letter or '_'
before 'bits')."""
HALF_CALL_RE = rc(r"(?<=[a-z0-9_)\]])\.(?P<t>half|float|bfloat16)\(\s*\)")
"""PyTorch's ``.half()`` on a model or a tensor ('model.half()', 'from_pretrained(…).half()'); round 33 zh:
``.float()`` casts to float32, ``.bfloat16()`` to bfloat16 (torch.nn.Module.float / .bfloat16), so
'from_pretrained(...).float()' (CPU serving of ChatGLM-6B, its README) is fp32."""
_CAST = {"half": " fp16 ", "float": " fp32 ", "bfloat16": " bf16 "}


def _slice_chips(m: re.Match[str]) -> str:
    gen = m.group("g1") or m.group("g2") or m.group("g3")
    kind = (
        (m.group("k1") or m.group("k2") or m.group("k3") or "").replace("litepod", "e").replace("lite", "e")
    )
    n = int(m.group("n1") or m.group("n2") or m.group("n3"))
    if gen + kind not in _CATALOG_CHIPS:  # 'Cloud TPU v3-256': no chip of the catalog, named as typed
        return m.group(0) if not m.group("g3") else f" tpu {m.group(0)} "  # a bare 'v6e-4' is a TPU too
    per_chip = _CORES_A_CHIP.get(gen + kind if kind == "p" else gen, 1)
    return f" {max(1, n // per_chip)} tpu v{gen}{kind} "


def written_names(s: str) -> str:
    """The normalized text ``s`` with the names of the module docstring written as the readers know them.
    Gated on cheap substring tests: most messages have none of these forms."""
    if "tpu" in s or "v5lite" in s or "v5p-" in s or "v5e-" in s or "v6e-" in s:  # the v5/v6 names: TPUs'
        s = TPU_SLICE_RE.sub(_slice_chips, s)
    if "(" in s and ("*" in s or "x" in s or "×" in s):
        s = TOTAL_THEN_PRODUCT_RE.sub(_total_then_product, s)
        s = CARDS_THEN_PRODUCT_RE.sub(_cards_then_product, s)
        s = PRODUCT_NOTE_RE.sub(_product_note, s) if "(" in s else s  # the cards' brackets are gone
    if "910" in s:
        s = ASCEND_SKU_RE.sub(_ascend_sku, s)
        s = ASCEND_910_MEMORY_RE.sub("ascend 910", s)
        s = VENDOR_910_RE.sub(" ascend 910 ", s)
    if "qwen" in s:
        s = GLUED_VARIANT_RE.sub(_released, s)
        s = QWEN_UNDERSCORE_RE.sub(r"qwen\g<major>.\g<minor>", s) if "_5" in s else s
    if "r1" in s:
        s = PROJECT_R1_RE.sub(_project_word, s)
    if "单" in s:
        s = SINGLE_LOAD_RE.sub(" 并发 1 ", s)
    if "w4" in s or "w8" in s:
        s = WEIGHT_WIDTH_SUFFIX_RE.sub(_weights_only, s)
    if "quantize" in s:  # '.quantize(4)': int4 (s34-gen)
        calls = QUANTIZE_CALL_RE.search(s) is not None
        s = QUANTIZE_CALL_RE.sub(r" quantize_int\g<b> ", s) if calls else s  # read after a written format
        s = HALF_CALL_RE.sub(" ", s) if calls and ("half(" in s or "float" in s) else s  # the call's format
    if "half(" in s or "float(" in s or "bfloat16(" in s:
        s = HALF_CALL_RE.sub(lambda m: _CAST[m.group("t")], s)
    if "bits" in s or 'bit"' in s or "bit'" in s or "bit=" in s or "bit:" in s:
        s = WEIGHT_BITS_RE.sub(r" int\g<b> ", s)
    if "params" in s or "total param" in s or "of param" in s or "trainable param" in s:  # 'all params:
        from bot.parse.param_logs import param_logs

        s = param_logs(s)  # 6,742,609,920', 'n_params=6.66e+09' (round 14, bot.parse.param_logs)
    if " of " in s and OF_NOUN_RE.search(s):  # 'the 70b version of llama 3.1' (round 14, name_order)
        s = SIZE_OF_FAMILY_RE.sub(family_size, s)
    if "的" in s and ("版本" in s or "模型" in s or "型号" in s or "规格" in s) and DE_SIZE_RE.search(s):
        s = FAMILY_DE_SIZE_RE.sub(family_size, s)
    if ("-v" in s or " v" in s or "_v" in s) and V_VERSION_GATE_RE.search(s):
        s = VERSION_V_RE.sub(r"\g<fam>\g<ver>", s)  # 'llama-v3.1-8b-chat'
    if FORMAT_GATE.search(s):  # 'kimi-k2.6-nvfp4': the model and its weight format (s20)
        s = format_apart(s)
    return s


BARE_RTX_6000_RE = rc(
    r"(?<![a-z0-9])(?<!quadro )(?<!pro )rtx[\s\-]?6000(?![\s\-]*(?:ada|pro|blackwell|turing|\d))"
)
"""A bare 'RTX 6000' (no Ada, PRO, Turing, Quadro nor memory): the RTX 6000 Ada, said (s35-fixa #5)."""


def card_sku(raw: str, gpu: str | None) -> str | None:
    """The Ascend 910B SKU as typed in the message ``raw`` ('910B2', 'Ascend910B3') when the card sized
    (``gpu``) is the 910B it was read as, or a bare 'RTX 6000' read as the RTX 6000 Ada Generation (also
    the Turing Quadro RTX 6000's name), for the reply to say so (``card_sku`` substitution); else None."""
    if gpu == "RTX-6000-Ada" and "6000" in raw:
        bare = BARE_RTX_6000_RE.search(raw.lower())
        return raw[bare.start() : bare.end()].strip() if bare else None
    if gpu != "Ascend-910B" or "910" not in raw:
        return None
    m = ASCEND_SKU_RE.search(raw.lower())
    return raw[m.start() : m.end()].strip() if m else None
