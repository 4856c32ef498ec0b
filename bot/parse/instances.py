"""Cloud instance types named for their GPUs (issue 24 item 4): "an AWS g5.48xl", "2 p4d.24xlarge
nodes", "a2-ultragpu-8g", "Standard_ND96amsr_A100_v4". Each is written out as the count and card it
holds ("g5.48xlarge" → "8 x a10g"), in the normalized text, before counts and cards are read, so the
count is the instance's (times the instances named) and the card its card.

Sources (GPUs per instance, card and memory per GPU), read 2026-12:
- AWS EC2 accelerated computing instance types, https://aws.amazon.com/ec2/instance-types/ (G4dn: T4
  16 GB; G5: A10G 24 GB; G6: L4 24 GB; G6e: L40S 48 GB; P3: V100 16 GB, P3dn: V100 32 GB; P4d: A100
  40 GB; P4de: A100 80 GB; P5: H100 80 GB; P5e/P5en: H200 141 GB); sizes xlarge–16xlarge hold one
  GPU, 12xlarge and 24xlarge four, 48xlarge eight (G4dn: 12xlarge four, metal eight; P3: 2xlarge one,
  8xlarge four, 16xlarge eight).
- Google Cloud GPU machine types, https://cloud.google.com/compute/docs/gpus (A2 Standard
  a2-highgpu-Ng / a2-megagpu-16g: N (16) × A100 40 GB; A2 Ultra a2-ultragpu-Ng: N × A100 80 GB; A3
  a3-highgpu-8g / a3-megagpu-8g: 8 × H100 80 GB).
- Azure ND-series, https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/
  (ND96asr_v4: 8 × A100 40 GB; ND96amsr_A100_v4: 8 × A100 80 GB; ND96isr_H100_v5: 8 × H100 80 GB).
- AWS Neuron instances (s42 round 38), https://aws.amazon.com/ec2/instance-types/inf2/, /inf1/, /trn1/,
  /trn2/: Inf2 xlarge and 8xlarge one Inferentia2 chip, 24xlarge six, 48xlarge twelve, 32 GB of HBM per
  chip; Inf1 xlarge and 2xlarge one Inferentia, 6xlarge four, 24xlarge sixteen, 8 GB per chip; Trn1
  2xlarge one Trainium, 32xlarge (and Trn1n) sixteen, 32 GB per chip; Trn2 48xlarge sixteen Trainium2,
  96 GB per chip. None of them is a catalog card: each is written with its memory, so it is sized as an
  unknown device of that memory, named as typed (docs/design.md §8), never as another card.
- A NeuronCore said by count ('20 NeuronCores', '2 Neuron Cores'): the Neuron SDK shards a model over
  NeuronCores (its tp_degree); an Inferentia2 or Trainium chip holds two NeuronCore-v2 sharing its 32 GB
  (awsdocs-neuron.readthedocs-hosted.com, 'Inferentia2 Architecture' and 'Trainium Architecture'), so one
  NeuronCore is written as a device of 16 GB (the compiler's own per-core limit: 'Estimated peak HBM
  usage … exceeds 16GB', aws-neuron-sdk).
"""

from __future__ import annotations

import re

from bot.parse import fixed_patterns as fp
from bot.parse.regex import rc

_AWS_CARD = {
    "g4dn": "t4",
    "g5": "a10g",
    "g6": "l4",
    "g6e": "l40s",
    "p3": "v100 16gb",
    "p3dn": "v100 32gb",
    "p4d": "a100 40gb",
    "p4de": "a100 80gb",
    "p5": "h100 80gb",
    "p5e": "h200",
    "p5en": "h200",
}
_NEURON = {
    "inf2": ("inferentia2 32gb", {"": 1, "8": 1, "24": 6, "48": 12}),
    "inf1": ("inferentia 8gb", {"": 1, "2": 1, "6": 4, "24": 16}),
    "trn1n": ("trainium 32gb", {"32": 16}),
    "trn1": ("trainium 32gb", {"2": 1, "32": 16}),
    "trn2": ("trainium2 96gb", {"48": 16}),
}
"""AWS Neuron families: (chip as written out, chips per size), from the instance pages in the docstring."""
_AWS_GPUS = {"12": 4, "24": 4, "48": 8}
"""GPUs per G-family size (AWS: xlarge to 16xlarge hold one)."""
_P_GPUS = {
    "p3": {"2": 1, "8": 4, "16": 8, "24": 8},
    "p3dn": {"24": 8},
    "p4d": {"24": 8},
    "p4de": {"24": 8},
    "p5": {"4": 1, "48": 8},
    "p5e": {"48": 8},
    "p5en": {"48": 8},
}
"""GPUs per P-family size, from AWS's instance pages (aws.amazon.com/ec2/instance-types/p5: p5.4xlarge
1 x H100 80GB, p5.48xlarge 8 x H100; p5e/p5en.48xlarge 8 x H200; p4d/p4de.24xlarge 8 x A100; s45 review B4:
p5.4xlarge was read as 8). A size not listed is not read."""

