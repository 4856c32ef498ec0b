"""bot.feishu.codec: pbbp2.Frame wire format, checked against encodings computed by hand from the
.proto schema (lark_oapi/ws/pb/pbbp2_pb2.py @ 4ad9e129) -- no protobuf package needed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.feishu.codec import Frame, FrameDecodeError, decode_frame, encode_frame

# The SDK's _new_ping_frame(service_id=1): SeqID=0, LogID=0, service=1, method=0, headers [type=ping].
#   08 00 | 10 00 | 18 01 | 20 00 | 2a 0c (0a 04 "type" 12 04 "ping")
PING = bytes.fromhex("08001000180120002a0c0a04747970651204") + b"ping"

# A data frame: SeqID=300 (varint ac 02), LogID=2**64-1 (ff*9 01), service=7, method=1,
# headers [sum=1], payload_type "json" (3a 04), payload b"{}" (42 02), LogIDNew "x" (4a 01).
DATA = (
    bytes.fromhex("08ac02")
    + bytes.fromhex("10ffffffffffffffffff01")
    + bytes.fromhex("1807")
    + bytes.fromhex("2001")
    + bytes.fromhex("2a080a0373756d120131")
    + bytes.fromhex("3a04")
    + b"json"
    + bytes.fromhex("42027b7d")
    + bytes.fromhex("4a0178")
)

# service=-1 as int32: sign-extended to 10 bytes (ff ff ff ff ff ff ff ff ff 01); payload_encoding
# "" present (32 00); an empty payload present (42 00).
NEGATIVE = bytes.fromhex("0800100018ffffffffffffffffff0120003200" + "4200")


def test_ping_frame_bytes() -> None:
    frame = Frame(service=1, method=0, headers=[("type", "ping")])
    assert encode_frame(frame) == PING
    assert decode_frame(PING) == frame


def test_data_frame_bytes() -> None:
    frame = Frame(
        seq_id=300,
        log_id=2**64 - 1,
        service=7,
        method=1,
        headers=[("sum", "1")],
        payload_type="json",
        payload=b"{}",
        log_id_new="x",
    )
    assert encode_frame(frame) == DATA
    assert decode_frame(DATA) == frame
    assert decode_frame(DATA).header("sum") == "1"
    assert decode_frame(DATA).header("seq") is None


def test_negative_int32_and_present_empty_fields() -> None:
    frame = Frame(service=-1, payload_encoding="", payload=b"")
    assert encode_frame(frame) == NEGATIVE
    assert decode_frame(NEGATIVE) == frame


def test_decoder_accepts_any_order_and_skips_unknown_fields() -> None:
    # method=1 first, an unknown varint field 15 (78 05), an unknown fixed32 field 14 (75 + 4 bytes),
    # then SeqID=5; the missing fields keep their defaults.
    data = bytes.fromhex("2001" + "7805" + "7501020304" + "0805")
    assert decode_frame(data) == Frame(seq_id=5, method=1)


@pytest.mark.parametrize(
    "data",
    [b"\x08", b"\x2a\x05\x0a", b"\x08" + b"\xff" * 11, b"\x00\x01", b"\x0b", b"\x32\x01\xff"],
)
def test_malformed_input_raises_decode_error(data: bytes) -> None:
    with pytest.raises(FrameDecodeError):
        decode_frame(data)


def test_out_of_range_values_are_refused() -> None:
    with pytest.raises(ValueError):
        encode_frame(Frame(seq_id=-1))
    with pytest.raises(ValueError):
        encode_frame(Frame(service=2**31))


_text = st.text(max_size=40)
_opt_text = st.none() | _text
frames = st.builds(
    Frame,
    seq_id=st.integers(0, 2**64 - 1),
    log_id=st.integers(0, 2**64 - 1),
    service=st.integers(-(2**31), 2**31 - 1),
    method=st.integers(-(2**31), 2**31 - 1),
    headers=st.lists(st.tuples(_text, _text), max_size=6),
    payload_encoding=_opt_text,
    payload_type=_opt_text,
    payload=st.none() | st.binary(max_size=300),
    log_id_new=_opt_text,
)


@given(frames)
def test_round_trip(frame: Frame) -> None:
    data = encode_frame(frame)
    assert decode_frame(data) == frame
    assert encode_frame(decode_frame(data)) == data
