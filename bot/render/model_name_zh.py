"""A catalog model's or card's display name in a Chinese reply (s22 trial #11; s39 fixw #2): the name
stays as released, its descriptive note in brackets is worded in Chinese — 'DeepSeek-R1 (671B MoE, V3
architecture)' → 'DeepSeek-R1（671B MoE，V3 架构）', 'Huawei Ascend 910C (dual-die)' → 'Huawei Ascend
910C（双芯）' (the note's words through Babel; estimator/data/*.toml keep one English name, the JSON
contract's ``model_name``). A note of names and sizes only ('(671B MoE)', '(PCIe)', '(AWS G5)') has no
words to translate: the name stays as released."""

from __future__ import annotations

import re

from bot.render.i18n import N_, translate

_NOTE_RE = re.compile(r"\s*\(([^()]*)\)$")
"""A trailing bracketed note ('(236B MoE, V2 architecture)', '(dual-die)')."""
_ARCH_RE = re.compile(r"([\w.\-]+) architecture\b")
ARCHITECTURE = N_("%(name)s architecture")
"""'V3 architecture': the model family whose shape a release reuses."""
PHRASES = {
    "dual-die": N_("dual-die"),
    "China SKU": N_("China SKU"),
    "per GPU": N_("per GPU"),
    "per chip": N_("per chip"),
    "first generation": N_("first generation"),
    "lightning attention": N_("lightning attention"),
}
"""English words of catalog name notes (estimator/data/gpus.toml, models/*.toml), worded per locale."""
_COUNTED = (
    (re.compile(r"\b(?P<n>\d+)-core GPU\b"), N_("%(n)s-core GPU")),  # 'Apple M4 Max (40-core GPU, 128 GB)'
    (re.compile(r"\b(?P<n>\d+) experts\b"), N_("%(n)s experts")),  # 'Llama 4 Scout (17B active, 16 experts)'
    (re.compile(r"\b(?P<n>\d+(?:\.\d+)?[BM]) active\b"), N_("%(n)s active")),  # 'DBRX 132B (36B active)'
    (re.compile(r"\bper (?P<n>\w+) GPU in (?P<system>\w+)"), N_("per %(n)s GPU in %(system)s")),  # GB200
)
_PHRASE_RE = re.compile("|".join(re.escape(p) for p in PHRASES))


def localized_model_name(name: str, lang: str) -> str:
    """``name`` with its bracketed note worded in ``lang`` (Chinese: full-width brackets and comma, the
    note's English words through the catalog); unchanged in English or without a note."""
    if lang != "zh" or not name.endswith(")"):
        return name
    m = _NOTE_RE.search(name)
    if m is None:
        return name
    note = _ARCH_RE.sub(lambda a: translate(lang, ARCHITECTURE, name=a.group(1)), m.group(1))
    for pattern, msgid in _COUNTED:
        note = pattern.sub(lambda c, msgid=msgid: translate(lang, msgid, **c.groupdict()), note)
    note = _PHRASE_RE.sub(lambda p: translate(lang, PHRASES[p.group(0)]), note)
    if note == m.group(1):  # names and sizes only ('(671B MoE)', '(PCIe)'): the name as released
        return name
    return f"{name[: m.start()]}（{note.replace(', ', '，')}）"
