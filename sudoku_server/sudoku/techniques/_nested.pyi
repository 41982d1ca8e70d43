"""Types of the C extension ``_nested.c`` (the static forcing searches of nested forcing chains)."""

from collections.abc import Sequence

def geometry(
    n: int,
    N: int,
    units: Sequence[Sequence[int]],
    cell_units: Sequence[Sequence[int]],
    peers: Sequence[Sequence[int]],
    se_order: Sequence[int],
    inter: Sequence[int],
    rows: Sequence[int],
    columns: Sequence[int],
) -> bytes: ...
def multiple(
    geo: bytes, cand: Sequence[int], src_cand: Sequence[int]
) -> list[tuple[int, int, int, list[int], list[int], int, int]]: ...
def chains(
    geo: bytes, cand: Sequence[int], src_cand: Sequence[int]
) -> list[tuple[int, int, int, list[int], list[int], int, int]]: ...
def rules1(geo: bytes, cand: Sequence[int], src_cand: Sequence[int]) -> list[tuple[list[int], list[int], None]]: ...
