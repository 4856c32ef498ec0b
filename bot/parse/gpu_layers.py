"""Where the layers of a local model run, in each tool's words and in prose (issue 24 items 1 and 3): the
GPU layer count (``gpu_layers``), the MoE layers whose experts stay on the CPU (``cpu_moe_layers``) and the
host's memory (``host_memory_gib``) — the inputs of :mod:`estimator.layer_offload`.

- llama.cpp ``-ngl N`` / ``--n-gpu-layers N`` / ``--gpu-layers N`` (common/arg.cpp; 99 or 999 means all),
  llama-cpp-python ``n_gpu_layers=N`` (−1: all): read by :data:`bot.parse.vocab_patterns.NGL_RE`, which
  calls :func:`stated_gpu_layers`;
- Ollama ``num_gpu`` (Modelfile ``PARAMETER num_gpu 40``, API ``"options": {"num_gpu": 40}``: "the number
  of layers to send to the GPU(s)", Ollama docs/modelfile.md), read only beside an Ollama word, where it is
  never a GPU count;
- LM Studio's "GPU offload" slider ("GPU offload 40 layers", "GPU offload: 40/80");
- prose: "offload 40 layers to the GPU", "40 layers on the GPU", "40 层放显卡", "GPU 上放 30 层",
  "显卡放 30 层";
- experts on the CPU: ``--cpu-moe`` / ``-ot "exps=CPU"`` / KTransformers / "experts on the CPU" (every
  layer's: :data:`estimator.layer_offload.ALL_EXPERTS`), ``--n-cpu-moe N`` (the first N layers').

Each match is masked so its digits are not read again.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc
from estimator.layer_offload import ALL_EXPERTS

OLLAMA_NUM_GPU_RE = rc(
    r"(?:parameter\s+)?[\"']?num[_\s]?gpu[\"']?\s*(?:=|:|is|设为|设成|是|为)?\s*(?P<n>\d{1,4})(?![\d.])"
)
"""Ollama's ``num_gpu`` with its value: layers on the GPU (docs/modelfile.md), read beside an Ollama word."""
_OLLAMA_WORDS_RE = rc(r"ollama|modelfile|parameter\s+num[_\s]?gpu")
LAYERS_PROSE_RE = rc(
    r"(?:gpu\s*offload(?:ing)?\s*(?:=|:|of|to)?\s*|offload(?:ing|ed)?\s+)(?P<a>\d{1,3})(?:\s*/\s*\d{1,3})?\s*(?:layers?)?"
    r"(?:\s+(?:to|on|onto|into)\s+(?:the\s+|my\s+)?(?:gpus?|vram|cards?))?"
    r"|(?P<b>\d{1,3}|(?<![a-z])(?:one|a\s+single|only\s+one|two|three|four|five|six|seven|eight|nine|ten))"
    r"\s+layers?\s+(?:offloaded\s+)?(?:on|onto|to|into|in)\s+(?:(?:the\s+|my\s+|both\s+)?"
    r"(?:gpus?|vram)(?![a-z])|(?=(?:the\s+|my\s+)?(?:\d|two|three|four|eight)\s+gpus?(?![a-z])))"
    r"|(?P<c>\d{1,3}|(?<![每第])[一两二三四五六七八九十])\s*层\s*(?:都)?\s*(?:放|加载|卸载|跑|offload)\s*(?:到|在|进)?\s*"
    r"(?:gpu|显存|显卡)"
    r"|(?:gpu|显存|显卡)\s*(?:上|里)?\s*(?:只)?\s*(?:放|加载|跑)\s*(?:了)?\s*(?P<d>\d{1,3})\s*层"
    r"|(?<![\d.])(?P<e>\d{1,3})\s+gpu[\s\-]layers?(?![a-z])|(?<![\d.])(?P<f>\d{1,3})\s*个\s*gpu\s*层"
)
"""Layers on the GPU in prose: 'GPU offload 40 layers' (LM Studio), 'offload 40 layers to the GPU',
'40 layers on the GPU', '40 层放显卡', 'GPU 上放 30 层', '显卡放 30 层'; s42: a count in words ('one layer on
the GPU', '一层放显卡': :data:`LAYER_WORDS`). s43 fixread2 (en39-013): on the cards counted ('40 layers on my
two GPUs'; the count is left for the count readers). s44 round 40 (en40-024): the layer count written before
the words ('with 2 gpu layers', text-generation-webui's ``n-gpu-layers`` in prose; '2 个 GPU 层'), which was
read as two GPUs."""
LAYER_WORDS = {"one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
LAYER_WORDS |= (
    {"eight": 8, "nine": 9, "ten": 10} | {w: i for i, w in enumerate("一二三四五六七八九十", 1)} | {"两": 2}
)
"""The counts a few layers are said by in words, each its number."""
_OF_BEFORE_RE = rc(r"(?:\bof|out\s+of|/|层里|层中)\s*$")
"""'30 of 48 layers on the GPU': the 48 is all the layers (bot.parse.written_settings reads the split)."""
CPU_MOE_COUNT_RE = rc(r"-{0,2}n[_\-]cpu[_\-]moe\s*=?\s*(?P<n>\d{1,3})(?![\d.])")
"""llama.cpp ``--n-cpu-moe N``: the routed experts of the first N layers in CPU memory."""


def stated_gpu_layers(fields: dict[str, Any], n: int, negative: bool) -> None:
    """``-ngl n`` in ``fields``: the GPU layer count as stated; a negative count (llama-cpp-python's −1)
    is every layer, which is what the sizing assumes anyway, so nothing is set."""
    if not negative:
        fields["gpu_layers"] = n


def read_gpu_layers(out: Any) -> None:
    """Ollama ``num_gpu``, LM Studio's offload and prose layer counts in ``out.s`` (a Vocab): into
    ``out.fields['gpu_layers']``, with the runtime (llama.cpp; Ollama is named by its own rule)."""
    s = out.s
    m = OLLAMA_NUM_GPU_RE.search(s) if _OLLAMA_WORDS_RE.search(s) else None
    if m is None:
        for m in LAYERS_PROSE_RE.finditer(s):  # a loop, not next(genexpr): no generator frame a parse
            if not _OF_BEFORE_RE.search(s[: m.start()]):
                break
        else:
            return
    said = next(g for g in m.groupdict().values() if g)
    n = int(said) if said.isdigit() else LAYER_WORDS[said.split()[-1]]  # s42: 'one layer on the GPU'
    out.s = mask(out.s, m.start(), m.end(), " ")
    out.read.append(float(n))
    out.fields["gpu_layers"] = n
    out.fields.setdefault("runtime", "llama.cpp")


def cpu_experts(fields: dict[str, Any], m: re.Match[str]) -> None:
    """Experts on the CPU read by :data:`bot.parse.prose_vocab.CPU_EXPERTS_RE` (match ``m``): the first N
    layers' for ``--n-cpu-moe N``, every layer's otherwise."""
    count = CPU_MOE_COUNT_RE.search(m.group(0))
    fields["cpu_moe_layers"] = min(int(count.group("n")), ALL_EXPERTS) if count else ALL_EXPERTS
    if count and int(count.group("n")) == 0:
        fields.pop("cpu_moe_layers")  # '--n-cpu-moe 0': none on the CPU


def stated_host_memory(fields: dict[str, Any], named: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The host memory named by :func:`bot.parse.prose_forms.host_memory` ('host_memory: 64 GB') as the
    serving field ``host_memory_gib`` (the first one said; 'GB' of RAM read as GiB, as sold); the others
    stay named."""
    for i, (text, _) in enumerate(named):
        size = text.removeprefix("host_memory: ")
        value, unit = size.split()
        fields["host_memory_gib"] = float(value) * (1024 if unit == "TB" else 1)
        return named[:i] + named[i + 1 :]
    return named


BARE_HOST_MEMORY_RE = rc(
    r"(?<!显)内存\s*(?:是|有|为|:|共|只有)?\s*(?P<v>\d{1,5})\s*(?P<u>g|gb|gib|t|tb)(?![a-z])"
    r"|(?<![\d.])(?P<v2>\d{1,4})\s*(?P<u2>g|gb|gib|t|tb)\s*(?:的\s*)?(?=(?:of\s+)?(?:lp)?ddr[45])"
    r"|(?<![\d.])(?P<v3>\d{1,4})\s*(?P<u3>g|gb|gib|t|tb)\s*(?:的)?\s*(?:系统|主机|cpu\s*)?内存"
)
"""'内存 64G', '64GB DDR5', '64G内存' ('单张3060 12G加64G内存', s25 trial2 #3) beside a layer split or a
local runtime: the host's memory (the bare word is left to the card rules elsewhere,
bot.parse.prose_forms.host_memory, since '内存 24G' often means a card's; '4090 24G内存', a size right
after a card's name, is that card's).
s47 round 43: '512GB 的 DDR5-4800 RDIMM', 的 between the size and the DDR kind."""


LOCAL_RUNTIME_RE = rc(
    r"ollama|llama[.\-_\s]?cpp|lm\s*studio|gguf|koboldcpp|q[2-8]_k|partial(?:ly)?\s+offload"
)
"""A local runtime or a partial offload named (fresh-user trial s19, issue 24 item 1): the host's memory
and its DDR kind are read even with no layer split said (estimator.layer_offload.auto_split sizes one)."""
_CARD_BEFORE_RE = rc(r"(?:\d|ti|super|xt)\s*$")
"""'4090 内存 24G': 内存 right after a card's name is that card's memory (bot.parse.prose_forms)."""


def _split_said(out: Any) -> bool:
    """A layer split said, or a local runtime named (the split is then sized when the card is short)."""
    return bool({"gpu_layers", "cpu_moe_layers"} & out.fields.keys()) or bool(LOCAL_RUNTIME_RE.search(out.s))


HOST_HINT_RE = rc(r"ddr[45]|内存")
"""The host's memory or its kind named: :func:`host_side` runs (a C-level gate: the parse-call budget)."""


def host_side(out: Any) -> None:
    """The host's memory and bandwidth in a message with no layer word ('Ollama … an RTX 4090 with 64GB DDR5
    RAM'): read when a local runtime is named (:func:`bare_host_memory`, :func:`host_bandwidth`)."""
    bare_host_memory(out)
    host_bandwidth(out)


def bare_host_memory(out: Any) -> None:
    """'内存 64G' in a message that puts layers or experts on the CPU, or names a local runtime, and '64GB
    DDR5' in any message (round 16: 'extra CPU memory (e.g. 512GB DDR5)'): ``host_memory_gib``; never
    '4090 内存 24G' without a split said (the card's memory)."""
    if "内存" not in out.s and "ddr" not in out.s:
        return
    m = BARE_HOST_MEMORY_RE.search(out.s)
    form = m.lastgroup[1:] if m is not None else ""  # the unit group closes each form: 'u', 'u2', 'u3'
    bare = m is not None and form != "2"  # '内存 64G' / '64G内存', not '64GB DDR5'
    if not _split_said(out) and (m is None or bare):
        return  # '512GB DDR5': the host's anywhere (a card's is GDDR or HBM); '内存 64G' beside a split only
    split = {"gpu_layers", "cpu_moe_layers"} & out.fields.keys()
    if m and bare and not split and _CARD_BEFORE_RE.search(out.s[: m.start()]):
        return
    if m:
        start, sticks = _sticks(out.s, m.start()) if form != "" else (m.start(), 1)
        out.s = mask(out.s, start, m.end(), " ")
        value, unit = m.group("v" + form, "u" + form)
        out.fields["host_memory_gib"] = sticks * float(value) * (1024 if unit.startswith("t") else 1)
        if sticks > 1:  # the count and one module's size: read, the sum is the field (s50 review #2)
            out.read.extend((float(sticks), float(value)))


_STICKS_RE = re.compile(r"(?<![\d.])(\d{1,2})\s*(?:x|×|\*|条|根)\s*$")
"""s50 round 46: a count of memory modules right before their size ('16 x 64GB DDR4-3200 RDIMMs', '8 条 64G
内存'): the host's memory is their sum; before, one module's size was read (and '16 条' as a sample count)."""


def _sticks(s: str, start: int) -> tuple[int, int]:
    """The start of a module count said right before a host memory size, and that count (2 to 48), else
    (``start``, 1)."""
    k = _STICKS_RE.search(s[max(0, start - 8) : start])
    if k is None or not 2 <= int(k.group(1)) <= 48:
        return start, 1
    return start - (len(s[max(0, start - 8) : start]) - k.start()), int(k.group(1))


DDR_RATE_RE = rc(
    r"(?<![a-z])(?:lp)?ddr(?P<k>[45])x?\s*[-\s]?\s*(?P<r>\d{4})(?:\s*(?:mt/s|mhz|mts))?(?![\d.])"
    r"|(?<![\d.])(?P<r2>\d{4})\s*(?:mt/s|mhz)?\s*(?:lp)?ddr(?P<k2>[45])(?![a-z0-9])"
)
"""A DDR kind and its transfer rate ('DDR5-6000', 'DDR4 3200', '6000MHz DDR5'): MT/s."""
DDR_KIND_RE = rc(r"(?<![a-z])(?:lp)?ddr(?P<k>[45])x?(?![a-z0-9])")
"""A DDR generation said without its rate ('DDR5 双通道', 'DDR4 RAM'): estimator.host_ddr's range."""
CHANNELS_RE = rc(
    r"(?P<w>dual|quad|octa|single|two|four|eight|twelve|\d{1,2})[\s\-]*(?:memory\s+)?channels?"
    r"|(?P<c>单|双|四|六|八|十二|\d{1,2})\s*通道"
)
"""Memory channels ('quad-channel', '8-channel', '双通道', '八通道')."""
_CHANNELS = {
    "single": 1, "dual": 2, "two": 2, "quad": 4, "four": 4, "octa": 8, "eight": 8, "twelve": 12,
    "单": 1, "双": 2, "四": 4, "六": 6, "八": 8, "十二": 12,
}  # fmt: skip
HOST_BANDWIDTH_RE = rc(
    r"(?:memory|ram|内存)\s*(?:bandwidth|带宽)\s*(?:is|of|是|为|约|:)?\s*(?:about\s+|~)?(?P<v>\d{1,4}(?:\.\d+)?)\s*gb/s"
)
"""A stated host memory bandwidth ('memory bandwidth 80 GB/s', '内存带宽 100GB/s')."""


def _no_gpu_said(s: str) -> bool:
    """The message says its machine has no GPU ('没有显卡', 'no GPU, CPU only': bot.parse.no_gpu): its RAM's
    bandwidth is what the CPU run decodes at (estimator.cpu_decode; s41 trial #7: '内存带宽 80GB/s' was
    dropped in silence). Gated by the module's plain substring cue."""
    from bot.parse import no_gpu

    return no_gpu.cue(s) and no_gpu.NO_GPU_RE.search(s) is not None


def host_bandwidth(out: Any) -> None:
    """The host memory's bandwidth beside a layer split (``host_bandwidth_gbps``, GB/s): stated, or
    channels × 8 bytes × the DDR transfer rate said (JEDEC; two channels, a desktop's, unless said)."""
    if "ddr" not in out.s and "带宽" not in out.s and "bandwidth" not in out.s:
        return
    if not _split_said(out) and not _no_gpu_said(out.s):
        return
    if m := HOST_BANDWIDTH_RE.search(out.s):
        out.s = mask(out.s, m.start(), m.end(), " ")
        out.fields["host_bandwidth_gbps"] = float(m.group("v"))
        return
    m = DDR_RATE_RE.search(out.s)
    kind = DDR_KIND_RE.search(out.s) if m is None else None
    m = m or kind
    if m is None:
        return
    out.s = mask(out.s, m.start(), m.end(), " ")
    channels = 2
    if c := CHANNELS_RE.search(out.s):
        word = c.group("w") or c.group("c")
        channels = int(word) if word.isdigit() else _CHANNELS.get(word, 2)
        out.s = mask(out.s, c.start(), c.end(), " ")
    if kind is not None:  # 'DDR5 双通道': the generation's JEDEC rates (s17 trial #6)
        out.fields["host_ddr"] = int(m.group("k"))
        if c is not None and 1 <= channels <= 24:
            out.fields["host_channels"] = channels
        if "host_memory_gib" not in out.fields:  # '内存 DDR5 双通道 128G': its size, once the kind is read
            bare_host_memory(out)
        return
    rate = int(m.group("r") or m.group("r2"))
    if 1600 <= rate <= 12_000 and 1 <= channels <= 24:
        out.fields["host_bandwidth_gbps"] = channels * 8 * rate / 1000
        if c is not None:  # said: the reply names the count, not the two assumed (s15 trial #4)
            out.fields["host_channels"] = channels


NO_KV_OFFLOAD_RE = rc(
    r"(?<![a-z0-9])(?:-nkvo|--no[_\-]kv[_\-]offload|no_kv_offload\s*(?:=|:)\s*(?:true|1))(?![a-z0-9_\-])"
)
"""llama.cpp ``-nkvo`` / ``--no-kv-offload`` (llama-cpp-python ``offload_kqv=False`` aside): the KV cache in
CPU memory."""


FLASH_RE = rc(
    r"(?<![a-z0-9_\-])(?:-fa|--flash[_\-]attn)(?:(?:\s*=\s*|\s+)(?:(?P<off>off|0|false|disabled?)|on|1|true|auto"
    r"|enabled?)(?![a-z0-9_\-])|(?![a-z0-9_\-=]))"
    r"|(?<![a-z0-9_])(?:flash_attn|ollama_flash_attention)\s*(?:=|:)\s*['\"]?(?:(?P<off2>false|0|off)|true|1|on)"
    r"(?![a-z0-9_])"
)
"""llama.cpp ``-fa on|off|auto`` / ``--flash-attn …`` (common/arg.cpp; numeric aliases since
ggml-org/llama.cpp PR #15746); a bare ``-fa`` / ``--flash-attn``: on (before build b6327 the flag took no
value, common/arg.cpp ``{"-fa", "--flash-attn"}`` → ``params.flash_attn = true``); llama-cpp-python
``flash_attn=True|False``; Ollama's ``OLLAMA_FLASH_ATTENTION=1|0`` (envconfig/config.go
``FlashAttention``, a bool). Off: :func:`estimator.runtimes.llama_cpp.kq_score_bytes`."""
FLASH_WORDS_RE = rc(
    r"(?<![不没未关])(?<!没有)(?:开了|开启了?|开着|启用了?|打开了?|已开启|加了|加上了?)\s*(?:the\s+)?"
    r"(?:flash[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?|fa[23]?)(?![a-z0-9])"
    r"|(?<![a-z0-9])flash[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?\s*(?:已经?|也)?(?:开启|启用|打开|开着|开了)"
    r"|(?<![a-z])(?:with|using|enabled?|turn(?:ed|ing)?\s+on|switch(?:ed)?\s+on)\s+(?:the\s+)?flash[\s\-_]*"
    r"(?:attn|attention)(?:[\s\-_]*[23])?(?:\s+(?:on|enabled)(?=\s*(?:[,.;:!?)]|$)))?(?![a-z0-9])"
    r"|(?<![a-z0-9])flash[\s\-_]*(?:attn|attention)(?:[\s\-_]*[23])?\s+(?:is\s+)?(?:on|enabled)"
    r"(?=\s*(?:[,.;:!?)]|$))"
)
"""Flash attention said to be on in words: '开了 flash attention', '启用 FA', 'flash attention 已开启',
'with flash attention (on)', 'flash attention enabled' (the negated forms: bot.parse.negated_tools)."""


def flash_switch(out: Any, training: bool) -> None:
    """``out.s`` with the flash attention switch masked, ``out.fields['flash_attention']`` set (its 1 or 0
    in ``out.read``): a flag or key (:data:`FLASH_RE`, the last one said wins), or, in a serving question,
    words (:data:`FLASH_WORDS_RE`). Gated by the caller on 'flash', '-fa' or a Chinese 'fa' (s33 trial:
    '-fa', 'OLLAMA_FLASH_ATTENTION=1' and '开了 flash attention' were read as unstated)."""
    for m in list(FLASH_RE.finditer(out.s)):
        out.fields["flash_attention"] = not (m.group("off") or m.group("off2"))
        if m.group(0)[-1].isdigit():  # '-fa 1', 'OLLAMA_FLASH_ATTENTION=0': read, not left unread
            out.read.append(float(m.group(0)[-1]))
        out.s = mask(out.s, m.start(), m.end(), " ")
    if not training and "flash_attention" not in out.fields and (m := FLASH_WORDS_RE.search(out.s)):
        out.fields["flash_attention"] = True
        out.s = mask(out.s, m.start(), m.end(), " ")


def llama_cpp_switches(out: Any) -> None:
    """``-nkvo`` / ``--no-kv-offload``: ``kv_offload`` False (:mod:`estimator.layer_offload`); ``-fa off``
    is read by :func:`flash_switch`. Read behind a cheap cue ('kv')."""
    if "kv" in out.s and (m := NO_KV_OFFLOAD_RE.search(out.s)):
        out.s = mask(out.s, m.start(), m.end(), " ")
        out.fields["kv_offload"] = False
