"""toy 1.0: the "real library" of the toy framework.

A framework small enough to read whole, written the way an array library
writes its promotion, so that its golden data comes from running it and
not from dtype-lattice. Three dtypes in a chain (bool < int32 < float32);
no Python scalars; five operations.
"""

__version__ = "1.0"

DTYPES = ["bool", "int32", "float32"]


def dtype(name):
    if name not in DTYPES:
        raise TypeError(f"toy has no dtype {name!r}")
    return name


def promote_types(a, b):
    a, b = dtype(a), dtype(b)
    return max(a, b, key=DTYPES.index)


def result_type(*operands):
    if not operands:
        raise ValueError("toy.result_type() needs at least one dtype")
    for x in operands:
        if not isinstance(x, str):
            raise TypeError(f"toy takes dtypes, not {type(x).__name__}")
    result = dtype(operands[0])
    for x in operands[1:]:
        result = promote_types(result, x)
    return result


def add(a, b):
    return result_type(a, b)


def multiply(a, b):
    return result_type(a, b)


def maximum(a, b):
    return result_type(a, b)


def equal(a, b):
    result_type(a, b)
    return "bool"


def less(a, b):
    result_type(a, b)
    return "bool"
