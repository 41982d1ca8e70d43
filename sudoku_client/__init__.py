"""The bundled sudoku-server client (standard library only; tqdm optional).

``sudoku-client`` (installed) and ``python3 -m sudoku_client`` run
:func:`sudoku_client.cli.main`; so does ``python3 sudoku_client/client.py``.
The folder is the whole client: copied to any machine with Python 3.8+, it
runs there as ``python3 -m sudoku_client`` from the directory holding it.

Modules, each importing only those before it (and the standard library):

* ``common``: program name, version, exit codes, defaults, messages to stderr;
* ``replies``: :class:`~sudoku_client.replies.ReplyScanner` (framing and
  classifying the replies), the ``--count``/``--rate`` modes, the summary line;
* ``requests``: the reader protocol, :class:`~sudoku_client.requests.LineSplitter`
  and the standard-library :class:`~sudoku_client.requests.HeuristicReader`;
* ``routing``: the only module that imports ``sudoku_server`` (lazily, when it
  is there): the server's own reader, :func:`~sudoku_client.routing.make_reader`;
* ``stream``: :class:`~sudoku_client.stream.RequestStream` (the input as
  requests, a verb put before each puzzle) and ``count_requests``;
* ``progress``: the progress bar (tqdm's or a plain line) and the counting thread;
* ``exchange``: the socket: sender thread, output, ``INTERACTIVE`` handshake,
  ``--ping`` and its PROXY v1 header;
* ``interactive``: a terminal on standard input;
* ``canon``: ``--canon`` and ``--dedupe`` (``CANON`` for each line of a file, pipelined);
* ``cli``: argparse, ``--generate``'s lines, :func:`~sudoku_client.cli.main`;
* ``client``: the former single module, re-exporting the names its users import.
"""
