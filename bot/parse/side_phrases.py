"""Phrases beside the job's settings, read before the settings (trial s12): a setting the user took back
(:mod:`bot.parse.self_correction`), a setting's working value beside its failing one
(:mod:`bot.parse.worked_value`), a run's measured step time (:mod:`bot.parse.step_times`), a
long-context phase (:mod:`bot.parse.context_phase`), serving loads written as a change or as
llama.cpp slots (:mod:`bot.parse.load_change`, :mod:`bot.parse.slot_words`), a machine's card
slots (:mod:`bot.parse.card_slots`), and a cloud provider named (:mod:`bot.parse.cloud_providers`)."""

from __future__ import annotations

from bot.later_names import card_slots, kinds_of_cards, link_asked, load_change
from bot.parse.calendar_dates import DATE_GATE, calendar_dates
from bot.parse.context_phase import _GATE_RE as PHASE_GATE
from bot.parse.context_phase import context_phase
from bot.parse.peak_load import daytime_peak
from bot.parse.regex import words_gate
from bot.parse.schedule_words import _GATE_RE as SCHEDULE_GATE
from bot.parse.schedule_words import schedule_words
from bot.parse.self_correction import _GATE_RE as CORRECTION_GATE
from bot.parse.self_correction import self_correction
from bot.parse.step_times import _GATE_RE as STEP_GATE
from bot.parse.step_times import step_times
from bot.parse.time_ago import GATE as AGO_GATE
from bot.parse.time_ago import time_ago
from bot.parse.unit_cues import CARD_KINDS
from bot.parse.worked_value import GATE_RE as WORKED_GATE
from bot.parse.worked_value import worked_then_failed
from estimator.later import later

(slots_as_flag,) = later("bot.parse.slot_words", "slots_as_flag")  # on first call (s48-startup)

_POWER_GATE = words_gate(("kwh", "度", "电费", "electricity", "power bill"))


PROVIDER_CUES = (
    "aws", "ec2", "cloud", "gcp", "azure", "oci", "runpod", "vast", "coreweave", "nebius", "paperspace",
    "jarvis", "fluidstack", "crusoe", "hyperbolic", "together", "lambda", "autodl", "云", "火山引擎",
    "优刻得", "揽睿星舟", "优云智算", "hetzner", "ovh", "scaleway", "vultr", "digitalocean", "linode",
    "tensordock", "modal", "replicate", "baseten", "salad", "hyperstack", "datacrunch", "voltage park",
    "lepton", "cudo", "massed compute", "thunder compute", "硅基流动", "金山云", "七牛云",
)  # fmt: skip
"""The words every cloud provider name of :mod:`bot.parse.cloud_providers` holds, tested with ``in`` (no
regex search): a message without one makes no other call, nor imports that module (start-up, s44 merge)."""


