"""Everything that can be wrong with bytes from the wire, one exception type per kind of fault.

All are ``FrameError`` (a ``ValueError``) so a caller can be as broad or as precise as it needs.
The stream decoder reports them instead of raising, so one bad frame never stops the stream.
"""

from __future__ import annotations


class FrameError(ValueError):
    """A frame (or its body) could not be turned into a message."""


class CobsError(FrameError):
    """The bytes between two 0x00 delimiters are not valid COBS."""


class TruncatedFrame(FrameError):
    """The frame is shorter than a header plus CRC, or its body is shorter than its type needs."""


class OversizeFrame(FrameError):
    """More bytes arrived without a 0x00 delimiter than any legal frame can hold."""


class BadCrc(FrameError):
    """The CRC-16/CCITT-FALSE at the end of the frame does not match its contents."""


class UnsupportedVersion(FrameError):
    """The header names a protocol version this side does not speak."""


class UnknownMessageType(FrameError):
    """The header's type byte names no message of this protocol version."""


class MalformedBody(FrameError):
    """The body has the right type but impossible contents (bad length, bad JSON, out-of-range field)."""


class DeviceUnavailable(ConnectionError):
    """There is no session with the device right now (cable out, reconnecting, or closed)."""
