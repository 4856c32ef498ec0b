"""Units and shapes written in ways the rules misread (issue 24, round 6), each a way of writing found on
round 6's English working records and tested on sentences of our own in both languages
(tests/test_round6_en_forms.py):

- **A rate written 't/s'** ('95t/s prompt processing and 14t/s generation', '14 t/s'): tokens per second,
  as llama.cpp and its front-ends print it. Before, the 't' was read as a trillion ('95t' → 95 trillion
  training tokens, which made a serving question a pre-training one); it is written 'tok/s', which the
  rate rules read (:mod:`bot.parse.throughput_words`).
- **A speed said as what one gets** ('I get 40 t/s', 'the generation speed is only 6 tokens/s', '生成速度 30
  tok/s'): an observation, named, not the throughput asked for (before, a target of that many tokens/s).
- **A release version standing alone** ('lmdeploy 0.2.6', 'vllm v0.6.4.post1', 'TensorRT-LLM v0.7.0'): a
  version, not a value; written 'v0_2_6' so no rule reads its first part ('0.2') as a number (before, the
  audit named '0.2' as an unread value). Only a token of three or four dotted parts (after a 'v' or not)
  standing apart from other letters: '0.9' (a memory fraction), 'llava v1.5' and names ('Qwen2.5',
  'deepseek-v2.5.1') stay.
- **A device index in PyTorch's out-of-memory message** ('(GPU 0; 23.65 GiB total capacity', 'GPU 3 has a
  total capacity of 39.38 GiB', 'cuda:0'): which card ran out, not a value (before, '0' / '3' was named as
  an unread number); the index is dropped, the card's memory after it is read as before.
- **A setting lowered or raised to a value** ('micro_batch_size down to 1', 'per_device_train_batch_size
  from 8 down to 2', 'cutoff_len from 4096 to 2048', 'batch size 从 8 降到 2', 'batch size 一路降到
  1'): the value after 'to' / '降到' is the setting's; the one after 'from' / '从' was the earlier one
  (written 'KEY = B, was A': read, and the earlier value named as unread). The key must be one of the
  key–value grammar's (:func:`bot.parse.generic_values.vocabulary`), so 'from 2 to 4 nodes' stays a
  range. Before, both numbers were named as unread and the setting's default sized. s41 (round 37): a key in
  the plural ('batch sizes') and 'as low as' / 'as small as' / '低至' ('train and val batch sizes as low as
  2', 'batch size 低至 2': the value tried).
- **An MoE shape inside a name no catalog release has** ('WizardLM2-8x22B', 'mymoe-8x7b'): the shape
  'N x M B' is the experts × expert size, not an 'M B' model (before, 'WizardLM2-8x22B' was sized as a
  dense 2B). A catalog release of the same shape (Mixtral-8x22B: 141B total, 39B active,
  mistralai/Mixtral-8x22B-v0.1 config.json) gives the sizes, as a fine-tune keeps its base's shape; with
  none, N × M is the upper bound (experts share attention and embeddings).
"""

from __future__ import annotations

import re
from functools import cache

from bot.parse import cue_words
from bot.parse.regex import rc
from estimator import catalog

MEASURED_BEFORE = cue_words.MEASURED_BEFORE
"""See :data:`bot.parse.cue_words.MEASURED_BEFORE` (kept here for its readers)."""
RATE_T_RE = rc(r"(?<![a-z0-9.])(?P<n>\d+(?:[.,]\d+)?)\s?t/s\b")
"""'95t/s', '14 t/s': tokens per second (llama.cpp's and koboldcpp's 't/s')."""


