"""Step 1 of the parse: one normalized, lower-case string, with names masked later in place.

NFKC (full-width → ASCII), keycap digits, no zero-width/bidi/control characters, Traditional →
Simplified key words, lower case, common typos, markup removed; prompt-injection sentences dropped;
very long pasted input reduced to its prose (head and tail); powers of ten written out.
"""

from __future__ import annotations

import re
import unicodedata

from bot.later_names import card_variants, kilobytes_as_gib, notebook_gpus, x_is_name
from bot.parse import lexicon as lx
from bot.parse import spelling_tables as sp
from bot.parse.abbrev import expand_abbreviations
from bot.parse.atlas_servers import atlas_servers
from bot.parse.card_first import CARD_FIRST_RE, card_first
from bot.parse.chat_forms import chat_forms
from bot.parse.count_forms import count_forms
from bot.parse.followup_words import drop_change_verbs
from bot.parse.hardware_specs import without_specs
from bot.parse.host_forms import card_memory_keys
from bot.parse.instances import spell_out_instances
from bot.parse.more_tools import glued_tool_names
from bot.parse.numbers import parse_number
from bot.parse.phrasing_zh import read_zh_phrasing
from bot.parse.plain_forms import COUNT_RE as CN_COUNT_RE
from bot.parse.plain_forms import FULL_LENGTH_RE, arabic_counts, in_thousands
from bot.parse.plural_cards import plural_cards
from bot.parse.prose_forms import read_prose_forms
from bot.parse.recompute_words import recompute_phrases
from bot.parse.regex import compile_pattern, rc
from bot.parse.setting_verbs import read_setting_verbs
from bot.parse.token_latency import per_token_time
from bot.parse.trad_chars import TRAD_RE, simplified_char, tw_words
from bot.parse.typo_words import SPACES, TYPOS, without_typos
from bot.parse.unit_cues import POWER
from bot.parse.whitespace import LONG_RUN_RE, squeeze_whitespace
from bot.parse.worked_sums import results_of_sums
from bot.parse.written_names import written_names
from bot.parse.written_units import written_units
from bot.parse.written_values import written_values
from bot.textclean import placeholder
from estimator.later import later

(sci_plus,) = later("bot.parse.sci_numbers", "sci_plus")  # on first call (s48-startup)

LONG_INPUT_CHARS = 3000
"""Above this, pasted data lines are dropped and only the head and tail of the text are parsed."""
HEAD_CHARS, TAIL_CHARS = 1000, 3000

GPU_MARK = "\ue000"  # a catalog GPU was here
UNKNOWN_GPU_MARK = "\ue002"  # a GPU-like name not in the catalog was here
MODEL_MARK = "\ue001"  # a model name was here
MARKS = GPU_MARK + UNKNOWN_GPU_MARK


