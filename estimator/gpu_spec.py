"""The schema of one accelerator of the catalog (``estimator/data/gpus.toml``): peaks, memory, links and
how the card's memory is addressed. Split from :mod:`estimator.catalog` (session 23), which loads the data."""

from functools import cached_property
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from estimator.derived import KeepsDerived
from estimator.factories import empty_list
from estimator.units import GIB


class GpuSpec(KeepsDerived):
    """One accelerator. Peaks are **dense** tensor-core TFLOPS (no sparsity), 1 TFLOPS = 1e12 FLOP/s."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(description="catalog id, contains the family name, e.g. 'A100-SXM4-80GB'")
    name: str
    family: str = Field(description="normalized family as users say it: 'A100', 'RTX 4090', 'Ascend 910B'")
    vendor: str
    aliases: list[str] = Field(default_factory=empty_list, description="extra names users type, lower case")
    peak_tflops_bf16: float | None = Field(None, gt=0, description="dense BF16 tensor TFLOPS")
    peak_tflops_fp16: float | None = Field(
        None, gt=0, description="dense FP16 tensor TFLOPS (FP32 accumulate)"
    )
    peak_tflops_fp8: float | None = Field(None, gt=0, description="dense FP8 tensor TFLOPS")
    peak_tflops_fp4: float | None = Field(
        None, gt=0, description="dense FP4 (NVFP4/MXFP4) tensor TFLOPS; None: no FP4 tensor cores"
    )
    peak_tops_int8: float | None = Field(
        None,
        gt=0,
        description="dense INT8 tensor TOPS (datasheet, not the 'with sparsity' figure); None: "
        "no INT8 tensor-core peak in the catalog, and int8 training is not credited with one",
    )
    link_gbps: float | None = Field(
        None,
        gt=0,
        description="GB/s one way per GPU on the link a tensor-parallel group talks over: NVLink/"
        "Infinity Fabric when nvlink, else PCIe; None: not stated (estimator.serving_speed guesses)",
    )
    memory_gib: float = Field(gt=0, description="device memory; vendors' 'GB' for HBM/GDDR is GiB")
    memory_bandwidth_gbps: float | None = Field(None, gt=0, description="GB/s (1e9 B/s)")
    ecc_visible_mib: float | None = Field(
        None,
        gt=0,
        description="GDDR datacenter cards with ECC on by default (L40S, L4, A10, A10G, A40): the memory "
        "CUDA exposes, nvidia-smi memory.total in MiB (L40S 46,068 of its 48 GB: ECC keeps the rest); "
        "None: the card exposes its whole memory_gib (HBM ECC is inline, GeForce has none)",
    )
    gpu_memory_fraction: float | None = Field(
        None,
        gt=0,
        le=1,
        description="unified memory: the share the GPU may use by default (Apple: Metal's "
        "recommendedMaxWorkingSetSize ≈ 0.75); None for discrete cards (all of it)",
    )
    interconnect: str = ""
    nvlink: bool = Field(description="fast GPU-to-GPU links inside a node (NVLink/Infinity Fabric/HCCS)")
    gpus_per_node: int = Field(8, gt=0)
    personal: bool = False
    """a machine people own (GeForce/Titan cards, Macs): one user, local runtimes (llama.cpp/Ollama),
    quantized formats where 16-bit does not fit, no multi-node plans"""
    default_for_family: bool = False
    """the variant meant when a user names only the family"""
    generation: str = Field(description="vendor architecture: 'Ampere', 'Hopper', 'Ada Lovelace', 'CDNA3' …")
    mfu_class: Literal["a100", "h100", "v100", "consumer", "other"] = Field(
        description="which calibrated training-efficiency class applies (estimator.efficiency): "
        "'other' and 'consumer' have no published runs behind them"
    )
    related: list[str] = Field(
        default_factory=empty_list,
        description="families a user would compare this card with, closest first (switch-GPU buttons)",
    )
    vllm_small_batch: bool = False
    """vLLM keeps its small batch defaults on this card although it has ≥ 70 GiB (vllm/engine/arg_utils.py
    get_batch_defaults: A100 is excluded by name)"""
    source: str
    confidence: Literal["high", "medium", "low"] = "high"
    notes: str | None = None
    catalog_id: str | None = None
    """the catalog card this one is derived from with the memory the user stated ('A800 40G': A800-80GB;
    estimator.resolve); None for a catalog card or a generic one"""
    generic: bool = False
    """a card outside the catalog, known only by its memory: its compute and bandwidth are unknown, so no
    time, speed or price figure is given for it (placeholders keep the maths total)"""

    @model_validator(mode="after")
    def _has_a_16bit_peak(self) -> "GpuSpec":
        if self.peak_tflops_bf16 is None and self.peak_tflops_fp16 is None:
            raise ValueError(f"{self.id}: needs peak_tflops_bf16 or peak_tflops_fp16")
        return self

    @property
    def peak_flops_16bit(self) -> float:
        """Dense 16-bit tensor peak in FLOP/s (BF16, else FP16 on pre-Ampere cards)."""
        return (self.peak_tflops_bf16 or self.peak_tflops_fp16 or 0.0) * 1e12

    @property
    def memory_bytes(self) -> float:
        return self.memory_gib * GIB

    @property
    def unified_memory(self) -> bool:
        """Apple silicon: CPU and GPU share one memory; the GPU may use a working-set share of it."""
        return self.gpu_memory_fraction is not None

    @property
    def unified_share_why(self) -> str:
        """The ledger key (:class:`estimator.reasons.Why`) naming where a unified-memory device's GPU share
        (:attr:`gpu_memory_fraction`) comes from, by vendor: Apple's Metal ``recommendedMaxWorkingSetSize``
        ('unified_memory'), AMD Variable Graphics Memory on Strix Halo (up to 75 % of system memory:
        'unified_memory_amd'), CUDA allocating from shared memory with no fixed GPU cap on NVIDIA's DGX Spark
        and Jetson ('unified_memory_nvidia'). s48 (review N5): all were worded as Metal's before."""
        return _UNIFIED_SHARE_WHY.get(self.vendor, "unified_memory")

    @property
    def has_bf16(self) -> bool:
        """BF16 arithmetic: a catalog bf16 peak (Ampere and later, CDNA, Ascend 910B …), or unified memory
        (Apple: Metal runs bf16, and local formats are not 16-bit anyway). Volta/Turing/Pascal and the
        first Ascend 910 have none: vLLM refuses bf16 below compute capability 8.0 and runs a bf16
        checkpoint in fp16 under ``--dtype auto`` (vllm/platforms/cuda.py; vllm/config.py
        ``_get_and_verify_dtype``)."""
        return self.peak_tflops_bf16 is not None or self.unified_memory or self.generic

    @property
    def has_fp8(self) -> bool:
        """FP8 tensor cores (Hopper, Ada, Blackwell, MI300X …)."""
        return self.peak_tflops_fp8 is not None

    @cached_property
    def addressable_bytes(self) -> float:
        """Bytes the GPU may allocate: all of a discrete card — what CUDA exposes with ECC on
        (:attr:`ecc_visible_mib`, nvidia-smi's memory.total: L40S 46,068 MiB of 48 GiB) for the GDDR
        datacenter cards that ship with ECC enabled — and the working-set share of unified memory.
        Source: the nvidia-smi totals quoted in estimator/data/gpus.toml beside each value."""
        if not self.gpu_memory_fraction:  # visible_gib × GIB, visible_gib in place (read by every search)
            mib = self.ecc_visible_mib
            return (mib / 1024 if mib is not None else self.memory_gib) * GIB
        return self.memory_gib * GIB * self.gpu_memory_fraction  # memory_bytes × the share

    @property
    def visible_gib(self) -> float:
        """GiB the driver shows a process (nvidia-smi memory.total): :attr:`ecc_visible_mib` ÷ 1,024 for
        the cards that ship with ECC on (L40S 46,068 MiB → 44.99 GiB), else the datasheet's
        :attr:`memory_gib`. Source: the nvidia-smi totals quoted in estimator/data/gpus.toml."""
        return self.ecc_visible_mib / 1024 if self.ecc_visible_mib is not None else self.memory_gib


_UNIFIED_SHARE_WHY = {"AMD": "unified_memory_amd", "NVIDIA": "unified_memory_nvidia"}
"""Vendor → the ledger key of its unified-memory share (:attr:`GpuSpec.unified_share_why`)."""
