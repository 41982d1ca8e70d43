"""The test suite, in tiers (CONTRIBUTING.md "The tests, in tiers"); shared helpers in ``tests.support``."""