_KEYCAP_RE = rc("([0-9#*])\ufe0f?\u20e3")
_DROP_CATEGORIES = {"Cc", "Cf", "Co", "Cs"}
_KEEP_CONTROLS = {"\n", "\t"}
_TAG_RE = rc(r"<[^<>\n]{0,80}>")
_MARKUP_RE = rc(r"[*`#\[\]【】{}\"“”‘’|]|(?<![a-z0-9])_+|_+(?![a-z0-9])")
_TIMES_GLUED_RE = rc(r"[x×*](?<=\s[x×*])(?<!mtt\sx)(?<!线程\sx)(\d{1,5})(?![\d.]|,\d|\s*[kmbt](?![a-z]))")
r"""A count glued after x/×/* that follows white space ('a100 x8'). The look-behind comes after the first
character (it reads the same two characters as ``(?<=\s)[x×*]``), so the engine scans for that character
in C instead of trying the look-behind at every position (~3 µs a corpus message). Round 22 zh: Moore Threads'
X300 after its maker's name ('摩尔线程 X300', 'MTT X300') is that card, not 'x 300'."""
_CARD_TIMES_RE = re.compile(r"(?<![a-z0-9])(?!mi\d)([a-z]{1,4}\d{2,4}[a-z]?)x(\d{1,3})(?![\w.])")
r"""Round 20: a count glued after a card's name and an x ('on A100x8', 'H100x4'): the card, then ' x N' as
'A100 x 8' is read (an AMD 'MI300x' keeps its x: ``(?!mi\d)``)."""
_COUNT_TIMES_RE = re.compile(r"(?<![\w.])(\d{1,4})x(?=[a-z]{1,4}\d{2,4}[a-z]?(?![\w.]))")
"""Round 20: a count glued to x and a card's name ('4xMI50', '8xA100'): a space after the x, so a card
outside the catalog is read as typed ('4x mi50'; its name reader wants no letter before it)."""
_ZERO_INFINITY_RE = rc(r"\bzero[\s\-_]*(?:3[\s\-_]*|stage[\s\-_]*3[\s\-_]*)?infinity\b")
"""Round 20: DeepSpeed's ZeRO-Infinity is ZeRO stage 3 with the parameters and optimizer states offloaded
to CPU and NVMe memory (Rajbhandari et al., "ZeRO-Infinity", SC21 §5; deepspeed.ai/tutorials/zero
'ZeRO-Infinity'): read as the ZeRO-3 offload it is ('zero-3 nvme offload')."""
_CARD_UNDERSCORE_RE = re.compile(
    r"(?<![a-z0-9_])(?:(?:rtx|gtx)_\d{4}(?:_(?:ti|super|d))?"
    r"|[a-z]{0,2}\d{2,4}[a-z]?(?:_(?:ti|super|sxm\d?|pcie|nvl|\d{2,3}\s?g(?:i?b)?))+)(?![a-z0-9_])"
)
"""A card's name joined by underscores as in a file or variable name ('4090_ti', 'rtx_4090', 'a100_80g',
'h100_sxm'; s39 fixw #3): read with hyphens, as 'rtx-4090-ti' is, so the card (or the unknown card, named
as typed) is read, never a bare '4090' left unused. A model's ('qwen2_5_7b', 'llama3_70b') is not one: no
card suffix follows."""
_GLUED_X = (
    _CARD_TIMES_RE,
    _COUNT_TIMES_RE,
    re.compile(r"x(?:\d|(?<=\dx)[a-z])"),
)  # in a table: C searches, never rebound (bot.parse.first_chars)
"""The two patterns, then their cue: an x before a digit (``_CARD_TIMES_RE``) or between a digit and a
letter (``_COUNT_TIMES_RE``; the first's rewrite adds none where it found nothing). It starts with the
literal 'x': the engine finds the x's in C, where the two try their letters and digits at every letter
(12,473 characters: ~0.7 ms → ~0.02 ms)."""
_ASCEND_GENERATION_RE = rc(r"(?<![a-z0-9\-])(?<!ascend\s)(?<!800\s)(?<!800[it]\s)(a[23])(?![a-z0-9\-])")
"""Round 20: Huawei's A2 / A3 generation said alone in a message about Ascend ('on an A3 with vllm-ascend'):
marked (:data:`ASCEND_GENERATION_MARK`), so it is named as typed as 'Ascend A3' is (bot.parse.lexicon),
never an A100 (en17-004 was sized on an A100 in silence)."""
ASCEND_GENERATION_MARK = "\ue003"
_ASCEND_CUE_RE = rc(r"ascend|昇腾|mindie|\bnpus?\b")
_WORD_RE = rc(r"[a-z][a-z\-]*[a-z]\.?")
_DATA_LINE_RE = rc(r'^\s*(?:[{\[<|]|"[^"]{0,40}"\s*:|\w+\s*[:=]\s*\S+\s*[,;]\s*\w+\s*[:=])')


_EAGLE_RE = rc(r"(?<![a-z])eagle[\s\-]?(\d)(?!\d)")
"""EAGLE-1/2/3, the speculative-decoding drafts (Li et al. 2024, 2025): one word, its digit no number."""
_R1_DISTILL_RE = rc(
    r"(?<![a-z0-9])r1[\s\-]*(?:的\s*)?(?:蒸馏版?(?:模型|本)?|distill(?:ed)?(?:[\s\-]+(?:version|model))?(?:\s+of)?)"
    r"[\s\-]*(?=\d+(?:\.\d+)?\s*b(?![a-z]))"
)
"""'r1 蒸馏版 32b', 'r1 distilled 32b', 'r1-distill 32b': DeepSeek-R1's distilled model of that size
('deepseek-r1 32b', 'r1 32b' and 'deepseek-r1:32b' are catalog aliases of DeepSeek-R1-Distill-Qwen-32B)."""


def _x_then_count(m: re.Match[str]) -> str:
    """``r"x \\1"`` as a function: a template string makes ``re`` run its Python helper (``re._subx``) on
    every call, matched or not; a function runs only on a match (group 1 always takes part). A card's
    model name ('an X9000 GPU': :func:`bot.parse.x_card_name.x_is_name`) stays whole (s42)."""
    return m.group(0) if x_is_name(m) else "x " + m.group(1)


