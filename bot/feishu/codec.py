"""The ``pbbp2.Frame`` protobuf codec of Feishu's long connection, without a protobuf dependency.

Schema (proto2), checked against the official SDK's generated descriptor
``lark_oapi/ws/pb/pbbp2_pb2.py`` in github.com/larksuite/oapi-sdk-python at commit
4ad9e129d02c02a1bcbb5acbb6635db299bfa69b (``serialized_pb`` decoded by hand)::

    message Header { required string key = 1; required string value = 2; }
    message Frame {
      required uint64 SeqID = 1;   required uint64 LogID = 2;
      required int32  service = 3; required int32  method = 4;
      repeated Header headers = 5;
      optional string payload_encoding = 6; optional string payload_type = 7;
      optional bytes  payload = 8;          optional string LogIDNew = 9;
    }

Encoding follows the protobuf wire format (developers.google.com/protocol-buffers/docs/encoding):
fields in field-number order, required fields always written, optional fields only when present
(``None`` here means absent), varints little-endian base-128, negative ``int32`` sign-extended to
10 bytes, strings and bytes length-delimited. The decoder accepts any field order, skips unknown
fields, and keeps the last value of a repeated scalar, as protobuf parsers do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

METHOD_CONTROL = 0  # FrameType.CONTROL in lark_oapi/ws/enum.py
METHOD_DATA = 1  # FrameType.DATA

_U64 = (1 << 64) - 1
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


class FrameDecodeError(ValueError):
    """The bytes are not a well-formed ``pbbp2.Frame``."""


@dataclass
class Frame:
    """One ``pbbp2.Frame``; ``headers`` is an ordered list of (key, value) pairs."""

    seq_id: int = 0
    log_id: int = 0
    service: int = 0
    method: int = 0
    headers: list[tuple[str, str]] = field(default_factory=list)
    payload_encoding: str | None = None
    payload_type: str | None = None
    payload: bytes | None = None
    log_id_new: str | None = None

    def header(self, key: str, default: str | None = None) -> str | None:
        """The first header named ``key`` (the SDK's ``_get_by_key``), or ``default``."""
        for k, v in self.headers:
            if k == key:
                return v
        return default


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _uint64(number: int, value: int) -> bytes:
    if not 0 <= value <= _U64:
        raise ValueError(f"field {number}: {value} is not a uint64")
    return _key(number, _VARINT) + _varint(value)


def _int32(number: int, value: int) -> bytes:
    if not -(1 << 31) <= value < 1 << 31:
        raise ValueError(f"field {number}: {value} is not an int32")
    return _key(number, _VARINT) + _varint(value & _U64)  # negative: 10-byte two's complement


def _bytes(number: int, value: bytes) -> bytes:
    return _key(number, _LEN) + _varint(len(value)) + value


def _string(number: int, value: str) -> bytes:
    return _bytes(number, value.encode("utf-8"))


def encode_frame(frame: Frame) -> bytes:
    """Serialise ``frame`` exactly as protobuf's ``Frame.SerializeToString()`` does."""
    parts = [
        _uint64(1, frame.seq_id),
        _uint64(2, frame.log_id),
        _int32(3, frame.service),
        _int32(4, frame.method),
    ]
    for key, value in frame.headers:
        parts.append(_bytes(5, _string(1, key) + _string(2, value)))
    if frame.payload_encoding is not None:
        parts.append(_string(6, frame.payload_encoding))
    if frame.payload_type is not None:
        parts.append(_string(7, frame.payload_type))
    if frame.payload is not None:
        parts.append(_bytes(8, bytes(frame.payload)))
    if frame.log_id_new is not None:
        parts.append(_string(9, frame.log_id_new))
    return b"".join(parts)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise FrameDecodeError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result & _U64, pos
        shift += 7
        if shift >= 70:
            raise FrameDecodeError("varint too long")


def _fields(data: bytes):
    """Yield (field number, wire type, value) for each field; LEN values are bytes."""
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise FrameDecodeError("field number 0")
        if wire == _VARINT:
            value, pos = _read_varint(data, pos)
        elif wire == _LEN:
            size, pos = _read_varint(data, pos)
            if pos + size > len(data):
                raise FrameDecodeError("truncated length-delimited field")
            value, pos = data[pos : pos + size], pos + size
        elif wire in (_I64, _I32):
            size = 8 if wire == _I64 else 4
            if pos + size > len(data):
                raise FrameDecodeError("truncated fixed-width field")
            value, pos = int.from_bytes(data[pos : pos + size], "little"), pos + size
        else:
            raise FrameDecodeError(f"unsupported wire type {wire}")
        yield number, wire, value


def _as_int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def _text(value: bytes) -> str:
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FrameDecodeError("string field is not UTF-8") from exc


def _decode_header(data: bytes) -> tuple[str, str]:
    key = value = ""
    for number, wire, raw in _fields(data):
        if number == 1 and wire == _LEN:
            key = _text(raw)
        elif number == 2 and wire == _LEN:
            value = _text(raw)
    return key, value


_SCALARS = {1: "seq_id", 2: "log_id"}
_INT32S = {3: "service", 4: "method"}
_STRINGS = {6: "payload_encoding", 7: "payload_type", 9: "log_id_new"}


def decode_frame(data: bytes) -> Frame:
    """Parse a serialised ``pbbp2.Frame``; raises :class:`FrameDecodeError` on malformed input."""
    frame = Frame()
    for number, wire, value in _fields(bytes(data)):
        if wire == _VARINT and number in _SCALARS:
            setattr(frame, _SCALARS[number], value)
        elif wire == _VARINT and number in _INT32S:
            setattr(frame, _INT32S[number], _as_int32(value))
        elif wire == _LEN and number == 5:
            frame.headers.append(_decode_header(value))
        elif wire == _LEN and number in _STRINGS:
            setattr(frame, _STRINGS[number], _text(value))
        elif wire == _LEN and number == 8:
            frame.payload = bytes(value)
    return frame
