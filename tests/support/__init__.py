"""What the tests share: servers, clients, puzzles and their answers, the session fed bytes.

Test modules import from here (``from tests.support.servers import running_server``), never from one
another; fixtures are in the ``conftest.py`` of the tier folder that uses them (or ``tests/conftest.py``).
"""
