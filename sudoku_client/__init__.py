"""The bundled sudoku-server client (standard library only).

``sudoku-client`` (installed) and ``python3 -m sudoku_client`` run
:func:`sudoku_client.client.main`; in a checkout without any install,
``python3 sudoku_client/client.py`` runs the same file on its own.
"""
