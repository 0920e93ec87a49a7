"""Hypothesis strategies for every protocol v1 message."""

from __future__ import annotations

from hypothesis import strategies as st

from firmware_bridge.messages import (
    Ack,
    Button,
    Capabilities,
    Heartbeat,
    Hello,
    HelloAck,
    Impact,
    ReaderGrid,
    Resend,
    ScanDone,
    ScanRequest,
    SensorPosition,
    TagSeen,
)

u8 = st.integers(0, 0xFF)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFF_FFFF)
u64 = st.integers(0, 0xFFFF_FFFF_FFFF_FFFF)
mm = st.floats(-10_000, 10_000, allow_nan=False, allow_infinity=False)
positive_mm = st.floats(0.5, 10_000, allow_nan=False, allow_infinity=False)

capabilities = st.builds(
    Capabilities,
    firmware_version=st.text(max_size=20),
    boot_id=u32,
    grid=st.builds(
        ReaderGrid,
        cols=st.integers(1, 64),
        rows=st.integers(1, 64),
        pitch_mm=positive_mm,
        origin_mm=st.tuples(mm, mm),
    ),
    sensors=st.lists(st.builds(SensorPosition, id=u8, x_mm=mm, y_mm=mm), max_size=8).map(tuple),
    mat_width_mm=positive_mm,
    mat_height_mm=positive_mm,
    button_ids=st.lists(u8, max_size=6).map(tuple),
    piezo_threshold=st.none() | positive_mm,
)

tag_seen = st.builds(
    TagSeen, scan_id=u32, col=u8, row=u8, uid=st.binary(min_size=4, max_size=10), rssi=st.integers(-128, 127)
)
device_events = st.one_of(
    tag_seen,
    st.builds(ScanDone, scan_id=u32, t_us=u64, cells_read=u16),
    st.builds(Impact, sensor_id=u8, t_us=u64, amplitude=u16),
    st.builds(Button, button_id=u8, pressed=st.booleans(), t_us=u64),
)
any_message = st.one_of(
    st.builds(Hello, capabilities=capabilities),
    st.builds(Heartbeat, t_us=u64),
    device_events,
    st.builds(Ack, seq=u16),
    st.builds(Resend, from_seq=u16),
    st.builds(HelloAck, boot_id=u32),
    st.just(ScanRequest()),
)
