"""Units shared by the estimator and the renderers: the one declaration of each, imported everywhere.

``GIB`` is one gibibyte, 2**30 bytes (IEC 80000-13): what ``nvidia-smi``, PyTorch's memory stats and the
serving runtimes' logs call "GiB"; catalog memory sizes in ``estimator/data/gpus.toml`` are in GiB.
"""

from __future__ import annotations

GIB = 2**30
"""Bytes in one GiB (2**30, IEC 80000-13)."""
