"""Step 2a: model names, masked in the text so their digits are not read as numbers.

Two passes:

1. **Names as released**: every catalog id and alias (HF repo ids, common spellings, Chinese names),
   matched as the longest run of name tokens — separators (space, ``-``, ``_``, ``/``, ``:``) are
   optional, so "Qwen2.5 72B Instruct", "qwen/qwen2.5-72b-instruct" and "deepseek-r1:14b" all hit.
2. **Family + version + size** for the rest ("qwen2.5 9b", "llama 70b"). Matching never crosses a
   family version: "Qwen1.5 7B" is Qwen1.5-7B or nothing. A name with a version the catalog lacks
   is an unknown model, kept as typed, with the closest suggestions. A size without a version
   ("Llama 70B") takes the latest release of that size and says so (a substitution).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from bot.later_names import drop_port_stems, with_named_version
from bot.parse import fixed_patterns as fp
from bot.parse import lexicon as lx
from bot.parse import model_names as names
from bot.parse.bracket_sizes import sizes_in_brackets
from bot.parse.context_release import RELEASE_CUE, SUFFIX_END, context_releases, typed_release
from bot.parse.fine_tunes import STARTS, fine_tune_base, glued_derivatives
from bot.parse.glued_names import GATE as GLUED_GATE
from bot.parse.glued_names import drop_glued_stems  # 'gpt4all', 'qwen-agent': a tool's name, no model
from bot.parse.gpus import is_gpu_name
from bot.parse.model_index import _NAME_TOKEN, _compact, _model_index, _ModelKey, _size_key, _ver_key
from bot.parse.model_paths import policy_paths
from bot.parse.model_stopwords import NOT_MODEL_NAMES
from bot.parse.normalize import MODEL_MARK, mask
from bot.parse.other_names import LONE_TAGS, lone_tagged_name, tagged_family_names
from bot.parse.regex import compile_pattern, rc
from bot.parse.size_apart import size_apart
from bot.parse.verb_names import benchmark_name, job_named_model
from bot.parse.vision_names import mark_substitutions, vision_language_names
from estimator import catalog

_GAP = compile_pattern(r"[\s\-_/:]*")
_GLUED_SIZE_RE = compile_pattern(r"[\-_]\d+(?:\.\d+)?b(?![a-z0-9.])")
"""Round 22 zh: a size glued after a catalog name that states none ('DeepSeek-R1-16b'): the typed name is a
release of that size, not the catalog's (DeepSeek-R1 is 671B; before, the '-16b' was named nonpositive)."""
MAX_NAME_TOKENS = 8
"""Longest alias in tokens ("deepseek-ai/deepseek-r1-distill-qwen-32b" has 7)."""

NO_VERSION = "no_version"
"""Substitution reason: a family and size without a version → the latest release of that size."""


def _size_value(size: str | None) -> float | None:
    """'72b' → 7.2e10, '500m' → 5e8; None for MoE names like '8x7b' (not a total)."""
    if not size:
        return None
    m = fp.SIZE_VALUE.fullmatch(size)
    if not m:
        return None
    return float(m.group(1)) * (1e9 if m.group(2) == "b" else 1e6)


def _version_number(ver: str | None) -> float:
    if not ver:
        return 0.0
    try:
        return float(fp.NOT_VERSION.sub("", ver) or 0)
    except ValueError:
        return 0.0


@dataclass(slots=True)
class ModelMention:
    start: int
    end: int
    text: str
    model_id: str | None
    size: float | None
    active: float | None
    suggestions: list[str] = field(default_factory=list)
    substitution: str | None = None
    """why ``model_id`` is not exactly what was typed (:data:`NO_VERSION`), or None"""
    family_only: bool = False
    """a catalog family named without a size ('StarCoder'): ``suggestions`` are its releases"""


def _catalog_name_at(s: str, start: int) -> tuple[str, int] | None:
    """(model id, end) of the longest catalog name beginning at ``start``, or None."""
    names = _model_index().names
    pos, key, best = start, "", None
    for _ in range(MAX_NAME_TOKENS):
        token = _NAME_TOKEN.match(s, pos)
        if token is None:
            break
        key += token.group(0)
        if key in names:
            best = (names[key], token.end())
        pos = _GAP.match(s, token.end()).end()  # type: ignore[union-attr]
    if best is None:
        return None
    end = best[1]
    if end < len(s) and s[end].isascii() and s[end].isalnum():
        return None  # "qwen2.5-7bx": not the name
    return best


