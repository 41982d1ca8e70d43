"""The slow tier (CONTRIBUTING.md "The tests, in tiers")."""