_AWS_RE = (
    r"(?P<fam>g4dn|g6e|g5|g6|p3dn|p3|p4de|p4d|p5en|p5e|p5)\.(?P<size>\d{0,2})x(?:large|l)"
    r"|(?P<neuron>inf2|inf1|trn1n|trn1|trn2)\.(?P<nsize>\d{0,2})x(?:large|l)"
    r"|(?P<metal>g4dn)\.metal"
)
_GCP_RE = r"(?P<gcp>a2-highgpu|a2-megagpu|a2-ultragpu|a3-highgpu|a3-megagpu)-(?P<g>\d{1,2})g"
_AZURE_RE = r"(?:standard[_\-])?(?P<az>nd96asr[_\-]v4|nd96amsr[_\-]a100[_\-]v4|nd96isr[_\-]h100[_\-]v5)"
_GCP_CARD = {
    "a2-h": "a100 40gb",
    "a2-m": "a100 40gb",
    "a2-u": "a100 80gb",
    "a3-h": "h100 80gb",
    "a3-m": "h100 80gb",
}
_AZURE_CARD = {"nd96as": "a100 40gb", "nd96am": "a100 80gb", "nd96is": "h100 80gb"}

INSTANCE_RE = rc(
    r"(?<![a-z0-9._\-])(?:(?P<k>\d{1,3})\s*(?:x|×|\*|台|个)?\s*)?(?P<who>(?:aws|ec2|gcp|azure|sagemaker)\s+)?"
    rf"(?:(?:ml\.)?(?:{_AWS_RE})|{_GCP_RE}|{_AZURE_RE})(?![a-z0-9])"
    r"(?:\s*(?:instances?|nodes?|machines?|servers?|vms?|boxes|实例|节点|机器))?"
)
"""An instance type, with the number of instances before it ('2 p4d.24xlarge nodes'); SageMaker writes the
EC2 type after 'ml.' ('ml.g5.48xlarge', docs.aws.amazon.com/sagemaker, instance types; round 9)."""


def instance_gpus(m: re.Match[str]) -> tuple[int, str] | None:
    """(GPUs, card as the parser reads it) of one instance matched by :data:`INSTANCE_RE`."""
    if m.group("metal"):
        return 8, _AWS_CARD["g4dn"]
    if neuron := m.group("neuron"):
        chip, sizes = _NEURON[neuron]
        chips = sizes.get(m.group("nsize"))
        return (chips, chip) if chips else None
    if fam := m.group("fam"):
        size = m.group("size") or "1"
        table = _P_GPUS.get(fam)
        count = table.get(size) if table else _AWS_GPUS.get(size, 1)
        return (count, _AWS_CARD[fam]) if count else None
    if gcp := m.group("gcp"):
        return int(m.group("g")), _GCP_CARD[gcp[:4]]
    return 8, _AZURE_CARD[m.group("az")[:6]]


NEURON_CORES_RE = rc(r"(?<![\d.])(\d{1,4})\s*(?:个|颗)?\s*neuron[\s\-]?cores?(?:[\s\-]v[23])?(?![a-z0-9])")
"""A count of NeuronCores ('20 NeuronCores', '2 Neuron Cores', '24 个 NeuronCore'), written as that many 16 GB
devices."""


COMPILED_SHAPE_RE = rc(r"(?<=[a-z0-9])-seq[\-_]?len-(\d{2,7})(?:-bs-(\d{1,4}))?(?![a-z0-9])")
"""A checkpoint compiled for Neuron names its static shapes ('aws-neuron/Llama-2-7b-chat-hf-seqlen-2048-bs-2':
optimum-neuron exports a model for a fixed sequence length and batch size, and the aws-neuron Hub models carry
both in their names): written '(seqlen 2048, batch size 2)' after the name, read as the context and the batch
(s42 round 38; before, both numbers were left unread inside the model's name)."""


FAMILY_RE = rc(
    r"(?<![a-z0-9._\-])(?:(?P<k>\d{1,3})\s*(?:x|×|\*|台|个)?\s*)?(?P<who>(?:aws|ec2|amazon\s+ec2|amazon)\s+)?"
    r"(?P<fam>g4dn|g6e|g5|g6|p3dn|p3|p4de|p4d|p5en|p5e|p5)(?![a-z0-9.\-])"
    r"(?P<what>\s*(?:instances?|nodes?|machines?|servers?|vms?|boxes|实例|节点|机器))?"
)
"""An AWS instance family without its size ('AWS p5', '2 p4d instances', 'an EC2 g6e'), with a provider word
before it or an instance word after it (a bare 'p5' is not read): s45 fixread #3."""
FAMILY_CUES = ("p5", "p4d", "p3", "g5", "g6", "g4dn")
"""The families' first letters and digits, tested with ``in``: :data:`FAMILY_RE`'s cheap gate."""