def _whole_catalog_name(written: str) -> str | None:
    """The catalog id ``written`` ('gpt-oss 120b') names from its first character to its last, else None."""
    found = _catalog_name_at(written, 0)
    return found[0] if found is not None and found[1] == len(written) else None


def _match_family(
    fam: str, ver: str | None, size: str | None, act: str | None
) -> tuple[str | None, str | None]:
    """(model id, substitution reason) for a family + version + size not written as a catalog name."""
    kin = lx.FAMILY_KIN.get(fam, (fam,))  # 'glm-6b': a ChatGLM release
    cands = family = [k for k in _model_index().keys if k.fam in kin]
    if size:
        cands = [k for k in cands if k.size == size]
    if act:
        cands = [k for k in cands if k.act in (None, act)]
    if ver:
        exact = [k for k in cands if k.ver == ver]
        if not exact and ver in ("1", "v1"):  # "LLaMA1 7B", "qwen1 7b": the first release, named unversioned
            exact = [k for k in cands if k.ver is None]
        return (exact[0].model_id, None) if len({k.model_id for k in exact}) == 1 else (None, None)
    if not size or not cands:
        return None, None  # a bare family name ("Llama") is not a model
    versions = {k.ver for k in family}  # round 20: the family's ('llama 1b': Llama-3.2 of several, said)
    latest = max(cands, key=lambda k: _version_number(k.ver))  # s37: its one release versioned, said too
    return latest.model_id, (NO_VERSION if len(versions) > 1 or None not in versions else None)


def _model_suggestions(core: str, fam: str, ver: str | None, size: str | None) -> list[str]:
    """Up to three catalog models close to an unknown name: the same version first, then the
    nearest size, then the newest."""
    idx = _model_index()
    same_fam = [k for k in idx.keys if k.fam == fam]
    target = _size_value(size)

    def distance(k: _ModelKey) -> float:
        have = _size_value(k.size)
        return abs(math.log(have / target)) if have and target else math.inf

    ranked = sorted(
        same_fam, key=lambda k: (ver is not None and k.ver != ver, distance(k), -_version_number(k.ver))
    )
    out = [k.model_id for k in ranked[:3]]
    if not out:
        import difflib  # here: only an unknown model needs it (start-up)

        ids = {_compact(mid.lower()): mid for mid in catalog.models()}
        out = [ids[c] for c in difflib.get_close_matches(_compact(core), list(ids), n=3, cutoff=0.5)]
    return out


_SIZE_IN_NAME = compile_pattern(r"(?<![\dx.])(a?)(\d+(?:\.\d+)?)\s?([bm])(?![a-z0-9])")


def _sizes_in(name: str) -> tuple[float | None, float | None]:
    """(total, active) sizes written in a model name: 'qwen3-30b-a3b' → (3e10, 3e9); 'deepseek v3' →
    (None, None). A size the name states is what the user said (the estimator then uses the
    release's exact count and says so)."""
    total = active = None
    for m in _SIZE_IN_NAME.finditer(name):
        value = float(m.group(2)) * (1e9 if m.group(3) == "b" else 1e6)
        if m.group(1):
            active = value
        else:
            total = value
    return total, active


def _loose(s: str) -> str:
    return fp.SPACE_RUNS.sub(" ", s).strip(" -_.")