def _card_x_count(m: re.Match[str]) -> str:
    """``r"\\1 x \\2"`` as a function (see :func:`_x_then_count`)."""
    return m.group(1) + " x " + m.group(2)


def _count_x(m: re.Match[str]) -> str:
    """``r"\\1x "`` as a function (see :func:`_x_then_count`)."""
    return m.group(1) + "x "


def _key_then_space(m: re.Match[str]) -> str:
    """``r"\\1 "`` as a function (see :func:`_x_then_count`): the key (group 1 or 2) and a space."""
    return (m.group(1) or m.group(2)) + " "


BARE_COMMA = (
    compile_pattern(
        r",(?:(?=[\u3000-\u9fff])|(?<=[\u3000-\u9fff],)(?=\S)"
        r"|(?<=\d{4},)(?=\d)|(?<=\d{3},)(?=\d{1,2}(?!\d))"
        r"|(?<=\d,)(?=\d{4}|\d{1,2}\s?(?:台|张|块|卡|个|条|节点|机|万|千|亿)))"
    ),
)
"""An ASCII comma written with no space after it that is no thousands separator (s37, issue 24): beside a
Chinese character ('DPO,3万对', '数据,4张A100'), or between digit runs that are not groups of three
('8200,10 个', '128,16 卡', '1,2345', 'bs=1,4 台'): read as ', ', as the full-width '，' is. '1,000' and
'10,000,000' stay numbers; a list of one- or two-digit ids ('CUDA_VISIBLE_DEVICES=0,1,2,3') stays a list.
In a tuple: a module global gets a presence gate (bot.parse.module_gates), a Python frame a message; a
``','`` in the text is its gate. s42-tail: every branch starts at the comma (each look-behind reads the
comma too, so it tests what ``(?<=X),`` did), so the engine scans for ',' in C instead of trying five
branches at every position (a 12,000-character pasted sample: two subs, ~1.07 ms CPU before)."""


