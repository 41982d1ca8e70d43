"""What a request means: a typed request in, a typed result out (no bytes).

Pure: imports only the domain (:mod:`sudoku_server.sudoku`) and
:mod:`sudoku_server.errors`; never text, wire, net, app or trio.
:mod:`.requests` holds one typed request per verb, :mod:`.results` the typed
results, and :mod:`.answer` the one dispatch table.
"""
