"""The native back end's state as machine data (issue 41, stage 1): the layout a game's state
takes as a C struct, computed from the checked spec; its C header; the exact conversion from
and to the runtime's State; a block type whose copy is one memcpy (README.md)."""
