"""The network layer (trio): the only layer besides :mod:`sudoku_server.app` that touches sockets."""
