"""The rows of "which model fits these GPUs" answers (kept apart from :mod:`estimator.models` so that
module stays within the 500-line limit): serving per weight format (:mod:`estimator.largest`) and
fine-tuning per method (:mod:`estimator.largest_trained`)."""

from pydantic import Field

from estimator.request import Method, Precision, _Frozen


class LargestServed(_Frozen):
    """The largest model one weight format serves on the request's GPUs (:mod:`estimator.largest`)."""

    precision: Precision
    params_max: float | None = Field(
        description="most parameters of a generic dense GQA shape that fit; None: not even 100M"
    )
    examples: list[str] = Field(description="the largest catalog models that fit in this format (ids)")


class LargestTrained(_Frozen):
    """The largest model one fine-tuning method trains on the request's GPUs
    (:mod:`estimator.largest_trained`): the memory of the fewest-GPUs search, no token count needed."""

    method: Method
    params_max: float | None = Field(
        description="most parameters of a generic dense GQA shape whose fewest GPUs (the layout search of "
        "every training answer) are at most the request's count with the verdict 'yes'; None: not even 100M"
    )
    params_tight: float | None = None
    """most parameters whose verdict there is borderline, not 'no' (each card nearly full, or only with CPU
    offload / an 8-bit optimizer): above ``params_max``; None when no size is (or, with ``params_max`` None
    too, when not even 100M fits)"""
    examples: list[str] = Field(description="the largest catalog models that fit with this method (ids)")
