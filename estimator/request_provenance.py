"""Which of a request's values the estimate filled in rather than the user stating them, declared here and
mixed into :class:`estimator.request.SizingRequest` through :class:`estimator.request_loss.LossKernel`
(the request module stays within the 500-line limit of tests/test_layout.py)."""

from pydantic import Field

from estimator.request_setting import _setting


class Provenance:  # a plain mixin of SizingRequest (request_setting.drop_mixin_defaults)
    """The fields an answer's ``request`` carries filled by the estimate (JSON name as the field)."""

    assumed_fields: tuple[str, ...] | None = Field(
        None,
        description="the fields of this request the estimate filled in (its ``assumptions``), not stated by "
        "the user; set in an answer's JSON (bot.contract) so that a follow-up given this request as its "
        "``prev`` (POST /api/v1/ask) fills them again and keeps every other value as stated — a stated value "
        "equal to the default (concurrency 16) stays stated (bot.web.state.as_stated; s25 trial #3). None: "
        "not known (the request was not an answer's)",
        json_schema_extra=_setting(json_order=81),
    )
    release_context: int | None = Field(
        None,
        ge=1,
        le=100_000_000,
        description="tokens of context the release the user named was published for, when it is longer than "
        "the catalog model it is sized as: a long-context fine-tune's name suffix ('vicuna-13b-v1.5-16k': "
        "16,384; lmsys/vicuna-13b-v1.5-16k config.json, rope_scaling linear 4.0 × 4,096), read by the parse "
        "(bot.parse.context_release); the estimate sizes the model with this window (its window notes and "
        "the context → concurrency table reach it; s47, review N4: the table stopped at the base's 4K)",
        json_schema_extra=_setting(json_order=128),
    )
    rope_scaling_factor: float | None = Field(
        None,
        gt=1,
        le=64,
        description="the RoPE scaling factor the user runs the model with ('with YaRN factor 4', 'rope "
        "factor 4'; bot.parse.rope_factor) while serving: the estimate sizes the model with native × factor "
        "tokens as its window, YaRN on — vLLM's _get_and_verify_max_len multiplies the derived max_model_len "
        "by rope_scaling['factor'] when rope_scaling is set (--hf-overrides), so that length starts; the "
        "reply says how to turn the scaling on and, for a model that documents none, that quality past its "
        "trained window is not guaranteed (s47, review B4). None: the model's own window",
        json_schema_extra=_setting(json_order=129),
    )
