"""The bundled sudoku-server client (standard library only); see sudoku_client.

In a checkout this folder is ``client/`` (``python3 client/sudoku_client.py``);
``pip install`` installs it as the package ``sudoku_client`` (the
``sudoku-client`` command is ``sudoku_client.sudoku_client:main``).
"""