def normalize(text: str) -> str:
    """NFKC, keycap digits, drop invisible/control characters, Traditional → Simplified, lower case;
    white-space runs over 64 characters squeezed (:func:`bot.parse.whitespace.squeeze_whitespace`)."""
    text = squeeze_whitespace(text) if LONG_RUN_RE.search(text) else text
    s = _KEYCAP_RE.sub(r"\1", text) if "\u20e3" in text else text  # every keycap ends in U+20E3
    s = s.replace("，", ", ").replace("、", ", ")  # keep "1,000" but not "8，128" as a number
    wide = not s.isascii()  # O(1) in CPython: an ASCII text is NFKC already, has no Traditional nor CJK
    s = unicodedata.normalize("NFKC", s) if wide else s
    s = BARE_COMMA[0].sub(", ", s) if "," in s else s  # s37: '数据,4张' as '数据, 4张'
    if not s.replace("\n", "").replace("\t", "").isprintable():  # printable: no Cc/Cf/Co/Cs to drop
        s = "".join(
            ch for ch in s if ch in _KEEP_CONTROLS or unicodedata.category(ch) not in _DROP_CATEGORIES
        )
    s = plural_cards(s)  # 'V100s': plural, not the V100S (s14)
    if wide:  # Traditional: the commonest characters, every other the parser reads, Taiwan's words (s37)
        simp, traditional = TRAD_RE.subn(simplified_char, t := s.translate(sp.TRAD_TO_SIMP))
        s = (tw_words(simp) if traditional or t != s else simp).lower().replace("\ufe0f", "")
    else:
        s = s.lower()
    s = spell_out_instances(s)  # 'g5.48xlarge': its 8 x A10G
    s = sci_plus(s) if "e+" in s else s  # s43 fixread2: '2.5e+3 steps' is 2500, not 3
    s = notebook_gpus(s) if "colab" in s or "kaggle" in s else s  # s31: 'free colab t4' is 1 x t4
    if wide:  # the typos, the rental terms: Chinese words (s34: an English message skips the loop)
        for wrong, right in sp.CN_TYPOS.items():
            s = s.replace(wrong, right)
        s = sp.CN_RENTAL_RE.sub(lambda m: sp.CN_RENTAL_TERMS[m.group(1)], s) if "包" in s else s
    if "1o" in s or "10o" in s:  # every match of GPU_O_FOR_ZERO_RE: [ahv]1 then 'o' or '0o'
        s = sp.GPU_O_FOR_ZERO_RE.sub(lambda m: m.group(1) + "100", s)
    if "_" in s and (  # a card suffix, rtx_/gtx_, or a memory size ('_80g'); not '_h100_' (markdown)
        "_ti" in s
        or "_super" in s
        or "_sxm" in s
        or "_pcie" in s
        or "_nvl" in s
        or "rtx_" in s
        or "gtx_" in s
        or "_1" in s
        or "_2" in s
        or "_3" in s
        or "_4" in s
        or "_5" in s
        or "_6" in s
        or "_7" in s
        or "_8" in s
        or "_9" in s
    ):
        s = _CARD_UNDERSCORE_RE.sub(lambda m: m.group(0).replace("_", "-"), s)  # s39 fixw #3: '4090_ti'
    s = _TIMES_GLUED_RE.sub(_x_then_count, s)  # "A100 x8": the count after the card, as in "A100 x 8"
    if "x" in s and _GLUED_X[2].search(s):  # round 20: "A100x8" as "A100 x 8", "4xMI50" as "4x MI50"
        s = _GLUED_X[1].sub(_count_x, _GLUED_X[0].sub(_card_x_count, s))
    s = _ZERO_INFINITY_RE.sub("zero-3 nvme offload", s) if "infinity" in s else s  # round 20
    if ("a2" in s or "a3" in s) and _ASCEND_CUE_RE.search(s):  # round 20: 'an A3' beside vllm-ascend
        s = _ASCEND_GENERATION_RE.sub(ASCEND_GENERATION_MARK + r"\1", s)
    s = _EAGLE_RE.sub(r"eagle\1", s) if "eagle" in s else s  # s43 #4: EAGLE-3 a name, no number
    s = _R1_DISTILL_RE.sub("r1 ", s)  # "deepseek r1 蒸馏版 32b": the distilled model of that size
    s = recompute_phrases(s)  # '全量重计算', 'full recompute': the recompute mode, not the method (s14)
    s = s.replace("k/v cache", "kv cache").replace("k/v 缓存", "kv 缓存") if "k/v " in s else s  # round 36
    s = _BARE_KV_RE.sub(r"kv cache type \g<t>", s) if "k/v" in s or "kv" in s else s  # round 37
    s = _BENCH_LABEL_RE.sub(_bench_words, s) if "llama-bench" in s or ("tg" in s and "/s" in s) else s
    s = _BIT_LIST_RE.sub(_bits_each, s) if "lora" in s and ("bit" in s or "比特" in s) else s  # s41
    s = _WPS_RE.sub(r"\g<v> tokens/s per gpu", s) if "wps" in s else s  # round 36: torchtitan's log
    s = _VARIANT_SIZE_RE.sub(r"\g<f> \g<b> \g<v>", s) if "instruct " in s or "chat " in s else s  # round 36
    s = card_memory_keys(s) if "memory" in s and "=" in s else s  # s37-rev: 'a GPU with memory = 24GB'
    if "预填充" in s or "解码" in s or "prefill" in s or "decode" in s:  # s48 round 44 ('解码 512')
        s = _PHASE_LEN_RE.sub(lambda m: "输入 " if m["p"] else "输出 ", s)
    if "xtuner" in s and "_e" in s and "epoch" not in s:  # s48 round 44: 'xtuner train …_e3'
        s = _XTUNER_EPOCHS_RE.sub(r"\g<0> (\g<e> epochs)", s)
    s = results_of_sums(s) if "=" in s else s  # round 19: 'bs 19200/24=800' is 800
    if not typo_word_in(s):  # no typo stands as a word: no word to fix
        return s
    return _WORD_RE.sub(_fix_typo, s)


