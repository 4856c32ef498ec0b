"""Several serving engines in one message (round 3 of the real questions, issue 24 item 4: two setups).

'SGLang … --tp 8 只有 vLLM 的一半，这 8 张卡用 SGLang 能撑多少并发？' names two engines: the one the question
asks about is sized (the only engine named in the first sentence that asks, or in its last clause, as
:func:`bot.parse.asked_model.asked_card` does for cards), and each other engine is named as another
setup, never dropped in silence (docs/design.md §8). Engines that are one stack are not two setups:
Ollama runs llama.cpp (and reads GGUF files), TGI has ExLlama kernels, and 'transformers' in an
environment dump is a library, not a second engine.
"""

from __future__ import annotations

from bot.parse.asked_model import ASKING_RE, SENTENCE_RE
from bot.parse.regex import rc
from bot.parse.settings import RUNTIMES

ONE_STACK = {
    frozenset(("Ollama", "llama.cpp")),
    frozenset(("TGI", "ExLlama")),
}
"""Engine pairs that are one stack, never two setups."""
NEVER_OTHER = frozenset(("transformers",))
_LAST_CLAUSE_RE = rc(r"[,，]")
"""Engines never named as a second setup (a library named beside an engine)."""
ENGINE_USE_RE = rc(
    r"(?:用|使用|采用|基于|\bwith|\busing|\bvia)\s*(?:hf\s+|hugging\s*face\s+)?transformers\s*"
    r"(?:库|框架|\blibrary|\bbackend)?\s*(?:来|进行|做|to\s+)?\s*(?:模型)?\s*"
    r"(?:加载|推理|部署|跑|\bload|\brun|\bserv|\binfer|\bgenerat)"
    r"|\b(?:load(?:ed|ing)?|r[au]n(?:ning)?|serv(?:e|ed|ing)|tried)\b(?:[^.;。；\n]|\.(?=\d)){0,40}?"
    r"\b(?:with|using|via|in)\s+(?:hf\s+|hugging\s*face\s+)?transformers\b"
    r"|(?:和|与|跟|还是|\band|\bor|\bvs\.?|\bversus)\s*(?:原生\s*|native\s+|plain\s+|hf\s+|hugging\s*face\s+)?"
    r"transformers\s*(?:v?\d+(?:[._]\d+){1,2}\s*)?(?:库|框架|\blibrary\s*|\bbackend\s*)?(?:的\s*)?"
    r"(?:推理|部署|加载|延迟|速度|吞吐|性能|\binfer|\bserv|\bload|\bgenerat|\blatency|\bspeed|\bthroughput)"
)
"""s20 round 14: transformers used as the engine of a run ('用 transformers 加载 …，换 vLLM 也一样 OOM',
'using transformers to load it, then vLLM'): a setup of its own, named beside the engine sized, where a
library version beside an engine ('vLLM 0.5, transformers 4.40') is not. s42 round 38 zh: joined to the
engine by a conjunction before a job or a measure ('用 vLLM 0.4.1 和原生 Transformers 4.40.0 推理', 'vLLM vs
transformers latency'): compared as an engine, where '和 transformers 4.40 版本' is still a library."""


def engines_named(s: str, runtime: str | None) -> tuple[str | None, list[tuple[str, str]]]:
    """The engine sized for the normalized serving text ``s`` (``runtime``: the one read so far) and
    ('runtime: X', 'other_setup') for each other engine it names."""
    if runtime is None:
        return runtime, []
    found = [(m.start(), name) for pattern, name in RUNTIMES if (m := pattern.search(s))]
    names = {name for _, name in found}
    if len(names) < 2:
        return runtime, []
    accepted = accepted_alternatives(s, found)  # 'vLLM 也行': acceptable, not the one asked about
    marked = _other_setup_engines(s, found) | accepted
    from bot.parse.works_fine import engine_not_said_to_work

    runtime = (
        _asked(s, found, marked)
        or engine_not_said_to_work(s, found, _in)
        or _only_unmarked(found, marked)
        or runtime
    )
    others = [
        name
        for _, name in sorted(found)
        if name != runtime
        and (name not in NEVER_OTHER or ENGINE_USE_RE.search(s) is not None)
        and (frozenset((name, runtime)) not in ONE_STACK or _contrasted(s, found, name, runtime))
    ]
    return runtime, [
        (f"runtime: {name}", "alternative_engine" if name in accepted else "other_setup") for name in others
    ]


