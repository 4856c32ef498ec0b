"""Energy a run draws on the user's own card (trial s17-2 #3: '电费大概多少钱？', 'the power bill on my
3090'):
kWh = board power (W) × GPU-hours ÷ 1000 — an upper bound, a card rarely holds its full board power through
a whole run. The tariff is left to the user (no electricity price is modelled). Pure.
"""

from __future__ import annotations

BOARD_POWER_W: dict[str, float] = {
    "RTX 3090": 350.0,  # NVIDIA GeForce RTX 3090 specifications: Graphics Card Power 350 W
    "RTX 3090 Ti": 450.0,  # NVIDIA GeForce RTX 3090 Ti specifications: Graphics Card Power 450 W
    "RTX 4090": 450.0,  # NVIDIA GeForce RTX 4090 specifications: Total Graphics Power 450 W
    "RTX 3080": 320.0,  # NVIDIA GeForce RTX 3080 (10 GB) specifications: Graphics Card Power 320 W
    "RTX 4080": 320.0,  # NVIDIA GeForce RTX 4080 specifications: Total Graphics Power 320 W
}
"""Board power (W) by catalog family, from NVIDIA's GeForce product specification pages."""


def run_kwh(family: str, gpu_hours_low: float, gpu_hours_high: float) -> tuple[float, float] | None:
    """(low, high) kWh of a run of ``gpu_hours_low``–``gpu_hours_high`` GPU-hours on cards of ``family``
    at their board power (:data:`BOARD_POWER_W`), rounded to 0.1 kWh; None for a card not listed."""
    watts = BOARD_POWER_W.get(family)
    if watts is None:
        return None
    return round(watts * gpu_hours_low / 1000.0, 1), round(watts * gpu_hours_high / 1000.0, 1)