_PHASE_LEN_RE = rc(
    r"(?<![a-z])(?:(?P<p>预填充|prefill)|解码|decode)(?:\s*(?:长度|阶段|length|len)(?![a-z]))?"
    r"(?=\s*[:：=]?\s*\d[\d,.]*\s*k?(?![\d.,])(?!\s*(?:/|每秒|per\b|tok(?:en)?s?\s*(?:/|每秒|per\b)|t/s)))"
)
"""Session 48 (round 44 zh): a benchmark's phase lengths ('预填充 2048、解码 512', 'prefill 2048, decode
512'): the prefill is the prompt and the decode the output, as a serving benchmark's input and output lengths
(MLPerf and vendor case pages: 'Prefill seq 1024, Decode seq 256'), written '输入' / '输出' so the prompt and
output readers take them; a rate ('解码 30 tokens/s', 'decode 45 tok/s') is no length and is left as it is."""
_XTUNER_EPOCHS_RE = rc(r"(?<![\w.\-/])[a-z][a-z0-9_.\-]*_e(?P<e>\d{1,2})(?![\w\-])(?!\s*\(\d)")
"""Session 48 (round 44 zh): an XTuner config's name ends in its epochs ('internlm2_chat_7b_qlora_oasst1_e3':
``max_epochs = 3`` in xtuner/configs/*/*_e3.py), read only in a message that names XTuner and written out
after the name ('… _e3 (3 epochs)') for the epochs reader."""
_BARE_KV_RE = re.compile(
    r"(?<![a-z0-9_])(?P<t>q8_0|q4_0|q4_1|q5_0|q5_1|iq4_nl)\s+(?:k/v|kv)(?![a-z0-9/_])(?!\s*(?:cache|缓存))"
)
"""Round 37 (en37-022): a llama.cpp KV type written before a bare 'K/V' or 'KV', no cache word ('with q8_0
K/V', 'q4_0 KV'): the cache's type for K and V, as llama.cpp's ``--cache-type-k``/``-v`` take it
(common/arg.cpp ``kv_cache_types``), written 'kv cache type q8_0' for bot.parse.kv_cache_types; before, it
was left unread or taken as the weights' format."""
_BENCH_LABEL_RE = re.compile(r"(?<![a-z0-9])(pp|tg)(\d{2,6})(?![\d.@a-z])")
"""llama-bench's test labels (examples/llama-bench: 'pp512' processes a 512-token prompt, 'tg128'
generates 128 tokens), read only in a message that names llama-bench or writes a 'tgN' label beside a rate
per second."""


def _bench_words(m: re.Match[str]) -> str:
    """A llama-bench label in words ('pp512': '512-token prompt processing', 'tg128': '128-token
    generation'), so the figure after it is a speed measured, and 'pp512' no pipeline-parallel degree of 512
    (round 36)."""
    return f"{m.group(2)}-token " + ("prompt processing" if m.group(1) == "pp" else "generation")


_BIT_LIST_RE = re.compile(
    r"(?<![\w.])(?P<list>(?:\d{1,2}\s*(?:-?\s*(?:bit|比特))?\s*(?:,|，|、|/|\bor\b|\band\b|或者?|和)\s*)+)"
    r"(?P<last>\d{1,2})\s*-?\s*(?:bit|比特)s?\s*(?:的\s*)?(?P<m>q?lora)(?![a-z])"
)
"""Bit widths listed before one LoRA ('4, 8 or 16-bit LoRA', '4/16-bit lora', '4、8 或 16 比特的 LoRA'):
each width is a LoRA of its own, the base held at that width (4-bit: QLoRA, arXiv:2305.14314), so the
methods reader sees one option each (s41-workmiss, issue 24 item 4; round 35 en)."""
_BITS = frozenset({"2", "3", "4", "8", "16", "32"})


def _bits_each(m: re.Match[str]) -> str:
    """'4, 8 or 16-bit lora' → '4-bit lora, 8-bit lora or 16-bit lora'; a list of other numbers as it was."""
    widths = [*re.findall(r"\d{1,2}", m.group("list")), m.group("last")]
    before = m.string[max(0, m.start() - 12) : m.start()]  # 'rank 8 or 16-bit lora': a rank, then a width
    if not set(widths) <= _BITS or len(set(widths)) < 2 or re.search(r"rank|[a-z_]\s*[=:]\s*$|秩", before):
        return m.group(0)
    each = [f"{w}-bit {m.group('m')}" for w in widths]
    return ", ".join(each[:-1]) + " or " + each[-1]


_WPS_RE = re.compile(
    r"(?<![a-z])wps\s*(?:[:=]|of|is|was)?\s*(?:about\s+|around\s+|~\s*)?(?P<v>\d[\d,]*(?:\.\d+)?)(?![\d.])"
)
"""torchtitan's training log 'wps' (tokens per second on each GPU, torchtitan/train.py's metrics): 'wps 109',
'wps: 3,500' read as that many tokens/s per GPU."""

_VARIANT_SIZE_RE = re.compile(
    r"(?<![a-z0-9\-])(?P<f>mistral|mixtral|llama[\s\-]?[23](?:\.[0-9])?|llama|qwen[0-9.]*|gemma[\s\-]?[0-9]?|vicuna"
    r"|falcon|yi|baichuan[0-9]?|internlm[0-9.]*|deepseek|codellama|code\s?llama)"
    r"[\s\-]+(?P<v>instruct|chat)[\s\-]+(?P<b>\d+(?:\.\d+)?b)(?![a-z0-9])"
)
"""Round 36 en: a release's variant word between its family and its size ('Mistral Instruct 7B', 'Llama Chat
13B'), written as the release is named ('mistral 7b instruct'), so the family and size are one model."""

