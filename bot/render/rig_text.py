"""The headline of a machine of different cards names the machine as it is (session 18, s18-fix item 1).

'一台机器一张 RTX 4090 加一张 RTX 3090', 'a 4090 plus a 3090 in one box': the request is sized as k equal
cards (:func:`bot.parse.mixed_rig.rig_choice`: the card with the least memory among those counted, the
slower of equal ones), and every headline form says 'k × card'. Here that phrase of the headline becomes
the rig's form: the cards as written, joined by '+', and which card the memory per GPU was sized on
('RTX 4090 + RTX 3090, sized as 2 × RTX 3090 (the least memory per card)'); a rig whose smaller cards
were left out (llama.cpp's split by free memory: ``mixed_rig_largest``) says it is sized on the larger
cards alone. The cards come from the interpretation's ``mixed_rig`` entries beside the card sized.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from estimator import catalog

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bot.core.answer import Answer
    from bot.core.interpretation import Ignored
    from estimator.models import SizingReport

RIG_EVEN = N_(
    "%(rig)s, sized as %(n)s × %(gpu)s (the least memory per card: tensor parallelism and ZeRO/FSDP give "
    "every card an equal share, so the smallest card bounds each)"
)
"""The rig form of the headline's cards: every card counted, each as the one with least memory. Why (s48):
vLLM's tensor parallelism shards every weight matrix into ``tensor_parallel_size`` equal slices (Megatron
column/row-parallel layers, vllm/model_executor/layers/linear.py: ``output_size // tp_size``), and ZeRO
partitions parameters, gradients and optimizer states into N_d equal parts (Rajbhandari et al. 2020, ZeRO
§5), FSDP the same (flat parameter padded to a multiple of the world size): each card holds the same bytes,
so the card with least memory sets how much each share may be."""
RIG_SAME = N_("%(rig)s, sized as %(n)s × %(gpu)s (the same memory per card; the slower card's speed)")
"""The rig form when every card has the same memory ('a 4090 plus a 3090', 24 GB each): none is smaller,
the slower card (less memory bandwidth) is the one sized (session 19)."""
SAME_REASON = N_(
    "another card in the same machine, with the same memory: the cards are sized as that many of the "
    "slower one (less memory bandwidth)"
)
"""The 'not used' reason of ``mixed_rig`` when the cards' memory is the same (never 'least memory')."""
RIG_LARGEST = N_(
    "%(rig)s, sized on %(n)s × %(gpu)s alone (the cards with less memory not modelled: llama.cpp's "
    "--tensor-split puts layers on them too, so the machine holds at least this much)"
)
"""The rig form when the cards with less memory are not modelled (llama.cpp's --tensor-split uses every
card, by its free memory: the cards sized alone are a lower bound on what the machine holds)."""
RIG_SUM = N_(
    "%(rig)s, sized as %(n)s × %(gpu)s (llama.cpp splits layers by each card's free memory: the cards' "
    "memory summed, %(total)s GiB, %(mem)s GiB a card)"
)
"""The rig form on llama.cpp/Ollama (``mixed_rig_sum``, session 19): the cards' summed memory, shared."""
CARD_PHRASE = {"en": "%(n)s × %(gpu)s", "zh": "%(n)s 张 %(gpu)s"}
"""How every headline msgid writes the cards sized (the phrase replaced), by language."""
RIG_REASONS = ("mixed_rig", "mixed_rig_largest", "mixed_rig_sum")


def rig_headline(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with its first line's 'n × card' replaced by the rig's form when the
    answer sized a machine of different cards; else ``text`` unchanged."""
    report = answer.report
    others = [i for i in ig if i.reason in RIG_REASONS] if (ig := answer.interpretation.ignored) else []
    if report is None or not others or not report.request.gpu_count:
        return text
    lang = answer.lang
    gpu = gpu_names(report)[0]
    n = fmt_for(lang).int(report.request.gpu_count)
    phrase = CARD_PHRASE.get(lang, CARD_PHRASE["en"]) % {"n": n, "gpu": gpu}
    head, sep, rest = text.partition("\n")
    if (
        phrase not in head
    ):  # some Chinese headlines write 'n × card' too ('在 2 × RTX 3090（ZeRO-3） 上', s19)
        phrase = CARD_PHRASE["en"] % {"n": n, "gpu": gpu}
    if phrase not in head:
        return text
    raw = answer.parsed.normalized.lower()
    cards = sorted([gpu, *(i.text for i in others)], key=lambda c: _written_at(raw, c))
    msgid = RIG_LARGEST if any(i.reason == "mixed_rig_largest" for i in others) else RIG_EVEN
    msgid = RIG_SAME if msgid is RIG_EVEN and same_memory(report, others) else msgid
    if any(i.reason == "mixed_rig_sum" for i in others):
        rig = _summed(report, lang, cards, gpu)
    else:
        rig = translate(lang, msgid, rig=" + ".join(cards), n=n, gpu=gpu)
    return head.replace(phrase, rig, 1) + sep + rest


def _summed(report: SizingReport, lang: str, cards: list[str], gpu: str) -> str:
    """The rig form of :data:`RIG_SUM`: the cards by their own names (the card sized is shown with its
    share of memory, 'RTX 4090 18G'), the sum and each card's share in GiB, over the request's card count
    (each card as often as it was counted: 'one 4090, one 3090 and two T4' is 4 cards, s48)."""
    mem_word = gpu.rsplit(" ", 1)[-1][:-1].replace(".", "", 1)  # '18' of 'RTX 4090 18G', s48: '19.2' too
    own = gpu.rsplit(" ", 1)[0] if gpu.endswith("G") and mem_word.isdigit() else gpu
    mem, fmt = report.request.gpu_memory_gib or 0.0, fmt_for(lang)
    names = " + ".join(own if c == gpu else c for c in cards)
    count = report.request.gpu_count or len(cards)  # s48: every card counted ('两张 T4'), not each name once
    return translate(
        lang, RIG_SUM, rig=names, n=fmt.int(count), gpu=own, mem=fmt.num(mem), total=fmt.num(mem * count)
    )


def _written_at(raw: str, card: str) -> int:
    """Where the card's model number ('4090' of 'RTX 4090 12G', not its memory '12G') is first written in
    ``raw``; cards not found last."""
    words = [w for w in card.lower().split() if any(ch.isdigit() for ch in w)] or [card.lower()]
    at = raw.find(words[0])
    return at if at >= 0 else len(raw)


def same_memory(report: SizingReport | None, ignored: Sequence[Ignored]) -> bool:
    """Whether every other card of a rig sized as k equal cards (``mixed_rig`` items of ``ignored``, named
    by catalog id with spaces) has the memory of the card sized (the request's stated memory, else the
    catalog's; within 0.5 GiB): then no card is 'smaller'. False without such cards."""
    others = (
        [i.text for i in ignored if i.reason == "mixed_rig"] if ignored else []
    )  # no frame for none (s37)
    if report is None or not others or not report.request.gpu:
        return False
    sized = report.request.gpu_memory_gib or catalog.gpu(report.request.gpu).memory_gib
    gpus = catalog.gpus()
    mems = [gpus[g].memory_gib if (g := t.replace(" ", "-")) in gpus else None for t in others]
    return all(m is not None and abs(m - sized) < 0.5 for m in mems)
