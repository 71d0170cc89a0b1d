# cython: language_level=3
"""A block of machine state: `size` bytes in one C allocation, copied by one memcpy.

Generic (the size comes from a game's layout, compiler/backends/machine/layout.py); it holds no
rules. It exists to measure what a copy of the machine part costs from Python (block.py)."""

from libc.stdlib cimport free, malloc
from libc.string cimport memcpy


cdef class Block:
    cdef char* data
    cdef readonly Py_ssize_t size

    def __cinit__(self, Py_ssize_t size):
        self.data = <char*>malloc(size if size > 0 else 1)
        if self.data == NULL:
            raise MemoryError()
        self.size = size

    def __dealloc__(self):
        free(self.data)

    @staticmethod
    def of(bytes packed):
        """A block holding these bytes (a layout's pack)."""
        cdef Block block = Block(len(packed))
        memcpy(block.data, <const char*>packed, block.size)
        return block

    def copy(self):
        """An independent block: a new object and one memcpy, as a search's copy would be."""
        cdef Block other = Block.__new__(Block, self.size)
        memcpy(other.data, self.data, self.size)
        return other

    def copy_into(self, Block other):
        """This block's bytes into `other` (of the same size): the memcpy alone, no allocation."""
        if other.size != self.size:
            raise ValueError("blocks of different sizes")
        memcpy(other.data, self.data, self.size)

    def to_bytes(self):
        return self.data[:self.size]
