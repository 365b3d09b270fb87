# The compiled build's layout of encoder.py's Encoder (native.py): attributes read as C fields.
from interpreter.agents.owners cimport Owners
from interpreter.agents.refill cimport Snapshot
from interpreter.agents.walk cimport Block

cdef class Encoder:
    cdef dict __dict__  # (a test may wrap a method of one encoder)
    cdef public object layout, rules, round_at, gone, hidden_global, hidden_player, local
    cdef public Py_ssize_t players
    cdef public dict head_index, heads
    cdef public list to_move_at, own, other, parts, p_snap
    cdef public Block glob
    cdef public Snapshot g_snap
    cdef public Owners noted