CONTRAST_RE = rc(
    r"\b(?:but|while|whereas|unlike|than|compared|vs|versus|however|instead)\b|而|但|却|不如|相比|比(?!特)"
)
"""A contrast between two engines' behaviour ('llama.cpp uses 7.5 GB … but Ollama only 6 GB')."""


def _contrasted(s: str, found: list[tuple[int, str]], name: str, runtime: str) -> bool:
    """Round 12: whether the two engines of one stack (Ollama runs llama.cpp) are set against each other in
    ``s`` — a contrast word between their names: then each is a setup of its own, the other one named."""
    at = {n: i for i, n in found}
    lo, hi = sorted((at.get(name, 0), at.get(runtime, 0)))
    return bool(CONTRAST_RE.search(s, lo, hi)) or _each_measured(s, (name, runtime))


MEASURE_AFTER_RE = rc(r"[^\d,，。;；:：?？!\n]{0,24}?(?<![a-z0-9.])\d+(?:\.\d+)?(?![\d.]*\.\d)")
"""A number right after an engine's name, within its clause ('ollama gives 240.5 and …', 'llama.cpp 656
tok/s'); a version ('0.5.7') is no measure."""


def _each_measured(s: str, names: tuple[str, str]) -> bool:
    """s45-workmiss (en36-034, en40-020): two engines of one stack each with a number of its own right after
    its name ('ollama gives 240.5 and llama.cpp 656.4 tok/s', 'ollama 240 tok/s，llama.cpp 656 tok/s'): two
    runs measured side by side, two setups, as a contrast word makes them (:func:`_contrasted`). Each
    number must end before the other engine's name ('Ollama (llama.cpp backend) 240' is one run)."""
    spans = sorted(m.span() for pattern, n in RUNTIMES if n in names and (m := pattern.search(s)))
    if len(spans) != 2:
        return False
    first, second = (MEASURE_AFTER_RE.match(s, end) for _, end in spans)
    return first is not None and second is not None and first.end() <= spans[1][0]


ACCEPTED_AFTER_RE = rc(
    r"\s*(?:的话\s*)?(?:也行|也可以|也可|也成|也ok|也没问题|也能接受|都行|都可以)"
    r"|\s*(?:(?:would\s+(?:also\s+)?be|is|are|'s)\s*)?(?:also\s+)?(?:fine|ok(?:ay)?|acceptable)"
    r"(?:\s+too|\s+as\s+well)?(?![a-z])|\s*(?:also\s+)?works\s+(?:too|as\s+well)\b"
)
"""Words after an engine's name that make it an acceptable alternative ('vLLM 也行', 'or vLLM is fine too',
'vLLM also OK'): named, not sized; the engine asked about first is (issue 24)."""


def accepted_alternatives(s: str, found: list[tuple[int, str]]) -> frozenset[str]:
    """The engines every mention of which is followed by words accepting it as an alternative."""
    accepted, plain = set(), set()
    for pattern, name in RUNTIMES:
        if name not in {n for _, n in found}:
            continue
        for m in pattern.finditer(s):
            (accepted if ACCEPTED_AFTER_RE.match(s[m.end() : m.end() + 40]) else plain).add(name)
    return frozenset(accepted - plain)