def extract_models(s: str, raw: str = "") -> tuple[str, list[ModelMention]]:
    """Every model mention in the normalized text ``s`` (masked in the returned text), in order;
    ``raw`` (the message as typed) tells a name typed as one ("InternVL 76B") from a word."""
    idx, original, typed_as = _model_index(), s, names.typed_in(raw)
    mentions: list[ModelMention] = []
    s = _first_passes(s, typed_as, mentions)  # s21: 'the 120b of gpt-oss', '--model_name_or_path …'
    for start, end, vl in vision_language_names(s, idx.regex, _family_mention, _whole_catalog_name):
        mentions.append(vl)
        s = mask(s, start, end, MODEL_MARK)
    for m in list(idx.starts.finditer(s)):
        found = _catalog_name_at(s, m.start())  # None inside a name masked just before
        if found is None:
            continue
        model_id, end = found
        if _GLUED_SIZE_RE.match(s, end) and not _sizes_in(s[m.start() : end])[0]:
            continue  # 'DeepSeek-R1-16b': a release of its own size, named by the passes below
        typed = s[m.start() : end]
        size, active = _sizes_in(typed)
        mentions.append(ModelMention(m.start(), end, _loose(typed), model_id, size, active))
        s = mask(s, m.start(), end, MODEL_MARK)
    s = _size_first(s, typed_as, mentions)
    for m in idx.regex.finditer(s):
        mention = _family_mention(s, m)
        if mention is not None:
            mentions.append(mention)
            s = mask(s, m.start(), max(m.end(), mention.end), MODEL_MARK)
    for m in UNKNOWN_NAME_RE.finditer(s):  # pass 3: "FooLM-13B", a name no family explains
        if m.group("name") in NOT_MODEL_NAMES or MODEL_MARK in m.group(0):
            continue
        start = m.start("name")
        if is_gpu_name(s[start : m.end()]):  # 'Ascend-910B', 'ascend910b': a card's name, not 910B params
            continue
        size, active = names.unknown_sizes(m)
        mention = ModelMention(start, m.end(), _loose(s[start : m.end()]), None, size, active)
        end = fine_tune_base(s, mention) if STARTS(m.group("name")) else m.end()  # 'vicuna-13b': its base
        mention.suggestions = [] if mention.model_id else _closest_names(m.group("name"))
        mentions.append(mention)
        s = mask(s, m.start(), end, MODEL_MARK)
    for start, end, text, size in names.spaced_names(s, typed_as, NOT_MODEL_NAMES):  # "InternVL 76B"
        mentions.append(ModelMention(start, end, text, None, size, None, _closest_names(text)))
        s = mask(s, start, end, MODEL_MARK)
    bare = None if mentions else names.bare_family(s, idx.families)
    if (
        bare is not None
    ):  # "fine-tune StarCoder", "MiniCPM-V": named as typed, the family's releases suggested
        fam = bare.group("fam")
        releases = sorted(
            (k for k in idx.keys if k.fam == fam),
            key=lambda k: (-_version_number(k.ver), -(_size_value(k.size) or 0)),
        )
        suggestions = list(dict.fromkeys(k.model_id for k in releases))[:4] or _closest_names(fam)
        mentions.append(
            ModelMention(
                bare.start(),
                bare.end(),
                typed_as(bare.group(0)),
                None,
                None,
                None,
                suggestions,
                family_only=bare.group(0) == fam and bool(releases),
            )
        )
        s = mask(s, bare.start(), bare.end(), MODEL_MARK)
    called = None if mentions else names.called_a_model(s, typed_as, raw) or names.tiered_name(s, typed_as)
    called = called or (None if mentions else job_named_model(s, typed_as, raw))  # 'Monkey 全参数微调'
    if called is not None and not benchmark_name(called[2].lower()):  # 'EmoLLM', 'flan-t5-xl' (no 'MMLU-2')
        start, end, text = called
        mentions.append(ModelMention(start, end, text, None, None, None, _closest_names(text)))
        s = mask(s, start, end, MODEL_MARK)
    s = _last_passes(s, mentions, typed_as)
    if "-\ue001" in s or "_\ue001" in s:  # 'Nous-Hermes-Llama2-13b': a derivative glued before a name (s46)
        s = glued_derivatives(s, mentions, typed_as)
    mentions.sort(key=lambda mm: mm.start)
    s, mentions = drop_glued_stems(original, s, mentions) if GLUED_GATE.search(original) else (s, mentions)
    return (
        drop_port_stems(original, s, mentions) if ".c" in s or ".rs" in s or ".mojo" in s else (s, mentions)
    )


def _first_passes(s: str, typed_as: names.Typed, mentions: list[ModelMention]) -> str:
    """Glued names (``lx.ADJACENT_MODELS``), a size apart from its name (:mod:`bot.parse.size_apart`), the
    trained model's path (:mod:`bot.parse.model_paths`): added to ``mentions``, masked in ``s``."""
    for pat, _name, params in lx.ADJACENT_MODELS:
        for m in pat.finditer(s):
            mentions.append(ModelMention(m.start(), m.end(), _loose(m.group(0)), None, params, None))
            s = mask(s, m.start(), m.end(), MODEL_MARK)
    for start, end, text, mid, size in size_apart(s, _whole_catalog_name):
        mentions.append(ModelMention(start, end, text, mid, size, None))
        s = mask(s, start, end, MODEL_MARK)
    for start, end, name, mid, size, active in policy_paths(s, _whole_catalog_name, _sizes_in):
        mentions.append(ModelMention(start, end, typed_as(name), mid, size, active))
        s = mask(s, start, end, MODEL_MARK)
    return s


