"""The bundled sudoku-server client (standard library only); see sudoku_client."""
