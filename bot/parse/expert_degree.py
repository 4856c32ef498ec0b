"""An expert-parallel degree said in prose ('EP=4', 'ep 8', 'expert parallel size 4', '专家并行 EP=4',
'专家并行度 8', '8 路专家并行'; s47 trialfix #6). Before session 48 neither the training plan nor the serving
layout took a stated EP degree: the training plan places the experts itself (ZeRO-3/FSDP shards them over the
data-parallel GPUs in Trainer-based tools; a Megatron-family plan picks its own EP, shown in its layout), and
serving sizes the experts split by tensor parallelism over the same GPUs (the same bytes per GPU:
:mod:`bot.parse.configs.serve_flag_reasons`). Before, the degree was left as 'no word said what it is'
('未使用：“4”（没看出它指什么）') and the words 'expert parallel' of a training question were dropped in
silence. The degree is masked and named ``expert_parallel: N``, ``expert_parallel`` in a serving question;
in a training question the words alone are named too (``expert_parallel_training``). Session 48: in a
training question the degree is the request's ``expert_parallel`` ('--expert-model-parallel-size 8' too),
which the MoE full-training plan uses, or the interpretation names why not
(bot.core.unused_local.unused_ep)."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

_DEGREE = r"\s*(?:=|:|of|为|是|设为|设成|to)?\s*(?P<n>\d{1,3})(?![\d.])"
EP_DEGREE_RE = rc(
    r"(?:(?<![a-z0-9_])(?<![a-z0-9]-)(?:ep|expert[\s\-_]*(?:model[\s\-_]*)?parallel(?:ism)?)"
    r"(?:[\s\-_]*(?:size|degree))?"
    r"|专家并行(?:度|数)?)"
    + _DEGREE
    + r"|(?P<m>\d{1,3})\s*(?:路|-way|\s+way)\s*(?:专家并行|expert[\s\-_]*parallel\w*|ep\b)"
)
"""The degree after its name (the serving engines' ``--ep-size`` said in words, Megatron-LM's
``--expert-model-parallel-size``) or before it ('8 路专家并行', '8-way expert parallel')."""
EP_WORDS_RE = rc(r"expert[\s\-_]*(?:model[\s\-_]*)?parallel\w*|专家并行")
"""Expert parallelism said without a degree ('with expert parallel on 8 H100', '开专家并行')."""


def expert_degree(out: Any, training: bool) -> None:
    """Mask a stated expert-parallel degree in ``out.s`` (a :class:`bot.parse.settings.Settings`) and name it
    in ``out.unused`` with its reason; in a training question, name the words alone when no degree is
    said (serving names them in :mod:`bot.parse.serving_methods`)."""
    m = EP_DEGREE_RE.search(out.s)
    if m is None:
        if training and (w := EP_WORDS_RE.search(out.s)) is not None:
            out.unused.append((" ".join(w.group(0).split()), "expert_parallel_training"))
        return
    n = int(m.group("n") or m.group("m"))
    out.s = out.s[: m.start()] + " " * (m.end() - m.start()) + out.s[m.end() :]
    if training:  # s48: the MoE training plan uses it (estimator.expert_parallel.stated_ep) or says why not
        out.fields["expert_parallel"] = n
        return
    out.unused.append((f"expert_parallel: {n}", "expert_parallel"))
