# The compiled build's C helpers for env.py (called there only when it runs compiled).
from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer


cdef inline object _c_mask(dict actions, object zeros):
    """env.mask_of: a copy of ``zeros`` (int8) with 1 written at each action, through the
    copy's buffer; an action outside it is an IndexError, as in plain Python."""
    cdef Py_buffer view
    cdef Py_ssize_t at
    mask = zeros.copy()
    PyObject_GetBuffer(mask, &view, PyBUF_SIMPLE | PyBUF_WRITABLE)
    try:
        for action in actions:
            at = action
            if at < 0 or at >= view.len:
                raise IndexError(f"action {action} outside the mask")
            (<char*>view.buf)[at] = 1
    finally:
        PyBuffer_Release(&view)
    return mask