def _asked(s: str, found: list[tuple[int, str]], marked: frozenset[str] = frozenset()) -> str | None:
    """The only engine named in the first asking sentence that names one, if any (an engine said there
    as an earlier or other setup, '之前用 vllm 能到 40 tokens/s，是不是…？', is not the one asked about)."""
    for m in SENTENCE_RE.finditer(s):
        text = m.group(0)
        if not text.strip() or not ASKING_RE.search(text):
            continue
        for part in (text, _LAST_CLAUSE_RE.split(text)[-1]):  # '…2000 token, 换成 lmdeploy 能到多少？'
            named = {name for _, name in found if name not in NEVER_OTHER and _in(part, name)}
            if len(named) > 1 or (named and not named - marked):
                named = named - marked
            if len(named) == 1:
                return named.pop()
    return None


OTHER_SETUP_RE = rc(
    r"(?:另外|此外|之前|以前|原来|原先|此前|曾经|上次|对比|相比之下)\s*(?:也|还|是|都)?\s*(?:用|在|试(?:了|过)?|跑|部署)?"
    r"|\b(?:previously|earlier|before\s+that|also\s+tried|used\s+to|in\s+comparison|by\s+comparison)\b"
)
"""Words that set an engine apart as an earlier or another setup ('另外用 vllm 跑…', '之前用 vllm 能到 40
tokens/s', 'previously with vLLM I got…'): said in the same clause before the engine's name."""
_CLAUSE_END_RE = rc(r"[,，。;；!！?？\n:：]")


def _other_setup_engines(s: str, found: list[tuple[int, str]]) -> frozenset[str]:
    """The engines every mention of which follows an other-setup word in its clause."""
    if not OTHER_SETUP_RE.search(s):
        return frozenset()
    marked, plain = set(), set()
    for pattern, name in RUNTIMES:
        if name not in {n for _, n in found}:
            continue
        for m in pattern.finditer(s):
            clause = _CLAUSE_END_RE.split(s[max(0, m.start() - 40) : m.start()])[-1]
            (marked if OTHER_SETUP_RE.search(clause) else plain).add(name)
    return frozenset(marked - plain)


def _only_unmarked(found: list[tuple[int, str]], marked: frozenset[str]) -> str | None:
    """The one engine not set apart as another setup, when the others are."""
    rest = {name for _, name in found if name not in NEVER_OTHER} - marked
    return rest.pop() if marked and len(rest) == 1 else None


def _in(text: str, name: str) -> bool:
    return any(pattern.search(text) for pattern, n in RUNTIMES if n == name)


