# The compiled build's layout of walk.py's classes (native.py): attributes read as C fields.
from interpreter.agents.refill cimport add

cdef class Node:
    cdef public object path, num, count
    cdef public dict index, text, kids, kinds, ids, items

cdef class Block:
    cdef public object vec, zeros, num_at
    cdef public dict slices, index, nodes
    cdef public str prefix