_LETTER_RUN_RE = rc(r"[a-z]+")
_LETTER_TYPOS = frozenset(t for t in sp.TYPOS if t.isascii() and t.isalpha())
"""The typos that are ASCII letters only (all but 'fine-tuen'): one stands with no ASCII letter on either
side exactly when it is a whole run of ASCII letters of the text."""
_OTHER_TYPO_RE = rc(
    r"(?<![a-z])(?:"
    + "|".join(re.escape(t) for t in sorted(set(sp.TYPOS) - _LETTER_TYPOS, key=len, reverse=True))
    + r")(?![a-z])"
)
"""The other typos (with a hyphen), with no ASCII letter on either side."""


def typo_word_in(s: str) -> bool:
    """``_TYPO_WORD_RE.search(s) is not None`` (what :func:`_typo_word_in` says): the text's runs of ASCII
    letters, found in one C call, against the letter-only typos (a set), then the few others. The search
    of the whole alternation starts with a look-behind, so the engine tried every typo at every position
    (~9 µs a corpus message; this: ~2 µs)."""
    if not _LETTER_TYPOS.isdisjoint(_LETTER_RUN_RE.findall(s)):
        return True
    return len(_LETTER_TYPOS) < len(sp.TYPOS) and _OTHER_TYPO_RE.search(s) is not None


_TYPO_WORD_RE = rc(
    r"(?<![a-z])(?:" + "|".join(re.escape(t) for t in sorted(sp.TYPOS, key=len, reverse=True)) + r")(?![a-z])"
)
"""A typo of :data:`sp.TYPOS` with no ASCII letter on either side: found exactly when
:func:`_typo_word_in` is true (the search tries every position and every typo there), in one C call
instead of ~60 substring tests and a Python loop."""


def _typo_word_in(s: str) -> bool:
    """Whether a typo of :data:`sp.TYPOS` stands in ``s`` with no ASCII letter on either side: what
    :func:`_fix_typo` needs to change a word (a whole word, or one hyphenated part of one, is such a
    run). 'lama' inside 'llama' or 'ful' inside 'full' is no typo: no word is visited then (the
    per-word pass costs ~1 µs a word; a Llama question has ~20 words, a pasted sample thousands)."""
    for typo in sp.TYPOS:
        at = s.find(typo)
        while at >= 0:
            end = at + len(typo)
            before = s[at - 1] if at else " "
            after = s[end] if end < len(s) else " "
            if not ("a" <= before <= "z" or "a" <= after <= "z"):
                return True
            at = s.find(typo, at + 1)
    return False


def _fix_typo(m: re.Match[str]) -> str:
    """A misspelt word fixed ('lroa' → 'lora'), each part of a hyphenated name too ('deepseak-v3',
    'qwne-coder'); a trailing full stop is kept."""
    word = m.group(0)
    if word in sp.TYPOS:
        return sp.TYPOS[word]
    core = word.rstrip(".")
    return "-".join(sp.TYPOS.get(part, part) for part in core.split("-")) + word[len(core) :]


def _reduce_long(text: str) -> tuple[str, bool]:
    """Drop pasted data lines (JSON, tables, logs) from a long message; keep head and tail."""
    if len(text) <= LONG_INPUT_CHARS:
        return text, False
    lines = [ln for ln in text.splitlines() if ln.strip() and not _DATA_LINE_RE.match(ln)]
    s = "\n".join(lines)
    if len(s) > HEAD_CHARS + TAIL_CHARS:  # no word or number cut in two at either end (s26 trial #18)
        s = _CUT_END_RE.sub("", s[:HEAD_CHARS]) + "\n" + _CUT_START_RE.sub("", s[-TAIL_CHARS:])
    return s, True


_CUT_END_RE = rc(r"[A-Za-z0-9.,_\-]+$")
_CUT_START_RE = rc(r"^[A-Za-z0-9.,_\-]+")
"""A Latin word or number at the head's end / the tail's start of a long message cut in two ('… 300' of
'300M tokens'): dropped, not read as a number no word names (s26 trial #18: 'Not used: “300” (no word said
what it is)')."""


_SENTENCE_SPLIT_RE = rc(r"(?<=[。!?！？\n])|(?<=\.)(?=\s)|(?<=:)(?=\s*问题)|(?<=问题:)")


def _strip_injection(s: str) -> str:
    if not lx.INJECTION_RE.search(s):
        return s
    parts = _SENTENCE_SPLIT_RE.split(s)
    return "".join(p for p in parts if not lx.INJECTION_RE.search(p))


