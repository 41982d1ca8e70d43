"""The line protocol, sans-I/O: bytes -> requests, results -> bytes.

Never imports trio or touches sockets; uses the service, text and domain layers.
"""
