"""The vision tower of a vision-language release, counted as part of the model (s31).

A VL release (Qwen2.5-VL-7B) is its language model plus a vision encoder and a projector
(:class:`estimator.catalog.VisionTower`, from config.json ``vision_config``). The catalog's
``params_total`` is the whole checkpoint, so weights and the frozen base of LoRA/QLoRA count the
tower as they count every weight. What fine-tuning trains: the language model only — the tools
people run freeze the tower and its projector by default:

- LLaMA-Factory ``src/llamafactory/hparams/finetuning_args.py``: ``freeze_vision_tower`` default True
  ("Whether ot not to freeze vision tower in MLLM training"), ``freeze_multi_modal_projector`` default True;
  its LoRA targets then leave the tower out.
- ms-swift ``swift/llm/argument/tuner_args.py`` (``TunerArguments``): ``freeze_vit = True``,
  ``freeze_aligner = True``.

So full fine-tuning keeps the tower as frozen 16-bit weights (2 bytes per parameter, no gradient, no
optimizer state): :func:`frozen_params`. The ledger says it (:func:`note`).

Image tokens: one LLM token per ``pixels_per_token`` pixels for dynamic-resolution towers (Qwen2-VL /
Qwen2.5-VL: 14-pixel patches merged 2 × 2 → 28 × 28 = 784 pixels per token; transformers
``Qwen2VLImageProcessor``: ``patch_size`` 14, ``merge_size`` 2), a fixed count per image otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.ledger import Ledger
    from estimator.models import SizingRequest


def frozen_params(spec: ModelSpec) -> float:
    """Parameters a fine-tuning run keeps frozen for the tower (all of it: LLaMA-Factory
    ``freeze_vision_tower``, ms-swift ``freeze_vit``); 0 for a text model."""
    return spec.vision.params if spec.vision is not None else 0.0


def image_tokens(spec: ModelSpec, width: int, height: int) -> int | None:
    """LLM tokens one ``width`` × ``height`` image takes: its pixels over ``pixels_per_token`` (each side
    rounded to whole merged patches, as ``Qwen2VLImageProcessor`` ``smart_resize`` rounds), or the fixed
    count; None for a text model. Qwen2.5-VL at 1,008 × 1,008: 36 × 36 = 1,296 tokens."""
    v = spec.vision
    if v is None:
        return None
    if v.pixels_per_token is None:
        return v.tokens_per_image
    side = v.patch_size * v.spatial_merge
    return max(1, round(width / side)) * max(1, round(height / side))


def note(spec: ModelSpec, req: SizingRequest, ledger: Ledger) -> None:
    """Say in the ledger that the tower is counted: in the weights when serving, frozen when training."""
    from estimator.reasons import Why

    v = spec.vision
    if v is None:
        return
    why = Why.vision_tower_served if req.stage == "inference" else Why.vision_tower_frozen
    ledger.assume("architecture", spec.name, why, model=spec.name, vision_params=v.params, depth=v.depth)
