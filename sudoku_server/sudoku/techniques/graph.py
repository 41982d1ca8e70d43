"""The implication graph of chains (Sudoku Explainer's ``Chaining.java``, static level) and its searches.

A node is a candidate id k = digit * N + cell (digit 0-based, N cells), "on"
(the candidate is the cell's digit) or "off". Sets of nodes are ints over
candidate ids. The implications of the current grid:

- on(k) -> off: the same digit in the cell's peers (X and Y), the other
  candidates of the cell (Y only);
- off(k) -> on: the other place of the digit in a unit with two places (X,
  any unit of the geometry), the other candidate of a bivalue cell (Y).

Searches are breadth first, so each chain found is a shortest one; a
chain's rating grows with its length by SE's rule (:func:`length_bonus`).
"""

from __future__ import annotations

import functools
from typing import cast

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, bits_of

__all__ = [
    "Graph",
    "Layers",
    "Path",
    "bfs_layers",
    "eureka",
    "graph_of",
    "layers_from",
    "length_bonus",
    "meet",
    "meet_path",
    "path_to",
    "single_digit_text",
]

#: An implication path: (candidate id, on) nodes from its source.
Path = list[tuple[int, bool]]
#: Breadth-first layers with their polarity: (is_on, set of candidate ids).
Layers = list[tuple[bool, int]]


def length_bonus(length: int) -> float:
    """SE's ChainingHint.getLengthDifficulty, ``length`` = nodes - 2.

    +0.1 each time ``length`` passes 4, 6, 8, 12, 16, 24, 32, ...
    (alternately x1.5, x4/3).
    """
    added = 0.0
    ceil = 4
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


class Graph:
    """The implication graph of one board state (lists indexed by candidate id).

    Attributes:
      N, n: cells and digits; allc: every candidate id present.
      onoff_x, onoff_xy: per id, the ids turned off when it is on (same digit
        in its peers; and, for xy, the cell's other candidates).
      offon_x, offon_y, offon_xy: per id, the ids turned on when it is off
        (the other place in a unit with two places; the other candidate of a
        bivalue cell; both).
      ids: candidate ids in SE's order (cell, then digit).

    The tables are made on their first use: with the native engine the
    searches read their own copy (:func:`native_links`), and the Python
    tables are only needed to write out the step found.
    """

    __slots__ = ("N", "_bivalue_ids", "_tables", "_x", "allc", "ids", "n")

    def __init__(self, x: Context) -> None:
        t, pos, cand = x.t, x.pos, x.cand
        n, N = t.n, t.N
        self.N, self.n = N, n
        self._x = x
        self._tables: tuple[list[int], list[int], list[int], list[int], list[int]] | None = None
        self._bivalue_ids: list[int] | None = None
        allc = 0
        for d in range(n):
            allc |= pos[d] << (d * N)
        self.allc = allc
        self.ids = [d * N + c for c in range(N) for d in _digits(cand[c])]

    @property
    def bivalue_ids(self) -> list[int]:
        """The ids of the candidates of the cells with two, in :attr:`ids`' order."""
        ids = self._bivalue_ids
        if ids is None:
            N, cand = self.N, self._x.cand
            ids = self._bivalue_ids = [
                d * N + c for c in range(N) if cand[c].bit_count() == 2 for d in _digits(cand[c])
            ]
        return ids

    def _build(self) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
        """(onoff_x, onoff_xy, offon_x, offon_y, offon_xy), made once."""
        tables = self._tables
        if tables is not None:
            return tables
        x = self._x
        t, pos, cand = x.t, x.pos, x.cand
        n, N = t.n, t.N
        NC = n * N
        allc = self.allc
        onoff_x = [0] * NC
        onoff_xy = [0] * NC
        offon_x = [0] * NC
        offon_y = [0] * NC
        peer_mask, cell_column, unit_mask = t.peer_mask, t.cell_column, t.unit_mask
        for c in range(N):
            m = cand[c]
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                k = d * N + c
                sp = (peer_mask[c] & pos[d]) << (d * N)
                onoff_x[k] = sp
                onoff_xy[k] = sp | (cell_column[c] & allc & ~(1 << k))
        for d in range(n):
            p = pos[d]
            if not p:
                continue
            sh = d * N
            for um in unit_mask:
                m = p & um
                if m and m.bit_count() == 2:
                    low = m & -m
                    a = low.bit_length() - 1
                    b = (m ^ low).bit_length() - 1
                    offon_x[sh + a] |= 1 << (sh + b)
                    offon_x[sh + b] |= 1 << (sh + a)
        for c in range(N):
            m = cand[c]
            if m and m.bit_count() == 2:
                low = m & -m
                a = low.bit_length() - 1
                b = (m ^ low).bit_length() - 1
                offon_y[a * N + c] = 1 << (b * N + c)
                offon_y[b * N + c] = 1 << (a * N + c)
        offon_xy = [a | b for a, b in zip(offon_x, offon_y)]
        tables = self._tables = (onoff_x, onoff_xy, offon_x, offon_y, offon_xy)
        return tables

    @property
    def onoff_x(self) -> list[int]:
        return self._build()[0]

    @property
    def onoff_xy(self) -> list[int]:
        return self._build()[1]

    @property
    def offon_x(self) -> list[int]:
        return self._build()[2]

    @property
    def offon_y(self) -> list[int]:
        return self._build()[3]

    @property
    def offon_xy(self) -> list[int]:
        return self._build()[4]

    def tables(self, name: str) -> tuple[list[int], list[int]]:
        """The (onoff, offon) pair of a mode: ``"x"``, ``"y"`` or ``"xy"`` (as :func:`native_links` names them)."""
        onoff_x, onoff_xy, offon_x, offon_y, offon_xy = self._build()
        if name == "x":
            return onoff_x, offon_x
        if name == "y":
            return onoff_xy, offon_y
        return onoff_xy, offon_xy


