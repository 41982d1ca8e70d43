"""Text <-> grid for every layout (bordered, plain, one-line, sizes 4 to 25).

Pure: imports only :mod:`sudoku_server.sudoku` and :mod:`sudoku_server.errors`.
"""
