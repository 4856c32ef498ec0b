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
optimizer state). Per-token FLOPs, decode reads and per-layer splits use the language model
(:func:`language_params`). The ledger says it (:func:`note`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec
    from estimator.ledger import Ledger
    from estimator.models import SizingRequest
    from estimator.training_result import TrainingResult


def language_params(spec: ModelSpec | None, params: float | None) -> float | None:
    """The language model's parameters: ``params`` less a VL release's vision tower (``params`` for a text
    model). What each text token runs through: 6·N·D training FLOPs, the bytes a decode step reads, and
    the per-layer splits (the tower is loaded, so it stays in the weights, but it runs on image tokens
    only, and images are not read yet). Qwen2.5-VL-7B: 8.29e9 − 0.68e9."""
    if spec is None or spec.vision is None or params is None:
        return params
    return params - spec.vision.params


def text_params(active: float | None, out: TrainingResult) -> float | None:
    """N of 6·N·D: the active parameters of a MoE, else the language model's (:func:`language_params`)."""
    spec, params = out.spec, out.params  # language_params inline: asked at each step of a training answer
    if active or spec is None or spec.vision is None or params is None:
        return active or params
    return params - spec.vision.params


def note(spec: ModelSpec, req: SizingRequest, ledger: Ledger) -> None:
    """Say in the ledger that the tower is counted: in the weights when serving, frozen when training."""
    from estimator.reasons import Why

    v = spec.vision
    if v is None or (req.image_pixels and v.pixels_per_token and req.stage != "inference"):
        return  # images read: estimator.image_tokens says the tower with them (s40 fixt #2)
    why = Why.vision_tower_served if req.stage == "inference" else Why.vision_tower_frozen
    if why is Why.vision_tower_served and req.images_per_request:  # s44: the images' tokens counted
        from estimator.image_tokens import tokens_per_image

        why = Why.vision_tower_images if tokens_per_image(spec, req.image_pixels) else why
    ledger.assume("architecture", spec.name, why, model=spec.name, vision_params=v.params, depth=v.depth)
