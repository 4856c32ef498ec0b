"""The smallest stated card memory read as a card's (s42 swap), apart from :mod:`bot.parse.card_memory`,
which a plain question never imports (tests/test_startup_s30.py)."""

from __future__ import annotations

SMALLEST_CARD_GIB = 2
"""The least memory (GB) a stated card memory may have: the smallest cards people size LLMs on are 2 GB
(GeForce MX laptop cards and the GT 1030: 2 GB GDDR5, NVIDIA product pages), then the GTX 1060 3GB and the
GTX 1050 Ti 4GB (GeForce 10-series product pages). A smaller figure ('gpu 1') is no card's memory (s42:
'a GTX 1060 3GB', '3G 显存' were sized on the default card when the floor was 4)."""
