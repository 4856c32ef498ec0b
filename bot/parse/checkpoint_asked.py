"""A question about a training run's checkpoints (s45 trial #1): 'how big are the checkpoints for a 70B full
fine-tune', 'how big is a Llama 3 8B checkpoint with optimizer states?', '70b的模型checkpoint多大？',
'全量训练的话存储要准备多少T', '检查点占多少空间'.

Before, the reply led with a GPU count on an assumed card (or, with no training word, a serving sizing) and
the sizes were one line among the details. The cue ``checkpoint_asked`` makes the reply's first line the
checkpoint's sizes: weights alone (2 bytes a trained parameter, bf16) and the full training state (16 with
mixed-precision AdamW: Rajbhandari et al. 2020 §3), :class:`estimator.report.CheckpointBytes`.

Gradient (activation) checkpointing is recompute, not a checkpoint file: '梯度检查点', 'gradient
checkpointing', 'activation checkpoint' are never this cue.
"""

from __future__ import annotations

from bot.parse.regex import rc

_CKPT = (
    r"(?<!gradient )(?<!gradient-)(?<!gradient_)(?<!activation )(?<!activations )(?:checkpoints?|ckpts?)\b"
)
_CKPT_ZH = r"(?<!梯度)(?<!激活)(?<!激活值)(?:检查点|权重文件|checkpoints?|ckpts?)"
ASKS_CHECKPOINT_RE = rc(
    rf"how\s+(?:big|large)\s+(?:(?:is|are|will|would)\s+)?[^.?!]{{0,40}}?{_CKPT}"
    rf"|{_CKPT}[^.?!]{{0,40}}?\b(?:how\s+(?:big|large)|sizes?\b|how\s+much\s+(?:disk|storage|space))"
    rf"|\bsizes?\s+of\s+(?:the\s+|a\s+|each\s+)?[^.?!]{{0,30}}?{_CKPT}"
    rf"|{_CKPT_ZH}[^。？?！!]{{0,12}}?(?:多大|多少\s*(?:g|t|gb|tb|空间|存储)|大小|占多少)"
)
"""A checkpoint's size asked, on the normalized (lower-case) text: 'how big are the checkpoints', 'the
checkpoint … how large', 'size of each checkpoint', 'checkpoint多大', '检查点占多少空间'; not 'gradient
checkpointing' (the ``\\b`` after 'checkpoint'), not '梯度检查点'."""
ASKS_STORAGE_RE = rc(
    r"(?:存储|硬盘|磁盘|盘)\s*(?:空间)?\s*(?:要|需要|得)?\s*(?:准备|预留|留|配)?\s*多少"
    r"|how\s+much\s+(?:disk|storage)(?:\s+space)?\b|\bstorage\s+(?:do|should|will|would)\s+(?:we|i|you)\b"
)
"""Storage for a training run asked ('存储要准备多少T', 'how much storage should we provision'): on a
training question, its checkpoints."""


def asks_checkpoint(s: str, training: bool) -> bool:
    """Whether the normalized message ``s`` asks a checkpoint's size, or (``training``: a training stage
    said) the storage a run needs. Callers test for 'checkpoint', 'ckpt', '检查点', '权重文件', 'storage',
    'disk', '存储', '盘' first."""
    return ASKS_CHECKPOINT_RE.search(s) is not None or (training and ASKS_STORAGE_RE.search(s) is not None)


_NAMES_RE = rc(rf"{_CKPT}|{_CKPT_ZH}")


def names_checkpoint(s: str) -> bool:
    """Whether ``s`` names a checkpoint (not gradient checkpointing): a stage-less question then asks a
    training run's checkpoint."""
    return _NAMES_RE.search(s) is not None
