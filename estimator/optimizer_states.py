"""Optimizer state bytes per trained parameter: the K of ZeRO's model states (Rajbhandari et al. 2020,
§3) under mixed precision, without an fp32 master copy (pure bf16), and what stays on the GPU when the
states are paged (bitsandbytes). Read by :func:`estimator.memory.model_state_bytes` and the layout
search's table (:class:`estimator.layout_table.DenseTable`).
"""

from __future__ import annotations

from estimator.setup import Optimizer

OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {"adamw": 12.0, "adamw8bit": 6.0, "sgd": 8.0}
"""Optimizer state bytes per trainable parameter under mixed precision.

AdamW: fp32 master copy 4 + momentum 4 + variance 4 = 12 (ZeRO §3, "K = 12").
8-bit AdamW: fp32 master 4 + two 1-byte states = 6 (Dettmers et al. 2022, *8-bit Optimizers*).
SGD with momentum: fp32 master 4 + momentum 4 = 8.
"""

BNB_8BIT_ABSMAX_BYTES_PER_PARAM = 2 * 4.0 / 256
"""bitsandbytes 8-bit optimizers: one fp32 absmax per 256 values for each of the two states
(``Optimizer2State.init_state``: ``blocks = n // 256``, ``absmax1``/``absmax2`` float32 on the
parameter's device — not paged, unlike the 1-byte states from ``get_state_buffer``)."""

PURE_BF16_OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {
    "adamw": 4.0,
    "adamw8bit": 2.0 + BNB_8BIT_ABSMAX_BYTES_PER_PARAM,
    "sgd": 2.0,
}
"""Optimizer state bytes per trainable parameter without an fp32 master copy (pure bf16 training).

``torch.optim.AdamW`` creates its states with ``torch.zeros_like(param)`` — the parameter's dtype —
so bf16 weights get bf16 m and v: 2 + 2 = 4 (PyTorch ``torch/optim/adam.py``, ``_init_group``).
8-bit AdamW: two 1-byte states + their block absmax = 2.03 (Dettmers et al. 2022;
:data:`BNB_8BIT_ABSMAX_BYTES_PER_PARAM`). SGD with momentum: one bf16 momentum = 2. This is what
torchtune's single-device recipes run (``dtype: bf16``, no master copy: torchtune docs, *Memory
Optimization Overview*, "Model Precision").
"""


def optimizer_bytes_per_param(optimizer: Optimizer, master_weights: bool, paged: bool) -> float:
    """Optimizer bytes per trained parameter resident on the GPU.

    :data:`OPTIMIZER_BYTES_PER_PARAM` (fp32 master copy) or
    :data:`PURE_BF16_OPTIMIZER_BYTES_PER_PARAM`; paged: only what bitsandbytes keeps outside
    unified memory — the 8-bit absmax (:data:`BNB_8BIT_ABSMAX_BYTES_PER_PARAM`), else 0.
    """
    if paged:
        return BNB_8BIT_ABSMAX_BYTES_PER_PARAM if optimizer == "adamw8bit" else 0.0
    table = OPTIMIZER_BYTES_PER_PARAM if master_weights else PURE_BF16_OPTIMIZER_BYTES_PER_PARAM
    return table[optimizer]