@functools.lru_cache(maxsize=4096)
def _digits(mask: int) -> tuple[int, ...]:
    """The 0-based digits of a candidate mask, lowest first (remembered per mask)."""
    return tuple(bits_of(mask))


def graph_of(x: Context) -> Graph:
    """The implication graph of the context's board state, built once per context (``x.shared``)."""
    g = x.shared.get("graph")
    if g is None:
        g = x.shared["graph"] = Graph(x)
    return cast(Graph, g)


def native_links(x: Context, name: str) -> object | None:
    """The native engine's copy of one table pair (``_engine.Links``), once per context; None without it.

    ``name`` is the pair: ``"x"`` (onoff_x, offon_x), ``"y"`` (onoff_xy,
    offon_y) or ``"xy"`` (onoff_xy, offon_xy) of :class:`Graph` (the native
    copy is built from the board by the same rules).
    """
    key = "links:" + name
    if key in x.shared:
        return x.shared[key]
    eng = native.engine(x.t.N, x.t.n)
    links = None
    if eng is not None:
        # the tables are built natively from the board by the rules of Graph (the mode names the pair)
        links = eng.links_of(name, x.cand, x.t.unit_mask, x.t.peer_mask)
    x.shared[key] = links
    return links


def _spread(front: int, table: list[int]) -> int:
    nxt = 0
    while front:
        low = front & -front
        nxt |= table[low.bit_length() - 1]
        front ^= low
    return nxt


def bfs_layers(
    src: int,
    start_on: bool,
    onoff: list[int],
    offon: list[int],
    limit: int = 1 << 30,
    stop_absurd: bool = False,
) -> tuple[Layers, int, int]:
    """The breadth-first implication search from src: (layers, nodes made on, nodes made off).

    With ``stop_absurd`` the search stops at the first layer that holds a
    node already reached with the other polarity (a contradiction).
    """
    bit = 1 << src
    layers = [(start_on, bit)]
    vis = [0, 0]  # off, on
    vis[1 if start_on else 0] = bit
    front = bit
    phase_on = start_on
    nodes = 1
    while front and nodes < limit:
        if phase_on:
            nxt = _spread(front, onoff) & ~vis[0]
            if stop_absurd and nxt & vis[1]:
                layers.append((False, nxt))
                vis[0] |= nxt
                break
            vis[0] |= nxt
        else:
            nxt = _spread(front, offon) & ~vis[1]
            if stop_absurd and nxt & vis[0]:
                layers.append((True, nxt))
                vis[1] |= nxt
                break
            vis[1] |= nxt
        nodes += 1
        if not nxt:
            break
        layers.append((not phase_on, nxt))
        front = nxt
        phase_on = not phase_on
    return layers, vis[1], vis[0]


