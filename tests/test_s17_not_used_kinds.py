"""Trial s17 #4: wrong reasons in 'Not used'. (a) The count of the rig the user runs ('we serve this on 4x
L40S, 50 users now and 200 at peak … how many GPUs?') was named 'another setup': the 'now' of today's load
read as a switch to another job. It is the user's count: the reply sizes the peak on it. (b) The first of
two counts tried in a list ('tried 4 and then 8 A100 40GB') was named 'no word said what it is': it is the
range's other end, as 'both 4 and 8' is."""

from __future__ import annotations

import pytest

from bot.parse import parse

COMMAND = (
    "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --max-model-len 16384 "
    "--gpu-memory-utilization 0.9 --quantization fp8"
)

OWN_RIG = [
    ("We serve this on 4x L40S, about 50 concurrent users now and 200 at peak, 16k context. How many GPUs?"
     f"\n{COMMAND}", 4, 200),
    ("We serve this on 4x L40S, about 50 concurrent users now and 200 at peak, 16k context. How many GPUs?",
     4, 200),
    ("Our 2 A100 80GB serve Qwen2.5-32B to 30 users now, and 120 at peak. How many GPUs do we need?", 2, 120),
    ("We host Llama-3.1-8B on 3 L4s: 20 concurrent now but 90 at peak at 4k context. How many cards?", 3, 90),
]  # fmt: skip


@pytest.mark.parametrize(("question", "count", "peak"), OWN_RIG)
def test_the_count_of_the_rig_they_run_is_theirs(question, count, peak):
    p = parse(question)
    assert (p.request.gpu_count, p.request.concurrency) == (count, peak)
    assert all(why != "other_setup" for _, why in p.unused_numbers)


def test_a_switch_after_now_still_names_the_earlier_count():
    p = parse("We used 2 A100s for the 8B; now we need 70B — how many A100s?")
    assert ("2", "other_setup") in p.unused_numbers and p.request.gpu_count is None


TRIED = [
    "Full fine-tuning Llama-3-8B: tried 4 and then 8 A100 40GB with DDP, both OOM. What do I need?",
    "We tried 4, then 8 A100 40GB with DDP to full fine-tune Llama-3-8B, both OOM. How many do we need?",
    "Full fine-tuning Qwen2.5-7B: tried both 4 and 8 A100 40GB, both OOM.",
]


@pytest.mark.parametrize("question", TRIED)
def test_a_tried_count_in_a_list_is_read(question):
    p = parse(question)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (4, 8)
    assert not [t for t, _ in p.unused_numbers if t == "4"]