def side_phrases(s: str, training: bool, raw: str = "") -> tuple[str, list[tuple[str, str]]]:
    """The normalized text ``s`` with those phrases masked or rewritten (same length), and the ones named
    as not used (value or phrase as typed, reason key; ``raw``: the message as typed, whose spelling of a
    provider's name is echoed)."""
    # each reader's own first test asked here: a message without its words makes no call (s30-spparse)
    taken_back: list[tuple[str, str]] = []
    worked: list[tuple[str, str]] = []
    steps: list[tuple[str, str]] = []
    phase: list[tuple[str, str]] = []
    people: list[tuple[str, str]] = []
    if CORRECTION_GATE.search(s):
        s, taken_back = self_correction(s)  # 'two RTX A4000? no, two 3090s': the 3090s (B6)
    if WORKED_GATE.search(s):
        s, worked = worked_then_failed(s)  # '--tp 1 能起来；改成 --tp 2 就报错': the failing one (s22)
    if STEP_GATE.search(s):
        s, steps = step_times(s)  # '95 s/it', '每步 120 秒': a run's step time, observed (A9)
    if "step" in s or "第" in s or "步骤" in s or "phase" in s or "stage" in s:  # 'step 3', '第3步' (s35 #5)
        from bot.parse.step_labels import step_labels  # imported when used (start-up)

        s, labels = step_labels(s)
        steps += labels
    if PHASE_GATE.search(s):
        s, phase = context_phase(s)  # '128k context for the last 50B tokens': not modelled (A3)
    if SCHEDULE_GATE.search(s):
        s, people = schedule_words(s, training)  # '4 people on the team', '8 hours a day' (issue 24)
    dates: list[tuple[str, str]] = []
    if DATE_GATE.search(s):  # 'by end of Q3 2025', '2026年3月前', 'FY2026': a date, no number (s20)
        s, dates = calendar_dates(s)
    if AGO_GATE.search(s):  # 'two months ago', '两个月前': when something happened (s21)
        s, ago = time_ago(s)
        dates += ago
    power: list[tuple[str, str]] = []
    if _POWER_GATE.search(s):  # '0.12 USD/kWh', '一个月电费多少': electricity, no budget (s18-fxc)
        from bot.parse.power_price import power_price

        s, power = power_price(s)
    if any(map(s.__contains__, PROVIDER_CUES)):  # 'vs Lambda H100', '阿里云和AutoDL比' (s44 trial #5)
        from bot.parse.cloud_providers import providers

        power += providers(s, raw)
    if "p5" in raw or "P5" in raw:  # 'AWS p5': sized as p5.48xlarge, said (s45 review B4)
        from bot.parse.instances import p5_without_size

        power += p5_without_size(raw)
    if "税" in s or "稅" in s or "tax" in s or "vat" in s or "gst" in s:  # '含税13%', '6% VAT' (s45 trial #4)
        from bot.parse.tax_rate import tax_rates

        s, taxes = tax_rates(s, raw)
        power += taxes
    if "roce" in s or "infiniband" in s or " ib" in s or "ethernet" in s or "以太网" in s:
        from bot.parse.fabric_words import fabric_words  # 'with RoCE (not IB)', 'IB网络' (s45 trial #5)

        s, fabric = fabric_words(s, raw)
        power += fabric
    if "pcie" in s and ("nvlink" in s or "sxm" in s):  # 'NVLink vs PCIe 差多少': asked, not answered (s47)
        from bot.parse.link_compare import link_compare

        s, compared = link_compare(s, raw)
        power += compared
    if "nvlink" in s:  # 'does NVLink matter for 2x 3090 training', 'NVLink 有没有必要' (s49 leftovers #4)
        s, asked = link_asked(s, raw)
        power += asked
    if "prefix" in s or "前缀" in s or "radix" in s:  # 'with prefix caching', '开前缀缓存' (s46 fixrev #8)
        from bot.parse.prefix_caching import prefix_caching

        power += prefix_caching(s, raw)
    if "buy" in s or "purchas" in s or "买" in s or "购" in s:  # 'rent … or buy a server?' (s45 trial #2)
        from bot.parse.purchase_words import purchase_words

        power += purchase_words(s, raw)
    if not training and ("到" in s or " to " in s):
        s = load_change(s, training)  # 'double users to 60': the load asked about (B1)
    s, kinds = kinds_of_cards(s) if any(map(s.__contains__, CARD_KINDS)) else (s, [])  # 'A800三种卡' (s14)
    s = s if training else daytime_peak(s, training)  # 'up to 60 during the day': a peak load (s14)
    slots: list[tuple[str, str]] = []
    if "slot" in s or "槽" in s:
        s, slots, _ = card_slots(s, training)  # '4 个卡槽', '4 PCIe slots': a limit on the count (s14)
        s = slots_as_flag(s, training)  # llama.cpp '4 parallel slots': its '--parallel 4' (B2)
    return s, [*taken_back, *worked, *steps, *phase, *people, *dates, *power, *slots, *kinds]
