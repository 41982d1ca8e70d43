"""The process: configuration from the command line, runtime, signals, logging, workers."""
