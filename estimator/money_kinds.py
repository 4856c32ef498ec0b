"""The kinds of money a request states: its currency and what a budget is per."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Currency(StrEnum):
    CNY = "CNY"
    USD = "USD"


BudgetPeriod = Literal["hour", "day", "week", "month", "year"]
"""The periods of ``SizingRequest.budget_period`` (estimator.serving_budget.PER_MONTH)."""