def _family(m: re.Match[str]) -> str:
    """A family as its GPUs: the P families hold 8 in every size (``instance_gpus``), so 'p5' is '8 x h100
    80gb'; a G or P3 family's count depends on its size, so 'g5' is its card ('a10g'), the count sized as
    without it, and 'N g5 instances' N of that card (the xlarge to 16xlarge sizes hold one: the fewest). The
    provider word is kept, to be named (:mod:`bot.parse.cloud_providers`)."""
    if not (m.group("who") or m.group("what")):
        return m.group(0)
    fam = m.group("fam")
    card = _AWS_CARD[fam]
    who = m.group("who") or ""
    if fam in ("p3dn", "p4d", "p4de", "p5", "p5e", "p5en"):
        instances = int(m.group("k")) if m.group("k") else 1
        return f"{who}{instances * 8} x {card}"
    return f"{who}{m.group('k') + ' x ' if m.group('k') else ''}{card}"


def p5_without_size(raw: str) -> list[tuple[str, str]]:
    """The family 'p5' named with no size ('AWS p5', '2 p5 instances', as :data:`FAMILY_RE` reads it) as
    typed in ``raw``, with ``p5_as_48xlarge``: :func:`_family` sizes it as p5.48xlarge (8 x H100), while a
    p5.4xlarge holds one (AWS's P5 page; s45 review B4: the reply never said which). The other P families
    have one size each (:data:`_P_GPUS`), so nothing is assumed. The caller gates on 'p5' in ``raw``."""
    low = raw.lower()
    if len(low) != len(raw):
        return []
    found = (m for m in FAMILY_RE.finditer(low) if m.group("fam") == "p5" and (m["who"] or m["what"]))
    return [(raw[m.start("fam") : m.end("fam")], "p5_as_48xlarge") for m in found][:1]


def _compiled_shape(m: re.Match[str]) -> str:
    batch = f", batch size {m.group(2)}" if m.group(2) else ""
    return f" (seqlen {m.group(1)}{batch})"


def spell_out_instances(s: str) -> str:
    """``s`` with each cloud instance type written as its GPUs: 'an aws g5.48xl' → 'an aws 8 x a10g' (the
    provider word kept, named by :mod:`bot.parse.cloud_providers`; s45 fixread #3); a count
    of NeuronCores as that many NeuronCores of 16 GB ('20 neuroncores' → '20 x neuroncore 16gb'); a Neuron
    checkpoint's compiled shapes as settings ('…-seqlen-2048-bs-2' → '… (seqlen 2048, batch size 2)')."""
    if "neuron" in s:
        s = NEURON_CORES_RE.sub(r"\1 x neuroncore 16gb", s)
    if "len-" in s:
        s = COMPILED_SHAPE_RE.sub(_compiled_shape, s)
    if fp.INSTANCE_HINT.search(s):
        s = INSTANCE_RE.sub(_spelled, s)
    if any(map(s.__contains__, FAMILY_CUES)):  # 'AWS p5', '2 p4d instances' (s45 fixread #3)
        s = FAMILY_RE.sub(_family, s)
    return s


def _spelled(m: re.Match[str]) -> str:
    found = instance_gpus(m)
    if found is None:
        return m.group(0)
    count, card = found
    instances = int(m.group("k")) if m.group("k") else 1
    return f"{m.group('who') or ''}{instances * count} x {card}"  # the provider kept, to be named (s45)


_NUMBER_REASONS = ("unread", "over_card", "cards_total", "repeated")
"""Reasons of an item that is a bare number (a name, 'inferentia2 32GB' as another device, is kept)."""
_TYPED_NUMBER_RE = rc(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")


def typed_only(items: list[tuple[str, str]], raw: str) -> list[tuple[str, str]]:
    """``items`` (text, reason) without those whose numbers the user did not type: the chips' count and
    memory that :func:`spell_out_instances` wrote for a Neuron instance or NeuronCores ('inf2.8xlarge' →
    '1 x inferentia2 32gb': the '1' and '32' are no number of theirs to name as unread or over the card).
    ``raw`` is the message as typed; the caller gates on the chip words in the normalized text."""
    typed = set(_TYPED_NUMBER_RE.findall(raw.replace(",", "")))
    return [
        (t, why)
        for t, why in items
        if why not in _NUMBER_REASONS or all(n in typed for n in _TYPED_NUMBER_RE.findall(t))
    ]
