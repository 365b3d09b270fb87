# The compiled build's layout of owners.py's Owners (native.py): attributes read as C fields.
cdef class Owners:
    cdef public tuple flat
    cdef public object state
    cdef public dict names, of, held, recs, counters
