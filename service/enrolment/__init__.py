"""Enrolling a set of discs: which NFC tag UID is stuck under which piece (docs/setup.md).

``core`` is the pure part (what one scan of the reader grid means for the enrolment), ``reader`` takes
scans from the mat over the wire protocol, ``cli`` is ``smartmat enrol``. The per-set files are read and
written by ``service.table.disc_sets``, which the table file reads too.
"""
