"""Arrays of a score file read without trusting it: headers before data, no pickles."""

from __future__ import annotations

import zipfile

import numpy as np


class CacheProblem(ValueError):
    """Why a member of the score file is not read (said in the one-line notice)."""


def read_member(npz: zipfile.ZipFile, name: str, file_size: int) -> np.ndarray:
    """The array ``name`` of the file, read only after its header shows it plain numbers
    no larger than the file itself: a forged header declaring 10^11 values must not make
    numpy allocate them, and an object array (a pickle) is never loaded."""
    member = f"{name}.npy"
    try:
        info = npz.getinfo(member)
    except KeyError:
        raise CacheProblem(f"no array {name!r}") from None
    if info.file_size > file_size:
        raise CacheProblem(f"array {name!r} claims more bytes than the file has")
    with npz.open(info) as fh:
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_1_0(fh)
        elif version == (2, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_2_0(fh)
        else:
            raise CacheProblem(f"array {name!r} has an unknown format version")
        if dtype.hasobject:
            raise CacheProblem(f"array {name!r} holds Python objects, which are never loaded")
        count = 1
        for n in shape:
            count *= int(n)
        if count * dtype.itemsize > info.file_size:
            raise CacheProblem(f"array {name!r} declares {count} values, more than the file holds")
    with npz.open(info) as fh:
        return np.lib.format.read_array(fh, allow_pickle=False)
