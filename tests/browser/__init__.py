"""The browser tier (CONTRIBUTING.md "The tests, in tiers")."""
