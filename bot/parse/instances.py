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
_AWS_GPUS = {"12": 4, "24": 4, "48": 8}
"""GPUs per G-family size (AWS: xlarge to 16xlarge hold one)."""
_P3_GPUS = {"2": 1, "8": 4, "16": 8, "24": 8}

_AWS_RE = (
    r"(?P<fam>g4dn|g6e|g5|g6|p3dn|p3|p4de|p4d|p5en|p5e|p5)\.(?P<size>\d{0,2})x(?:large|l)"
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
    r"(?<![a-z0-9._\-])(?:(?P<k>\d{1,3})\s*(?:x|×|\*|台|个)?\s*)?(?:(?:aws|ec2|gcp|azure|sagemaker)\s+)?"
    rf"(?:(?:ml\.)?(?:{_AWS_RE})|{_GCP_RE}|{_AZURE_RE})(?![a-z0-9])"
    r"(?:\s*(?:instances?|nodes?|machines?|servers?|vms?|boxes|实例|节点|机器))?"
)
"""An instance type, with the number of instances before it ('2 p4d.24xlarge nodes'); SageMaker writes the
EC2 type after 'ml.' ('ml.g5.48xlarge', docs.aws.amazon.com/sagemaker, instance types; round 9)."""


def instance_gpus(m: re.Match[str]) -> tuple[int, str] | None:
    """(GPUs, card as the parser reads it) of one instance matched by :data:`INSTANCE_RE`."""
    if m.group("metal"):
        return 8, _AWS_CARD["g4dn"]
    if fam := m.group("fam"):
        size = m.group("size") or "1"
        table = _P3_GPUS if fam == "p3" else None
        if fam in ("p3dn", "p4d", "p4de", "p5", "p5e", "p5en"):
            return 8, _AWS_CARD[fam]
        count = table.get(size) if table else _AWS_GPUS.get(size, 1)
        return (count, _AWS_CARD[fam]) if count else None
    if gcp := m.group("gcp"):
        return int(m.group("g")), _GCP_CARD[gcp[:4]]
    return 8, _AZURE_CARD[m.group("az")[:6]]


def spell_out_instances(s: str) -> str:
    """``s`` with each cloud instance type written as its GPUs: 'an aws g5.48xl' → 'an 8 x a10g'."""
    if not fp.INSTANCE_HINT.search(s):
        return s
    return INSTANCE_RE.sub(_spelled, s)


def _spelled(m: re.Match[str]) -> str:
    found = instance_gpus(m)
    if found is None:
        return m.group(0)
    count, card = found
    instances = int(m.group("k")) if m.group("k") else 1
    return f"{instances * count} x {card}"