def _last_passes(s: str, mentions: list[ModelMention], typed_as: names.Typed) -> str:
    """The passes after every name pass of :func:`extract_models`: a name called a model with its size,
    a size after a name, a second family with tags and no size ('MiniCPM-dpo-Int4'), and the
    substitutions a reply says ('the Qwen-2.5-72B vision-language model', 'llama 30b')."""
    sized = names.called_with_size(s, typed_as)
    if sized is not None:  # "the L1 model (1.5B)", beside catalog names: a model of its own
        start, end, text, size = sized
        mentions.append(ModelMention(start, end, text, None, size, None, _closest_names(text)))
        s = mask(s, start, end, MODEL_MARK)
    s = sizes_in_brackets(s, mentions, _whole_catalog_name)
    s = _RELEASE_DATE_RE.sub(lambda m: _date_blank(m, mentions), s) if "-" in s else s  # '-Instruct-2507'
    s = context_releases(s, mentions) if RELEASE_CUE(s) else s  # round 22 zh: 'chatglm3-32k', '…-Instruct-1M'
    for mention in mentions:  # 'chatglm3-6b-32k': the suffix already in the name matched (s28 trial)
        if SUFFIX_END(mention.text):  # searched in C: a frame only for such a name
            typed_release(mention)
        elif mention.size is None and not mention.model_id:  # 'MiniCPM-V 2.6' (s34-gen2)
            s = names.spaced_version(s, mention)
    lone = [] if mentions or not any(map(s.__contains__, LONE_TAGS)) else lone_tagged_name(s)  # s35
    tagged = tagged_family_names(s, _model_index().families, MODEL_MARK) if mentions else lone
    for start, end in tagged:  # 'MiniCPM-dpo-Int4' beside another model
        mentions.append(ModelMention(start, end, typed_as(s[start:end]), None, None, None))
        s = mask(s, start, end, MODEL_MARK)
    mark_substitutions(s, mentions, typed_as)
    if len(mentions) > 1:  # 'Llama-2 … Llama 70B': Llama-2-70B (no call for one name: the parse's budget)
        mentions[:] = with_named_version(s, mentions, _whole_catalog_name)
    return s


_RELEASE_DATE_RE = rc(
    r"(?<=\ue001)\s*(?:[\-_](?:instruct|chat|it|base|thinking|fp8|awq|gptq|int[48]))*"
    r"[\-_](?:2[3-9](?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?![\d.])"
)
"""A release's date glued after a model's name ('Qwen3-4B-Instruct-2507', 'DeepSeek-V3-0324',
'Mistral-Small-2501'): YYMM or MMDD, part of the name, never an unread number (round 10, s15)."""
_SIZE_END_RE = rc(r"(?<![a-z\d.])\d+(?:\.\d+)?\s*[bm]$")


def _date_blank(m: re.Match[str], mentions: list[ModelMention]) -> str:
    """Blanks for a release date ``m`` — not when it follows a size with no release word between
    ('llama-2-7b-1024': no dated release; the suffix stays and is named unread, review of session 15)."""
    typed = next((x.text for x in mentions if x.start < m.start() <= x.end), "")
    if not any(c.isalpha() for c in m.group(0)) and _SIZE_END_RE.search(typed.strip().lower()):
        return m.group(0)
    return " " * len(m.group(0))


def _size_first(s: str, typed: names.Typed, mentions: list[ModelMention]) -> str:
    """'the 7B LLaVA': a model named size first; '70B Llama3', '125M GPT-2' (s24 #8): a catalog release."""
    idx = _model_index()
    for start, end, text, size, name in names.size_first_names(s, typed):
        fam = idx.regex.fullmatch(name)
        mid = None
        if fam is not None and fam.group("ver") and not fam.group("size"):
            size_k = _size_key(f"{size / 1e9:g}b")
            mid, _why = _match_family(fam.group("fam"), _ver_key(fam.group("ver")), size_k, None)
        mid = mid or _whole_catalog_name(text.lower())
        mention = ModelMention(start, end, text, mid, size, None)
        if mid is None:
            mention.suggestions = _closest_names(name)
        mentions.append(mention)
        s = mask(s, start, end, MODEL_MARK)
    return s


