# The compiled build's layout of refill.py's Snapshot (native.py): attributes read as C fields.
cdef class Snapshot:
    cdef public object obj, positions
    cdef public tuple keys
    cdef public dict at, copy_of, mirror, kind_of
    cdef public list vals, copies, kinds