VERSION_RE = rc(
    r"(?<![\w.\-/:])(?:v(?P<a>\d+(?:\.\d+){2,3})|(?P<b>\d+(?:\.\d+){2,3}))"
    r"(?P<tail>(?:\.?post\d+|\.?dev\d+|rc\d+)?)(?![\w\-/:]|\.\w)"
)
"""'0.2.6', 'v0.6.4.post1', 'v0.7.0': a release version standing apart from other text; a sentence's full
stop after it is no part ('peft 0.12.0.', s42 zhleft #5: '0.12' was named unread)."""
SOFTWARE_VERSION_RE = rc(
    r"(?<![a-z0-9_.\-])(?P<name>cuda|cudnn|nccl|python|ubuntu|centos|debian|rocky|pytorch|torch|transformers"
    r"|deepspeed|vllm|sglang|lmdeploy|peft|trl|accelerate|flash[\s_\-]?attn|flash[\s_\-]?attention|xformers"
    r"|bitsandbytes|triton|llamafactory|swift|cann|mindspore|mindie|mindformers|gcc|tensorrt|driver|驱动"
    r"|tensorflow|jax|paddlepaddle|paddle|xtuner|verl|openrlhf|ollama|unsloth|datasets|tokenizers|numpy"
    r"|transformer[\s_\-]?engine|apex|megatron(?:[\s_\-]?core)?|modelscope|optimum|auto[\s_\-]?gptq|autoawq"
    r"|[a-z][a-z0-9_\-]*(?=\s*[=~]=))"  # s42 zhleft #5: any package pinned 'name==1.13' (pip's form)
    r"(?P<mid>\s*(?:版本|version|ver)?\s*(?:号|是|为|:|：|=|==|~=|>=)?\s*v?)(?P<v>\d{1,3}\.\d{1,3})"
    r"(?!\d|\.\w|\s*[%kmgbt])"
)
"""A two-part version right after the software it is of — an operating system, a language, a driver, a
library or tool people cite with their setup ('cuda 12.1', 'python 3.10', 'ubuntu 22.04', 'torch2.1',
'cuda 版本 11.7', s42 zhleft #5: 'transformer-engine 1.13' and any package pinned 'name==1.13' as pip writes
it): a name, never a figure of the job (three-part ones are :data:`VERSION_RE`'s)."""
_SOFTWARE_GATE = re.compile(
    "cuda|cudnn|nccl|python|ubuntu|centos|debian|rocky|torch|transformers|deepspeed|vllm|sglang|lmdeploy"
    "|peft|trl|accelerate|flash|xformers|bitsandbytes|triton|llamafactory|swift|cann|mind|gcc|tensorrt|driver"
    "|驱动|tensorflow|jax|paddle|xtuner|verl|openrlhf|ollama|unsloth|datasets|tokenizers|numpy|transformer"
    "|apex|megatron|modelscope|optimum|gptq|autoawq|[=~]="
)
"""A literal gate before :data:`SOFTWARE_VERSION_RE` (most messages name none of these)."""


DEVICE_INDEX_RE = rc(
    r"(?<![a-z0-9_])(?P<w>gpu|cuda)\s*:?\s*\d{1,2}(?=\s*;|\s+has\s+a\s+total)|\bcuda:\d{1,2}\b"
)
"""'(gpu 0; 23.65 gib total capacity', 'gpu 3 has a total capacity of', 'cuda:0': a device index."""


_LOWERED = (
    r"(?P<key>{keys})\s*(?:(?:的|是)\s*)?"
    r"(?:(?:from|从)\s*(?P<a>\d+(?:\.\d+)?)\s*(?:all\s+the\s+way\s+|一路\s*)?(?:(?:down|up)\s+)?"
    r"(?:to|改成|改为|降到|降低到|减到|减少到|调到|调成|提到|提高到|加到|增加到)"
    r"|(?P<a2>\d+(?:\.\d+)?)\s*(?:->|→|=>|⟶|改成|改为|降到|降低到|减到|调到|调成|提到|提高到|加到)"  # s50 #4
    r"|(?:all\s+the\s+way\s+)?down\s+to|一路\s*(?:降到|减到|调到|加到)"  # 'up to 64' alone: a bound
    r"|(?:even\s+)?as\s+(?:low|small)\s+as|(?:低|降|减)至)"  # s41: 'batch sizes as low as 2', '低至 2'
    r"\s*(?P<b>\d+(?:\.\d+)?)(?![\d.]|\s*[kmb%]|\s*(?:gpus?|cards?|nodes?|卡|张|台|个节点))"
)


@cache
def _lowered_re() -> re.Pattern[str]:
    from bot.parse.generic_values import _compiled  # here: the vocabulary needs the parse tables

    key_re = _compiled()[0]
    return re.compile(_LOWERED.format(keys=f"{key_re.pattern}|{MAX_TOKENS_KEY}"))


MAX_TOKENS_KEY = r"(?<![a-z0-9_.\-])max[_\s\-]?(?:new[_\s\-]?)?tokens?(?![a-z0-9])"
"""s49-workmiss: the tokens cap of a request or a sample ('max_tokens', 'max_new_tokens', and 'max_token' as
people type it) lowered or raised ('max_token 从 1024 降到 512', 'max_tokens from 1024 to 512'): written
'max_tokens = 512, was 1024,' as the vocabulary's keys are, for bot.parse.output_forms to read (the output
of a request served; in training, the length of a sample)."""


_PLURAL_SIZE_RE = rc(
    r"(?<=\bbatch\s)sizes(?=\s+(?:(?:even\s+)?as\s+(?:low|small)\s+as|(?:all\s+the\s+way\s+)?down\s+to)\b)"
)
"""'batch sizes' before a lowered value ('train and val batch sizes as low as 2'): the key in the singular."""