def _power(m: re.Match[str]) -> str:
    """'10^40' → '1e40', '1.5×10^12' keeps its mantissa via the caller's text ('1.5 1e12' → handled below)."""
    base, exp = float(m.group(1)), int(m.group(2))
    if base == 10:
        return f" 1e{exp}"
    try:
        return f" {base**exp:g}"
    except OverflowError:
        return " 1e999"


_MANTISSA_POWER_RE = rc(r"(\d+(?:\.\d+)?)\s*[x×*]\s*10\s*(?:\^|\*\*)\s*([+-]?\d{1,4})")


def prepare(text: str) -> tuple[str, bool, str]:
    """The text the parse steps read, whether it was cut (:data:`LONG_INPUT_CHARS`), and
    ``normalize(text)`` (the conversation's cues read it): the same string when nothing before the
    normalization changed the text, so most messages are normalized once."""
    s, truncated = _reduce_long(text)
    if any(map(s.__contains__, POWER)):  # bot.parse.unit_cues: neither form without '^' or '**'
        s = _MANTISSA_POWER_RE.sub(lambda m: f"{m.group(1)}e{m.group(2)}", s)  # 4.2×10^22 → 4.2e22
        s = _POWER_RE.sub(_power, s)  # 10^40 → 1e40
    if "&" in s:  # html.unescape returns a text without '&' as it is: html and its entity table load
        from html import unescape  # only for a message that has one (start-up: RESULTS.md session 18)

        s = unescape(s)
    s = _TAG_RE.sub(placeholder, s) if "<" in s else s  # '<Llama-3-8B>': the model (s27 trial #6)
    unchanged = s == text
    s = normalize(s)
    normalized = s if unchanged else normalize(text)
    if not TYPOS.keys().isdisjoint(s.translate(SPACES).split()):
        s = without_typos(s, text)  # 'usres' → users, said (bot.parse.message; s36 fixa #4)
    s = atlas_servers(s) if "atlas" in s else s  # s31: an Atlas 800 (A2) server as its 8 Ascend 910B
    s = _DIGIT_GROUPS_RE.sub(lambda m: m.group(0).replace("_", ""), s)  # '120_000': 120000
    if "第" in s and (
        "卡" in s or "gpu" in s
    ):  # '第一张卡上', '第 2 块 gpu': which card, no count (round 36)
        s = _ORDINAL_CARD_RE.sub(r"某\1", s)
    s = arabic_counts(s) if CN_COUNT_RE.search(s) else s  # '四张显卡': '4张显卡' (s31)
    s = in_thousands(s) if FULL_LENGTH_RE.search(s) else s  # '8192 全参微调': '8k 全参微调' (s31)
    s = _HOST_RE.sub(" ", s) if ("://" in s or "localhost" in s or "." in s) else s  # no figure in an address
    s = kilobytes_as_gib(s) if "kb" in s or "kib" in s else s  # s49: '1056501432 kB' of RAM, as GiB
    s = without_specs(s)  # 'i7-12700h', '910b(280t)': a part's model number, a chip's rate (round 10)
    s = glued_tool_names(s)  # '360-llama-factory': one tool, no figure 360 (round 10)
    s = card_first(s) if CARD_FIRST_RE.search(s) else s  # 'h100*8 node': '8x h100 node' (s32)
    s = chat_forms(s)  # 'w/o LoRA', 'global bs 256', 'two H100*8 machines' '8 thousand' (paraphrases)
    s = written_values(s)  # 'tp=2.', '16bf', '40=8+8+8+8+4*2', '4 nodes with 32 gpus in total' (round 5)
    s = written_names(s)  # '910B3', '910-64G', 'qwen2VL-7b', 'ds-r1' (round 6)
    s = card_variants(s) if "(" in s else s  # 'mlu370 (x8) with 48 gb': the card's name, its memory (s32)
    s = per_token_time(s)  # '2 s per output token', '每输出一个 token 要 2 秒': 0.5 tok/s (s22)
    s = written_units(s)  # '95t/s' a rate, not 95 trillion tokens (round 6)
    s = read_setting_verbs(s)  # 'batchsize 设成 1', '4 比特', '8*40G' (before '*' is markup)
    s = read_zh_phrasing(s)  # '上下文开 1M', '2048 token 长度' (paraphrases)
    s = count_forms(s)  # '2 * 8 H100' (before '*' is markup), 'between 2 and 4 A40s'
    s = read_prose_forms(s)  # '--tp 指定为 4', '最长约 120K tokens'
    s = _MARKUP_RE.sub(" ", s)
    s = expand_abbreviations(s)  # "full ft 7b": fine-tuning
    s = _CN_PERCENT_RE.sub(_cn_percent, s)
    s = _GLUED_KEY_RE.sub(_key_then_space, s)  # "mfu40%", "bs8": let the number stand alone
    s = _MIB_M_RE.sub(r"\1mib", s) if "m of " in s else s  # round 28 en: '20464M of VRAM' (amdgpu's MiB)
    s = _strip_injection(s)
    s = drop_change_verbs(s)  # "并发改成500呢": the setting's value
    for cn, en in lx.CN_MODEL_NAMES:
        s = s.replace(cn, f" {en}")
    s = _R1_FULL_RE.sub("deepseek-r1", s)
    s = _R1_ALONE_RE.sub("deepseek-r1", s)
    if "unsloth" in s:  # 'unsloth dynamic GGUF': the file's maker, not the training tool (s34 fixa)
        from bot.parse.quant_makers import quant_maker

        s = quant_maker(s)
    return s, truncated, normalized