def with_engines(compared: list[tuple[str, str]], engines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The setups compared ('TGI or vLLM') and the engines named, each text once: an engine accepted as an
    alternative ('or vLLM is fine too') is named so, not as a compared setup."""
    accepted = {text for text, why in engines if why == "alternative_engine"}
    kept = [c for c in compared if c[0] not in accepted]
    return kept + [e for e in engines if e not in kept]


def lmdeploy_share(runtime: str | None, fields: dict, named: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """lmdeploy's KV-cache share said in prose ('cache_max_entry_count 0.5', named by
    :func:`bot.parse.prose_forms.engine_settings`) when lmdeploy is the engine sized: the share of the
    memory FREE after the weights its runtime gives the KV cache (``estimator.runtimes.others.Lmdeploy``;
    InternLM/lmdeploy ``lmdeploy/messages.py``, default 0.8), set as a pasted ``--cache-max-entry-count``
    is, and no longer named. ``named`` without it, or unchanged."""
    if runtime != "lmdeploy" or fields.get("gpu_memory_utilization") is not None:
        return named
    key = "cache_max_entry_count: "
    said = next((t for t, why in named if why == "no_field" and t.startswith(key)), None)
    value = float(said.split(": ", 1)[1]) if said else 0.0
    if not 0 < value <= 1:
        return named
    fields["gpu_memory_utilization"] = value
    return [n for n in named if n[0] != said]


VLLM_VERSION_RE = rc(
    r"\bvllm(?:[-_]openai)?\s*(?:(?:==|@|:|=)\s*v?|\s*(?:version|ver\.?|版本(?:是|为)?|release)\s*[:：=]?\s*v?|v)"
    r"(\d{1,2})[._](\d{1,3})(?:[._](\d{1,3}))?(?![\d._]*\s*(?:%|gb|gib|g\b))"
    r"|\bvllm(?:[-_]openai)?\s*v?(\d{1,2})[._](\d{1,3})[._](\d{1,3})\b"
)
"""vLLM's release as written (s36): 'vLLM v0.8.5', 'vllm==0.5.3', 'vllm-openai:v0.6.3' (the image tag),
'vllm version 0.7.2', 'vllm 版本 0.6.3', or a bare three-part 'vLLM 0.6.4.post1'; the parse's normalized text
writes a release 'v0_6_4', read the same. A bare two-part number
('vLLM 0.9') is a share as often as a release, so it is not read; nor a number with a unit after it."""


def stated_vllm_version(raw: str) -> str | None:
    """The vLLM release ``raw`` (the message, any case) names, as 'major.minor[.patch]'; None when none.
    Called where vLLM is the runtime; the text must hold 'vllm' with a digit after it somewhere."""
    low = raw.lower()
    if "vllm" not in low:
        return None
    m = VLLM_VERSION_RE.search(low)
    if m is None:
        return None
    parts = [p for p in m.groups() if p is not None]
    return ".".join(str(int(p)) for p in parts)


LMDEPLOY_VERSION_RE = rc(
    r"(?<![a-z0-9])lmdeploy\s*(?:(?:==|@|:|=)\s*v?|\s*(?:version|ver\.?|版本(?:是|为)?|release)\s*[:：=]?\s*v?|v)"
    r"(\d{1,2})[._](\d{1,3})(?:[._](\d{1,3}))?(?![\d._]*\s*(?:%|gb|gib|g\b))"
    r"|(?<![a-z0-9])lmdeploy\s*v?(\d{1,2})[._](\d{1,3})[._](\d{1,3})(?!\d)"
)
"""lmdeploy's release as written (s42), read as :data:`VLLM_VERSION_RE` reads vLLM's: 'lmdeploy v0.2.5',
'lmdeploy==0.2.0', 'lmdeploy 版本 0.2.1', a bare three-part 'lmdeploy 0.1.0' or 'lmdeploy0.1.0'; a bare
two-part number ('lmdeploy 0.5') may be a cache share, so it is not read."""


def stated_lmdeploy_version(raw: str) -> str | None:
    """The lmdeploy release ``raw`` (the message, any case) names, as 'major.minor[.patch]'; None when none.
    Called where lmdeploy is the runtime and the text holds 'lmdeploy'."""
    m = LMDEPLOY_VERSION_RE.search(raw.lower())
    if m is None:
        return None
    return ".".join(str(int(p)) for p in m.groups() if p is not None)


TGI_VERSION_RE = rc(
    r"(?<![a-z0-9])(?:tgi|text[-_ ]?generation[-_ ]?inference)\s*(?:(?:==|@|:|=)\s*v?|\s*(?:version|ver\.?|"
    r"版本(?:是|为)?|release)\s*[:：=]?\s*v?|v)(\d{1,2})[._](\d{1,3})(?:[._](\d{1,3}))?"
    r"(?![\d._]*\s*(?:%|gb|gib|g\b))"
    r"|(?<![a-z0-9])(?:tgi|text[-_ ]?generation[-_ ]?inference)\s*v?(\d{1,2})[._](\d{1,3})[._](\d{1,3})(?!\d)"
)
"""TGI's release as written (s43), read as :data:`VLLM_VERSION_RE` reads vLLM's: 'TGI 1.3.3', 'TGI v1.4',
'text-generation-inference:1.3.3' (the image tag), 'TGI 版本 1.3.3'; a bare two-part number ('TGI 0.9') may
be a memory fraction, so it is not read."""


def stated_tgi_version(raw: str) -> str | None:
    """The TGI release ``raw`` (the message, any case) names, as 'major.minor[.patch]'; None when none.
    Called where TGI is the runtime."""
    m = TGI_VERSION_RE.search(raw.lower())
    if m is None:
        return None
    return ".".join(str(int(p)) for p in m.groups() if p is not None)
