"""Shared helpers of the sample generators in samples/gen/ (Python 3 standard library only).

- `log4j`: time formats, the main-log layouts (file, console, vendor), the log4j2 audit and
  dn-container layouts, SLF4J substitution, audit messages, stack-trace frames.
- `bundle`: a bundle folder being rewritten (REPLAY kept), log records per host and stream,
  rotation and docker-compose output, gzip with mtime=0, line lookup for SOURCE.md.

A generator keeps its own story (the bug, its look-alikes, SOURCE.md prose); what two generators
would otherwise both write lives here.
"""
