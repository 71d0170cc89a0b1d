# The state's fields, typed, for the native build (compiler/backends/native.py): compiled with these
# declarations `State` is an extension type, and a generated module's native build, which
# declares its functions' `state` parameter as this type (compiler/backends/native_types.py), reads the
# fields as struct members rather than by attribute look-up. Pure Python ignores this file.
# Exactly State.__slots__, each once (tests/test_native_types.py).
cdef class State:
    cdef public list tracks, vars, counters, zones, location, revealed, shown, effects, dice
    cdef public list frames, log, log_at, log_marks, stamps, knowledge, sight
    cdef public dict params, memo
    cdef public object rng, dice_strict, pending, result, decisions, trace, rounds, nesting, rolled, blanked