_DIGIT_GROUPS_RE = rc(r"(?<![\w.])\d{1,3}(?:_\d{3})+(?![\w.])")
"""Digits grouped by underscores, as Python, Rust and YAML configs write them ('max_seq_length=120_000',
'1_000_000 tokens'): one number."""
_HOST_RE = rc(
    r"(?<![a-z0-9])(?:[a-z][a-z0-9+.\-]*://[^\s/\"'<>]*/?"
    r"|(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?!:\d+,)(?::\d{1,5})?(?![\d.])"
    r"|localhost:\d{2,5}(?![\d,]))"
)
"""An address's host and port: 'http://127.0.0.1:8265' (Ray's dashboard), '10.0.0.2:29500', 'localhost:8000'
(s13 trial S3): no number in it is a figure of the job. A host's GPU list ('--include localhost:0,1,2,3',
DeepSpeed's launcher) is no port and stays. The path after a URL's host stays, without its first slash (a
model name in 'https://huggingface.co/Qwen/Qwen2.5-7B' is read as 'Qwen/Qwen2.5-7B' is: s34)."""
_GLUED_KEY_RE = rc(
    r"(?<![a-z])(mfu|bs|batch|epochs?|ctx)(?=\d)"
    r"|(?<![a-z_])(seq(?:[_\-]?len)?|max[_\-]?len|len)(?=\d{3,}(?![\d.]*\s*(?:b|m)\b)|\d{1,3}k(?![a-z]))"
)
"""A setting's short key glued to its value: 'mfu40%', 'bs8', 'ctx4096', and (session 22) a sequence length
'seq1024', 'seqlen2048', 'len4k' (3+ digits or a k: never 'seq2seq')."""
_MIB_M_RE = rc(r"(?<![\w.])(\d{4,7})m(?=\s+of\s+(?:vram|gtt|gpu|video|graphics|device|dedicated|显存))")
"""A card's memory in MiB written with a bare 'M' before 'of VRAM' ('20464M of VRAM, 53248M of GTT memory',
as the amdgpu driver logs it): never a million, which no memory is counted in."""
_ORDINAL_CARD_RE = rc(
    r"第\s*(?:[一二两三四五六七八九十]+|\d{1,2})\s*([张块个])(?=\s*(?:显卡|卡|gpu|npu|gpus?\b))"
)
"""Round 36 zh: an ordinal card ('总是运行在第一张卡上', '第二张卡没有用起来', '第 2 块 GPU'): which card,
never how many ('双卡 4090 … 第一张卡' was sized on one card, '第二张卡' on two); written '某张卡'."""
_CN_PERCENT_RE = rc(r"百分之([零〇一二两三四五六七八九十百点]+|\d+(?:\.\d+)?)")


def _cn_percent(m: re.Match[str]) -> str:
    """'百分之四十' → '40%' (so the percent rules see it)."""
    value = parse_number(m.group(1))
    return m.group(0) if value is None else f" {value:g}%"


_R1_FULL_RE = rc(r"deepseek[\s\-_]*r1")
_R1_ALONE_RE = rc(r"(?<![a-z0-9\-])r1(?![a-z0-9])")


def mask(s: str, start: int, end: int, mark: str) -> str:
    return s[:start] + mark + " " * (end - start - 1) + s[end:]


_POWER_RE = rc(r"(?:[x×*]\s*)?(\d+(?:\.\d+)?)\s*(?:\^|\*\*)\s*([+-]?\d{1,4})")
