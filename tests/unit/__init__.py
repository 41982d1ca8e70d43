"""The unit tier (CONTRIBUTING.md "The tests, in tiers")."""
