# The compiled build's layout of encoder.py's Encoder (native.py): attributes read as C fields.
from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.string cimport memcpy

from interpreter.agents.owners cimport Owners
from interpreter.agents.refill cimport Snapshot, add
from interpreter.agents.walk cimport Block

cdef class Encoder:
    cdef dict __dict__  # (a test may wrap a method of one encoder)
    cdef public object layout, rules, round_at, gone, hidden_global, hidden_player, local
    cdef public Py_ssize_t players, size
    cdef public dict head_index, heads
    cdef public list to_move_at, own, other, parts, p_snap
    cdef public Block glob
    cdef public Snapshot g_snap
    cdef public Owners noted


cdef inline object _c_joined(list parts, object out):
    """The bytes of ``parts`` (objects with a buffer) copied one after the other into the
    buffer of ``out``, which they must fill exactly (else a ValueError); returns ``out``."""
    cdef Py_buffer dest, part
    cdef Py_ssize_t at = 0
    PyObject_GetBuffer(out, &dest, PyBUF_SIMPLE | PyBUF_WRITABLE)
    try:
        for block in parts:
            PyObject_GetBuffer(block, &part, PyBUF_SIMPLE)
            try:
                if at + part.len > dest.len:
                    raise ValueError("the blocks are longer than the vector")
                memcpy(<char*>dest.buf + at, part.buf, part.len)
                at += part.len
            finally:
                PyBuffer_Release(&part)
        if at != dest.len:
            raise ValueError("the blocks are shorter than the vector")
    finally:
        PyBuffer_Release(&dest)
    return out
