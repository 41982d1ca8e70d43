"""Types of the C extension ``_fish.c`` (every fish of one digit, for ``HINT all``'s Franken and mutant fish)."""

def search(
    pos_lo: int,
    pos_hi: int,
    placed_lo: int,
    placed_hi: int,
    base_units: int,
    cover_units: int,
    k: int,
    max_fins: int,
    max_endo: int,
    kinds: int,
) -> list[tuple[int, int, int, int, int, int, int, int, int, int]]: ...
