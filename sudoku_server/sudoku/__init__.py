"""The domain: geometry, grids, solving, human techniques, rating, generation.

Pure and synchronous: no sockets, no trio, no text layouts. Imports only
:mod:`sudoku_server.errors`.
"""