REPLACED_RE = rc(r"(?:(?<=\d)|(?<=\d tokens)), was (\d+(?:\.\d+)?),")
"""The earlier value of a setting lowered or raised ('KEY = 2, was 8,', written by :func:`_lowered`; s49: also
'output 512 tokens, was 1024,' once bot.parse.output_forms has read a lowered max_tokens):
named as ``replaced_by_later_value`` (bot.parse.count_forms.set_aside_counts), never as unread."""


def _lowered(m: re.Match[str]) -> str:
    """'KEY = b, was a,' for a value lowered or raised: 'from a to b', and s50 leftovers #4 with no 'from'
    ('max_new_tokens 2048 -> 512', '2048 → 512', '2048 改成 512': the changed-to value is the setting)."""
    a = m.group("a") or m.group("a2")
    earlier = f", was {a}," if a else ""
    return f"{m.group('key')} = {m.group('b')}{earlier}"


def _version(m: re.Match[str]) -> str:
    return "v" + (m.group("a") or m.group("b")).replace(".", "_") + m.group("tail").replace(".", "_")


AT_LEAST_RE = rc(
    r"(?<![\w.+])(?P<n>\d+(?:\.\d+)?)\s?\+(?=\s*(?:[kmgt]i?b\b|[kmgt]\b|g\b|gpus?\b|cards?\b|nodes?\b"
    r"|tokens?\b|张|块|卡|台|个|节点))"
)
"""s42 round 38: a number with a plus before its unit is that much at least ('1000+ GB of CPU memory per
node', '8+ GPUs', '1000+ GB 内存'): the number read (before, the plus left it unread); never a sum ('4+4
cards': a digit follows) nor a name's plus ('Ryzen AI Max+ 395': no number before it)."""
PERCENT_RANGE_RE = rc(r"(?<![\d.])(?P<a>\d+(?:\.\d+)?)\s?%\s?[\-–~]\s?(?P<b>\d+(?:\.\d+)?)\s?%")
"""s42 round 38: a range of percentages written with a dash ('30%-35% MFU', '30%~35%'): written 'a% to b%', a
range, never a negative '-35' (before, named as a non-positive number)."""


def written_units(s: str) -> str:
    """The normalized text ``s`` with a rate written 't/s' written 'tok/s', a device index dropped and a
    release version written 'v0_2_6' (see the module docstring); s42: '1000+ GB' as '1000 GB', '30%-35%' as
    '30% to 35%'."""
    if "t/s" in s:
        s = RATE_T_RE.sub(r"\g<n> tok/s", s)
    if "+" in s:
        s = AT_LEAST_RE.sub(r"\g<n>", s)
    if "%" in s:
        s = PERCENT_RANGE_RE.sub(r"\g<a>% to \g<b>%", s)
    changed = ">" in s or "→" in s  # s50 #4: '2048 -> 512'
    if " to" in s or "到" in s or "改" in s or "至" in s or "s low as" in s or "s small as" in s or changed:
        s = _PLURAL_SIZE_RE.sub("size", s) if "sizes " in s else s  # s41: 'batch sizes as low as 2'
        s = _lowered_re().sub(_lowered, s)
    if "gpu" in s or "cuda" in s:
        s = DEVICE_INDEX_RE.sub(lambda m: m.group("w") or "cuda", s)
    if "." not in s:
        return s
    if _SOFTWARE_GATE.search(s):
        s = SOFTWARE_VERSION_RE.sub(lambda m: m["name"] + m["mid"] + "v" + m["v"].replace(".", "_"), s)
    return VERSION_RE.sub(_version, s)


@cache
def _shapes() -> dict[str, tuple[float, float | None]]:
    """'8x22b' → (params_total, params_active) of the catalog release of that MoE shape (the first
    alias that writes it)."""
    out: dict[str, tuple[float, float | None]] = {}
    for spec in catalog.models().values():
        for alias in (spec.id.lower(), *(a.lower() for a in getattr(spec, "aliases", ()) or ())):
            m = SHAPE_RE.search(alias)
            if m and spec.params_active:
                out.setdefault(f"{m.group('e')}x{m.group('s')}b", (spec.params_total, spec.params_active))
    return out


SHAPE_RE = rc(r"(?<![a-z0-9.])(?P<e>\d{1,3})\s?[x×*]\s?(?P<s>\d+(?:\.\d+)?)b(?![a-z0-9])")
"""An MoE shape written in a name: '8x22b', '8x7b', '8*22b'."""


def moe_shape_sizes(experts: str, size: str) -> tuple[float, float | None]:
    """(total, active) parameters of an MoE shape ``experts`` × ``size`` B in a name no catalog release
    has: the catalog release of the same shape, else experts × size (an upper bound, active unknown)."""
    known = _shapes().get(f"{int(experts)}x{size}b")
    return known if known else (int(experts) * float(size) * 1e9, None)