UNKNOWN_NAME_RE = rc(
    r"(?<![a-z0-9.\-_/])(?:[a-z0-9][a-z0-9\-_.]*/)?(?P<name>[a-z][a-z0-9]{2,}(?:\.\d+(?=[\-_]))?(?:[\-_](?:[a-z][a-z0-9]*(?:\.\d+)*|\d+\.\d+"
    r"|(?!\d+x\d)\d+(?!b(?![a-z0-9]))[a-z][a-z0-9]*|\d{1,2}(?=[\-_]\d+(?:\.\d+)?b(?![a-z0-9]))))*"
    r"(?:\.\d+(?=:))?)(?:[\-_]|:(?=\d))?(?:(?P<experts>\d{1,3})x)?(?P<size>\d+(?:\.\d+)?)b(?:[\-_]a(?P<act>\d+(?:\.\d+)?)b)?(?:[\-_]\d{1,4}k)?(?![a-z0-9])"
)
"""A name glued to a size in billions no catalog family explains ("FooLM-13B", "mymodel_7b", "o/Foo-48B-A3B"
with its active size, an Ollama tag "mistral-small3.1:24b"): an unknown model, named as typed (no org),
sized with a generic shape (never a bare "13B"); a release number between its words ("Mistral-Small-3.1-24B",
round 25 "Chinese-Alpaca-2-13B"), a word led by digits (round 4 "-4KHD-"), one glued to its first word
("InternVL2.5-26B": 26B, never 2.5–26B) and a context tail ("-13B-16K", round 25) are part of the name."""


def _closest_names(name: str) -> list[str]:
    """Up to three catalog model ids closest to an unknown name."""
    from bot.parse.close_names import close_matches  # here: only an unknown model needs difflib (start-up)

    ids = list(catalog.models())
    lower = {i.lower(): i for i in ids}
    return [lower[c] for c in close_matches(name, list(lower), n=3, cutoff=0.3)]


_GLUED_LETTERS_RE = compile_pattern(r"[a-z]+-\d+(?:\.\d+)?[bm](?![a-z0-9])")
"""Letters glued after a family's version, then a size ('glm-4v-9b'): an unknown release named whole."""


def _family_mention(s: str, m: re.Match[str]) -> ModelMention | None:
    """A family + version + size mention (pass 2), or None when it names no model."""
    fam, ver, size, act = m.group("fam"), m.group("ver"), m.group("size"), m.group("act")
    if not (ver or size or act):
        return None
    if fam in lx.SHORT_FAMILIES and not (size or ver):
        return None
    core_end = m.end("act") if act else m.end("size") if size else m.end("ver")
    core = s[m.start() : core_end]
    ver_k, size_k, act_k = _ver_key(ver), _size_key(size), _ver_key(act)
    mid, why = _match_family(fam, ver_k, size_k, act_k)
    if (
        mid is None
        and not size
        and s[m.end() : m.end() + 1].isalpha()
        and _GLUED_LETTERS_RE.match(s, m.end())
    ):
        return None  # round 36 zh: 'glm-4v-9b' is one name (pass 3), never 'glm-4' and a bare 9B
    active = _size_value(act_k[1:]) if act_k else None
    mention = ModelMention(
        m.start(), m.end(), _loose(core), mid, _size_value(size_k), active, substitution=why
    )
    if mid is None and STARTS(fam):  # 'vicuna-13b-v1.5': a fine-tune of a catalog base (s46)
        fine_tune_base(s, mention)
    if mention.model_id is None:  # 'DeepSeek-V4-Flash-0731': its tier word and date named too (round 17)
        names.with_tier(mention, s, core_end, _model_suggestions(core, fam, ver_k, size_k))
        if not (size or act) and mention.end == m.end():  # 'Qwen3', 'Llama 3.2': a release of sizes (s30)
            from bot.parse.family_version import release_sizes  # here: only an unknown name needs it

            sizes = release_sizes(_model_index().keys, fam, ver_k, s)
            mention.family_only, mention.suggestions = bool(sizes), sizes or mention.suggestions
    return mention