def path_to(layers: Layers, target_on: bool, target: int, onoff: list[int], offon: list[int]) -> Path:
    """A shortest implication path from the layers' source to the target node; empty if it is not reached."""
    # find the target's layer
    idx = None
    for i, (is_on, s) in enumerate(layers):
        if is_on == target_on and s >> target & 1:
            idx = i
            break
    if idx is None:
        return []
    path = [(target, target_on)]
    cur = target
    for i in range(idx - 1, -1, -1):
        is_on, s = layers[i]
        table = onoff if is_on else offon
        m = s
        while m:
            low = m & -m
            k = low.bit_length() - 1
            m ^= low
            if table[k] >> cur & 1:
                path.append((k, is_on))
                cur = k
                break
    path.reverse()
    return path


def _node_text(k: int, N: int, n: int, sym: str) -> str:
    return f"({sym[k // N]}){cell_name(k % N, n)}"


def eureka(path: Path, N: int, n: int, sym: str) -> str:
    """A chain as alternating links: ``(7)r1c2=(7)r1c8-(3)r1c8=...``."""
    out = []
    for i, (k, on) in enumerate(path):
        if i:
            # off -> on is a strong link (=), on -> off a weak link (-)
            out.append("=" if on else "-")
        out.append(_node_text(k, N, n, sym))
    return "".join(out)


def single_digit_text(path: Path, N: int, n: int) -> str:
    """A chain on one digit as cells: ``r1c2=r1c8-r5c8``."""
    return "".join(("" if i == 0 else ("=" if on else "-")) + cell_name(k % N, n) for i, (k, on) in enumerate(path))


def layers_from(src: int, start_on: bool, onoff: list[int], offon: list[int], depth: int) -> list[int]:
    """Breadth-first layers (bitsets of new nodes) from one node, ``depth`` links deep.

    Layer i holds nodes of the start's polarity when i is even, the other when odd.
    """
    bit = 1 << src
    layers = [bit]
    vis_off = vis_on = 0
    if start_on:
        vis_on = bit
    else:
        vis_off = bit
    front = bit
    on = start_on
    for _ in range(depth):
        nxt = 0
        table = onoff if on else offon
        while front:
            low = front & -front
            nxt |= table[low.bit_length() - 1]
            front ^= low
        if on:
            nxt &= ~vis_off
            vis_off |= nxt
        else:
            nxt &= ~vis_on
            vis_on |= nxt
        if not nxt:
            break
        layers.append(nxt)
        front = nxt
        on = not on
    return layers


def meet(layers: list[int]) -> tuple[int, int, int, int] | None:
    """The fewest links from the layers' source to its negation: (links, a, b, node) or None.

    The graph is its own contrapositive (on(a) -> off(b) iff on(b) -> off(a),
    off(a) -> on(b) iff off(b) -> on(a)), so src implies v in a links and not-v
    in b links exactly when src implies not-src in a + b links; a shortest such
    chain meets itself halfway, so layers ``ceil(links / 2)`` deep suffice.
    """
    best = None
    for bb in range(1, len(layers)):
        for aa in range(1 - bb % 2, bb, 2):
            m = layers[aa] & layers[bb]
            if m:
                if best is None or aa + bb < best[0]:
                    best = (aa + bb, aa, bb, (m & -m).bit_length() - 1)
                break
    return best


def _negate_path(path: Path) -> Path:
    """The contrapositive of an implication path: reversed, every node negated."""
    return [(k, not on) for k, on in reversed(path)]


def meet_path(layers: list[int], start_on: bool, a: int, b: int, v: int, onoff: list[int], offon: list[int]) -> Path:
    """The chain src -> ... -> not-src through v (v at layer a, not-v at layer b)."""
    pairs = [(start_on if i % 2 == 0 else not start_on, s) for i, s in enumerate(layers)]
    v_on = start_on if a % 2 == 0 else not start_on
    p1 = path_to(pairs[: a + 1], v_on, v, onoff, offon)
    p2 = path_to(pairs[: b + 1], not v_on, v, onoff, offon)
    return p1 + _negate_path(p2)[1:]
