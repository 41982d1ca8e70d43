"""What a request means: a typed request in, a typed result out (no bytes).

Pure: imports the domain and the text layer; never the wire, net or app layers.
"""
