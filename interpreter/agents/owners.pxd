# The compiled build's layout of owners.py's Owners (native.py): attributes read as C fields.
from interpreter.agents.refill cimport add

cdef class Owners:
    cdef public tuple flat
    cdef public object state
    cdef public dict names, of, held, recs, counters

# The record functions, called by Owners.fields as C functions (a note or two a step each: a
# Python call costs as much as the work); callable from Python alike.
cpdef bint move_counter(tuple rec)
cpdef bint move_entry(tuple rec, object box, object key)
cpdef bint shift_pile(tuple rec, object key)
