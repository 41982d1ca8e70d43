"""The clients tier (CONTRIBUTING.md "The tests, in tiers")."""
