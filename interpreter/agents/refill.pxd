# The compiled build's layout of refill.py's Snapshot (native.py): attributes read as C fields.
from cpython.array cimport array

cdef class Snapshot:
    cdef public object obj, positions
    cdef public tuple keys
    cdef public dict at, copy_of, mirror, kind_of
    cdef public list vals, copies, kinds

# a feature moved by a change, as a C function of typed arguments (refill.py's `add`)
cpdef int add(array vec, Py_ssize_t at, double d) except -1
